package mesos

import (
	"sort"
	"strings"
)

// The request space of a kind is subject x object, each side ANY (no
// principal, no object) or a single value. An entry's rule matches a
// rectangle of it: a side that is ANY or NONE matches everything, a SOME
// side its values, a recursive role rule the roles under its prefix. Which
// entries decide a request is therefore decidable exactly by checking one
// representative point per region: each value named anywhere, an unnamed
// value under each prefix and at the top, and ANY.

// side is the set of request values one side of a rule matches.
type side struct {
	all      bool // every request, ANY included
	names    map[string]bool
	prefixes []string // "x/" for a recursive rule on "x/%"
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
	if !p.fresh && s.names[p.name] {
		return true
	}
	for _, pre := range s.prefixes {
		if strings.HasPrefix(p.name, pre) {
			return true
		}
	}
	return false
}

func (s *side) empty() bool { return !s.all && len(s.names) == 0 && len(s.prefixes) == 0 }

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
	s := side{names: map[string]bool{}}
	for _, v := range e.Values {
		s.names[v] = true
	}
	return s
}

// reps are the representative points of s, against the values and
// prefixes the other regions name.
func reps(s side, names map[string]bool, prefixes map[string]bool, anyOnly bool) []point {
	if anyOnly {
		if s.all {
			return []point{{any: true}}
		}
		return nil
	}
	var out []point
	if s.all {
		out = append(out, point{fresh: true}, point{any: true})
		for _, n := range sorted(names) {
			out = append(out, point{name: n})
		}
		for _, p := range sorted(prefixes) {
			out = append(out, point{name: p, fresh: true})
		}
		return out
	}
	for _, n := range sorted(s.names) {
		out = append(out, point{name: n})
	}
	for _, pre := range s.prefixes {
		out = append(out, point{name: pre, fresh: true})
		for _, n := range sorted(names) {
			if strings.HasPrefix(n, pre) && !s.names[n] {
				out = append(out, point{name: n})
			}
		}
		for _, p := range sorted(prefixes) {
			if p != pre && strings.HasPrefix(p, pre) {
				out = append(out, point{name: p, fresh: true})
			}
		}
	}
	return out
}

func sorted(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func mention(rs []region, subjNames, objNames, objPrefixes map[string]bool) {
	for _, r := range rs {
		for n := range r.subj.names {
			subjNames[n] = true
		}
		for n := range r.ob.names {
			objNames[n] = true
		}
		for _, p := range r.ob.prefixes {
			objPrefixes[p] = true
		}
	}
}

// Unreachable is an entry that can never decide a request, with the
// earlier entries that decide all of its requests first.
type Unreachable struct {
	Entry *Entry
	By    []*Entry
}

// unreachable finds the entries of a kind whose every request is matched
// first by earlier entries. Entries that match nothing at all are left to
// the rules that explain why.
func (a *ACLs) unreachable(k *Kind) []Unreachable {
	rules := a.Rules(k)
	var regions []region
	for _, r := range rules {
		regions = append(regions, regionOf(k, r))
	}
	var out []Unreachable
	subjNames, objNames, objPrefixes := map[string]bool{}, map[string]bool{}, map[string]bool{}
	start := 0 // first region of the current entry
	for start < len(regions) {
		e := regions[start].rule.Entry
		end := start
		for end < len(regions) && regions[end].rule.Entry == e {
			end++
		}
		earlier, own := regions[:start], regions[start:end]
		if start > 0 && !emptyRegions(own) {
			by, ok := covered(own, earlier, subjNames, objNames, objPrefixes, k.ImplicitObject())
			if ok {
				out = append(out, Unreachable{Entry: e, By: by})
			}
		}
		mention(own, subjNames, objNames, objPrefixes)
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

// covered reports whether every point of own lies in some earlier region,
// with the entries that decide them.
func covered(own, earlier []region, subjNames, objNames, objPrefixes map[string]bool, anyOnly bool) ([]*Entry, bool) {
	seen := map[*Entry]bool{}
	var by []*Entry
	for _, g := range own {
		for _, s := range reps(g.subj, subjNames, nil, false) {
			for _, o := range reps(g.ob, objNames, objPrefixes, anyOnly) {
				hit := first(earlier, s, o)
				if hit == nil {
					return nil, false
				}
				if !seen[hit.rule.Entry] {
					seen[hit.rule.Entry] = true
					by = append(by, hit.rule.Entry)
				}
			}
		}
	}
	sort.Slice(by, func(i, j int) bool { return by[i].Index < by[j].Index })
	return by, true
}

func first(rs []region, s, o point) *region {
	for i := range rs {
		if rs[i].subj.contains(s) && rs[i].ob.contains(o) {
			return &rs[i]
		}
	}
	return nil
}

// fallThrough returns a request no entry of the kind matches, which
// permissive then decides, preferring principals and objects the file does
// not name.
func (a *ACLs) fallThrough(k *Kind) (subject, object point, ok bool) {
	var regions []region
	for _, r := range a.Rules(k) {
		regions = append(regions, regionOf(k, r))
	}
	subjNames, objNames, objPrefixes := map[string]bool{}, map[string]bool{}, map[string]bool{}
	mention(regions, subjNames, objNames, objPrefixes)
	everything := side{all: true}
	for _, s := range reps(everything, subjNames, nil, false) {
		for _, o := range reps(everything, objNames, objPrefixes, k.ImplicitObject()) {
			if first(regions, s, o) == nil {
				return s, o, true
			}
		}
	}
	return point{}, point{}, false
}
