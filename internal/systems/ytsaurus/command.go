package ytsaurus

// This file is YTsaurus' own commands (clikit.Commander): aclint yt check,
// with every flag check-permission takes (columns, a lone ACL's path,
// member-of and tags, vital), and aclint yt effective-acl.

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/input"
)

// Commands are YTsaurus' own commands: aclint yt check and yt effective-acl.
func (Sys) Commands(env clikit.Env) []*cobra.Command {
	c := &cobra.Command{
		Use:   "yt",
		Short: "YTsaurus: answer check-permission and compute @effective_acl offline over a tree document",
		Long: `Commands for YTsaurus access control on Cypress nodes, answered offline over a
tree document (users, groups and nodes with their ACLs) exactly as the master
decides. Lint the document with 'aclint lint' (recognised by its nodes key, or
forced with --system ytsaurus).`,
	}
	c.AddCommand(newCheckCmd(env), newEffectiveACLCmd(env))
	return []*cobra.Command{env.Group(c)}
}

// loadYTTree reads a tree document (or a node's @acl hanging at path) and
// refuses one YTsaurus would not hold, showing why.
func loadTree(env clikit.Env, file, path string) (*Tree, error) {
	name, data, err := input.ReadSource(file, env.In(), env.MaxInput(), env.Seen())
	if err != nil {
		return nil, env.Usage("%w", err)
	}
	if err := emptyTree(name, data); err != nil {
		return nil, env.Usage("%w", err)
	}
	doc := Parse(name, data)
	opts := Options{Path: path}
	tree := Load(doc, opts)
	if path != "" && !tree.Bare {
		return nil, env.Usage("--path is for a file holding a single node's ACL (the JSON of yt get //path/@acl); %s is a tree document", name)
	}
	if tree.Errors() != nil {
		return nil, env.Refused(&audit.Refused{File: name, Why: "YTsaurus would refuse this tree (or aclint cannot read it), so it answers no question",
			Command: "aclint lint --system ytsaurus " + file, Findings: Lint(doc, opts), Sources: map[string][]string{name: doc.Lines()}})
	}
	return tree, nil
}

func newCheckCmd(env clikit.Env) *cobra.Command {
	// the request and how to answer it
	var o struct {
		file, path, columns, output string
		groups, tags                []string
		vital, quiet                bool
	}
	c := &cobra.Command{
		Use:   "check -f TREE USER PERMISSION PATH",
		Short: "The older form of aclint check -f TREE USER PERMISSION PATH: the same answer, kept for scripts",
		Long: `The older form of aclint check -f TREE USER PERMISSION PATH, which asks the same
question (with --columns, --vital, --path, --tags and --groups for --member-of) and
prints the same answer: both are one verdict, rendered once. Kept for scripts; new
ones use aclint check.

Answer a permission question exactly as the YTsaurus master's check-permission
does: banned users are denied, root and superusers (also through groups) are
allowed, then the effective ACL is walked from the node up: inheritance modes by
depth, inherit_acl stops, owner resolved to the node's owner, aliases, groups
transitively, subject tag filters; deny wins; no matching allow is a deny.
--columns gives the per-column answer (columnar ACEs); full_read follows its own
rules.

The tree is a document with users, groups and nodes (see docs/md), or
the JSON of a single node's @acl with --path telling where it hangs (the ACL
does not describe users: a user it does not know is an ordinary user, in the
groups given with --member-of and with the tags given with --tags). Nodes the
document does not list exist with an empty ACL that inherits.

Exit codes: 0 allow, 1 deny, 2 error (unknown user: "No such user"; a tree
YTsaurus would refuse; usage).`,
		Example: `  aclint yt check -f tree.yaml alice read //home/reports/daily
  aclint yt check -f tree.yaml alice read //home/reports/users --columns email,name -o json
  yt get --format json //home/reports/@acl > acl.json
  aclint yt check -f acl.json --path //home/reports alice write //home/reports`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 3 {
				return env.Usage("yt check needs USER PERMISSION PATH, got %d argument(s)\nrun 'aclint yt check --help' for usage", len(args))
			}
			return nil
		},
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) == 1 {
				return PermissionNames(), cobra.ShellCompDirectiveNoFileComp
			}
			return nil, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.file == "" {
				return env.Usage("yt check needs -f TREE: the tree document (or a node's @acl with --path)")
			}
			if o.output != "text" && o.output != "json" {
				return env.Usage("invalid -o %q: use text or json", o.output)
			}
			perm, ok := ParsePermission(args[1])
			if !ok {
				msg := fmt.Sprintf("unknown permission %q: use one of %s", args[1], strings.Join(PermissionNames(), ", "))
				if near := engine.Nearest(strings.ToLower(args[1]), PermissionNames()); near != "" {
					msg = fmt.Sprintf("unknown permission %q (did you mean %s?)", args[1], near)
				}
				return env.Usage("%s", msg)
			}
			tree, err := loadTree(env, o.file, o.path)
			if err != nil {
				return err
			}
			req := Request{User: args[0], Permission: perm, Path: args[2], Vital: o.vital, Groups: o.groups, Tags: o.tags}
			if cmd.Flags().Changed("columns") {
				req.Columns = []string{}
				for _, c := range strings.Split(o.columns, ",") {
					if c = strings.TrimSpace(c); c != "" {
						req.Columns = append(req.Columns, c)
					}
				}
			}
			r, err := tree.Check(req)
			if errors.Is(err, ErrNoSuchUser) {
				return env.Usage("%w (the user is neither in the tree's users nor a built-in user)", err)
			}
			if err != nil {
				return env.Usage("%w", err)
			}
			return env.Check(tree.verdict(req, r), o.output, o.quiet)
		},
	}
	f := c.Flags()
	f.StringVarP(&o.file, "file", "f", "", "the tree document, or - for standard input")
	f.StringVar(&o.path, "path", "", "for a file holding one node's ACL (yt get --format json //path/@acl): the Cypress path it hangs at")
	f.StringVar(&o.columns, "columns", "", "comma-separated columns to answer for too (columnar ACEs)")
	f.BoolVar(&o.vital, "vital", false, "register_queue_consumer: the consumer to register is vital")
	f.StringSliceVar(&o.groups, "member-of", nil, "with a lone ACL (--path): the groups the user is in, beyond users and everyone")
	f.StringSliceVar(&o.tags, "tags", nil, "with a lone ACL (--path): the user's tags, for subject tag filters")
	env.VerdictFlags(c, &o.output, &o.quiet, "what yt check-permission prints, without ids")
	return c
}

func newEffectiveACLCmd(env clikit.Env) *cobra.Command {
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
				return env.Usage("yt effective-acl needs PATH, got %d argument(s)", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if file == "" {
				return env.Usage("yt effective-acl needs -f TREE")
			}
			if output != "json" && output != "text" {
				return env.Usage("invalid -o %q: use json or text", output)
			}
			tree, err := loadTree(env, file, path)
			if err != nil {
				return err
			}
			entries, err := tree.EffectiveACL(args[0])
			if err != nil {
				return env.Usage("%w", err)
			}
			if output == "json" {
				err = writeEffectiveJSON(env.Out(), entries)
			} else {
				err = writeEffectiveText(env.Out(), tree, args[0], entries)
			}
			if err != nil {
				return env.Usage("writing output: %w", err)
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVarP(&file, "file", "f", "", "the tree document, or - for standard input")
	f.StringVar(&path, "path", "", "for a file holding one node's ACL: the Cypress path it hangs at")
	f.StringVarP(&output, "output", "o", "json", "output format: json (as @effective_acl) or text")
	clikit.Outputs(c, "json", "text")
	return c
}

// writeEffectiveJSON prints the entries with YTsaurus' keys, in its order.
func writeEffectiveJSON(w io.Writer, entries []EffectiveEntry) error {
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
	return engine.WriteJSON(w, out)
}

func writeEffectiveText(w io.Writer, tree *Tree, path string, entries []EffectiveEntry) error {
	var b strings.Builder
	engine.Fprintf(&b, "effective ACL of %s: %d %s\n", path, len(entries), plural(len(entries), "entry", "entries"))
	for _, e := range entries {
		a := e.ACE
		engine.Fprintf(&b, "  %s %s for %s, %s   from ACE #%d at %s (%s)\n", a.Action, a.Permissions.Describe(), strings.Join(a.Subjects, ", "), e.Mode, a.Index, e.Node.Path, tree.Doc.Pos(a.At))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func ytObjectName(path string) string { return "node " + path }

type ytResultJSON struct {
	Action      string `json:"action"`
	ObjectName  string `json:"object_name,omitempty"`
	SubjectName string `json:"subject_name,omitempty"`
}

func ytResult(r Result) ytResultJSON {
	out := ytResultJSON{Action: r.Action.String()}
	if r.Object != "" {
		out.ObjectName = ytObjectName(r.Object)
	}
	out.SubjectName = r.Subject
	return out
}

// writeYTJSON prints what yt check-permission prints, without the ids.
type rowLevelJSON struct {
	Predicate string `json:"row_access_predicate"`
	Mode      string `json:"inapplicable_row_access_predicate_mode"`
}

// checkDoc is what yt check-permission prints, without ids.
type checkDoc struct {
	ytResultJSON
	Columns  []ytResultJSON  `json:"columns,omitempty"`
	RowLevel *[]rowLevelJSON `json:"row_level_acl,omitempty"`
}

func checkJSON(r *Response) checkDoc {
	out := checkDoc{ytResultJSON: ytResult(r.Result)}
	if r.Columns != nil {
		out.Columns = []ytResultJSON{}
		for _, c := range r.Columns {
			out.Columns = append(out.Columns, ytResult(c.Result))
		}
	}
	if r.RowLevel != nil {
		// present, and [] when no row-level ACE names the user
		list := []rowLevelJSON{}
		for _, rl := range r.RowLevel {
			list = append(list, rowLevelJSON{rl.Predicate, rl.Mode})
		}
		out.RowLevel = &list
	}
	return out
}

// plural picks the word for a count: 1 entry, 2 entries.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
