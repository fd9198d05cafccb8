package cli

import (
	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func newAccessCmd(s *streams) *cobra.Command {
	c := &cobra.Command{
		Use:   "access SUBJECT",
		Short: "List a subject's access on every object (queue, ACL kind, node) and the rule that grants each",
		Args:  clikit.ExactArgs(1, "access needs the subject to list"),
	}
	p := s.extend(c, "access")
	c.Args = p.args(c.Args)
	systemsHelp(s, c, p, accessWords)
	f := c.Flags()
	fileFlag(f)
	sharedFlag(f, "groups", func(f *pflag.FlagSet) {
		f.String("groups", "", "comma-separated groups of the subject, used exactly as given")
	})
	scopeFlags(f, "objects where the subject has no access")
	f.Bool("all", false, "text: list every object, also those where the subject has no access (JSON and CSV always do)")
	sharedFlag(f, "output", func(f *pflag.FlagSet) { f.StringP("output", "o", "text", "output format: text, json or csv") })
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if err := clikit.CheckOutput(flagString(cmd, "output"), "text", "json", "csv"); err != nil {
			return err
		}
		return p.answer(s, cmd, func(q *asked) error {
			return askAccess(s, cmd, q, args)
		})
	}
	return c
}

func accessWords(sys engine.System) (audit.Usage, bool) {
	if a, ok := sys.(audit.Accesser); ok {
		return a.AccessUsage(), true
	}
	return audit.Usage{}, false
}
