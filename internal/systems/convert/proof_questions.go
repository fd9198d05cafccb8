package convert

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/aclint/aclint/internal/systems/yarn"
)

// placeQuestions are the applications that can tell the two placements
// apart, asked without asking every subject everywhere:
//
//   - the users the rules react to (a u: mapping's, and every queue's name
//     when a rule makes a queue of the user's name), someone no rule names
//     and a user whose name has a dot, with no groups, with a group no rule
//     names, with each group a rule reacts to (a g: mapping's, a queue's
//     name when a rule places by group) and, where a rule reads the first
//     group, with two of them in both orders; each asking for no queue,
//     default, a queue that does not exist, and every queue by every name
//     YARN takes for it (its path; a short name or a path without root.),
//     and queues that do not exist one and two levels below each queue;
//   - each user and group an ACL names (the access proof compares the ACLs
//     themselves), asking for no queue, default and a queue that does not
//     exist (the rules then choose), and for every queue at or below an
//     ACL that names it.
//
// Both systems let a user in as an OR over the user and each group, so
// one named subject at a time decides the ACLs' part.
//
// Where no rule reacts to who asks (no user or group mapping, no queue of a
// user's or a group's name), the queues a request for a name may be
// checked on do not depend on who asks (scope finds them, from a probe
// that no ACL names), and two subjects whose names the ACLs on those
// queues' paths write alike are placed alike: of the subjects asking for
// one name, one is asked per way those ACLs write them, which keeps the
// proof linear in the named subjects and queues.
//
// Where neither system reads the queue an application asks for (a Fair
// Scheduler policy without a specified rule, converted without a provided
// rule: nameBlind), every request is placed as one that names none, so
// only the few names of chosen are asked.
//
// Each question goes to each as it is found, in order, and none is kept:
// the proof holds one question at a time, not all of them.
func placeQuestions(s *yarn.Setup, pl *yarn.CSPlacement, nameBlind bool, reps func(names []string) []rep, scope func(q string) (acls []aclNames, sig string, ok bool), each func(placeQuestion)) error {
	p := reactions(s, pl)
	p.each = each
	p.queueNames(nameBlind)
	if err := p.ruleQuestions(reps); err != nil {
		return err
	}
	p.namedSubjects()
	if p.reacts() || scope == nil {
		return p.everyNamed()
	}
	return p.byScope(scope)
}

// ask passes one question on, and counts it.
func (p *plan) ask(q placeQuestion) {
	p.asked++
	p.each(q)
}

// plan is what the placement proof knows before it asks: what the rules
// react to, the names of the queues, and the subjects the ACLs name.
type plan struct {
	s                               *yarn.Setup
	cs                              bool // the Capacity Scheduler's placement
	userRule, groupRule, firstGroup bool
	ruleUsers, ruleGroups           map[string]bool
	// names are every name YARN takes for each queue; all of them, sorted
	names map[*yarn.Queue][]string
	all   []string
	// queuesNamed are the queues by their own name, lower-cased
	queuesNamed map[string][]*yarn.Queue
	// the names the rules choose from, the group lists asked and the
	// users the rules react to
	chosen     []string
	lists      [][]string
	users      []string
	groupUsers map[string]bool
	// keys are the subjects the ACLs name ("u:alice", "g:etl"), sorted,
	// and named the queues whose ACLs name each; byKind the queue names
	// by how someone no ACL names is answered for them
	keys   []string
	named  [][]*yarn.Queue
	byKind [][]string
	mine   *mineFinder
	// each takes the questions, asked counts them
	each  func(placeQuestion)
	asked int
}

// reactions reads what the placement rules react to: a user's or a
// group's name they match or make a queue of, the first group.
func reactions(s *yarn.Setup, pl *yarn.CSPlacement) *plan {
	p := &plan{s: s, cs: pl != nil, ruleUsers: map[string]bool{probeUser: true, probeDotUser: true}, ruleGroups: map[string]bool{probeGroup: true}}
	if pl != nil {
		for _, v := range pl.Views() {
			switch v.Match {
			case "user":
				p.ruleUsers[v.Value] = true
			case "group":
				p.ruleGroups[v.Value] = true
			}
			p.userRule = p.userRule || strings.Contains(v.Target, "%user")
			p.groupRule = p.groupRule || strings.Contains(v.Target, "_group")
			p.firstGroup = p.firstGroup || strings.Contains(v.Target, "%primary_group") || strings.Contains(v.Target, "%secondary_group")
		}
	} else if rs, _, _ := s.FSRules(); rs != nil {
		for _, r := range rs {
			for x := r; x != nil; x = x.Parent {
				p.userRule = p.userRule || x.Name == "user" || x.Name == "nestedUserQueue"
				p.groupRule = p.groupRule || x.Name == "primaryGroup" || x.Name == "secondaryGroupExistingQueue"
				p.firstGroup = p.firstGroup || p.groupRule
			}
		}
	}
	return p
}

// queueNames lists every name YARN takes for each queue (its path; a
// short name, or a path without root.; and queues that do not exist one
// and two levels below it), and makes each queue's name a user or a group
// the rules react to when a rule makes a queue of one.
func (p *plan) queueNames(nameBlind bool) {
	s := p.s
	p.names = map[*yarn.Queue][]string{}
	p.queuesNamed = map[string][]*yarn.Queue{}
	for _, q := range s.CS.ByPath {
		p.queuesNamed[strings.ToLower(q.Name)] = append(p.queuesNamed[strings.ToLower(q.Name)], q)
		if p.userRule {
			p.ruleUsers[q.Name] = true
		}
		if p.groupRule {
			p.ruleGroups[q.Name] = true
		}
		if nameBlind {
			continue
		}
		ns := []string{q.Path}
		if s.FS && q.Path != "root" {
			ns = append(ns, strings.TrimPrefix(q.Path, "root."))
		} else if p.cs && q.Name != q.Path {
			ns = append(ns, q.Name) // a short name: of this queue, or ambiguous
		}
		// queues that do not exist below it, one and two levels down:
		// created (and how deep), or refused
		ns = append(ns, q.Path+"."+probeQueue, q.Path+"."+probeQueue+"."+probeQueue)
		p.names[q] = ns
		p.all = append(p.all, ns...)
	}
	sort.Strings(p.all)
}

// ruleQuestions are the applications of the users the rules react to,
// with every group list, asking for every queue name and those the rules
// choose from; and it sorts the queue names by how someone no ACL names
// is answered for them (reps).
func (p *plan) ruleQuestions(reps func(names []string) []rep) error {
	p.groupUsers = groupAsUsers(p.s, p.ruleGroups, p.ruleUsers, p.groupRule)
	p.chosen = []string{"", "default", probeQueue}
	p.lists = [][]string{nil}
	for _, g := range sorted(p.ruleGroups) {
		p.lists = append(p.lists, []string{g})
	}
	if p.firstGroup {
		p.lists = append(p.lists, groupPairs(sorted(p.ruleGroups))...)
	}
	p.users = sorted(p.ruleUsers)
	// how someone no ACL names is answered for each queue name: a subject
	// an ACL names asks, outside the queues whose ACLs name it, for one
	// queue answered each way, and the rules then place it where its ACLs
	// may answer otherwise
	kinds := reps(p.all)
	if n := (len(p.users)*len(p.lists) + len(p.groupUsers)) * (len(p.all) + len(p.chosen)); n > maxPlaceQuestions {
		return tooManyQuestions(fmt.Sprintf("%d applications (%d users the rules react to, %d group lists, %d queue names)", n, len(p.users)+len(p.groupUsers), len(p.lists), len(p.all)+len(p.chosen)))
	}
	groupUsers := sorted(p.groupUsers)
	for _, q := range append(slices.Clone(p.chosen), p.all...) {
		for _, u := range p.users {
			for _, l := range p.lists {
				p.ask(placeQuestion{u, l, q})
			}
		}
		for _, u := range groupUsers {
			p.ask(placeQuestion{u, nil, q})
		}
	}
	// the names of each kind, kinds in the order first met
	kindAt := map[string]int{}
	for _, r := range kinds {
		i, ok := kindAt[r.kind]
		if !ok {
			i = len(p.byKind)
			kindAt[r.kind] = i
			p.byKind = append(p.byKind, nil)
		}
		p.byKind[i] = append(p.byKind[i], r.name)
	}
	return nil
}

// namedSubjects finds the subjects the ACLs name and the queues whose
// ACLs name each.
func (p *plan) namedSubjects() {
	byName := map[string]*[2][]*yarn.Queue{} // as a user, as a group
	of := func(n string) *[2][]*yarn.Queue {
		qs := byName[n]
		if qs == nil {
			qs = &[2][]*yarn.Queue{}
			byName[n] = qs
		}
		return qs
	}
	for _, q := range p.s.CS.ByPath {
		for _, a := range []yarn.Action{yarn.Submit, yarn.Administer} {
			q.ACL[a].EachUser(func(n string) { qs := of(n); qs[0] = append(qs[0], q) })
			q.ACL[a].EachGroup(func(n string) { qs := of(n); qs[1] = append(qs[1], q) })
		}
	}
	type named struct {
		key string
		qs  []*yarn.Queue
	}
	var all []named
	for n, qs := range byName {
		if n == "*" {
			continue
		}
		for i, prefix := range []string{"u:", "g:"} {
			if len(qs[i]) > 0 {
				all = append(all, named{prefix + n, qs[i]})
			}
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].key < all[j].key })
	p.keys, p.named = make([]string, len(all)), make([][]*yarn.Queue, len(all))
	for i, n := range all {
		p.keys[i], p.named[i] = n.key, n.qs
	}
	p.mine = newMineFinder(p)
}

// reacts reports whether a rule reacts to who asks: it makes a queue of
// their name, or matches a user or group by name (the probes aside).
func (p *plan) reacts() bool {
	matches := false
	for u := range p.ruleUsers {
		matches = matches || u != probeUser && u != probeDotUser
	}
	for g := range p.ruleGroups {
		matches = matches || g != probeGroup
	}
	return p.userRule || p.groupRule || matches
}

// mineFinder lists the queue names each subject asks for: at and below
// the ACLs that name it, one name of each kind elsewhere, and the names
// the rules choose from. A name is in a subject's names when a queue it
// names was walked: each walk stamps the queues it meets (by their
// index), so nothing is allocated per subject, and each kind's names
// carry their queues.
type mineFinder struct {
	p          *plan
	index      map[*yarn.Queue]int
	queues     []*yarn.Queue      // by index
	queuesOf   map[string][]int32 // the queues that have each name
	kindQueues [][][]int32
	stamp      []int
	call       int
	walked     []int // the last walk's queues, in the order met
}

func newMineFinder(p *plan) *mineFinder {
	f := &mineFinder{p: p, index: make(map[*yarn.Queue]int, len(p.s.CS.ByPath)), queuesOf: map[string][]int32{}}
	for _, q := range p.s.CS.ByPath {
		f.index[q] = len(f.queues)
		f.queues = append(f.queues, q)
		for _, n := range p.names[q] {
			f.queuesOf[n] = append(f.queuesOf[n], int32(f.index[q]))
		}
	}
	f.kindQueues = make([][][]int32, len(p.byKind))
	for i, ns := range p.byKind {
		for _, n := range ns {
			f.kindQueues[i] = append(f.kindQueues[i], f.queuesOf[n])
		}
	}
	f.stamp = make([]int, len(f.queues))
	return f
}

// walk stamps the queues at and below the ACLs that name subject k (by
// its index in plan.keys) and lists them (by index) in the order met; the
// list is the finder's, until the next walk.
func (f *mineFinder) walk(k int) []int {
	f.call++
	f.walked = f.walked[:0]
	for _, q := range f.p.named[k] {
		f.walkFrom(q)
	}
	return f.walked
}

func (f *mineFinder) walkFrom(q *yarn.Queue) {
	if i, ok := f.index[q]; ok {
		if f.stamp[i] == f.call {
			return
		}
		f.stamp[i] = f.call
		f.walked = append(f.walked, i)
	}
	for _, c := range q.Children {
		f.walkFrom(c)
	}
}

// elsewhere appends, for each kind, its first name none of whose queues
// the last walk met.
func (f *mineFinder) elsewhere(mine []string) []string {
	for i, ns := range f.p.byKind {
		for j, n := range ns {
			if !f.met(f.kindQueues[i][j]) {
				mine = append(mine, n)
				break
			}
		}
	}
	return mine
}

func (f *mineFinder) met(qs []int32) bool {
	for _, q := range qs {
		if f.stamp[q] == f.call {
			return true
		}
	}
	return false
}

// of is the queue names subject k (by its index in plan.keys) asks for.
func (f *mineFinder) of(k int) []string {
	var mine []string
	for _, i := range f.walk(k) {
		mine = append(mine, f.p.names[f.queues[i]]...)
	}
	mine = f.elsewhere(mine)
	return append(mine, f.p.chosen...)
}

// variantsOf is who subject k asks as: a user with the groups the rules
// react to, one list at a time (the ACLs let them in, the rules place
// them); a group alone (YuniKorn's resolver gives a user without groups
// their own name as a group), with each user the rules react to, and
// beside each group the rules react to.
//
// A group the rules place by tells the subject apart from someone no ACL
// names only where it may place the request under the ACLs that name the
// subject (relevant: a queue of its name the last walk met, or an ACL on
// the path of a queue named like the subject that names the group); of
// the others, one stands for all, as someone no ACL names is asked with
// every one of them by the rule questions.
func (p *plan) variantsOf(k string, relevant func(g string) bool) []placeQuestion {
	name := k[2:]
	var out []placeQuestion
	if k[0] == 'u' {
		stood := [3]bool{}
		for _, l := range p.lists {
			if !p.listRelevant(l, name, relevant) {
				if stood[len(l)] {
					continue
				}
				stood[len(l)] = true
			}
			out = append(out, placeQuestion{user: name, groups: l})
		}
		return out
	}
	out = append(out, placeQuestion{user: name})
	for _, u := range p.users {
		out = append(out, placeQuestion{user: u, groups: []string{name}})
	}
	// where a rule reads the first group, each user the rules react to
	// (whose queue the group's may hold) with it second: the rule places
	// by the other, the ACLs let in by this one
	pair := []string{probeUser}
	if p.firstGroup {
		pair = p.users
	}
	stood := false
	for _, g := range sorted(p.ruleGroups) {
		if g == name {
			continue
		}
		if g != probeGroup && !relevant(g) {
			if stood {
				continue
			}
			stood = true
		}
		for _, u := range pair {
			out = append(out, placeQuestion{user: u, groups: []string{name, g}}, placeQuestion{user: u, groups: []string{g, name}})
		}
	}
	return out
}

// listRelevant reports whether a group list may tell subject name apart
// from someone no ACL names (variantsOf): it carries no group but the
// probe's, or one that is relevant.
func (p *plan) listRelevant(l []string, name string, relevant func(g string) bool) bool {
	for _, g := range l {
		if g != probeGroup && g != name && relevant(g) {
			return true
		}
	}
	for _, g := range l {
		if g != probeGroup {
			return false
		}
	}
	return true
}

// relevant is variantsOf's test for subject k, after its walk: a group
// with a queue of its name among the queues walked, or named by an ACL
// on the path of a queue named like k.
func (p *plan) relevant(k string) func(g string) bool {
	f := p.mine
	near := map[string]bool{}
	for _, q := range p.queuesNamed[strings.ToLower(k[2:])] {
		for x := q; x != nil; x = x.Parent {
			for _, a := range []yarn.Action{yarn.Submit, yarn.Administer} {
				x.ACL[a].EachGroup(func(g string) { near[g] = true })
			}
		}
	}
	return func(g string) bool {
		if near[g] {
			return true
		}
		for _, q := range p.queuesNamed[strings.ToLower(g)] {
			if i, ok := f.index[q]; ok && f.stamp[i] == f.call {
				return true
			}
		}
		return false
	}
}

// everyNamed asks every named subject, as each of its variants, for each
// of its queue names: where a rule reacts to who asks.
func (p *plan) everyNamed() error {
	for ki, k := range p.keys {
		mine := p.mine.of(ki)
		relevant := p.relevant(k)
		if p.cs {
			// the Capacity Scheduler's mappings send a request to queues
			// the group does not name (a u: mapping's, a parent's
			// %primary_group): every list is asked (2,000 generated
			// policies found a kind missed otherwise)
			relevant = func(string) bool { return true }
		}
		for _, v := range p.variantsOf(k, relevant) {
			for _, q := range mine {
				p.ask(placeQuestion{v.user, v.groups, q})
			}
		}
		if p.asked > maxPlaceQuestions {
			return tooManyQuestions("the users and groups the ACLs name, each on the queues below its ACLs, pass it")
		}
	}
	return nil
}

// asked are the named subjects by their index in plan.keys, with their
// variants and the shapes of the variants' names, and each queue name
// with the subjects asking for it (by index, in order, a subject once per
// time its names hold the name).
type asked struct {
	variants [][]placeQuestion
	shapes   [][]int32 // each variant's shape, numbered
	// a user subject's name's shape, numbered (-1 for a group), and the
	// name's number among the names the variants carry: two users whose
	// names have one shape and whom the ACLs write alike ask alike
	userShape, userID []int32
	dense             *denseSets
	asking            map[string][]int32
	qnames            []string // sorted
}

// askedByName lists who asks for each queue name. The subjects asking
// for a queue's names are gathered once per queue, not once per name: a
// name one queue alone has, that no subject asks for otherwise, shares
// its queue's list.
func (p *plan) askedByName() *asked {
	f := p.mine
	a := &asked{variants: make([][]placeQuestion, len(p.keys)), shapes: make([][]int32, len(p.keys)), asking: map[string][]int32{}}
	shapeNo := map[string]int32{}
	number := func(sh string) int32 {
		n, ok := shapeNo[sh]
		if !ok {
			n = int32(len(shapeNo))
			shapeNo[sh] = n
		}
		return n
	}
	a.userShape, a.userID = make([]int32, len(p.keys)), make([]int32, len(p.keys))
	ids := map[string]int32{}
	byQueue := make([][]int32, len(f.queues))
	other := map[string][]int32{} // kinds' names asked elsewhere, and the chosen names
	var buf []string
	for ki, k := range p.keys {
		vs := p.variantsOf(k, func(string) bool { return true })
		a.variants[ki] = vs
		for _, v := range vs {
			a.shapes[ki] = append(a.shapes[ki], number(variantShape(v)))
		}
		a.userShape[ki] = -1
		for _, v := range vs {
			for _, n := range append([]string{v.user}, v.groups...) {
				if _, ok := ids[n]; !ok {
					ids[n] = int32(len(ids))
				}
			}
		}
		if k[0] == 'u' {
			a.userShape[ki], a.userID[ki] = number("u:"+nameShape(k[2:])), ids[k[2:]]
		}
		for _, i := range f.walk(ki) {
			byQueue[i] = append(byQueue[i], int32(ki))
		}
		buf = append(f.elsewhere(buf[:0]), p.chosen...)
		for _, n := range buf {
			other[n] = append(other[n], int32(ki))
		}
	}
	for _, n := range p.all {
		if _, done := a.asking[n]; !done {
			a.add(n, f.queuesOf[n], byQueue, other[n])
		}
	}
	for n, ks := range other {
		if _, done := a.asking[n]; !done {
			a.add(n, f.queuesOf[n], byQueue, ks)
		}
	}
	sort.Strings(a.qnames)
	a.dense = newDenseSets(ids)
	return a
}

// add lists the subjects asking for name n: those that walked any of its
// queues, once per such queue, and those asking for it otherwise.
func (a *asked) add(n string, queues []int32, byQueue [][]int32, other []int32) {
	var lists [][]int32
	for _, q := range queues {
		if len(byQueue[q]) > 0 {
			lists = append(lists, byQueue[q])
		}
	}
	if len(other) > 0 {
		lists = append(lists, other)
	}
	var ks []int32
	switch len(lists) {
	case 0:
		return
	case 1:
		ks = lists[0]
	default:
		for _, l := range lists {
			ks = append(ks, l...)
		}
		slices.Sort(ks)
	}
	a.asking[n] = ks
	a.qnames = append(a.qnames, n)
}

// byScope asks, where no rule reacts to who asks, for each queue name one
// subject per way the ACLs the request may be checked against write it.
// The names of one queue (its path, its probes below) are asked by the
// same subjects and checked on the same queues: the subjects picked for
// one are picked for the others.
func (p *plan) byScope(scope func(q string) (acls []aclNames, sig string, ok bool)) error {
	a := p.askedByName()
	// who asks for what is known: the queues naming each subject go while
	// the questions are asked
	p.named, p.mine = nil, nil
	type picked struct {
		asking []int32
		picks  []placeQuestion
	}
	bySig := map[string]picked{}
	for _, q := range a.qnames {
		acls, sig, ok := scope(q)
		if pk, hit := bySig[sig]; ok && hit && slices.Equal(pk.asking, a.asking[q]) {
			for _, v := range pk.picks {
				p.ask(placeQuestion{v.user, v.groups, q})
			}
			continue
		}
		var picks []placeQuestion
		if ok {
			picks = a.pick(q, newProfiler(acls, a.dense))
		} else {
			for _, k := range a.asking[q] {
				picks = append(picks, a.variants[k]...)
			}
		}
		for _, v := range picks {
			p.ask(placeQuestion{v.user, v.groups, q})
		}
		if ok {
			bySig[sig] = picked{a.asking[q], picks}
		}
		if p.asked > maxPlaceQuestions {
			return tooManyQuestions("the users and groups the ACLs name, each on the queues below its ACLs, pass it")
		}
	}
	return nil
}

// pick is one variant per way the ACLs of prof write the subjects asking
// for q.
func (a *asked) pick(q string, prof *profiler) []placeQuestion {
	seen := map[string]bool{}
	seenSmall := map[smallKey]bool{}
	seenUnnamed := map[unnamedKey]bool{}
	seenUser := map[userKey]bool{}
	var picks []placeQuestion
	for _, k := range a.asking[q] {
		if sh := a.userShape[k]; sh >= 0 {
			// a user's variants differ by the group lists alone: a user
			// written as one before has each variant's key seen already
			if uk, ok := prof.userKey(a.userID[k], sh); ok {
				if seenUser[uk] {
					continue
				}
				seenUser[uk] = true
			}
		}
		for i, v := range a.variants[k] {
			sk, small := prof.smallKey(v, a.shapes[k][i])
			switch {
			case small && sk.sets == 0 || !small && prof.unnamed(v):
				// no ACL here names any of its names: its key is its shape
				// alone (profiler.key with every set empty)
				uk := unnamedKey{a.shapes[k][i], int32(len(v.groups))}
				if seenUnnamed[uk] {
					continue
				}
				seenUnnamed[uk] = true
			case small:
				if seenSmall[sk] {
					continue
				}
				seenSmall[sk] = true
			default:
				key := prof.key(v, a.shapes[k][i])
				if seen[key] {
					continue
				}
				seen[key] = true
			}
			picks = append(picks, v)
		}
	}
	return picks
}
