package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/systems/ytsaurus"
)

func newYTEffectiveACLCmd(s *streams) *cobra.Command {
	var file, path, output string
	c := &cobra.Command{
		Use:   "effective-acl -f TREE PATH",
		Short: "Print a node's @effective_acl as YTsaurus computes it",
		Long: `Print the effective ACL of a Cypress node as YTsaurus computes @effective_acl:
every ACE that reaches the node, from the node up to the first node that does
not inherit, with its inheritance mode as seen from the node (descendants_only
from above becomes object_and_descendants, immediate_descendants_only from the
parent becomes object_only).

-o json (the default) prints the list as yt get --format json //path/@effective_acl
does; -o text names the node each entry comes from.`,
		Example: `  aclint yt effective-acl -f tree.yaml //home/reports/daily
  aclint yt effective-acl -f tree.yaml //home/reports/daily -o text`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErr("yt effective-acl needs PATH, got %d argument(s)", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if file == "" {
				return usageErr("yt effective-acl needs -f TREE")
			}
			if err := checkOutput(output, "json", "text"); err != nil {
				return err
			}
			tree, err := loadYTTree(s, file, path)
			if err != nil {
				return err
			}
			entries, err := tree.EffectiveACL(args[0])
			if err != nil {
				return usageErr("%w", err)
			}
			if output == "json" {
				err = writeEffectiveJSON(s.out, entries)
			} else {
				err = writeEffectiveText(s.out, tree, args[0], entries)
			}
			if err != nil {
				return usageErr("writing output: %w", err)
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVarP(&file, "file", "f", "", "the tree document, or - for standard input")
	f.StringVar(&path, "path", "", "for a file holding one node's ACL: the Cypress path it hangs at")
	f.StringVarP(&output, "output", "o", "json", "output format: json (as @effective_acl) or text")
	return c
}

// writeEffectiveJSON prints the entries with YTsaurus' keys, in its order.
func writeEffectiveJSON(w io.Writer, entries []ytsaurus.EffectiveEntry) error {
	type rowMode = string
	type entry struct {
		Action          string   `json:"action"`
		Subjects        []string `json:"subjects"`
		Permissions     []string `json:"permissions"`
		InheritanceMode string   `json:"inheritance_mode"`
		TagFilter       *string  `json:"subject_tag_filter,omitempty"`
		Columns         []string `json:"columns,omitempty"`
		Vital           *bool    `json:"vital,omitempty"`
		RowPredicate    *string  `json:"row_access_predicate,omitempty"`
		RowMode         *rowMode `json:"inapplicable_row_access_predicate_mode,omitempty"`
	}
	out := []entry{}
	for _, e := range entries {
		a := e.ACE
		x := entry{Action: a.Action.String(), Subjects: a.Subjects, Permissions: a.Permissions.List(), InheritanceMode: e.Mode.String(),
			Columns: a.Columns, Vital: a.Vital, RowPredicate: a.RowPredicate}
		if x.Subjects == nil {
			x.Subjects = []string{}
		}
		if x.Permissions == nil {
			x.Permissions = []string{}
		}
		if a.TagFilter != nil && a.TagFilter.Text != "" {
			x.TagFilter = &a.TagFilter.Text
		}
		if a.RowMode != "" {
			m := a.RowMode
			x.RowMode = &m
		}
		out = append(out, x)
	}
	return writeJSON(w, out)
}

func writeEffectiveText(w io.Writer, tree *ytsaurus.Tree, path string, entries []ytsaurus.EffectiveEntry) error {
	var b strings.Builder
	fmt.Fprintf(&b, "effective ACL of %s: %d %s\n", path, len(entries), plural(len(entries), "entry", "entries"))
	for _, e := range entries {
		a := e.ACE
		fmt.Fprintf(&b, "  %s %s for %s, %s   from ACE #%d at %s (%s)\n", a.Action, a.Permissions.Describe(), strings.Join(a.Subjects, ", "), e.Mode, a.Index, e.Node.Path, tree.Doc.Pos(a.At))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
