package yarn

import (
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
)

// This file answers the listings over every queue (audit.Accesser,
// audit.Matrixer): each cell is the answer Check gives.

// listingSetup checks what a listing over every queue needs: YARN has
// one partition, and the Capacity Scheduler's answers all hang on
// yarn.acl.enable, so without it a listing says nothing.
func listingSetup(m audit.Model, scope audit.Scope, what string) (*Setup, error) {
	s := m.(*Setup)
	if scope.Partition != "" && scope.Partition != "default" {
		return nil, audit.Usagef("YARN queues have no partitions: --partition default, or none (got %q)", scope.Partition)
	}
	if !s.FS && !s.Known {
		return nil, fmt.Errorf("%s depends on yarn.acl.enable (false by default: everyone everywhere): %s", what, s.EnableHint())
	}
	if scope.Under != "" {
		if _, err := s.FindQueue(scope.Under); err != nil {
			return nil, audit.Usagef("--under: %v", err)
		}
	}
	return s, nil
}

// under reports whether a queue is in the scope's subtree.
func under(path string, scope audit.Scope) bool {
	return scope.Under == "" || path == scope.Under || strings.HasPrefix(path, scope.Under+".")
}

// AccessUsage is the words of a YARN access question.
func (Sys) AccessUsage() audit.Usage {
	return audit.Usage{Words: "USER", Example: "alice --groups data", Files: "-f capacity-scheduler.xml -f yarn-site.xml"}
}

// Access lists the user's submit and admin access on every queue, in tree
// order, with the ACL entry that grants each (--groups are the user's
// groups, as the ResourceManager's group mapping gives them).
func (Sys) Access(m audit.Model, q audit.Question, scope audit.Scope, out audit.AccessWriter) error {
	if len(q.Words) != 1 {
		return audit.Usagef("a YARN access question names one user")
	}
	s, err := listingSetup(m, scope, q.Words[0]+"'s access")
	if err != nil {
		return err
	}
	user := q.Words[0]
	groups := q.Groups
	if groups == nil {
		groups = []string{}
	}
	if err := out.Head(audit.AccessHead{System: System, Subject: user, Actions: []string{"submit", "admin"}, SectionWord: "partition", ObjectWord: "queue", RuleWord: "acl"}); err != nil {
		return err
	}
	if err := out.Section(audit.AccessSection{Name: "default", Groups: groups, GroupsSource: "--groups, as the ResourceManager's group mapping gives them",
		Title: fmt.Sprintf("YARN: user %s, groups [%s]", user, strings.Join(groups, ", "))}); err != nil {
		return err
	}
	var werr error
	s.CS.Walk(func(qu *Queue) {
		if werr != nil || !under(qu.Path, scope) {
			return
		}
		row := audit.AccessRow{Section: "default", Object: qu.Path, Kind: queueKind(qu)}
		for _, a := range []Action{Submit, Administer} {
			h := s.grant(qu, user, groups, a)
			if a == Submit && s.refusesSubmission(qu) {
				h = nil // a STOPPED queue takes no submission (its kind says so)
			}
			c := audit.Cell{By: holderGrant(h)}
			c.Unknown = h == nil && s.CS.Decide(qu.Path, user, groups, a).Unknown
			row.Cells = append(row.Cells, c)
		}
		werr = out.Row(row)
	})
	return werr
}

func queueKind(q *Queue) string {
	switch {
	case len(q.Children) > 0 || q.MarkedParent:
		return "parent"
	case q.Stopped != nil:
		return "stopped" // a leaf that takes no submission
	}
	return "leaf"
}

// holderGrant is a YARN grant in the neutral shape; the wildcard keeps its
// name, as YARN's ACL syntax has it.
func holderGrant(h *Holder) *audit.Grant {
	if h == nil {
		return nil
	}
	g := &audit.Grant{Kind: h.Kind, Name: h.Name, Object: h.Queue, Rule: h.ACL, Inherited: h.Inherited, Default: h.Default}
	switch {
	case h.Default:
		g.Note = "root's default *"
	case h.File != "":
		g.Pos = engine.Position{File: h.File, Line: h.Pos.Line, Col: h.Pos.Col}
	}
	return g
}

// Matrix shows every queue against everyone, every user and group an ACL
// names and the subjects asked for: "admin" (administering lets one submit
// too), "submit" or "-".
func (Sys) Matrix(m audit.Model, q audit.MatrixQuestion, out audit.MatrixWriter) error {
	if q.Action != "" {
		return audit.Usagef("--action is not a YARN matrix word: a cell says admin, submit or -")
	}
	s, err := listingSetup(m, q.Scope, "the matrix")
	if err != nil {
		return err
	}
	var extra []Subject
	for _, x := range q.Subjects {
		if x.Kind == "" {
			x.Kind = "user"
		}
		if x.Kind != "user" && x.Kind != "group" {
			return audit.Usagef("--subjects %s:%s: use user:NAME or group:NAME", x.Kind, x.Name)
		}
		extra = append(extra, Subject{Kind: x.Kind, Name: x.Name})
	}
	cols := s.Subjects(extra)
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Kind + ":" + c.Name
		if c.Kind == "everyone" {
			names[i] = "everyone"
		}
	}
	if err := out.Head(audit.MatrixHead{System: System, Subjects: names, SectionWord: "partition", ObjectWord: "queue",
		Legend: `a cell is "admin" (admin and submit), "submit", "-", or "?" where an ACL on the way is not known; on a STOPPED queue, which takes no submission, "admin, stopped" and "stopped" where the ACLs would let one submit`}); err != nil {
		return err
	}
	for _, qu := range s.Queues() {
		if !under(qu.Path, q.Scope) {
			continue
		}
		row := audit.MatrixRow{Section: "default", Object: qu.Path, Cells: make([]string, len(cols))}
		for i, c := range cols {
			row.Cells[i] = s.Cell(qu, c)
		}
		if err := out.Row(row); err != nil {
			return err
		}
	}
	return nil
}

// Diff compares two setups (audit.Differ), each with the yarn-site.xml
// beside its file when the files did not say yarn.acl.enable: every queue
// in both, submit and admin, every user and group either names, and
// everyone else.
func (Sys) Diff(old, new audit.Model, sides audit.DiffSides) (*audit.Diff, error) {
	o, n := old.(*Setup), new.(*Setup)
	ReadSiteBeside(o, sides.Old, engine.Options{MaxSize: sides.MaxInput, Seen: sides.Seen})
	ReadSiteBeside(n, sides.New, engine.Options{MaxSize: sides.MaxInput, Seen: sides.Seen})
	res := Diff(o, n)
	d := &audit.Diff{System: System, By: "YARN", ObjectWord: "queue", SectionWord: "partition", Notes: res.Notes}
	for _, q := range res.Added {
		d.Added = append(d.Added, audit.Object{Name: q})
	}
	for _, q := range res.Removed {
		d.Removed = append(d.Removed, audit.Object{Name: q})
	}
	grants := map[*Holder]*audit.Grant{}
	d.Changes = func(emit func(audit.Change)) {
		for _, c := range res.Changes {
			who := "everyone"
			if c.Kind != "wildcard" {
				who = c.Kind + ":" + c.Name
			}
			g, ok := grants[c.Via]
			if !ok {
				g = holderGrant(c.Via)
				grants[c.Via] = g
			}
			emit(audit.Change{Object: c.Queue, Subject: who, Action: c.Action.String(), Gained: c.Gained, Via: g})
		}
	}
	return d, nil
}
