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

// maxChecks bounds the check-permission answers one matrix or diff asks
// for: each walks the node's ancestors and their ACEs, and a tree of
// thousands of nodes and users is tens of millions of them, minutes of
// CPU: aclint says so rather than run that long.
const maxChecks = 2_000_000

func tooManyChecks(what, file string, checks int, hint string) error {
	if checks <= maxChecks {
		return nil
	}
	return fmt.Errorf("%s's %s would ask check-permission %d times, past the %d aclint asks for one answer: %s", file, what, checks, maxChecks, hint)
}

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
	return audit.Usage{Words: "USER", Example: "alice", Files: "-f tree.yaml"}
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
	if err := tooManyChecks("matrix", t.Doc.File, len(nodes)*len(users), "narrow it with --under PATH, or ask aclint access USER for one user"); err != nil {
		return err
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

// Diff compares two trees (audit.Differ): for every node both list, every
// user both define (and guest) and each permission access lists, the
// check-permission answer in each; a change is caused by the ACE that
// decides in NEW (a gain) or in OLD (a loss). Nodes listed in one tree
// only are added or removed; users defined in one only are noted, since
// YTsaurus does not know them in the other.
func (Sys) Diff(old, new audit.Model, _ audit.DiffSides) (*audit.Diff, error) {
	o, n := old.(*Tree), new.(*Tree)
	if o.Bare || n.Bare {
		return nil, errors.New("a lone ACL does not describe its users, so what changes for them is not known: compare two tree documents with their users and groups")
	}
	d := &audit.Diff{System: System, By: "YTsaurus", ObjectWord: "path", SectionWord: "tree"}
	var paths []string
	for _, x := range o.Order {
		if n.Nodes[x.Path] != nil && n.Nodes[x.Path].Listed {
			paths = append(paths, x.Path)
		} else {
			d.Removed = append(d.Removed, audit.Object{Name: x.Path})
		}
	}
	for _, x := range n.Order {
		if o.Nodes[x.Path] == nil || !o.Nodes[x.Path].Listed {
			d.Added = append(d.Added, audit.Object{Name: x.Path})
		}
	}
	// every user either tree defines, and guest: a user one tree does not
	// define does not exist there, so has no access there, and all it
	// has in the other is gained or lost
	type who struct {
		name     string
		old, new bool
	}
	var users []who
	for _, s := range n.Dir.Subjects() {
		if !s.Group && (!s.Builtin || s.Name == Guest) {
			users = append(users, who{s.Name, o.Dir.User(s.Name) != nil, true})
		}
	}
	var gone []string
	for _, s := range o.Dir.Subjects() {
		if !s.Group && !s.Builtin && n.Dir.User(s.Name) == nil {
			users = append(users, who{s.Name, true, false})
			gone = append(gone, s.Name)
		}
	}
	var added []string
	for _, u := range users {
		if !u.old {
			added = append(added, u.name)
		}
	}
	if len(added) > 0 {
		d.Notes = append(d.Notes, "defined in NEW only, so every access they have there is a gain: "+strings.Join(added, ", "))
	}
	if len(gone) > 0 {
		d.Notes = append(d.Notes, "defined in OLD only, so every access they had there is a loss: "+strings.Join(gone, ", "))
	}
	if err := tooManyChecks("diff", n.Doc.File, 2*len(paths)*len(users)*len(listedPermissions), "compare aclint access USER on each tree for the users the change is about"); err != nil {
		return nil, err
	}
	ask := func(t *Tree, defined bool, u string, p Permission, path string) (*Response, error) {
		if !defined {
			return nil, nil
		}
		return t.Check(Request{User: u, Permission: p, Path: path})
	}
	allowed := func(r *Response) bool { return r != nil && r.Action == Allow }
	var changes []audit.Change
	for _, path := range paths {
		for _, u := range users {
			for _, p := range listedPermissions {
				or, err := ask(o, u.old, u.name, p, path)
				if err != nil {
					return nil, err
				}
				nr, err := ask(n, u.new, u.name, p, path)
				if err != nil {
					return nil, err
				}
				if allowed(or) == allowed(nr) {
					continue
				}
				c := audit.Change{Object: path, Subject: "user:" + u.name, Action: p.String(), Gained: allowed(nr)}
				var g audit.Grant
				if c.Gained {
					g = n.grant(nr, nr.User, path)
				} else {
					g = o.grant(or, or.User, path)
				}
				c.Via = &g
				changes = append(changes, c)
			}
		}
	}
	d.Changes = audit.Replay(changes)
	return d, nil
}
