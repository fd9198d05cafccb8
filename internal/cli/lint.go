package cli

import (
	"fmt"
	"path/filepath"

	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/output"
	"github.com/aclint/aclint/internal/settings"
)

func newLintCmd(s *streams) *cobra.Command {
	var (
		outputs                       []string
		failOn, colorMode, configFile string
		system                        string
		verbose, fixMode, diffMode    bool
		unsafeFixes, hardLinks, quiet bool
		disable, enable               []string
	)
	var p *parts
	c := &cobra.Command{
		Use:   "lint -f FILE|DIR|- ...",
		Short: "Report everything in access configs that their system rejects or reads differently than written",
		Long:  lintHelp(s.reg),
		Example: `  aclint lint -f queues.yaml
  aclint lint --fail-on error -o json -f deploy/
  kubectl get configmap yunikorn-configs -o yaml | aclint lint -f -
  aclint lint -f acls.json
  aclint lint --system mesos -o sarif=mesos.sarif -f /etc/mesos/acls`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o := lintOptions{outputs: outputs, failOn: failOn, colorMode: colorMode, configFile: configFile,
				system: system, parts: lintParts(p), verbose: verbose, fix: fixMode, diff: diffMode, unsafe: unsafeFixes, hardLinks: hardLinks,
				quiet: quiet, disable: disable, enable: enable}
			if err := o.resolve(s, cmd, args); err != nil {
				return err
			}
			rep, linted, err := collectFindings(s, &o, args)
			if err != nil {
				return err
			}
			return writeLintOutput(s, &o, rep, linted)
		},
	}
	p = s.extend(c, "lint")
	f := c.Flags()
	f.StringArrayVarP(&outputs, "output", "o", nil, "output format, repeatable; FORMAT=PATH writes to a file: "+strings.Join(output.FormatNames(), ", ")+" (default text, or github when GITHUB_ACTIONS=true)")
	f.StringVar(&failOn, "fail-on", "warning", "exit 1 when a finding has this severity or higher: "+strings.Join([]string{"error", "warning", "info", "none"}, ", "))
	f.StringVar(&colorMode, "color", "auto", "colour text output: auto, always or never (auto honours NO_COLOR)")
	f.BoolVarP(&verbose, "verbose", "v", false, "say which files a directory search skips")
	f.BoolVar(&fixMode, "fix", false, "rewrite files in place with every safe fix (the system reads the file the same after it), then lint again and report what is left")
	f.BoolVar(&diffMode, "diff", false, "print the fixes --fix would make as a unified diff, and write nothing")
	f.BoolVar(&hardLinks, "fix-hardlinks", false, "with --fix, rewrite a file that has other hard links in place, so every name of it gets the fix (without it such a file is refused)")
	f.BoolVar(&unsafeFixes, "unsafe-fixes", false, "with --fix or --diff, also apply fixes that change who has access (e.g. turning users YAML read into the groups the author meant)")
	f.StringVar(&system, "system", systemAuto, "what the files are: "+systemAuto+" (by content), or one of "+strings.Join(s.reg.SystemNames(), ", "))
	f.StringVar(&configFile, "config", "", "settings file (default: the nearest "+settings.FileName+" from each linted file up to the repository root)")
	f.StringSliceVar(&disable, "disable", nil, "turn these rules off for this run (comma-separated or repeated); rules that find inputs the system refuses cannot be turned off")
	f.StringSliceVar(&enable, "enable", nil, "turn these rules on at their own severity for this run, whatever "+settings.FileName+" says (comma-separated or repeated)")
	f.BoolVarP(&quiet, "quiet", "q", false, "print nothing on standard output or the summary; the exit code and any -o FORMAT=PATH files still follow the findings")
	clikit.FilesFlag(c, "a file or directory to lint, or - for standard input (repeatable; the same as naming it as an argument)")
	return c
}

type lintOptions struct {
	outputs                    []string
	outputsFrom                string // the directory of the .aclint.yaml that gave outputs
	failOn, colorMode          string
	configFile, system         string
	parts                      []*clikit.LintPart // the systems' parts of the run
	verbose, fix, diff, unsafe bool
	hardLinks, quiet           bool
	disable, enable            []string

	files     *settingsFinder
	rules     map[string]string // --disable (off) and --enable (the rule's own severity), over .aclint.yaml
	threshold engine.Severity
	never     bool // --fail-on none
	targets   []outputTarget
	colored   bool
}

func (o *lintOptions) resolve(s *streams, cmd *cobra.Command, args []string) error {
	if len(args) == 0 && !o.named() {
		return clikit.Usage("lint needs at least one file, directory, or - for standard input%s", o.alone())
	}
	first := "."
	if len(args) > 0 {
		first = args[0]
	}
	files, err := newSettingsFinder(s.reg, s.seen, o.configFile, first)
	if err != nil {
		return err
	}
	o.files = files
	// flags given on the command line win over .aclint.yaml
	if run := files.run; run != nil {
		if !cmd.Flags().Changed("fail-on") && run.FailOn != "" {
			o.failOn = run.FailOn
		}
		// the ConfigMap key of a system that reads one
		if f := cmd.Flags().Lookup("key"); f != nil && !f.Changed && run.Key != "" {
			if err := f.Value.Set(run.Key); err != nil {
				return clikit.Usage("%s: key %q: %w", run.Path, run.Key, err)
			}
		}
		if !cmd.Flags().Changed("output") && len(run.Output) > 0 {
			o.outputs = run.Output
			o.outputsFrom = filepath.Dir(run.Path)
		}
	}
	if err := o.readFailOn(); err != nil {
		return err
	}
	if len(o.outputs) == 0 {
		o.outputs = []string{"text"}
		if os.Getenv("GITHUB_ACTIONS") == "true" {
			o.outputs = []string{"github"}
		}
	}
	if o.targets, err = parseOutputs(o.outputs); err != nil {
		return err
	}
	if o.outputsFrom != "" {
		// the repository's settings may write only inside the repository
		for i := range o.targets {
			if o.targets[i].path != "" {
				if !filepath.IsLocal(o.targets[i].path) {
					return clikit.Usage("%s: output %s=%s: the repository's settings may write only to a relative path inside %s (no .., no absolute path); give -o on the command line to write elsewhere",
						o.files.run.Path, o.targets[i].format, o.targets[i].path, o.outputsFrom)
				}
				o.targets[i].inside = o.outputsFrom
			}
		}
	}
	if o.rules, err = ruleOverrides(s.reg, o.disable, o.enable); err != nil {
		return err
	}
	if o.quiet {
		// -q: no standard output; files named with -o FORMAT=PATH are still written
		kept := o.targets[:0]
		for _, t := range o.targets {
			if t.path != "" && t.path != "/dev/stdout" {
				kept = append(kept, t)
			}
		}
		o.targets = kept
	}
	if o.colored, err = useColor(o.colorMode, s.out); err != nil {
		return err
	}
	if o.unsafe && !o.fix && !o.diff {
		return clikit.Usage("--unsafe-fixes goes with --fix or --diff")
	}
	if o.fix && o.diff {
		return clikit.Usage("--fix writes the fixes and --diff only shows them: choose one")
	}
	return nil
}

// lintHelp is lint's help, from the registry: what each system reads and
// what its errors mean.
func lintHelp(reg *engine.Registry) string {
	var b strings.Builder
	b.WriteString("Lint access configs, each recognised by its content (or named with --system):\n")
	for _, sys := range reg.Systems() {
		fmt.Fprintf(&b, "  %s: %s\n", sys.Name(), sys.Inputs())
	}
	fmt.Fprintf(&b, "Give files, directories (searched recursively for files ending in %s), or - for\nstandard input.\n\n", strings.Join(reg.Extensions(), ", "))
	b.WriteString("Severities: error = the system rejects the input (")
	for i, sys := range reg.Systems() {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s: %s", sys.Name(), sys.Refuses())
	}
	b.WriteString(");\nwarning = the system accepts it but it does something other than what it says;\ninfo = advice.\n\n")
	b.WriteString("Exit codes: 0 no finding reaches --fail-on, 1 one does, 2 usage or input error.")
	return b.String()
}

// readFailOn reads --fail-on: a severity, or none.
func (o *lintOptions) readFailOn() error {
	if o.failOn == "none" {
		o.never = true
		return nil
	}
	sev, err := engine.ParseSeverity(o.failOn)
	if err != nil {
		return clikit.Usage("invalid --fail-on %q: use error, warning, info or none", o.failOn)
	}
	o.threshold = sev
	return nil
}

// lintParts are the systems' parts of a lint run.
func lintParts(p *parts) []*clikit.LintPart {
	var out []*clikit.LintPart
	for _, sys := range p.order {
		if e := p.by[sys]; e.Lint != nil {
			out = append(out, e.Lint)
		}
	}
	return out
}

// named says whether a system's flags name an input of their own, so
// lint runs without files.
func (o *lintOptions) named() bool {
	for _, l := range o.parts {
		if l.Named != nil && l.Named() {
			return true
		}
	}
	return false
}

// alone names the flags that let lint run without files: " (or
// --ldap-config DIR)".
func (o *lintOptions) alone() string {
	var ways []string
	for _, l := range o.parts {
		if l.Alone != "" {
			ways = append(ways, l.Alone)
		}
	}
	if len(ways) == 0 {
		return ""
	}
	return " (or " + strings.Join(ways, ", or ") + ")"
}
