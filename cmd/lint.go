package cmd

import (
	"github.com/aclint/aclint/pkg/yunikorn"

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
		unsafeFixes                        bool
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
			if len(args) == 0 && ldapDir == "" {
				return usageErr("lint needs at least one file, directory, or - for standard input (or --ldap-config DIR)")
			}
			first := "."
			if len(args) > 0 {
				first = args[0]
			}
			files, err := newSettingsFinder(configFile, first)
			if err != nil {
				return err
			}
			// flags given on the command line win over .aclint.yaml
			if run := files.run; run != nil {
				if !cmd.Flags().Changed("fail-on") && run.FailOn != "" {
					failOn = run.FailOn
				}
				if !cmd.Flags().Changed("key") && run.Key != "" {
					key = run.Key
				}
				if !cmd.Flags().Changed("output") && len(run.Output) > 0 {
					outputs = run.Output
				}
			}
			threshold, never := lint.Severity(0), false
			switch failOn {
			case "none":
				never = true
			default:
				sev, err := lint.ParseSeverity(failOn)
				if err != nil {
					return usageErr("invalid --fail-on %q: use error, warning, info or none", failOn)
				}
				threshold = sev
			}
			if len(outputs) == 0 {
				outputs = []string{"text"}
				if os.Getenv("GITHUB_ACTIONS") == "true" {
					outputs = []string{"github"}
				}
			}
			targets, err := parseOutputs(outputs)
			if err != nil {
				return err
			}
			colored, err := useColor(colorMode, s.out)
			if err != nil {
				return err
			}
			if unsafeFixes && !fixMode && !diffMode {
				return usageErr("--unsafe-fixes goes with --fix or --diff")
			}
			if fixMode && diffMode {
				return usageErr("--fix writes the fixes and --diff only shows them: choose one")
			}
			jobs, err := collectLintInputs(s, args, verbose, system)
			if err != nil {
				return err
			}
			var ldapFindings []lint.Finding
			if ldapDir != "" {
				ldapFindings, err = yunikorn.LintLDAP(ldapDir)
				if err != nil {
					return usageErr("--ldap-config: %v", err)
				}
			}
			fixed := map[*lint.Input][]*config.Document{}
			if fixMode || diffMode {
				if fixed, err = fixJobs(s, jobs, files, key, fixMode, unsafeFixes); err != nil {
					return err
				}
				if diffMode {
					targets = nil // stdout holds the diff; the exit code still follows the findings left
				}
			}
			rep := newReport(colored)
			linted, found := 0, map[string]bool{}
			// the systems in registry order, each input once
			for _, sys := range lint.Systems() {
				for _, j := range jobs {
					if j.sys != sys {
						continue
					}
					set, err := files.forFile(j.in.Path)
					if err != nil {
						return err
					}
					if set.Ignored(j.in.Path) {
						found[j.in.Arg] = true
						if verbose {
							fmt.Fprintf(s.err, "aclint: skipping %s: ignored by %s\n", j.in.Path, set.Path)
						}
						continue
					}
					r, err := lintJobRun(j, fixed, key)
					if err != nil && !j.in.Explicit {
						if verbose {
							fmt.Fprintf(s.err, "aclint: skipping %s: %s\n", j.in.Path, config.SkipReason(err))
						}
						continue
					}
					if err != nil {
						return usageErr("%v", err)
					}
					for _, n := range r.Notes {
						fmt.Fprintf(s.err, "aclint: %s\n", n)
					}
					findings := r.Findings
					if ldapDir != "" && sys.Name() == yunikorn.System {
						findings = yunikorn.WithLDAPSettings(findings)
					}
					found[j.in.Arg] = true
					linted += r.Configs
					rep.Findings = append(rep.Findings, set.Apply(findings)...)
					for file, lines := range r.Sources {
						if _, ok := rep.Sources[file]; !ok {
							rep.Sources[file] = lines
							rep.Files = append(rep.Files, file)
						}
					}
				}
			}
			if err := checkFound(args, found, system); err != nil {
				return err
			}
			if len(ldapFindings) > 0 {
				set, err := files.forFile(ldapDir)
				if err != nil {
					return err
				}
				rep.Findings = append(rep.Findings, set.Apply(ldapFindings)...)
				for _, f := range ldapFindings {
					if _, ok := rep.Sources[f.Pos.File]; !ok {
						if b, err := os.ReadFile(f.Pos.File); err == nil {
							rep.Sources[f.Pos.File] = strings.Split(string(b), "\n")
						}
					}
				}
			}
			lint.Sort(rep.Findings)
			findings := rep.Findings
			if err := writeOutputs(s, targets, rep); err != nil {
				return err
			}
			if len(findings) > 0 && len(targets) > 0 && targets[0].format == "text" && targets[0].path == "" {
				report.Summary(s.err, findings, linted)
			}
			for _, f := range findings {
				if !never && f.Severity >= threshold {
					return &exitError{code: ExitFail}
				}
			}
			return nil
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
	f.BoolVar(&unsafeFixes, "unsafe-fixes", false, "with --fix or --diff, also apply fixes that change who has access (e.g. turning users YAML read into the groups the author meant)")
	f.StringVar(&ldapDir, "ldap-config", "", "also check YuniKorn's LDAP settings directory (the Secret mounted at "+resolve.DefaultLDAPDir+")")
	f.StringVar(&system, "system", systemAuto, "what the files are: auto (by content), yunikorn, mesos or ytsaurus")
	f.StringVar(&configFile, "config", "", "settings file (default: the nearest "+settings.FileName+" from each linted file up to the repository root)")
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
func fixJobs(s *streams, jobs []lintJob, files *settingsFinder, key string, write, unsafe bool) (map[*lint.Input][]*config.Document, error) {
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
	docs, err := applyFixes(s, docs, files, key, write, unsafe)
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
