package cli

import (
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
		return p.answer(s, cmd, args, func(q *asked) error {
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
