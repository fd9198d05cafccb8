package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/systems/ytsaurus"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

func newYTCheckCmd(s *streams) *cobra.Command {
	// the request and how to answer it
	var o struct {
		file, path, columns, output string
		groups, tags                []string
		vital, quiet                bool
	}
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
			if o.file == "" {
				return usageErr("yt check needs -f TREE: the tree document (or a node's @acl with --path)")
			}
			if err := checkOutput(o.output, "text", "json"); err != nil {
				return err
			}
			perm, ok := ytsaurus.ParsePermission(args[1])
			if !ok {
				msg := fmt.Sprintf("unknown permission %q: use one of %s", args[1], strings.Join(ytsaurus.PermissionNames(), ", "))
				if near := config.Nearest(strings.ToLower(args[1]), ytsaurus.PermissionNames()); near != "" {
					msg = fmt.Sprintf("unknown permission %q (did you mean %s?)", args[1], near)
				}
				return usageErr("%s", msg)
			}
			tree, err := loadYTTree(s, o.file, o.path)
			if err != nil {
				return err
			}
			req := ytsaurus.Request{User: args[0], Permission: perm, Path: args[2], Vital: o.vital, Groups: o.groups, Tags: o.tags}
			if cmd.Flags().Changed("columns") {
				req.Columns = []string{}
				for _, c := range strings.Split(o.columns, ",") {
					if c = strings.TrimSpace(c); c != "" {
						req.Columns = append(req.Columns, c)
					}
				}
			}
			r, err := tree.Check(req)
			if errors.Is(err, ytsaurus.ErrNoSuchUser) {
				return usageErr("%w (the user is neither in the tree's users nor a built-in user)", err)
			}
			if err != nil {
				return usageErr("%w", err)
			}
			return writeVerdict(s, verdict{ok: r.Action == ytsaurus.Allow,
				text: func(w io.Writer) error { return writeYTText(w, tree, req, r) },
				json: func() any { return ytJSON(r) }}, o.output, o.quiet)
		},
	}
	f := c.Flags()
	f.StringVarP(&o.file, "file", "f", "", "the tree document, or - for standard input")
	f.StringVar(&o.path, "path", "", "for a file holding one node's ACL (yt get --format json //path/@acl): the Cypress path it hangs at")
	f.StringVar(&o.columns, "columns", "", "comma-separated columns to answer for too (columnar ACEs)")
	f.BoolVar(&o.vital, "vital", false, "register_queue_consumer: the consumer to register is vital")
	f.StringSliceVar(&o.groups, "member-of", nil, "with a lone ACL (--path): the groups the user is in, beyond users and everyone")
	f.StringSliceVar(&o.tags, "tags", nil, "with a lone ACL (--path): the user's tags, for subject tag filters")
	verdictFlags(f, &o.output, &o.quiet, "what yt check-permission prints, without ids")
	return c
}
