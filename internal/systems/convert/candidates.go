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
	// the YARN tree in pre-order: a subtree is a range [i, end[i])
	var order []*yarn.Queue
	var parent, end []int
	var walk func(q *yarn.Queue, up int)
	walk = func(q *yarn.Queue, up int) {
		i := len(order)
		order = append(order, q)
		parent = append(parent, up)
		end = append(end, 0)
		for _, c := range q.Children {
			if !c.Repeat {
				walk(c, i)
			}
		}
		end[i] = len(order)
	}
	walk(s.CS.Root, -1)
	n := len(order)
	paths := make([]string, n)
	for i, q := range order {
		paths[i] = q.Path
	}
	sorted := append([]string(nil), paths...)
	sort.Strings(sorted)
	rank := make(map[string]int, n)
	for i, p := range sorted {
		rank[p] = i
	}
	converted := make([]bool, n)
	active := make([]bool, n)
	var lostIdx []int // in pre-order
	kq := make([]*config.Queue, n)
	for i, p := range paths {
		if len(cfg.Partitions) > 0 {
			if q, missing, err := acl.FindQueue(cfg.Partitions[0].Root, p); err == nil && len(missing) == 0 && q != nil {
				kq[i], converted[i] = q, true
			}
		}
		active[i] = converted[i] || lost[p]
		if lost[p] && !converted[i] {
			lostIdx = append(lostIdx, i)
		}
	}

	var out []candidate
	add := func(i int, a yarn.Action, who subject) {
		if active[i] {
			out = append(out, candidate{path: paths[i], order: rank[paths[i]], action: a, converted: converted[i], who: who})
		}
	}
	for _, a := range []yarn.Action{yarn.Submit, yarn.Administer} {
		// the ACLs each subject is named in, in YARN (y) and in YuniKorn (k)
		type mentions struct{ y, k []int }
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
		named := map[subject]*mentions{}
		// only the subjects asked: a user's name is asked without groups
		// only when an ACL uses it as a group
		mention := func(who subject, i int, yarnSide bool) {
			if !asked(who) {
				return
			}
			m := named[who]
			if m == nil {
				m = &mentions{}
				named[who] = m
			}
			if yarnSide {
				m.y = append(m.y, i)
			} else {
				m.k = append(m.k, i)
			}
		}
		yFields := []yarn.Action{a}
		if a == yarn.Submit {
			yFields = append(yFields, yarn.Administer) // administering lets one submit
		}
		for i, q := range order {
			for _, f := range yFields {
				q.ACL[f].EachUser(func(u string) {
					mention(subject{catUser, u}, i, true)
					mention(subject{catBare, u}, i, true)
				})
				q.ACL[f].EachGroup(func(g string) { mention(subject{catGroup, g}, i, true) })
			}
			if kq[i] == nil {
				continue
			}
			values := []string{kq[i].AdminACL.Value}
			if a == yarn.Submit {
				values = append(values, kq[i].SubmitACL.Value)
			}
			for _, v := range values {
				for _, e := range acl.Parse(v).Entries {
					if !e.Effective() {
						continue
					}
					if e.Kind == acl.Group {
						mention(subject{catGroup, e.Name}, i, false)
					} else {
						mention(subject{catUser, e.Name}, i, false)
					}
					// a user without groups has their own name as group
					mention(subject{catBare, e.Name}, i, false)
				}
			}
		}
		for who, m := range named {
			if !asked(who) {
				continue
			}
			inY := make(map[int]bool, len(m.y))
			for _, i := range m.y {
				inY[i] = true
			}
			both := map[int]bool{}
			inK := make(map[int]bool, len(m.k))
			for _, i := range m.k {
				inK[i] = true
				if inY[i] {
					both[i] = true
				}
			}
			covered := func(i int) bool { // a queue whose ACLs name it in both, at or above i
				for ; i >= 0; i = parent[i] {
					if both[i] {
						return true
					}
				}
				return false
			}
			seen := map[int]bool{}
			visit := func(i int) {
				if !seen[i] {
					seen[i] = true
					add(i, a, who)
				}
			}
			for _, list := range [][]int{m.y, m.k} {
				for _, q := range list {
					if both[q] || covered(q) {
						continue
					}
					for j := q; j < end[q]; j++ {
						if both[j] {
							j = end[j] - 1 // named in both there: the same below
							continue
						}
						visit(j)
					}
				}
			}
			// a queue left out of the conversion, under a queue YARN names it
			// on: YARN lets it in, YuniKorn has no such queue
			for _, q := range m.y {
				lo := sort.SearchInts(lostIdx, q)
				for k := lo; k < len(lostIdx) && lostIdx[k] < end[q]; k++ {
					visit(lostIdx[k])
				}
			}
		}
		for u := range users {
			if !acl.IsUserName(u) {
				// YuniKorn refuses the user before any ACL: every queue
				for i := 0; i < n; i++ {
					add(i, a, subject{catUser, u})
				}
			}
		}
		for i := 0; i < n; i++ {
			add(i, a, subject{catEveryone, ""})
			// where everyone else is answered differently, so is every
			// subject no ACL there tells apart: each is listed, as asking
			// everyone everywhere lists them
			if active[i] && everyoneDiffers(paths[i], converted[i], a) {
				for u := range users {
					add(i, a, subject{catUser, u})
				}
				for g := range groups {
					add(i, a, subject{catGroup, g})
				}
				for b := range bare {
					if acl.IsUserName(b) {
						add(i, a, subject{catBare, b})
					}
				}
			}
		}
	}
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
	// a subject asked twice on a queue (an invalid user also named there)
	// is asked once
	uniq := out[:0]
	for i, c := range out {
		if i > 0 && c == out[i-1] {
			continue
		}
		uniq = append(uniq, c)
	}
	return uniq
}
