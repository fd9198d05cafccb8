package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
)

func newWhoCanCmd(s *streams) *cobra.Command {
	c := &cobra.Command{
		Use:   "who-can QUESTION...",
		Short: "List everyone who may act on an object (a queue, an ACL kind, a node), and the rule that grants each",
		Args:  cobra.ArbitraryArgs,
	}
	p := s.extend(c, "who-can")
	systemsHelp(s, c, p, whoCanWords)
	f := c.Flags()
	fileFlag(f)
	sharedFlag(f, "action", func(f *pflag.FlagSet) { f.String("action", "", "the action to list, as the system names it") })
	sharedFlag(f, "output", func(f *pflag.FlagSet) { f.StringP("output", "o", "text", "output format: text, json or csv") })
	c.RunE = func(cmd *cobra.Command, args []string) error {
		output := flagString(cmd, "output")
		if err := clikit.CheckOutput(output, "text", "json", "csv"); err != nil {
			return err
		}
		return p.answer(s, cmd, func(q *asked) error {
			return askWhoCan(s, cmd, q, args, flagString(cmd, "action"), output)
		})
	}
	return c
}

// holderLine is one grant of a who-can list: who, by which queue's ACL,
// and where that is written.
type holderLine struct {
	name, queue, acl, where string
	inherited               bool
}

// writeHolders writes a who-can list's everyone, users and groups
// sections, as every system's who-can prints them.
func writeHolders(b *strings.Builder, r *audit.WhoCan, everyone, users, groups []holderLine) {
	if len(everyone) > 0 {
		b.WriteString("everyone:\n")
		writeHolderLines(b, r.How, everyone)
	} else {
		b.WriteString("everyone: no\n")
	}
	for _, sec := range []struct {
		name, title string
		hs          []holderLine
	}{{"users", r.UsersTitle, users}, {"groups", r.GroupsTitle, groups}} {
		if sec.title == "-" {
			continue
		}
		if sec.title != "" {
			sec.name = sec.title
		}
		if len(sec.hs) == 0 {
			fmt.Fprintf(b, "%s: none\n", sec.name)
			continue
		}
		fmt.Fprintf(b, "%s:\n", sec.name)
		writeHolderLines(b, r.How, sec.hs)
	}
}

// writeHolderLines writes one line per grant: who, where it is granted
// and by which rule, and where that rule is written.
func writeHolderLines(b *strings.Builder, how string, hs []holderLine) {
	for _, h := range hs {
		how := how
		if h.inherited {
			how = "inherited"
		}
		what := h.acl
		if h.queue != "" {
			what = h.queue + " " + h.acl
		}
		fmt.Fprintf(b, "  %-24s %s (%s)%s\n", h.name, what, how, h.where)
	}
}

// askWhoCan answers who-can through a system's audit.WhoCanner.
func askWhoCan(s *streams, cmd *cobra.Command, q *asked, words []string, action, output string) error {
	w, err := capability[audit.WhoCanner](q, "who-can")
	if err != nil {
		return err
	}
	if !cmd.Flags().Changed("action") {
		action = ""
	}
	m, err := q.loadFor("who-can", words)
	if err != nil {
		return err
	}
	ans, err := w.WhoCan(m, audit.Question{Words: words, Action: action})
	if err != nil {
		var u *audit.UsageError
		if errors.As(err, &u) {
			return clikit.Usage("%s: %w (who-can %s, e.g. who-can -f %s %s)", q.sys.Name(), err, w.WhoCanUsage().Words, q.named(), w.WhoCanUsage().Example)
		}
		var g *audit.Gated
		if errors.As(err, &g) {
			return writeGated(s, g, "allowed", output)
		}
		return answerErr(err)
	}
	return writeWhoCan(s, ans, output)
}

// writeWhoCan writes a who-can answer as -o asks; an incomplete answer is
// exit 2 after what is known.
func writeWhoCan(s *streams, ans *audit.WhoCan, output string) error {
	var err error
	switch output {
	case "json":
		err = clikit.WriteJSON(s.out, whoCanJSON(ans))
	case "csv":
		err = writeWhoCanCSV(s.out, ans)
	default:
		err = writeWhoCanText(s.out, ans)
	}
	if err != nil {
		return clikit.Usage("writing output: %w", err)
	}
	if ans.Incomplete != "" {
		return &clikit.ExitError{Code: ExitUsage, Err: errors.New(ans.Incomplete)}
	}
	return nil
}
