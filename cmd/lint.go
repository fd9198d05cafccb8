package cmd

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/pkg/config"
	"github.com/aclint/aclint/pkg/lint"
	"github.com/aclint/aclint/pkg/report"
)

func newLintCmd(s *streams) *cobra.Command {
	var (
		output, failOn, colorMode, key string
		verbose                        bool
	)
	c := &cobra.Command{
		Use:   "lint FILE|DIR|- ...",
		Short: "Report everything in YuniKorn queue configs that YuniKorn rejects or reads differently than written",
		Long: `Lint YuniKorn queue configs: raw queues.yaml files, ConfigMaps holding one (also
in multi-document files and kind: List), directories searched for either, or - for
standard input.

Severities: error = YuniKorn rejects the config; warning = YuniKorn accepts it but
it does something other than what it says; info = advice.

Exit codes: 0 no finding reaches --fail-on, 1 one does, 2 usage or input error.`,
		Example: `  aclint lint queues.yaml
  aclint lint --fail-on error -o json deploy/
  kubectl get configmap yunikorn-configs -o yaml | aclint lint -`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErr("lint needs at least one file, directory, or - for standard input")
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
			if output != "text" && output != "json" {
				return usageErr("invalid -o %q: use text or json", output)
			}
			colored, err := useColor(colorMode, s.out)
			if err != nil {
				return err
			}
			docs, err := loadInputs(s, args, key, verbose)
			if err != nil {
				return err
			}
			var findings []lint.Finding
			sources := report.Sources{}
			for _, d := range docs {
				findings = append(findings, lint.Lint(config.Decode(d))...)
				if _, ok := sources[d.File]; !ok {
					sources[d.File] = d.Lines()
				}
			}
			lint.Sort(findings)
			if output == "json" {
				err = report.JSON(s.out, findings)
			} else {
				err = report.Text(s.out, findings, sources, colored)
				if err == nil && len(findings) > 0 {
					report.Summary(s.err, findings, len(docs))
				}
			}
			if err != nil {
				return usageErr("writing output: %v", err)
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
	f.StringVarP(&output, "output", "o", "text", "output format: text or json")
	f.StringVar(&failOn, "fail-on", "warning", "exit 1 when a finding has this severity or higher: "+strings.Join([]string{"error", "warning", "info", "none"}, ", "))
	f.StringVar(&colorMode, "color", "auto", "colour text output: auto, always or never (auto honours NO_COLOR)")
	f.StringVar(&key, "key", config.DefaultKey, "ConfigMap data key holding the queue config")
	f.BoolVarP(&verbose, "verbose", "v", false, "say which files a directory search skips")
	return c
}
