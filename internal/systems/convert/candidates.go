package convert

import (
	"sort"

	"github.com/aclint/aclint/internal/systems/yarn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// The proof that the converted config grants what YARN grants asks every
// subject that can tell the two apart: each user and group an ACL names,
// each group name as a user without groups, and everyone else. Asking each
// of them on every queue cost queues times names (400 queues with ACLs of
// up to 300 names: 40 s). Both systems let a subject in on a queue when an
// ACL on its path lets everyone in, or names the subject: so outside the
// subtrees of the ACLs that name a subject, it answers as everyone else
// does, and everyone else is asked on every queue. Inside, where both
// systems name it on the same queue's ACL, both let it in on that whole
// subtree. What is left to ask are the subtrees of the ACLs that name it in
// one system only (and, for a user YuniKorn refuses by name, every queue;
// and where everyone else is answered differently, every subject),
// each candidate then decided by both systems' own checks: the work is
// linear in queues plus names, plus the differences themselves.

// subject categories, in the order differences are listed
const (
	catUser = iota
	catGroup
	catBare
	catEveryone
)

type subject struct {
	cat  int
	name string
}

// candidate is one question to ask both systems.
type candidate struct {
	path      string
	order     int // the path's rank among the sorted paths
	action    yarn.Action
	converted bool
	who       subject
}

// candidates lists the questions to ask, in the order the exhaustive walk
// asked them: by path, action, then users, groups, users without groups,
// everyone else, each by name.
func candidates(s *yarn.Setup, cfg *config.Config, users, groups, bare, lost map[string]bool, everyoneDiffers func(path string, converted bool, a yarn.Action) bool) []candidate {
	t := newTree(s, cfg, lost)
	asked := func(who subject) bool {
		switch who.cat {
		case catUser:
			return users[who.name]
		case catGroup:
			return groups[who.name]
		case catBare:
			return bare[who.name] && acl.IsUserName(who.name)
		}
		return false
	}
	for _, a := range []yarn.Action{yarn.Submit, yarn.Administer} {
		t.mentions(a, asked, func(who subject, m *mentions) { t.named(a, who, m) })
		for u := range users {
			if !acl.IsUserName(u) {
				// YuniKorn refuses the user before any ACL: every queue
				for i := range t.order {
					t.add(i, a, subject{catUser, u})
				}
			}
		}
		for i := range t.order {
			t.add(i, a, subject{catEveryone, ""})
			// where everyone else is answered differently, so is every
			// subject no ACL there tells apart: each is listed, as asking
			// everyone everywhere lists them
			if t.active[i] && everyoneDiffers(t.paths[i], t.converted[i], a) {
				t.everySubject(i, a, users, groups, bare)
			}
		}
	}
	return sortedUnique(t.out)
}

// tree is the YARN tree in pre-order (a subtree is a range [i, end[i])),
// with each queue's converted one, and the questions listed so far.
type tree struct {
	order             []*yarn.Queue
	parent, end       []int
	paths             []string
	rank              map[string]int // a path's rank among the sorted paths
	converted, active []bool
	lostIdx           []int // the queues left out, in pre-order
	kq                []*config.Queue
	out               []candidate
	// named's stamps, by queue: the generation of the subject last named
	// there in YARN, in both, and last listed there
	inY, both, seen []int
	gen             int
}

func newTree(s *yarn.Setup, cfg *config.Config, lost map[string]bool) *tree {
	t := &tree{}
	var walk func(q *yarn.Queue, up int)
	walk = func(q *yarn.Queue, up int) {
		i := len(t.order)
		t.order = append(t.order, q)
		t.parent = append(t.parent, up)
		t.end = append(t.end, 0)
		for _, c := range q.Children {
			if !c.Repeat {
				walk(c, i)
			}
		}
		t.end[i] = len(t.order)
	}
	walk(s.CS.Root, -1)
	n := len(t.order)
	t.paths = make([]string, n)
	for i, q := range t.order {
		t.paths[i] = q.Path
	}
	sorted := append([]string(nil), t.paths...)
	sort.Strings(sorted)
	t.rank = make(map[string]int, n)
	for i, p := range sorted {
		t.rank[p] = i
	}
	t.converted, t.active, t.kq = make([]bool, n), make([]bool, n), make([]*config.Queue, n)
	t.inY, t.both, t.seen = make([]int, n), make([]int, n), make([]int, n)
	for i, p := range t.paths {
		if len(cfg.Partitions) > 0 {
			if q, missing, err := acl.FindQueue(cfg.Partitions[0].Root, p); err == nil && len(missing) == 0 && q != nil {
				t.kq[i], t.converted[i] = q, true
			}
		}
		t.active[i] = t.converted[i] || lost[p]
		if lost[p] && !t.converted[i] {
			t.lostIdx = append(t.lostIdx, i)
		}
	}
	return t
}

// add lists one question, on a queue either system has.
func (t *tree) add(i int, a yarn.Action, who subject) {
	if t.active[i] {
		t.out = append(t.out, candidate{path: t.paths[i], order: t.rank[t.paths[i]], action: a, converted: t.converted[i], who: who})
	}
}

// mentions are the ACLs a subject is named in, in YARN (y) and in
// YuniKorn (k), by their queue's index.
type mentions struct{ y, k []int32 }

// nameMentions are one name's mentions as a user, a group and a user
// without groups (by category), each kept only when that subject is
// asked: one lookup per ACL entry finds all three.
type nameMentions struct {
	by    [catEveryone]mentions
	asked [catEveryone]bool
}

func (m *nameMentions) add(cat, i int, yarnSide bool) {
	switch {
	case !m.asked[cat]:
	case yarnSide:
		m.by[cat].y = append(m.by[cat].y, int32(i))
	default:
		m.by[cat].k = append(m.by[cat].k, int32(i))
	}
}

// mentions finds, for the action, where each subject asked is named:
// administering lets one submit, and a user without groups has their own
// name as a group in YuniKorn. Whether a subject is asked is decided once
// per name, not once per entry.
func (t *tree) mentions(a yarn.Action, asked func(subject) bool, named func(subject, *mentions)) {
	byName := map[string]*nameMentions{}
	of := func(name string) *nameMentions {
		m := byName[name]
		if m == nil {
			m = &nameMentions{}
			for cat := range m.asked {
				m.asked[cat] = asked(subject{cat, name})
			}
			byName[name] = m
		}
		return m
	}
	yFields := []yarn.Action{a}
	if a == yarn.Submit {
		yFields = append(yFields, yarn.Administer)
	}
	for i, q := range t.order {
		for _, f := range yFields {
			q.ACL[f].EachUser(func(u string) {
				m := of(u)
				m.add(catUser, i, true)
				m.add(catBare, i, true)
			})
			q.ACL[f].EachGroup(func(g string) { of(g).add(catGroup, i, true) })
		}
		if t.kq[i] == nil {
			continue
		}
		values := []string{t.kq[i].AdminACL.Value}
		if a == yarn.Submit {
			values = append(values, t.kq[i].SubmitACL.Value)
		}
		for _, v := range values {
			for _, e := range acl.Parse(v).Entries {
				if !e.Effective() {
					continue
				}
				m, cat := of(e.Name), catUser
				if e.Kind == acl.Group {
					cat = catGroup
				}
				m.add(cat, i, false)
				m.add(catBare, i, false)
			}
		}
	}
	for name, m := range byName {
		for cat := range m.by {
			if len(m.by[cat].y)+len(m.by[cat].k) > 0 {
				named(subject{cat, name}, &m.by[cat])
			}
		}
	}
}

// named lists a subject's questions: the subtrees of the ACLs that name it
// in one system only (where both name it on a queue, both let it in below),
// and the queues left out below a queue YARN names it on.
//
// Which queues name it in YARN, in both, and which are listed already are
// stamps on the tree (one generation per subject): nothing is allocated
// per subject.
func (t *tree) named(a yarn.Action, who subject, m *mentions) {
	t.gen++
	g := t.gen
	for _, i := range m.y {
		t.inY[i] = g
	}
	for _, i := range m.k {
		if t.inY[i] == g {
			t.both[i] = g
		}
	}
	covered := func(i int) bool { // a queue whose ACLs name it in both, at or above i
		for ; i >= 0; i = t.parent[i] {
			if t.both[i] == g {
				return true
			}
		}
		return false
	}
	visit := func(i int) {
		if t.seen[i] != g {
			t.seen[i] = g
			t.add(i, a, who)
		}
	}
	for _, list := range [][]int32{m.y, m.k} {
		for _, q32 := range list {
			q := int(q32)
			if t.both[q] == g || covered(q) {
				continue
			}
			for j := q; j < t.end[q]; j++ {
				if t.both[j] == g {
					j = t.end[j] - 1 // named in both there: the same below
					continue
				}
				visit(j)
			}
		}
	}
	// a queue left out of the conversion, under a queue YARN names it on:
	// YARN lets it in, YuniKorn has no such queue
	for _, q32 := range m.y {
		q := int(q32)
		lo := sort.SearchInts(t.lostIdx, q)
		for k := lo; k < len(t.lostIdx) && t.lostIdx[k] < t.end[q]; k++ {
			visit(t.lostIdx[k])
		}
	}
}

// everySubject lists every subject on queue i, where everyone else is
// answered differently.
func (t *tree) everySubject(i int, a yarn.Action, users, groups, bare map[string]bool) {
	for u := range users {
		t.add(i, a, subject{catUser, u})
	}
	for g := range groups {
		t.add(i, a, subject{catGroup, g})
	}
	for b := range bare {
		if acl.IsUserName(b) {
			t.add(i, a, subject{catBare, b})
		}
	}
}

// sortedUnique puts the questions in the exhaustive walk's order, each
// once (a subject asked twice on a queue, an invalid user also named
// there, is asked once).
func sortedUnique(out []candidate) []candidate {
	sort.Slice(out, func(i, j int) bool {
		x, y := out[i], out[j]
		switch {
		case x.order != y.order:
			return x.order < y.order
		case x.action != y.action:
			return x.action < y.action
		case x.who.cat != y.who.cat:
			return x.who.cat < y.who.cat
		}
		return x.who.name < y.who.name
	})
	uniq := out[:0]
	for i, c := range out {
		if i > 0 && c == out[i-1] {
			continue
		}
		uniq = append(uniq, c)
	}
	return uniq
}
