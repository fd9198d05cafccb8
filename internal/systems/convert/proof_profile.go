package convert

import (
	"sort"
	"strings"

	"github.com/aclint/aclint/internal/systems/yarn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

// The placement proof's equivalences: which subjects a request for one
// queue name may stand for one another (profiler: the ACLs that may check
// it write them alike), and which two-group lists tell the rules apart
// (groupPairs). placeQuestions picks its questions with them.

// groupPairs are the two-group lists asked where a rule reads the first
// group: the rule places by the first, the ACLs (and YuniKorn's group
// filters, which match any of a user's groups) may let in or place by the
// second. Every ordered pair up to 40 groups; past that, each group with
// one no rule names, in both orders, and each with its neighbours in
// sorted order, in both orders: each relation between two groups (one
// placed by before the other, or after) is asked, linear in the groups.
func groupPairs(gs []string) [][]string {
	var out [][]string
	if len(gs) <= 40 {
		for _, a := range gs {
			for _, b := range gs {
				if a != b {
					out = append(out, []string{a, b})
				}
			}
		}
		return out
	}
	for i, a := range gs {
		if a != probeGroup {
			out = append(out, []string{a, probeGroup}, []string{probeGroup, a})
		}
		if i+1 < len(gs) && a != probeGroup && gs[i+1] != probeGroup {
			out = append(out, []string{a, gs[i+1]}, []string{gs[i+1], a})
		}
	}
	return out
}

// aclNames are the names one ACL writes, users and groups: a YARN ACL
// read where it is, or the entries YuniKorn keeps of one.
type aclNames struct {
	yarn          *yarn.ACL
	users, groups []acl.Entry
}

// each calls user and group with every name the ACL writes.
func (a aclNames) each(user, group func(string)) {
	if a.yarn != nil {
		a.yarn.EachUser(user)
		a.yarn.EachGroup(group)
		return
	}
	for _, e := range a.users {
		user(e.Name)
	}
	for _, e := range a.groups {
		group(e.Name)
	}
}

// profiler says how the ACLs a request for one name may be checked
// against write a subject: for each name, the set of those ACLs that name
// it as a user, and as a group. Where they are at most 64 (nearly every
// scope), the sets are in the dense table, by name number, and nothing is
// allocated per scope; else in maps by name.
type profiler struct {
	sets  [2]map[string][]uint64 // as a user, as a group
	words int
	dense *denseSets
}

// denseSets are a profile's one-word sets, by the number of each name a
// subject asking may carry (ids): a set is the profile's when its stamp
// is the profile's generation, so one table serves every profile in turn.
// A name no subject asking carries is never looked up, so never kept.
type denseSets struct {
	ids   map[string]int32
	gen   int32
	stamp [2][]int32 // as a user, as a group
	bits  [2][]uint64
}

func newDenseSets(ids map[string]int32) *denseSets {
	d := &denseSets{ids: ids}
	for i := range d.stamp {
		d.stamp[i], d.bits[i] = make([]int32, len(ids)), make([]uint64, len(ids))
	}
	return d
}

func newProfiler(acls []aclNames, d *denseSets) *profiler {
	p := &profiler{words: (len(acls) + 63) / 64}
	mark := func(side int) func(string, int) {
		return func(name string, i int) {
			id, ok := d.ids[name]
			if !ok {
				return
			}
			if d.stamp[side][id] != d.gen {
				d.stamp[side][id], d.bits[side][id] = d.gen, 0
			}
			d.bits[side][id] |= 1 << i
		}
	}
	if p.words <= 1 {
		d.gen++
		p.dense = d
	} else {
		p.sets = [2]map[string][]uint64{{}, {}}
		mark = func(side int) func(string, int) {
			return func(name string, i int) {
				bits := p.sets[side][name]
				if bits == nil {
					bits = make([]uint64, p.words)
					p.sets[side][name] = bits
				}
				bits[i/64] |= 1 << (i % 64)
			}
		}
	}
	user, group := mark(0), mark(1)
	for i, a := range acls {
		a.each(func(u string) { user(u, i) }, func(g string) { group(g, i) })
	}
	return p
}

// set is the set of the profile's ACLs that name name, as a user (side 0)
// or as a group (side 1); nil when none does.
func (p *profiler) set(side int, name string) []uint64 {
	d := p.dense
	if d == nil {
		return p.sets[side][name]
	}
	id, ok := d.ids[name]
	if !ok || d.stamp[side][id] != d.gen {
		return nil
	}
	return d.bits[side][id : id+1]
}

// key is how the ACLs write a subject asking as v, with the shape of its
// names (variantShape, numbered): which of them name the user as a user, or as a
// group (YuniKorn's resolver gives a user without groups their own name),
// and each of the groups, as a group or as a user. Subjects with one key
// are placed alike.
func (p *profiler) key(v placeQuestion, shape int32) string {
	var b strings.Builder
	b.Grow(4 + (2+2*len(v.groups))*(1+8*p.words))
	for i := 0; i < 4; i++ {
		b.WriteByte(byte(shape >> (8 * i)))
	}
	// each set as 0xfe when empty, else 0xff and its words' bytes (a set
	// has no words or all of them, and neither byte is in a name's UTF-8)
	put := func(bits []uint64) {
		if bits == nil {
			b.WriteByte(0xfe)
			return
		}
		b.WriteByte(0xff)
		for _, w := range bits {
			for i := 0; i < 8; i++ {
				b.WriteByte(byte(w >> (8 * i)))
			}
		}
	}
	put(p.set(0, v.user))
	put(p.set(1, v.user))
	for _, g := range v.groups {
		put(p.set(1, g))
		put(p.set(0, g))
	}
	return b.String()
}

// unnamedKey is profiler.key of a subject no ACL names: the shape of its
// names and how many groups it carries.
type unnamedKey struct {
	shape, groups int32
}

// unnamed reports whether no ACL of the profile names any of v's names,
// as a user or as a group.
func (p *profiler) unnamed(v placeQuestion) bool {
	if p.set(0, v.user) != nil || p.set(1, v.user) != nil {
		return false
	}
	for _, g := range v.groups {
		if p.set(1, g) != nil || p.set(0, g) != nil {
			return false
		}
	}
	return true
}

// variantShape is the shape of a subject's names (nameShape): its user's,
// then each group's.
func variantShape(v placeQuestion) string {
	var b strings.Builder
	b.WriteString(nameShape(v.user))
	for _, g := range v.groups {
		b.WriteByte('|')
		b.WriteString(nameShape(g))
	}
	return b.String()
}

// nameShape is a name with each lower-case letter written a, each
// upper-case one A and each digit 0.
func nameShape(n string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a'
		case r >= 'A' && r <= 'Z':
			return 'A'
		case r >= '0' && r <= '9':
			return '0'
		}
		return r
	}, n)
}

func sorted(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// smallKey is profiler.key where the profile has at most 64 ACLs and the
// subject at most two groups, as nearly every scope has: the same
// partition of subjects (key's encoding is read back one way), without
// building a string per subject.
type smallKey struct {
	shape int32
	bits  [6]uint64 // the user as a user, as a group; then each group as a group, as a user
	sets  uint8     // which of the six are named at all
}

func (p *profiler) smallKey(v placeQuestion, shape int32) (smallKey, bool) {
	if p.words > 1 || len(v.groups) > 2 {
		return smallKey{}, false
	}
	k := smallKey{shape: shape}
	put := func(i int, bits []uint64) {
		if bits != nil {
			k.sets |= 1 << i
			k.bits[i] = bits[0]
		}
	}
	put(0, p.set(0, v.user))
	put(1, p.set(1, v.user))
	for j, g := range v.groups {
		put(2+2*j, p.set(1, g))
		put(3+2*j, p.set(0, g))
	}
	return k, true
}

// userKey is how the ACLs write a user subject's name (as a user, as a
// group), with its shape: two user subjects with one userKey have, for
// each group list, one key. Only where the profile has at most 64 ACLs
// (it is dense), by the name's number.
type userKey struct {
	shape int32
	sets  uint8
	bits  [2]uint64
}

func (p *profiler) userKey(id, shape int32) (userKey, bool) {
	d := p.dense
	if d == nil {
		return userKey{}, false
	}
	k := userKey{shape: shape}
	for side := range d.stamp {
		if d.stamp[side][id] == d.gen {
			k.sets |= 1 << side
			k.bits[side] = d.bits[side][id]
		}
	}
	return k, true
}
