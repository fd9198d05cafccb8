package cmd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/pkg/config"
	"github.com/aclint/aclint/pkg/ytsaurus"
)

func newYTCheckCmd(s *streams) *cobra.Command {
	var (
		file, path, columns, output string
		groups, tags                []string
		vital, quiet                bool
	)
	c := &cobra.Command{
		Use:   "check -f TREE USER PERMISSION PATH",
		Short: "Answer yt check-permission USER PERMISSION PATH offline, with the ACE and node that decided",
		Long: `Answer a permission question exactly as the YTsaurus master's check-permission
does: banned users are denied, root and superusers (also through groups) are
allowed, then the effective ACL is walked from the node up: inheritance modes by
depth, inherit_acl stops, owner resolved to the node's owner, aliases, groups
transitively, subject tag filters; deny wins; no matching allow is a deny.
--columns gives the per-column answer (columnar ACEs); full_read follows its own
rules.

The tree is a document with users, groups and nodes (see docs/ytsaurus.md), or
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
				return usageErr("yt check needs USER PERMISSION PATH, got %d argument(s)\nrun 'aclint yt check --help' for usage", len(args))
			}
			return nil
		},
		ValidArgsFunction: func(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) == 1 {
				return ytsaurus.PermissionNames(), cobra.ShellCompDirectiveNoFileComp
			}
			return nil, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if file == "" {
				return usageErr("yt check needs -f TREE: the tree document (or a node's @acl with --path)")
			}
			if output != "text" && output != "json" {
				return usageErr("invalid -o %q: use text or json", output)
			}
			perm, ok := ytsaurus.ParsePermission(args[1])
			if !ok {
				msg := fmt.Sprintf("unknown permission %q: use one of %s", args[1], strings.Join(ytsaurus.PermissionNames(), ", "))
				if near := config.Nearest(strings.ToLower(args[1]), ytsaurus.PermissionNames()); near != "" {
					msg = fmt.Sprintf("unknown permission %q (did you mean %s?)", args[1], near)
				}
				return usageErr("%s", msg)
			}
			tree, err := loadYTTree(s, file, path)
			if err != nil {
				return err
			}
			req := ytsaurus.Request{User: args[0], Permission: perm, Path: args[2], Vital: vital, Groups: groups, Tags: tags}
			if cmd.Flags().Changed("columns") {
				req.Columns = []string{}
				for _, c := range strings.Split(columns, ",") {
					if c = strings.TrimSpace(c); c != "" {
						req.Columns = append(req.Columns, c)
					}
				}
			}
			r, err := tree.Check(req)
			if errors.Is(err, ytsaurus.ErrNoSuchUser) {
				return usageErr("%v (the user is neither in the tree's users nor a built-in user)", err)
			}
			if err != nil {
				return usageErr("%v", err)
			}
			if !quiet {
				if output == "json" {
					err = writeYTJSON(s.out, r)
				} else {
					err = writeYTText(s.out, tree, req, r)
				}
				if err != nil {
					return usageErr("writing output: %v", err)
				}
			}
			if r.Action != ytsaurus.Allow {
				return &exitError{code: ExitFail}
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVarP(&file, "file", "f", "", "the tree document, or - for standard input")
	f.StringVar(&path, "path", "", "for a file holding one node's ACL (yt get --format json //path/@acl): the Cypress path it hangs at")
	f.StringVar(&columns, "columns", "", "comma-separated columns to answer for too (columnar ACEs)")
	f.BoolVar(&vital, "vital", false, "register_queue_consumer: the consumer to register is vital")
	f.StringSliceVar(&groups, "member-of", nil, "with a lone ACL (--path): the groups the user is in, beyond users and everyone")
	f.StringSliceVar(&tags, "tags", nil, "with a lone ACL (--path): the user's tags, for subject tag filters")
	f.StringVarP(&output, "output", "o", "text", "output format: text, or json (what yt check-permission prints, without ids)")
	f.BoolVarP(&quiet, "quiet", "q", false, "print nothing; answer with the exit code only")
	_ = c.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp
	})
	return c
}

func ytObjectName(path string) string { return "node " + path }

type ytResultJSON struct {
	Action      string `json:"action"`
	ObjectName  string `json:"object_name,omitempty"`
	SubjectName string `json:"subject_name,omitempty"`
}

func ytResult(r ytsaurus.Result) ytResultJSON {
	out := ytResultJSON{Action: r.Action.String()}
	if r.Object != "" {
		out.ObjectName = ytObjectName(r.Object)
	}
	out.SubjectName = r.Subject
	return out
}

// writeYTJSON prints what yt check-permission prints, without the ids.
func writeYTJSON(w io.Writer, r *ytsaurus.Response) error {
	type rowLevel struct {
		Predicate string `json:"row_access_predicate"`
		Mode      string `json:"inapplicable_row_access_predicate_mode"`
	}
	out := struct {
		ytResultJSON
		Columns  []ytResultJSON `json:"columns,omitempty"`
		RowLevel *[]rowLevel    `json:"row_level_acl,omitempty"`
	}{ytResultJSON: ytResult(r.Result)}
	if r.Columns != nil {
		out.Columns = []ytResultJSON{}
		for _, c := range r.Columns {
			out.Columns = append(out.Columns, ytResult(c.Result))
		}
	}
	if r.RowLevel != nil {
		// present, and [] when no row-level ACE names the user
		list := []rowLevel{}
		for _, rl := range r.RowLevel {
			list = append(list, rowLevel{rl.Predicate, rl.Mode})
		}
		out.RowLevel = &list
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}

func describeACE(tree *ytsaurus.Tree, node string, a *ytsaurus.ACE) string {
	pos := tree.Doc.Pos(a.At)
	return fmt.Sprintf("ACE #%d at %s (%s): %s %s for %s, %s", a.Index, node, pos, a.Action, a.Permissions.Describe(), strings.Join(a.Subjects, ", "), a.Mode)
}

func writeYTText(w io.Writer, tree *ytsaurus.Tree, req ytsaurus.Request, r *ytsaurus.Response) error {
	var b strings.Builder
	if r.Action == ytsaurus.Allow {
		b.WriteString("allowed\n")
	} else {
		b.WriteString("denied\n")
	}
	fmt.Fprintf(&b, "%s on %s for user %s (%s)\n", req.Permission, req.Path, r.User.Name, r.User.DescribeGroups())
	switch {
	case r.Fast == "banned":
		fmt.Fprintf(&b, "reason: user %s is banned: YTsaurus denies a banned user everything, before looking at superusers or ACLs\n", r.User.Name)
	case r.Fast == "superuser":
		fmt.Fprintf(&b, "reason: %s is a superuser (root, or in superusers): YTsaurus allows without looking at ACLs\n", r.User.Name)
	case r.ACE != nil && r.Action == ytsaurus.Deny:
		fmt.Fprintf(&b, "denied by: %s, through %s\n", describeACE(tree, r.Object, r.ACE), r.Subject)
	case r.ACE != nil:
		fmt.Fprintf(&b, "allowed by: %s, through %s\n", describeACE(tree, r.Object, r.ACE), r.Subject)
	default:
		fmt.Fprintf(&b, "reason: no ACE allows %s (deny by default)\n", req.Permission)
	}
	if len(r.Columns) > 0 {
		b.WriteString("columns:\n")
		for _, c := range r.Columns {
			how := "(as the node)"
			switch {
			case c.ACE != nil:
				how = fmt.Sprintf("by ACE #%d at %s, through %s", c.ACE.Index, c.Object, c.Subject)
			case c.Action == ytsaurus.Deny && r.Action == ytsaurus.Allow:
				how = "(a columnar ACE restricts it, and no columnar allow matches the user)"
			case c.Action == ytsaurus.Undefined:
				how = "(a columnar ACE restricts it and none matches, but full_read is allowed explicitly, so it is not denied)"
			}
			fmt.Fprintf(&b, "  %s: %s %s\n", c.Column, c.Action, how)
		}
	}
	for _, rl := range r.RowLevel {
		fmt.Fprintf(&b, "row-level: rows where %s (inapplicable: %s)\n", rl.Predicate, rl.Mode)
	}
	if r.RowLevel != nil && len(r.RowLevel) == 0 {
		b.WriteString("row-level: the table has row-level ACEs and none names this user: row_level_acl is empty, so the user reads no rows\n")
	}
	if len(r.Steps) > 0 {
		b.WriteString("walk, from the node up:\n")
		for _, st := range r.Steps {
			fmt.Fprintf(&b, "  %s: %s\n", describeACE(tree, st.Node.Path, st.ACE), st.Effect)
		}
	}
	if len(r.Notes) > 0 {
		b.WriteString("notes:\n")
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "  - %s\n", n)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
