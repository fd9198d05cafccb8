package cli

import (
	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/input"
	"github.com/aclint/aclint/internal/systems/ytsaurus"
)

func newYTCmd(s *streams) *cobra.Command {
	c := &cobra.Command{
		Use:   "yt",
		Short: "YTsaurus: answer check-permission and compute @effective_acl offline over a tree document",
		Long: `Commands for YTsaurus access control on Cypress nodes, answered offline over a
tree document (users, groups and nodes with their ACLs) exactly as the master
decides. Lint the document with 'aclint lint' (recognised by its nodes key, or
forced with --system ytsaurus).`,
	}
	c.AddCommand(newYTCheckCmd(s), newYTEffectiveACLCmd(s))
	return group(c)
}

// loadYTTree reads a tree document (or a node's @acl hanging at path) and
// refuses one YTsaurus would not hold, showing why.
func loadYTTree(s *streams, file, path string) (*ytsaurus.Tree, error) {
	name, data, err := input.ReadSource(file, s.in, s.maxInput)
	if err != nil {
		return nil, usageErr("%w", err)
	}
	doc := ytsaurus.Parse(name, data)
	opts := ytsaurus.Options{Path: path}
	tree := ytsaurus.Load(doc, opts)
	if path != "" && !tree.Bare {
		return nil, usageErr("--path is for a file holding a single node's ACL (the JSON of yt get //path/@acl); %s is a tree document", name)
	}
	if tree.Errors() != nil {
		return nil, refusedErr(name, "YTsaurus would refuse this tree (or aclint cannot read it), so it answers no question", "aclint lint --system ytsaurus "+file, ytsaurus.Lint(doc, opts), doc.Lines())
	}
	return tree, nil
}
