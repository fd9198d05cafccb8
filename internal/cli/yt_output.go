package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/aclint/aclint/internal/systems/ytsaurus"
)

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
func ytJSON(r *ytsaurus.Response) any {
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
	return out
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
	writeNotes(&b, r.Notes)
	_, err := io.WriteString(w, b.String())
	return err
}
