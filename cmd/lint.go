package cmd

import (
	"github.com/aclint/aclint/pkg/yunikorn"
	"path/filepath"

	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/pkg/config"
	"github.com/aclint/aclint/pkg/lint"
	"github.com/aclint/aclint/pkg/report"
	"github.com/aclint/aclint/pkg/resolve"
	"github.com/aclint/aclint/pkg/settings"
)

func newLintCmd(s *streams) *cobra.Command {
	var (
		outputs                            []string
		failOn, colorMode, key, configFile string
		ldapDir, system                    string
		verbose, fixMode, diffMode         bool
		unsafeFixes, hardLinks, quiet      bool
		disable, enable                    []string
	)
	c := &cobra.Command{
		Use:   "lint FILE|DIR|- ...",
		Short: "Report everything in YuniKorn queue configs or Mesos ACLs that the system rejects or reads differently than written",
		Long: `Lint YuniKorn queue configs: raw queues.yaml files, ConfigMaps holding one (also
in multi-document files and kind: List), directories searched for either, or - for
standard input. Mesos --acls JSON files and YTsaurus trees are linted too:
they are recognised by their content (a JSON object with permissive or Mesos
ACL kind keys; a document with a top-level nodes key, or the JSON list of a
YTsaurus node's ACEs; directories are searched for such .json files), or
forced with --system mesos or --system ytsaurus.

Severities: error = the system rejects the config (YuniKorn: validate-conf fails
or the queues cannot be built; Mesos: the master and agent refuse to start;
YTsaurus: set @acl is refused, or the tree cannot be read);
warning = the system accepts it but it does something other than what it says;
info = advice.

Exit codes: 0 no finding reaches --fail-on, 1 one does, 2 usage or input error.`,
		Example: `  aclint lint queues.yaml
  aclint lint --fail-on error -o json deploy/
  kubectl get configmap yunikorn-configs -o yaml | aclint lint -
  aclint lint acls.json
  aclint lint --system mesos -o sarif=mesos.sarif /etc/mesos/acls`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o := lintOptions{outputs: outputs, failOn: failOn, colorMode: colorMode, key: key, configFile: configFile,
				ldapDir: ldapDir, system: system, verbose: verbose, fix: fixMode, diff: diffMode, unsafe: unsafeFixes, hardLinks: hardLinks,
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
	f := c.Flags()
	f.StringArrayVarP(&outputs, "output", "o", nil, "output format, repeatable; FORMAT=PATH writes to a file: "+strings.Join(report.FormatNames(), ", ")+" (default text, or github when GITHUB_ACTIONS=true)")
	f.StringVar(&failOn, "fail-on", "warning", "exit 1 when a finding has this severity or higher: "+strings.Join([]string{"error", "warning", "info", "none"}, ", "))
	f.StringVar(&colorMode, "color", "auto", "colour text output: auto, always or never (auto honours NO_COLOR)")
	f.StringVar(&key, "key", config.DefaultKey, "ConfigMap data key holding the queue config")
	f.BoolVarP(&verbose, "verbose", "v", false, "say which files a directory search skips")
	f.BoolVar(&fixMode, "fix", false, "rewrite files in place with every safe fix (YuniKorn reads the ACLs the same), then lint again and report what is left")
	f.BoolVar(&diffMode, "diff", false, "print the fixes --fix would make as a unified diff, and write nothing")
	f.BoolVar(&hardLinks, "fix-hardlinks", false, "with --fix, rewrite a file that has other hard links in place, so every name of it gets the fix (without it such a file is refused)")
	f.BoolVar(&unsafeFixes, "unsafe-fixes", false, "with --fix or --diff, also apply fixes that change who has access (e.g. turning users YAML read into the groups the author meant)")
	f.StringVar(&ldapDir, "ldap-config", "", "also check YuniKorn's LDAP settings directory (the Secret mounted at "+resolve.DefaultLDAPDir+")")
	f.StringVar(&system, "system", systemAuto, "what the files are: auto (by content), yunikorn, mesos or ytsaurus")
	f.StringVar(&configFile, "config", "", "settings file (default: the nearest "+settings.FileName+" from each linted file up to the repository root)")
	f.StringSliceVar(&disable, "disable", nil, "turn these rules off for this run (comma-separated or repeated); rules that find inputs the system refuses cannot be turned off")
	f.StringSliceVar(&enable, "enable", nil, "turn these rules on at their own severity for this run, whatever "+settings.FileName+" says (comma-separated or repeated)")
	f.BoolVarP(&quiet, "quiet", "q", false, "print nothing on standard output or the summary; the exit code and any -o FORMAT=PATH files still follow the findings")
	return c
}

// lintJobRun lints one input with its system, or the documents --fix left.
func lintJobRun(j lintJob, fixed map[*lint.Input][]*config.Document, key string) (*lint.Report, error) {
	if docs, ok := fixed[j.in]; ok {
		return yunikorn.LintDocuments(docs), nil
	}
	return j.sys.Lint(j.in, lint.Options{Key: key})
}

// fixJobs applies the fixes to every YuniKorn input and returns the
// documents of the fixed contents, by input.
func fixJobs(s *streams, jobs []lintJob, files *settingsFinder, key string, write, unsafe, hardLinks bool) (map[*lint.Input][]*config.Document, error) {
	var docs []*config.Document
	owner := map[string]*lint.Input{}
	for _, j := range jobs {
		if j.sys.Name() != yunikorn.System {
			continue
		}
		ds, err := yunikorn.Documents(j.in, key)
		if err != nil {
			continue // not a queue config: nothing to fix
		}
		docs = append(docs, ds...)
		owner[j.in.Path] = j.in
	}
	docs, err := applyFixes(s, docs, files, key, write, unsafe, hardLinks)
	if err != nil {
		return nil, err
	}
	out := map[*lint.Input][]*config.Document{}
	for _, d := range docs {
		if in := owner[d.File]; in != nil {
			out[in] = append(out[in], d)
		}
	}
	return out, nil
}

// lintOptions are lint's flags, resolved against .aclint.yaml (the command
// line wins).
type lintOptions struct {
	outputs                     []string
	outputsFrom                 string // the directory of the .aclint.yaml that gave outputs
	failOn, colorMode, key      string
	configFile, ldapDir, system string
	verbose, fix, diff, unsafe  bool
	hardLinks, quiet            bool
	disable, enable             []string

	files     *settingsFinder
	rules     map[string]string // --disable (off) and --enable (the rule's own severity), over .aclint.yaml
	threshold lint.Severity
	never     bool // --fail-on none
	targets   []outputTarget
	colored   bool
}

func (o *lintOptions) resolve(s *streams, cmd *cobra.Command, args []string) error {
	if len(args) == 0 && o.ldapDir == "" {
		return usageErr("lint needs at least one file, directory, or - for standard input (or --ldap-config DIR)")
	}
	first := "."
	if len(args) > 0 {
		first = args[0]
	}
	files, err := newSettingsFinder(o.configFile, first)
	if err != nil {
		return err
	}
	o.files = files
	// flags given on the command line win over .aclint.yaml
	if run := files.run; run != nil {
		if !cmd.Flags().Changed("fail-on") && run.FailOn != "" {
			o.failOn = run.FailOn
		}
		if !cmd.Flags().Changed("key") && run.Key != "" {
			o.key = run.Key
		}
		if !cmd.Flags().Changed("output") && len(run.Output) > 0 {
			o.outputs = run.Output
			o.outputsFrom = filepath.Dir(run.Path)
		}
	}
	switch o.failOn {
	case "none":
		o.never = true
	default:
		sev, err := lint.ParseSeverity(o.failOn)
		if err != nil {
			return usageErr("invalid --fail-on %q: use error, warning, info or none", o.failOn)
		}
		o.threshold = sev
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
					return usageErr("%s: output %s=%s: the repository's settings may write only to a relative path inside %s (no .., no absolute path); give -o on the command line to write elsewhere",
						o.files.run.Path, o.targets[i].format, o.targets[i].path, o.outputsFrom)
				}
				o.targets[i].inside = o.outputsFrom
			}
		}
	}
	if o.rules, err = ruleOverrides(o.disable, o.enable); err != nil {
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
		return usageErr("--unsafe-fixes goes with --fix or --diff")
	}
	if o.fix && o.diff {
		return usageErr("--fix writes the fixes and --diff only shows them: choose one")
	}
	return nil
}

// collectFindings lints every input with its system, applies the
// settings of each file, and returns the report and the number of configs
// linted.
func collectFindings(s *streams, o *lintOptions, args []string) (*report.Report, int, error) {
	jobs, err := collectLintInputs(s, args, o.verbose, o.system)
	if err != nil {
		return nil, 0, err
	}
	var ldapFindings []lint.Finding
	if o.ldapDir != "" {
		ldapFindings, err = yunikorn.LintLDAP(o.ldapDir)
		if err != nil {
			return nil, 0, usageErr("--ldap-config: %w", err)
		}
	}
	fixed := map[*lint.Input][]*config.Document{}
	if o.fix || o.diff {
		if fixed, err = fixJobs(s, jobs, o.files, o.key, o.fix, o.unsafe, o.hardLinks); err != nil {
			return nil, 0, err
		}
		if o.diff {
			o.targets = nil // stdout holds the diff; the exit code still follows the findings left
		}
	}
	rep := newReport(o.colored)
	linted, found := 0, map[string]bool{}
	// the systems in registry order, each input once
	for _, sys := range lint.Systems() {
		for _, j := range jobs {
			if j.sys != sys {
				continue
			}
			set, err := o.files.forFile(j.in.Path)
			if err != nil {
				return nil, 0, err
			}
			if set.Ignored(j.in.Path) {
				found[j.in.Arg] = true
				if o.verbose {
					fmt.Fprintf(s.err, "aclint: skipping %s: ignored by %s\n", j.in.Path, set.Path)
				}
				continue
			}
			r, err := lintJobRun(j, fixed, o.key)
			if err != nil && !j.in.Explicit {
				if o.verbose {
					fmt.Fprintf(s.err, "aclint: skipping %s: %s\n", j.in.Path, config.SkipReason(err))
				}
				continue
			}
			if err != nil {
				return nil, 0, usageErr("%w", err)
			}
			for _, n := range r.Notes {
				fmt.Fprintf(s.err, "aclint: %s\n", n)
			}
			findings := r.Findings
			if o.ldapDir != "" && sys.Name() == yunikorn.System {
				findings = yunikorn.WithLDAPSettings(findings)
			}
			found[j.in.Arg] = true
			linted += r.Configs
			rep.Findings = append(rep.Findings, set.WithRules(o.rules).Apply(findings)...)
			for file, lines := range r.Sources {
				if _, ok := rep.Sources[file]; !ok {
					rep.Sources[file] = lines
					rep.Files = append(rep.Files, file)
				}
			}
		}
	}
	if err := checkFound(args, found, o.system); err != nil {
		return nil, 0, err
	}
	if len(ldapFindings) > 0 {
		set, err := o.files.forFile(o.ldapDir)
		if err != nil {
			return nil, 0, err
		}
		// the settings directory is the Secret that holds the bind
		// password, and any file in it (a misnamed bindpassword) may be it:
		// no snippet of it is shown and no fingerprint hashes its text
		rep.Findings = append(rep.Findings, set.WithRules(o.rules).Apply(ldapFindings)...)
	}
	lint.Sort(rep.Findings)
	return rep, linted, nil
}

// writeLintOutput writes every requested output, the summary, and gives
// the exit code --fail-on asks for.
func writeLintOutput(s *streams, o *lintOptions, rep *report.Report, linted int) error {
	findings := rep.Findings
	if err := writeOutputs(s, o.targets, rep); err != nil {
		return err
	}
	if len(findings) > 0 && !o.quiet && len(o.targets) > 0 && o.targets[0].format == "text" && o.targets[0].path == "" {
		report.Summary(s.err, findings, linted)
	}
	for _, f := range findings {
		if !o.never && f.Severity >= o.threshold {
			return &exitError{code: ExitFail}
		}
	}
	return nil
}

// ruleOverrides reads --disable and --enable: every name must be a rule
// (with "did you mean"), a rule cannot be both, and a rule whose findings
// are inputs the system refuses cannot be turned off.
func ruleOverrides(disable, enable []string) (map[string]string, error) {
	out := map[string]string{}
	check := func(flag, name string) (*lint.Rule, error) {
		r := lint.Lookup(name)
		if r == nil {
			if to := lint.Renamed(name); to != "" {
				return nil, usageErr("--%s %s: the rule was renamed to %s; write the new name", flag, name, to)
			}
			return nil, usageErr("--%s: no rule named %q%s; run 'aclint rules' for the list", flag, name, didYouMean(name))
		}
		return r, nil
	}
	for _, name := range disable {
		r, err := check("disable", name)
		if err != nil {
			return nil, err
		}
		if r.Severity == lint.Error {
			what := "inputs its system refuses"
			if sys := lint.LookupSystem(r.System); sys != nil {
				what = sys.Refuses()
			}
			return nil, usageErr("--disable %s: the rule finds %s, which cannot be turned off", name, what)
		}
		out[name] = "off"
	}
	for _, name := range enable {
		r, err := check("enable", name)
		if err != nil {
			return nil, err
		}
		if out[name] == "off" {
			return nil, usageErr("rule %s is given to both --disable and --enable", name)
		}
		out[name] = r.Severity.String()
	}
	return out, nil
}
