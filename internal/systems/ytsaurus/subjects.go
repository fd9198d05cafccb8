package ytsaurus

import (
	"fmt"
	"sort"
	"strings"
)

// Built-in groups: everyone contains users, users contains superusers.
const (
	Everyone   = "everyone"
	Users      = "users"
	Superusers = "superusers"
	Root       = "root"
	Guest      = "guest"
	Owner      = "owner"
)

// builtinUsers are YTsaurus' built-in users with the group each is created
// in (GetBuiltinGroupForUser): guest only in everyone, the system users in
// superusers, the rest (the owner pseudo-user included) in users.
var builtinUsers = map[string]string{
	Root:                       Superusers,
	Guest:                      Everyone,
	"job":                      Superusers,
	"scheduler":                Superusers,
	"replicator":               Superusers,
	Owner:                      Users,
	"file_cache":               Superusers,
	"operations_cleaner":       Superusers,
	"operations_client":        Superusers,
	"tablet_cell_changelogger": Superusers,
	"tablet_cell_snapshotter":  Superusers,
	"table_mount_informer":     Superusers,
	"alien_cell_synchronizer":  Users,
	"queue_agent":              Users,
	"tablet_balancer":          Users,
	"yql_agent":                Users,
}

// builtinGroups with the group each belongs to.
var builtinGroups = map[string]string{
	Everyone:   "",
	Users:      Everyone,
	Superusers: Users,
}

// Subject is a user or a group.
type Subject struct {
	Name     string
	Group    bool
	Builtin  bool
	MemberOf []string // direct groups, as written (and the built-in one)
	Aliases  []string
	Tags     map[string]bool
	Banned   bool
	At       Pos // where the document defines it; zero for a built-in

	closure []string // every group, transitively; computed by Directory
}

// Closure is every group the subject belongs to, directly or through
// other groups, sorted.
func (s *Subject) Closure() []string { return s.closure }

// In reports whether the subject is in group g, transitively.
func (s *Subject) In(g string) bool {
	i := sort.SearchStrings(s.closure, g)
	return i < len(s.closure) && s.closure[i] == g
}

// Directory is every subject a tree knows: the built-ins and the
// document's users and groups, with names and aliases in one namespace.
type Directory struct {
	byName  map[string]*Subject
	byAlias map[string]*Subject
	order   []*Subject // document order, built-ins first
}

// Lookup finds a subject as YTsaurus resolves an ACE subject: a user by
// name, then a group by name, then an alias.
func (d *Directory) Lookup(name string) *Subject {
	if s := d.byName[name]; s != nil {
		return s
	}
	return d.byAlias[name]
}

// User finds a user by name or alias, for a permission check.
func (d *Directory) User(name string) *Subject {
	if s := d.Lookup(name); s != nil && !s.Group {
		return s
	}
	return nil
}

// Subjects lists every subject, built-ins first, then the document's in
// order.
func (d *Directory) Subjects() []*Subject { return d.order }

// Names lists every name and alias, sorted (for suggestions).
func (d *Directory) Names() []string {
	var out []string
	for n := range d.byName {
		out = append(out, n)
	}
	for n := range d.byAlias {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func newDirectory() *Directory {
	d := &Directory{byName: map[string]*Subject{}, byAlias: map[string]*Subject{}}
	var names []string
	for n := range builtinGroups {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		s := &Subject{Name: n, Group: true, Builtin: true}
		if p := builtinGroups[n]; p != "" {
			s.MemberOf = []string{p}
		}
		d.byName[n] = s
		d.order = append(d.order, s)
	}
	names = names[:0]
	for n := range builtinUsers {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		s := &Subject{Name: n, Builtin: true, MemberOf: []string{builtinUsers[n]}, Tags: map[string]bool{}}
		d.byName[n] = s
		d.order = append(d.order, s)
	}
	return d
}

// closeOver computes every subject's transitive groups and reports the
// membership cycles found, each once, as the groups around it.
func (d *Directory) closeOver() [][]string {
	const (
		unvisited = iota
		active
		done
	)
	state := map[*Subject]int{}
	var cycles [][]string
	seenCycle := map[string]bool{}
	var path []*Subject
	var visit func(s *Subject) map[string]bool
	memo := map[*Subject]map[string]bool{}
	visit = func(s *Subject) map[string]bool {
		switch state[s] {
		case done:
			return memo[s]
		case active:
			var cyc []string
			for i := len(path) - 1; i >= 0; i-- {
				cyc = append([]string{path[i].Name}, cyc...)
				if path[i] == s {
					break
				}
			}
			key := canonicalCycle(cyc)
			if !seenCycle[key] {
				seenCycle[key] = true
				cycles = append(cycles, append(cyc, s.Name))
			}
			return nil
		}
		state[s] = active
		path = append(path, s)
		set := map[string]bool{}
		for _, g := range s.MemberOf {
			gs := d.byName[g]
			if gs == nil || !gs.Group {
				continue // reported where the document names it
			}
			set[g] = true
			for x := range visit(gs) {
				set[x] = true
			}
		}
		path = path[:len(path)-1]
		state[s] = done
		memo[s] = set
		return set
	}
	for _, s := range d.order {
		set := visit(s)
		s.closure = s.closure[:0]
		for g := range set {
			s.closure = append(s.closure, g)
		}
		sort.Strings(s.closure)
	}
	return cycles
}

// canonicalCycle names a cycle the same whichever group it starts at.
func canonicalCycle(c []string) string {
	if len(c) == 0 {
		return ""
	}
	min := 0
	for i := range c {
		if c[i] < c[min] {
			min = i
		}
	}
	return strings.Join(append(append([]string{}, c[min:]...), c[:min]...), "\x00")
}

// DescribeGroups renders a subject's groups for messages: "groups a, b".
func (s *Subject) DescribeGroups() string {
	if len(s.closure) == 0 {
		return "no groups"
	}
	return "groups " + strings.Join(s.closure, ", ")
}

func kindOf(s *Subject) string {
	if s.Group {
		return "group"
	}
	return "user"
}

func subjectLabel(s *Subject) string { return fmt.Sprintf("%s %s", kindOf(s), s.Name) }
