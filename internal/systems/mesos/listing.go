package mesos

import (
	"fmt"
	"sort"
	"strings"

	"github.com/aclint/aclint/internal/audit"
)

// This file answers the listings over every ACL kind the file writes
// (audit.Accesser, audit.Matrixer): each cell is Authorize's answer, the
// same as check's.

// listed are the kinds a listing covers, in acls.proto's order: those the
// file writes a list for. A kind with no list answers every request
// alike (permissive), which the listing says once in a note.
func (a *ACLs) listed() (kinds []*Kind, note string) {
	for _, k := range Kinds {
		if _, ok := a.Lists[k.Key]; ok {
			kinds = append(kinds, k)
		}
	}
	if n := len(Kinds) - len(kinds); n > 0 {
		what := "denies them to everyone"
		if a.Permissive {
			what = "allows them to everyone"
		}
		note = fmt.Sprintf("the other %d ACL kinds have no list here: permissive is %t, so the local authorizer %s", n, a.Permissive, what)
	}
	return kinds, note
}

// otherObject stands for every object the lists do not name: the
// authorizer compares names for equality, so all such objects answer
// alike.
const otherObject = "(any other)"

// objects are the rows of a kind: the objects its entries name, then one
// named nowhere; a kind whose requests always carry ANY has that one row.
// A role pattern (x/%) is not a role a request names: check answers a
// role under it.
func (a *ACLs) objects(k *Kind) []string {
	if k.ImplicitObject() {
		return []string{"ANY"}
	}
	set := map[string]bool{}
	for _, e := range a.Lists[k.Key] {
		if e.Object != nil && e.Object.Type == SOME {
			for _, v := range e.Object.Values {
				if !(k.Rule == Role && strings.HasSuffix(v, "%")) {
					set[v] = true
				}
			}
		}
	}
	out := make([]string, 0, len(set)+1)
	for v := range set {
		out = append(out, v)
	}
	sort.Strings(out)
	return append(out, otherObject)
}

// lister answers the many requests of a listing as Authorize does, with
// each kind's rules built once and no explanation of the entries passed
// over: a listing asks thousands of times what check asks once, and
// TestListingsAreAuthorize holds every answer to Authorize's.
type lister struct {
	a     *ACLs
	rules map[*Kind][]*Rule
}

func (a *ACLs) lister() *lister { return &lister{a: a, rules: map[*Kind][]*Rule{}} }

func (l *lister) kindRules(k *Kind) []*Rule {
	rs, ok := l.rules[k]
	if !ok {
		rs = l.a.Rules(k)
		l.rules[k] = rs
	}
	return rs
}

// ask is Authorize for one principal (nil: unauthenticated) on one row's
// object, without a command: objs are the kind's rows, which the object
// standing for any other must not be.
func (l *lister) ask(k *Kind, p *string, object string, objs []string) *Decision {
	subject := &Entity{Type: ANY}
	if p != nil {
		subject = &Entity{Type: SOME, Values: []string{*p}}
	}
	var obj *string
	switch {
	case k.ImplicitObject():
	case object == otherObject:
		o := unnamed(objs)
		obj = &o
	default:
		obj = &object
	}
	d := &Decision{}
	c := l.a.decide(k, l.kindRules(k), subject, obj)
	d.Checks, d.Allowed = []Check{c}, c.Allowed
	if parent := NestedParent(k.Key); parent != "" {
		// as Authorize: the parent list for the executor's user (ANY), first
		pk := LookupKind(parent)
		pc := l.a.decide(pk, l.kindRules(pk), subject, nil)
		d.Checks = append([]Check{pc}, d.Checks...)
		d.Allowed = d.Allowed && pc.Allowed
	}
	return d
}

// maxSteps bounds the work of one matrix or diff: a step is one entry
// compared with one request, and a listing asks each (object, principal)
// pair down its kind's list. An --acls file of thousands of entries per
// kind and thousands of principals is billions of steps, minutes of CPU:
// aclint says so rather than run that long.
const maxSteps = 500_000_000

// tooLarge is the error for a listing past maxSteps, or nil.
func (l *lister) tooLarge(what, file string, kinds []*Kind, subjects int, objects func(*Kind) []string) error {
	steps := 0.0
	for _, k := range kinds {
		n := len(l.kindRules(k)) + 1
		if p := NestedParent(k.Key); p != "" {
			n += len(l.kindRules(LookupKind(p)))
		}
		steps += float64(len(objects(k))) * float64(subjects) * float64(n)
	}
	if steps <= maxSteps {
		return nil
	}
	return fmt.Errorf("%s's %s would compare about %.0e entries with requests, past the %.0e aclint takes for one answer: ask aclint access PRINCIPAL for one principal's rows, or aclint who-can ACTION OBJECT for one object", file, what, steps, float64(maxSteps))
}

func noListing(scope audit.Scope) error {
	if scope.Partition != "" || scope.Under != "" {
		return audit.Usagef("Mesos ACLs have no partitions and no tree: --partition and --under do not apply")
	}
	return nil
}

// AccessUsage is the words of a Mesos access question.
func (Sys) AccessUsage() audit.Usage {
	return audit.Usage{Words: "PRINCIPAL (- for an unauthenticated request)", Example: "ops", Files: "-f acls.json"}
}

// Access lists what PRINCIPAL may do: for every ACL kind the file writes,
// each object its entries name and any other object, with the entry that
// decides.
func (Sys) Access(m audit.Model, q audit.Question, scope audit.Scope, out audit.AccessWriter) error {
	a := m.(*ACLs)
	if len(q.Words) != 1 || q.Groups != nil {
		return audit.Usagef("a Mesos access question names one principal, and principals have no groups")
	}
	if err := noListing(scope); err != nil {
		return err
	}
	var p *string
	kind, name := "anonymous", "(no principal)"
	if q.Words[0] != "-" {
		p = &q.Words[0]
		kind, name = "principal", q.Words[0]
	}
	kinds, note := a.listed()
	l := a.lister()
	h := audit.AccessHead{System: System, Subject: q.Words[0], Actions: []string{"allowed"},
		SectionWord: "acl kind", ObjectWord: "object", RuleWord: "rule"}
	if note != "" {
		h.Notes = []string{note}
	}
	if err := out.Head(h); err != nil {
		return err
	}
	for _, k := range kinds {
		if err := out.Section(audit.AccessSection{Name: k.Key, Title: fmt.Sprintf("%s (objects: %s): %s %s", k.Key, k.Object, kind, name)}); err != nil {
			return err
		}
		objs := a.objects(k)
		for _, o := range objs {
			d := l.ask(k, p, o, objs)
			c := audit.Cell{}
			if d.Allowed {
				g := a.grant(d, kind, name)
				c.By = &g
			}
			if err := out.Row(audit.AccessRow{Section: k.Key, Object: o, Kind: k.Object, Cells: []audit.Cell{c}}); err != nil {
				return err
			}
		}
	}
	return nil
}

// Matrix shows every (ACL kind, object) row against everyone (a principal
// named nowhere), an unauthenticated request and every principal the
// lists name: "allow" or "-".
func (Sys) Matrix(m audit.Model, q audit.MatrixQuestion, out audit.MatrixWriter) error {
	a := m.(*ACLs)
	if q.Action != "" {
		return audit.Usagef("--action is not a Mesos matrix word: every ACL kind the file writes is a section")
	}
	if err := noListing(q.Scope); err != nil {
		return err
	}
	set := map[string]bool{}
	for _, k := range Kinds {
		for _, p := range a.principals(k) {
			set[p] = true
		}
	}
	for _, s := range q.Subjects {
		if s.Kind != "" && s.Kind != "principal" {
			return audit.Usagef("--subjects %s:%s: Mesos subjects are principals: principal:NAME or NAME", s.Kind, s.Name)
		}
		set[s.Name] = true
	}
	principals := make([]string, 0, len(set))
	for p := range set {
		principals = append(principals, p)
	}
	sort.Strings(principals)
	names := []string{"everyone", "anonymous"}
	for _, p := range principals {
		names = append(names, "principal:"+p)
	}
	kinds, note := a.listed()
	l := a.lister()
	if err := l.tooLarge("matrix", a.Doc.File, kinds, len(names), a.objects); err != nil {
		return err
	}
	h := audit.MatrixHead{System: System, Subjects: names, SectionWord: "acl kind", ObjectWord: "object", Joiner: " ",
		Legend: `"allow" or "-"; everyone is a principal no list names, anonymous a request without one`}
	if note != "" {
		h.Notes = []string{note}
	}
	if err := out.Head(h); err != nil {
		return err
	}
	other := unnamed(principals)
	for _, k := range kinds {
		objs := a.objects(k)
		for _, o := range objs {
			row := audit.MatrixRow{Section: k.Key, Object: o, Cells: make([]string, len(names))}
			for i := range names {
				var p *string
				switch i {
				case 0:
					p = &other
				case 1:
				default:
					p = &principals[i-2]
				}
				d := l.ask(k, p, o, objs)
				row.Cells[i] = audit.NoAccess
				if d.Allowed {
					row.Cells[i] = "allow"
				}
			}
			if err := out.Row(row); err != nil {
				return err
			}
		}
	}
	return nil
}

// Diff compares two ACL files (audit.Differ): for every ACL kind either
// writes, every object either names and any other, every principal either
// names, one named nowhere (everyone) and an unauthenticated request, the
// local authorizer's answer in each; a change is caused by the entry that
// decides in NEW (a gain) or in OLD (a loss).
func (Sys) Diff(old, new audit.Model, _ audit.DiffSides) (*audit.Diff, error) {
	o, n := old.(*ACLs), new.(*ACLs)
	d := &audit.Diff{System: System, By: "Mesos", ObjectWord: "object", SectionWord: "acl kind"}
	if o.Permissive != n.Permissive {
		d.Notes = append(d.Notes, fmt.Sprintf("permissive changes from %t to %t: every ACL kind neither file writes a list for now %s everyone", o.Permissive, n.Permissive,
			map[bool]string{true: "allows", false: "denies"}[n.Permissive]))
	}
	var kinds []*Kind
	for _, k := range Kinds {
		_, inOld := o.Lists[k.Key]
		_, inNew := n.Lists[k.Key]
		if inOld || inNew {
			kinds = append(kinds, k)
		}
	}
	// Mesos files are small: the changes are found here, where an error
	// can still stop the answer, and handed out again on each walk
	var changes []audit.Change
	ol, nl := o.lister(), n.lister()
	both := func(k *Kind) []string { return union(o.objects(k), n.objects(k)) }
	subjects := map[string]bool{}
	for _, k := range kinds {
		for _, p := range append(o.principals(k), n.principals(k)...) {
			subjects[p] = true
		}
	}
	if err := nl.tooLarge("diff", n.Doc.File, kinds, 2*(len(subjects)+2), both); err != nil {
		return nil, err
	}
	for _, k := range kinds {
		{
			objs := union(o.objects(k), n.objects(k))
			principals := union(o.principals(k), n.principals(k))
			other := unnamed(principals)
			subjects := append([]string{"everyone", "anonymous"}, principals...)
			for _, ob := range objs {
				for i, s := range subjects {
					var p *string
					who := "principal:" + s
					switch i {
					case 0:
						p, who = &other, "everyone"
					case 1:
						who = "anonymous"
					default:
						p = &subjects[i]
					}
					od := ol.ask(k, p, ob, objs)
					nd := nl.ask(k, p, ob, objs)
					if od.Allowed == nd.Allowed {
						continue
					}
					kind, name := "principal", s
					if i == 0 {
						kind, name = "everyone", "*"
					} else if i == 1 {
						kind, name = "anonymous", "(no principal)"
					}
					c := audit.Change{Section: k.Key, Object: ob, Subject: who, Action: k.Key, Gained: nd.Allowed}
					var g audit.Grant
					if nd.Allowed {
						g = n.grant(nd, kind, name)
					} else {
						g = o.grant(od, kind, name)
					}
					c.Via = &g
					changes = append(changes, c)
				}
			}
		}
	}
	d.Changes = audit.Replay(changes)
	return d, nil
}

// union is the sorted names of both lists; "(any other)" stays last.
func union(a, b []string) []string {
	set := map[string]bool{}
	for _, v := range append(append([]string(nil), a...), b...) {
		if v != otherObject {
			set[v] = true
		}
	}
	out := make([]string, 0, len(set)+1)
	for v := range set {
		out = append(out, v)
	}
	sort.Strings(out)
	if len(a) > 0 && a[len(a)-1] == otherObject || len(b) > 0 && b[len(b)-1] == otherObject {
		out = append(out, otherObject)
	}
	return out
}
