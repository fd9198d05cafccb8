package commands

import (
	"bufio"
	"io"
	"strings"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/safewrite"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/htmlreport"
)

func newReportCmd(s *streams) *cobra.Command {
	var (
		files       []string
		key, output string
	)
	c := &cobra.Command{
		Use:   "report -o html[=PATH] [-f FILE]",
		Short: "Write a self-contained HTML access report: queue tree, ACLs, placement rules, findings, search and heat map",
		Long: `Write one HTML file that needs nothing else (no network, no external scripts,
styles or fonts): the queue tree of every partition with each queue's own submit
and admin ACLs, the entries YuniKorn drops and the lint findings inline, the
placement rules, a search that answers "what can this user or group reach" and
"who can reach this queue" in the page, and the access matrix as a heat map.

The tree opens on demand, so a config of 10,000 queues stays quick. A search can
be linked: report.html#user=alice&groups=a,b, #group=etl, #queue=root.prod.etl.

Exit codes: 0 written, 2 a config YuniKorn rejects or an input or output error.`,
		Example: `  aclint report -o html -f queues.yaml > access.html
  aclint report -o html=access.html -f yunikorn-defaults.yaml -f yunikorn-configs.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			format, path, _ := strings.Cut(output, "=")
			if format != "html" {
				return clikit.Usage("invalid -o %q: report writes html (-o html, or -o html=PATH)", output)
			}
			if strings.Contains(output, "=") && path == "" {
				return clikit.Usage("invalid -o %q: give a file after =", output)
			}
			l, err := load(s, files, key, nil)
			if err != nil {
				return err
			}
			cfg := l.Config
			var sources []string
			for _, d := range l.Docs {
				sources = append(sources, d.File)
			}
			ver := s.env.Version()
			data := htmlreport.Build(cfg, l.Policy, yunikorn.Lint(cfg), "aclint "+ver, sources)
			data.Notes = append(data.Notes, l.Notes...)
			if path == "" {
				w := bufio.NewWriter(s.env.Out())
				if err := htmlreport.Write(w, data); err != nil {
					return clikit.Usage("writing the report: %w", err)
				}
				if err := w.Flush(); err != nil {
					return clikit.Usage("writing the report: %w", err)
				}
				return nil
			}
			if err := safewrite.Output(path, s.env.Seen(), func(f io.Writer) error { return htmlreport.Write(f, data) }); err != nil {
				return clikit.Usage("writing %s: %w", path, err)
			}
			return nil
		},
	}
	f := c.Flags()
	s.configFlags(f, &files, &key)
	f.StringVarP(&output, "output", "o", "html", "html (to standard output) or html=PATH")
	return c
}
