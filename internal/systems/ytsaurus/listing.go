package ytsaurus

import (
	"errors"
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/audit"
)

// This file answers the listings over every node the document lists
// (audit.Accesser, audit.Matrixer): each cell is Check's answer, the same
// as check-permission's.

// listedPermissions are access's columns: the permissions a node's ACL
// grants on its own (register_queue_consumer, modify_children and
// full_read are asked one at a time with check).
var listedPermissions = []Permission{Read, Write, Use, Administer, Create, Remove, Mount, Manage}

// inScope are the listed nodes under --under, in document order.
func (t *Tree) inScope(scope audit.Scope) ([]*Node, error) {
	if scope.Partition != "" {
		return nil, audit.Usagef("a Cypress tree has no partitions: --partition does not apply")
	}
	under := ""
	if scope.Under != "" {
		p, err := NormalizePath(scope.Under)
		if err != nil {
			return nil, audit.Usagef("--under: %v", err)
		}
		under = p
	}
	var out []*Node
	for _, n := range t.Order {
		if under == "" || n.Path == under || strings.HasPrefix(n.Path, strings.TrimSuffix(under, "/")+"/") {
			out = append(out, n)
		}
	}
	if under != "" && len(out) == 0 {
		return nil, audit.Usagef("--under %s: the document lists no node there", under)
	}
	return out, nil
}

// AccessUsage is the words of a YTsaurus access question.
func (Sys) AccessUsage() audit.Usage {
	return audit.Usage{Words: "USER", Example: "alice"}
}

// Access lists USER's permissions on every node the document lists, each
// with the ACE that grants it, as check-permission answers them.
func (Sys) Access(m audit.Model, q audit.Question, scope audit.Scope, out audit.AccessWriter) error {
	t := m.(*Tree)
	if len(q.Words) != 1 {
		return audit.Usagef("a YTsaurus access question names one user")
	}
	nodes, err := t.inScope(scope)
	if err != nil {
		return err
	}
	user := q.Words[0]
	actions := make([]string, len(listedPermissions))
	for i, p := range listedPermissions {
		actions[i] = p.String()
	}
	if err := out.Head(audit.AccessHead{System: System, Subject: user, Actions: actions, SectionWord: "tree", ObjectWord: "path", RuleWord: "ace"}); err != nil {
		return err
	}
	sec := audit.AccessSection{Title: "YTsaurus: user " + user, Groups: q.Groups}
	if u := t.Dir.User(user); u != nil && !t.Bare {
		sec.Groups, sec.GroupsSource = u.Closure(), "the document's member_of"
		sec.Title += ", " + u.DescribeGroups()
	} else if q.Groups != nil {
		sec.GroupsSource = "--groups"
		sec.Title += ", groups [" + strings.Join(q.Groups, ", ") + "]"
	}
	if err := out.Section(sec); err != nil {
		return err
	}
	for _, n := range nodes {
		row := audit.AccessRow{Object: n.Path, Kind: "node"}
		for _, p := range listedPermissions {
			r, err := t.Check(Request{User: user, Permission: p, Path: n.Path, Groups: q.Groups})
			if err != nil {
				return err
			}
			c := audit.Cell{}
			if r.Action == Allow {
				g := t.grant(r, r.User, n.Path)
				c.By = &g
			}
			row.Cells = append(row.Cells, c)
		}
		if err := out.Row(row); err != nil {
			return err
		}
	}
	return nil
}

// Matrix shows every listed node against every user the document defines
// and guest: the cell is the permission asked with --action (read when
// not given) when check-permission allows it, else "-".
func (Sys) Matrix(m audit.Model, q audit.MatrixQuestion, out audit.MatrixWriter) error {
	t := m.(*Tree)
	if t.Bare {
		return errors.New("a lone ACL does not describe its users or their groups, so who may use it is not known: ask about one user with aclint access --groups, or give a tree document with its users and groups")
	}
	perm := Read
	if q.Action != "" {
		p, ok := ParsePermission(q.Action)
		if !ok || p == 0 || p&(p-1) != 0 {
			return audit.Usagef("--action %q is not one permission YTsaurus checks (%s)", q.Action, strings.Join(PermissionNames(), ", "))
		}
		perm = p
	}
	nodes, err := t.inScope(q.Scope)
	if err != nil {
		return err
	}
	var users []*Subject
	for _, s := range t.Dir.Subjects() {
		if !s.Group && (!s.Builtin || s.Name == Guest) {
			users = append(users, s)
		}
	}
	for _, x := range q.Subjects {
		s := t.Dir.User(x.Name)
		if x.Kind != "" && x.Kind != "user" || s == nil {
			return audit.Usagef("--subjects %s: YTsaurus answers for the users the document defines (user:NAME or NAME)", x.Name)
		}
	}
	names := make([]string, len(users))
	for i, u := range users {
		names[i] = "user:" + u.Name
	}
	if err := out.Head(audit.MatrixHead{System: System, Subjects: names, SectionWord: "tree", ObjectWord: "path",
		Legend: fmt.Sprintf(`%q where check-permission allows it, "-" where not`, perm.String())}); err != nil {
		return err
	}
	for _, n := range nodes {
		row := audit.MatrixRow{Object: n.Path, Cells: make([]string, len(users))}
		for i, u := range users {
			r, err := t.Check(Request{User: u.Name, Permission: perm, Path: n.Path})
			if err != nil {
				return err
			}
			row.Cells[i] = audit.NoAccess
			if r.Action == Allow {
				row.Cells[i] = perm.String()
			}
		}
		if err := out.Row(row); err != nil {
			return err
		}
	}
	return nil
}
