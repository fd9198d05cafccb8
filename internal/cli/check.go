package cli

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/aclint/aclint/internal/clikit"
)

func newCheckCmd(s *streams) *cobra.Command {
	c := &cobra.Command{
		Use:   "check QUESTION...",
		Short: "Answer whether a user may do an action on an object, and which rule decides it",
	}
	p := s.extend(c, "check")
	c.Args = p.args(clikit.MinArgs(1, "check needs a question: "+p.words()+questionWords(s.reg, checkWords)))
	systemsHelp(s, c, p, checkWords)
	f := c.Flags()
	fileFlag(f)
	sharedFlag(f, "groups", func(f *pflag.FlagSet) {
		f.String("groups", "", "comma-separated groups of the user, used exactly as given")
	})
	sharedFlag(f, "action", func(f *pflag.FlagSet) { f.String("action", "", "the action to check, as the system names it") })
	sharedFlag(f, "output", func(f *pflag.FlagSet) {
		var output string
		var quiet bool
		clikit.VerdictFlags(f, &output, &quiet, "the decision, the rules consulted and the notes")
	})
	c.RunE = func(cmd *cobra.Command, args []string) error {
		return p.answer(s, cmd, args, func(q *asked) error {
			return askCheck(s, cmd, q, args, flagString(cmd, "action"), flagString(cmd, "groups"), flagString(cmd, "output"), flagBool(cmd, "quiet"))
		})
	}
	return c
}
