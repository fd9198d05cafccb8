package cli

import (
	"errors"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
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
		return p.answer(s, cmd, func(q *asked) error {
			return askCheck(s, cmd, q, args, flagString(cmd, "action"), flagString(cmd, "groups"), flagString(cmd, "output"), flagBool(cmd, "quiet"))
		})
	}
	return c
}

func checkWords(sys engine.System) (audit.Usage, bool) {
	if c, ok := sys.(audit.Checker); ok {
		return c.CheckUsage(), true
	}
	return audit.Usage{}, false
}

// askCheck answers check through a system's audit.Checker: exit 0
// allowed, 1 denied.
func askCheck(s *streams, cmd *cobra.Command, q *asked, words []string, action, groups, output string, quiet bool) error {
	c, err := capability[audit.Checker](q, "check")
	if err != nil {
		return err
	}
	if err := clikit.CheckOutput(output, "text", "json"); err != nil {
		return err
	}
	if !cmd.Flags().Changed("action") {
		action = ""
	}
	m, err := q.loadFor("check", words)
	if err != nil {
		return err
	}
	qu := audit.Question{Words: words, Action: action}
	if cmd.Flags().Changed("groups") {
		qu.Groups = clikit.ParseList(groups)
	}
	v, err := c.Check(m, qu)
	if err != nil {
		var u *audit.UsageError
		if errors.As(err, &u) {
			return clikit.Usage("%s: %w (check %s, e.g. check -f %s %s)", q.sys.Name(), err, c.CheckUsage().Words, q.named(), c.CheckUsage().Example)
		}
		return answerErr(err)
	}
	return writeVerdict(s, v, output, quiet)
}

// writeVerdict is every check's answer, whichever system gave it: exit 0
// allowed, 1 denied, 2 not known.
func writeVerdict(s *streams, v *audit.Verdict, output string, quiet bool) error {
	out := clikit.Verdict{OK: v.Allowed && v.Unknown == "",
		Text: func(w io.Writer) error { return writeCheckText(w, v) },
		JSON: func() any { return checkJSON(v) }}
	if v.Unknown != "" {
		out.Code = ExitUsage
	}
	return clikit.WriteVerdict(s.out, out, output, quiet)
}
