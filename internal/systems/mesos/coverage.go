package mesos

import (
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
)

// The request space of a kind is subject x object, each side ANY (no
// principal, no object) or a single value. An entry's rule matches a
// rectangle of it: a side that is ANY or NONE matches everything, a SOME
// side its values, a recursive role rule the roles under its prefix.
//
// Whether earlier rules cover a rectangle is decided exactly with one
// representative request per region that matters: each value a SOME side
// names, and for a side matching everything (or everything under a
// prefix) a value named nowhere (under that prefix). Any rule containing
// such an unnamed value contains every value of the region too (only
// "everything" sides, and prefixes of the region's prefix, hold it), so
// the other values need no point of their own; ANY requests are matched by
// exactly the sides that match an unnamed value.

// side is the set of request values one side of a rule matches.
type side struct {
	all      bool // every request, ANY included
	names    names
	prefixes []string // "x/" for a recursive rule on "x/%"
}

// names is a set of values: a slice while small (entities usually hold a
// few), a map when large.
type names struct {
	list []string
	set  map[string]bool
}

func newNames(vs []string) names {
	if len(vs) <= 16 {
		return names{list: vs}
	}
	set := make(map[string]bool, len(vs))
	for _, v := range vs {
		set[v] = true
	}
	return names{list: vs, set: set}
}

func (n names) has(v string) bool {
	if n.set != nil {
		return n.set[v]
	}
	for _, x := range n.list {
		if x == v {
			return true
		}
	}
	return false
}

// point is one representative request value.
type point struct {
	any   bool   // no principal, or no object
	name  string // a value; with fresh, the prefix of an unnamed value
	fresh bool   // a value named nowhere (under name, when name is set)
}

func (s *side) contains(p point) bool {
	if p.any || s.all {
		return s.all
	}
	if !p.fresh && s.names.has(p.name) {
		return true
	}
	for _, pre := range s.prefixes {
		if strings.HasPrefix(p.name, pre) {
			return true
		}
	}
	return false
}

func (s *side) empty() bool { return !s.all && len(s.names.list) == 0 && len(s.prefixes) == 0 }

// region is one rule as rectangles of the request space.
type region struct {
	rule     *Rule
	subj, ob side
}

func regionOf(k *Kind, r *Rule) region {
	g := region{rule: r}
	g.subj = entitySide(r.Subject)
	switch {
	case k.ImplicitObject():
		// Requests only ever carry ANY here: a SOME object matches none.
		g.ob = side{all: r.Object.Type != SOME}
	case r.Recursive != "":
		g.ob = side{prefixes: []string{strings.TrimSuffix(r.Recursive, "%")}}
	default:
		g.ob = entitySide(r.Object)
	}
	return g
}

func entitySide(e *Entity) side {
	if e.Type != SOME {
		return side{all: true}
	}
	return side{names: newNames(e.Values)}
}

// reps counts the representative points of a side; rep returns the i-th.
// They are read one by one, not gathered: a large file's regions would
// each allocate their list.
func reps(s *side, anyOnly bool) int {
	switch {
	case anyOnly:
		if s.all {
			return 1
		}
		return 0
	case s.all:
		return 1
	}
	return len(s.names.list) + len(s.prefixes)
}

func rep(s *side, anyOnly bool, i int) point {
	switch {
	case anyOnly:
		return point{any: true}
	case s.all:
		return point{fresh: true}
	case i < len(s.names.list):
		return point{name: s.names.list[i]}
	}
	return point{name: s.prefixes[i-len(s.names.list)], fresh: true}
}

// index finds, for a subject point, the regions whose subject side holds
// it, in order: the regions naming it, merged with those matching every
// subject. Objects are then checked one region at a time.
type index struct {
	regions []region
	byName  map[string][]int
	all     []int
}

// newIndex indexes regions as add takes them, in order: it holds the
// caller's slice, not a copy (a region is 136 bytes, and a large file has
// tens of thousands), and reads only what was added.
func newIndex(regions []region) *index {
	return &index{regions: regions[:0], byName: make(map[string][]int, len(regions))}
}

// add indexes the next region of the caller's slice.
func (x *index) add() {
	i := len(x.regions)
	x.regions = x.regions[:i+1]
	g := &x.regions[i]
	if g.subj.all {
		x.all = append(x.all, i)
		return
	}
	for _, n := range g.subj.names.list {
		if l := x.byName[n]; len(l) == 0 || l[len(l)-1] != i {
			x.byName[n] = append(l, i)
		}
	}
}

// first returns the first region holding the request (s, o), or nil.
func (x *index) first(s, o point) *region {
	var named []int
	if !s.any && !s.fresh {
		named = x.byName[s.name]
	}
	a, b := 0, 0
	for a < len(named) || b < len(x.all) {
		var i int
		if b == len(x.all) || a < len(named) && named[a] < x.all[b] {
			i, a = named[a], a+1
		} else {
			i, b = x.all[b], b+1
		}
		if x.regions[i].ob.contains(o) {
			return &x.regions[i]
		}
	}
	return nil
}

// Unreachable is an entry that can never decide a request, with the
// earlier entries that decide all of its requests first.
type Unreachable struct {
	Entry *Entry
	By    []*Entry
}

// unreachableAll runs unreachable for every kind with entries, the kinds
// side by side.
func (a *ACLs) unreachableAll() map[string][]Unreachable {
	out := make([][]Unreachable, len(Kinds))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, k := range Kinds {
		if len(a.Lists[k.Key]) < 2 {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			out[i] = a.unreachable(k)
		}()
	}
	wg.Wait()
	m := map[string][]Unreachable{}
	for i, k := range Kinds {
		m[k.Key] = out[i]
	}
	return m
}

// unreachable finds the entries of a kind whose every request is matched
// first by earlier entries. Entries that match nothing at all are left to
// the rules that explain why.
func (a *ACLs) unreachable(k *Kind) []Unreachable {
	rules := a.Rules(k)
	regions := make([]region, len(rules))
	for i, r := range rules {
		regions[i] = regionOf(k, r)
	}
	var out []Unreachable
	x := newIndex(regions)
	for start := 0; start < len(regions); {
		e := regions[start].rule.Entry
		end := start
		for end < len(regions) && regions[end].rule.Entry == e {
			end++
		}
		own := regions[start:end]
		if start > 0 && !emptyRegions(own) {
			if by, ok := covered(own, x, k.ImplicitObject()); ok {
				out = append(out, Unreachable{Entry: e, By: by})
			}
		}
		for range own {
			x.add()
		}
		start = end
	}
	return out
}

func emptyRegions(rs []region) bool {
	for _, r := range rs {
		if !r.subj.empty() && !r.ob.empty() {
			return false
		}
	}
	return true
}

// covered reports whether every request of own is matched by an earlier
// region, with the entries that match its representative requests first.
func covered(own []region, x *index, anyOnly bool) ([]*Entry, bool) {
	var by []*Entry // a handful: looked through, no map
	for gi := range own {
		g := &own[gi]
		ns, no := reps(&g.subj, false), reps(&g.ob, anyOnly)
		for si := 0; si < ns; si++ {
			s := rep(&g.subj, false, si)
			for oi := 0; oi < no; oi++ {
				o := rep(&g.ob, anyOnly, oi)
				hit := x.first(s, o)
				if hit == nil {
					return nil, false
				}
				if !slices.Contains(by, hit.rule.Entry) {
					by = append(by, hit.rule.Entry)
				}
			}
		}
	}
	sort.Slice(by, func(i, j int) bool { return by[i].Index < by[j].Index })
	return by, true
}

// fallThrough returns a request no entry of the kind matches, which
// permissive then decides. One exists exactly when no rule matches every
// subject and every object: only such a rule holds a principal and an
// object named nowhere.
func (a *ACLs) fallThrough(k *Kind) (subject, object point, ok bool) {
	object = point{fresh: true}
	if k.ImplicitObject() {
		object = point{any: true}
	}
	for _, r := range a.Rules(k) {
		if g := regionOf(k, r); g.subj.all && g.ob.all {
			return point{}, point{}, false
		}
	}
	return point{fresh: true}, object, true
}
