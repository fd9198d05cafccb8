package ytsaurus

import (
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/audit"
)

// verdict is the master's check-permission answer in the shape every
// system's check has, rendered once by the command line: aclint check -f
// TREE and aclint yt check give the same text and JSON. The walk up the
// tree is the rules consulted; the columns and row-level ACEs are the
// context; what yt check-permission prints (without ids) is the detail.
func (t *Tree) verdict(req Request, r *Response) *audit.Verdict {
	v := &audit.Verdict{System: System, Allowed: r.Action == Allow, Answer: "denied", Notes: r.Notes,
		Why:    fmt.Sprintf("%s may not %s %s", r.User.Name, req.Permission, req.Path),
		Detail: checkDetail(r), ConsultedTitle: "walk, from the node up"}
	if v.Allowed {
		v.Answer, v.Why = "allowed", fmt.Sprintf("%s may %s %s", r.User.Name, req.Permission, req.Path)
	}
	v.Context = []string{fmt.Sprintf("%s on %s for user %s (%s)", req.Permission, req.Path, r.User.Name, r.User.DescribeGroups())}
	switch {
	case r.Fast == "banned":
		v.Context = append(v.Context, fmt.Sprintf("user %s is banned: YTsaurus denies a banned user everything, before looking at superusers or ACLs", r.User.Name))
	case r.Fast == "superuser":
		v.Context = append(v.Context, fmt.Sprintf("%s is a superuser (root, or in superusers): YTsaurus allows without looking at ACLs", r.User.Name))
	case r.ACE == nil:
		v.Context = append(v.Context, fmt.Sprintf("no ACE allows %s (deny by default)", req.Permission))
	}
	g := t.grant(r, r.User, req.Path)
	if r.ACE != nil {
		g.Entry = fmt.Sprintf("%s %s for %s, %s", r.ACE.Action, r.ACE.Permissions.Describe(), strings.Join(r.ACE.Subjects, ", "), r.ACE.Mode)
	}
	v.By = &g
	for _, c := range r.Columns {
		how := "(as the node)"
		switch {
		case c.ACE != nil:
			how = fmt.Sprintf("by ACE #%d at %s, through %s", c.ACE.Index, c.Object, c.Subject)
		case c.Action == Deny && r.Action == Allow:
			how = "(a columnar ACE restricts it, and no columnar allow matches the user)"
		case c.Action == Undefined:
			how = "(a columnar ACE restricts it and none matches, but full_read is allowed explicitly, so it is not denied)"
		}
		v.Context = append(v.Context, fmt.Sprintf("column %s: %s %s", c.Column, c.Action, how))
	}
	for _, rl := range r.RowLevel {
		v.Context = append(v.Context, fmt.Sprintf("row-level: rows where %s (inapplicable: %s)", rl.Predicate, rl.Mode))
	}
	if r.RowLevel != nil && len(r.RowLevel) == 0 {
		v.Context = append(v.Context, "row-level: the table has row-level ACEs and none names this user: row_level_acl is empty, so the user reads no rows")
	}
	for _, st := range r.Steps {
		v.Consulted = append(v.Consulted, audit.Consulted{Object: st.Node.Path,
			Rule: fmt.Sprintf("ACE #%d (%s %s for %s, %s)", st.ACE.Index, st.ACE.Action, st.ACE.Permissions.Describe(), strings.Join(st.ACE.Subjects, ", "), st.ACE.Mode),
			Pos:  t.Doc.Pos(st.ACE.At), Result: st.Effect})
	}
	return v
}

// checkDetail is what yt check-permission prints (without ids), as
// YTsaurus' part of check's JSON.
func checkDetail(r *Response) []audit.Field {
	res := ytResult(r.Result)
	fs := []audit.Field{{Key: "action", Value: res.Action}, {Key: "object_name", Value: res.ObjectName}, {Key: "subject_name", Value: res.SubjectName}}
	doc := checkJSON(r)
	if doc.Columns != nil {
		fs = append(fs, audit.Field{Key: "columns", Value: doc.Columns})
	}
	if doc.RowLevel != nil {
		fs = append(fs, audit.Field{Key: "row_level_acl", Value: doc.RowLevel})
	}
	return fs
}
