package convert

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/aclint/aclint/internal/systems/yarn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/placement"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

// PlaceDifference is one application YARN and the converted config place
// differently: who asks, for which queue, and where each puts it.
type PlaceDifference struct {
	User      string
	Groups    []string
	Requested string
	YARN      string
	YuniKorn  string
	// Like counts the applications placed differently the same way (by
	// what each system does with them), this one their example.
	Like int
	// Cause is why (Causes); Accepted the entry that accepts them, nil
	// when none does.
	Cause    string
	Accepted *AcceptEntry
	kind     string
}

func (d PlaceDifference) String() string {
	if d.Like > 1 {
		return fmt.Sprintf("%d applications, e.g. %s", d.Like, d.example())
	}
	return d.example()
}

func (d PlaceDifference) example() string {
	q := d.Requested
	if q == "" {
		q = "(none)"
	}
	g := "no groups"
	if len(d.Groups) > 0 {
		g = "groups " + strings.Join(d.Groups, ",")
	}
	return fmt.Sprintf("user %s (%s) asking for queue %s: YARN %s, YuniKorn %s", d.User, g, q, d.YARN, d.YuniKorn)
}

// probeDotUser is a user no rule names whose name has a dot (a queue of a
// user's name is spelled otherwise).
const probeDotUser = "aclint.probe"

// probeQueue is a queue no file names.
const probeQueue = "aclint-probe-queue"

// maxPlaceQuestions bounds the placement proof: past it, convert says the
// placement is not proven instead of asking fewer questions.
const maxPlaceQuestions = 400_000

// tooManyQuestions says that the placement is not proven, and what to do.
func tooManyQuestions(what string) error {
	return fmt.Errorf("the placement proof would ask more applications than aclint asks (%d; %s): placement is not proven, so nothing is written. Many users and groups named in the ACLs of a large tree, or a rule that makes a queue of a user's or a group's name, multiply the questions; ask the applications that matter with aclint place on the YARN files, and pin them with aclint test", maxPlaceQuestions, what)
}

// rep is a queue name and how someone no ACL names is answered for it.
type rep struct{ name, kind string }

// placeQuestion is one application the proof asks both systems about.
type placeQuestion struct {
	user   string
	groups []string
	queue  string
}

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
func placeQuestions(s *yarn.Setup, pl *yarn.CSPlacement, nameBlind bool, reps func(names []string) []rep, scope func(q string) (acls []aclNames, sig string, ok bool)) ([]placeQuestion, error) {
	userRule, groupRule, firstGroup := false, false, false
	ruleUsers, ruleGroups := map[string]bool{probeUser: true, probeDotUser: true}, map[string]bool{probeGroup: true}
	if pl != nil {
		for _, v := range pl.Views() {
			switch v.Match {
			case "user":
				ruleUsers[v.Value] = true
			case "group":
				ruleGroups[v.Value] = true
			}
			userRule = userRule || strings.Contains(v.Target, "%user")
			groupRule = groupRule || strings.Contains(v.Target, "_group")
			firstGroup = firstGroup || strings.Contains(v.Target, "%primary_group") || strings.Contains(v.Target, "%secondary_group")
		}
	} else if rs, _, _ := s.FSRules(); rs != nil {
		for _, r := range rs {
			for x := r; x != nil; x = x.Parent {
				userRule = userRule || x.Name == "user" || x.Name == "nestedUserQueue"
				groupRule = groupRule || x.Name == "primaryGroup" || x.Name == "secondaryGroupExistingQueue"
				firstGroup = firstGroup || groupRule
			}
		}
	}
	// every name YARN takes for each queue
	names := map[*yarn.Queue][]string{}
	var all []string
	for _, q := range s.CS.ByPath {
		if userRule {
			ruleUsers[q.Name] = true
		}
		if groupRule {
			ruleGroups[q.Name] = true
		}
		if nameBlind {
			continue
		}
		ns := []string{q.Path}
		if s.FS && q.Path != "root" {
			ns = append(ns, strings.TrimPrefix(q.Path, "root."))
		} else if pl != nil && q.Name != q.Path {
			ns = append(ns, q.Name) // a short name: of this queue, or ambiguous
		}
		// queues that do not exist below it, one and two levels down:
		// created (and how deep), or refused
		ns = append(ns, q.Path+"."+probeQueue, q.Path+"."+probeQueue+"."+probeQueue)
		names[q] = ns
		all = append(all, ns...)
	}
	groupUsers := groupAsUsers(s, ruleGroups, ruleUsers, groupRule)
	sort.Strings(all)
	chosen := []string{"", "default", probeQueue}
	lists := [][]string{nil}
	for _, g := range sorted(ruleGroups) {
		lists = append(lists, []string{g})
	}
	if firstGroup {
		lists = append(lists, groupPairs(sorted(ruleGroups))...)
	}
	users := sorted(ruleUsers)
	// how someone no ACL names is answered for each queue name: a subject
	// an ACL names asks, outside the queues whose ACLs name it, for one
	// queue answered each way, and the rules then place it where its ACLs
	// may answer otherwise
	kinds := reps(all)
	if n := (len(users)*len(lists) + len(groupUsers)) * (len(all) + len(chosen)); n > maxPlaceQuestions {
		return nil, tooManyQuestions(fmt.Sprintf("%d applications (%d users the rules react to, %d group lists, %d queue names)", n, len(users)+len(groupUsers), len(lists), len(all)+len(chosen)))
	}
	var out []placeQuestion
	for _, q := range append(slices.Clone(chosen), all...) {
		for _, u := range users {
			for _, l := range lists {
				out = append(out, placeQuestion{u, l, q})
			}
		}
		for _, u := range sorted(groupUsers) {
			out = append(out, placeQuestion{u, nil, q})
		}
	}
	// the subjects the ACLs name: where the rules choose, and on the queues
	// at and below each ACL that names them
	named := map[string][]*yarn.Queue{} // "u:alice", "g:etl": the queues whose ACLs name them
	for _, q := range s.CS.ByPath {
		for _, a := range []yarn.Action{yarn.Submit, yarn.Administer} {
			q.ACL[a].EachUser(func(n string) { named["u:"+n] = append(named["u:"+n], q) })
			q.ACL[a].EachGroup(func(n string) { named["g:"+n] = append(named["g:"+n], q) })
		}
	}
	keys := make([]string, 0, len(named))
	for k := range named {
		if k[2:] != "*" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	// the names of each kind, kinds in the order first met
	var byKind [][]string
	kindAt := map[string]int{}
	for _, r := range kinds {
		i, ok := kindAt[r.kind]
		if !ok {
			i = len(byKind)
			kindAt[r.kind] = i
			byKind = append(byKind, nil)
		}
		byKind[i] = append(byKind[i], r.name)
	}
	// the queue names each subject asks for: at and below the ACLs that
	// name it, one name of each kind elsewhere, and the names the rules
	// choose from
	// a name is in a subject's names when a queue it names was walked: each
	// walk stamps the queues it meets (by their index), so nothing is
	// allocated per subject, and each kind's names carry their queues
	index := make(map[*yarn.Queue]int, len(s.CS.ByPath))
	queuesOf := map[string][]int{}
	for _, q := range s.CS.ByPath {
		index[q] = len(index)
		for _, n := range names[q] {
			queuesOf[n] = append(queuesOf[n], index[q])
		}
	}
	kindQueues := make([][][]int, len(byKind))
	for i, ns := range byKind {
		for _, n := range ns {
			kindQueues[i] = append(kindQueues[i], queuesOf[n])
		}
	}
	stamp, call := make([]int, len(index)), 0
	walked := func(qs []int) bool {
		for _, q := range qs {
			if stamp[q] == call {
				return true
			}
		}
		return false
	}
	mineOf := func(k string) []string {
		call++
		var mine []string
		var walk func(q *yarn.Queue)
		walk = func(q *yarn.Queue) {
			if i, ok := index[q]; ok {
				if stamp[i] == call {
					return
				}
				stamp[i] = call
			}
			mine = append(mine, names[q]...)
			for _, c := range q.Children {
				walk(c)
			}
		}
		for _, q := range named[k] {
			walk(q)
		}
		for i, ns := range byKind {
			for j, n := range ns {
				if !walked(kindQueues[i][j]) {
					mine = append(mine, n)
					break
				}
			}
		}
		return append(mine, chosen...)
	}
	// who a subject asks as: a user with the groups the rules react to, one
	// list at a time (the ACLs let them in, the rules place them); a group
	// alone (YuniKorn's resolver gives a user without groups their own
	// name as a group), with each user the rules react to, and beside each
	// group the rules react to
	variantsOf := func(k string) []placeQuestion {
		name := k[2:]
		var out []placeQuestion
		if k[0] == 'u' {
			for _, l := range lists {
				out = append(out, placeQuestion{user: name, groups: l})
			}
			return out
		}
		out = append(out, placeQuestion{user: name})
		for _, u := range users {
			out = append(out, placeQuestion{user: u, groups: []string{name}})
		}
		// where a rule reads the first group, each user the rules react to
		// (whose queue the group's may hold) with it second: the rule
		// places by the other, the ACLs let in by this one
		pair := []string{probeUser}
		if firstGroup {
			pair = users
		}
		for _, u := range pair {
			for _, g := range sorted(ruleGroups) {
				if g != name {
					out = append(out, placeQuestion{user: u, groups: []string{name, g}}, placeQuestion{user: u, groups: []string{g, name}})
				}
			}
		}
		return out
	}
	// a rule reacts to who asks when it makes a queue of their name or
	// matches a user or group by name (the probes aside)
	matches := false
	for u := range ruleUsers {
		matches = matches || u != probeUser && u != probeDotUser
	}
	for g := range ruleGroups {
		matches = matches || g != probeGroup
	}
	if userRule || groupRule || matches || scope == nil {
		for _, k := range keys {
			for _, v := range variantsOf(k) {
				for _, q := range mineOf(k) {
					out = append(out, placeQuestion{v.user, v.groups, q})
				}
			}
			if len(out) > maxPlaceQuestions {
				return nil, tooManyQuestions("the users and groups the ACLs name, each on the queues below its ACLs, pass it")
			}
		}
		return out, nil
	}
	// no rule reacts to who asks: by queue name, one subject per way the
	// ACLs the request may be checked against write it
	// subjects by their index in keys, each queue name with the subjects
	// asking for it
	asking := map[string][]int32{}
	var qnames []string
	variants := make([][]placeQuestion, len(keys))
	shapes := make([][]string, len(keys)) // each variant's names' shapes
	for ki, k := range keys {
		vs := variantsOf(k)
		variants[ki] = vs
		for _, v := range vs {
			shapes[ki] = append(shapes[ki], variantShape(v))
		}
		for _, q := range mineOf(k) {
			list, ok := asking[q]
			if !ok {
				qnames = append(qnames, q)
			}
			asking[q] = append(list, int32(ki))
		}
	}
	sort.Strings(qnames)
	// the names of one queue (its path, its probes below) are asked by the
	// same subjects and checked on the same queues: the subjects picked
	// for one are picked for the others
	type picked struct {
		asking []int32
		picks  []placeQuestion
	}
	bySig := map[string]picked{}
	for _, q := range qnames {
		acls, sig, ok := scope(q)
		if p, hit := bySig[sig]; ok && hit && slices.Equal(p.asking, asking[q]) {
			for _, v := range p.picks {
				out = append(out, placeQuestion{v.user, v.groups, q})
			}
			continue
		}
		prof := newProfiler(acls)
		seen := map[string]bool{}
		seenUnnamed := map[unnamedKey]bool{}
		var picks []placeQuestion
		for _, k := range asking[q] {
			for i, v := range variants[k] {
				switch {
				case !ok:
				case prof.unnamed(v):
					// no ACL here names any of its names: its key is its
					// shape alone (profiler.key with every set empty)
					uk := unnamedKey{shapes[k][i], len(v.groups)}
					if seenUnnamed[uk] {
						continue
					}
					seenUnnamed[uk] = true
				default:
					key := prof.key(v, shapes[k][i])
					if seen[key] {
						continue
					}
					seen[key] = true
				}
				picks = append(picks, v)
				out = append(out, placeQuestion{v.user, v.groups, q})
			}
		}
		if ok {
			bySig[sig] = picked{asking[q], picks}
		}
		if len(out) > maxPlaceQuestions {
			return nil, tooManyQuestions("the users and groups the ACLs name, each on the queues below its ACLs, pass it")
		}
	}
	return out, nil
}

// groupAsUsers are the users named like a group a rule reacts to (a g:
// mapping's, a group queue's): a request without groups gets the user's
// own name as its group from YuniKorn's resolver, so such a user is placed
// by it. With groups, that user is placed as anyone the rules do not name
// (no rule reads the name, or it would be in ruleUsers), so it asks with
// none; unless an ACL names it as a user, when its access differs and it
// asks as a user the rules react to (it is added to ruleUsers).
func groupAsUsers(s *yarn.Setup, ruleGroups, ruleUsers map[string]bool, groupRule bool) map[string]bool {
	aclUsers := map[string]bool{}
	for _, q := range s.CS.ByPath {
		for _, a := range []yarn.Action{yarn.Submit, yarn.Administer} {
			q.ACL[a].EachUser(func(n string) { aclUsers[n] = true })
		}
	}
	groupUsers := map[string]bool{}
	for g := range ruleGroups {
		switch {
		case g == probeGroup && !groupRule, ruleUsers[g]:
		case aclUsers[g]:
			ruleUsers[g] = true
		default:
			groupUsers[g] = true
		}
	}
	return groupUsers
}

// provePlacement asks YARN and the converted config where each class of
// application lands, and lists each kind placed differently (the queue,
// or placed against rejected) with its cause, an example and how many are
// like it; the applications an accepted entry takes are counted apart.
func provePlacement(s *yarn.Setup, cfg *config.Config, pol *acl.Policy, opts Options) ([]PlaceDifference, int, error) {
	var pl *yarn.CSPlacement
	if !s.FS {
		pl, _ = s.StartPlacement()
	}
	ask := placeAsker(s, pl, cfg, pol, opts.Resolver)
	reps := func(names []string) []rep {
		var out []rep
		for _, q := range names {
			k := ""
			for _, gl := range [][]string{nil, {probeGroup}} {
				y, yk, err := ask(probeUser, gl, q)
				k += differenceKind(y, yk, err, gl) + fmt.Sprint(y.Placed, yk != nil && yk.Placed) + ";"
			}
			out = append(out, rep{q, k})
		}
		return out
	}
	qs, err := placeQuestions(s, pl, !readsAskedQueue(s, cfg), reps, proofScope(s, cfg, ask))
	if err != nil {
		return nil, 0, err
	}
	var out []PlaceDifference
	byKind := map[string]int{}    // a kind of difference and its acceptance: its index in out
	causes := map[string]string{} // a kind of difference: its cause
	asked := 0
	for _, pq := range qs {
		u, gl, q := pq.user, pq.groups, pq.queue
		if gl == nil && opts.Resolver != nil && probed(u) && !resolves(opts.Resolver, u) {
			continue // stands for a user of the directory: the other probes ask their groups
		}
		asked++
		y, yk, err := ask(u, gl, q)
		if samePlace(y, yk, err) {
			continue
		}
		kind := differenceKind(y, yk, err, gl)
		cause, ok := causes[kind]
		if !ok {
			cause = placeCause(ask, pq, y, yk, err)
			causes[kind] = cause
		}
		acc := opts.Accepted.match(cause, u, q, placedIn(y), yuniKornQueue(yk, err))
		key := fmt.Sprintf("%s|%p", kind, acc)
		if i, ok := byKind[key]; ok {
			out[i].Like++
			continue
		}
		byKind[key] = len(out)
		out = append(out, PlaceDifference{User: u, Groups: gl, Requested: q, YARN: yarnWhere(y), YuniKorn: yuniKornWhere(yk, err), Like: 1, Cause: cause, Accepted: acc, kind: kind})
	}
	return out, asked, nil
}

// placeAsker places one application in YARN and in the converted config.
// With a resolver, an application that carries no groups has the groups it
// gives in both.
func placeAsker(s *yarn.Setup, pl *yarn.CSPlacement, cfg *config.Config, pol *acl.Policy, r resolve.Resolver) asker {
	placer := placement.New(cfg, pol)
	return func(u string, gl []string, q string) (*yarn.Placement, *placement.Result, error) {
		ygl := gl
		if gl == nil && r != nil {
			if res, err := r.Resolve(u); err == nil {
				ygl = res.Groups
			}
		}
		req := yarn.PlaceRequest{User: u, Groups: ygl, Queue: q, App: "app"}
		var y *yarn.Placement
		if s.FS {
			y = s.PlaceFS(req)
		} else {
			y = s.PlaceCS(pl, req)
		}
		yk, err := placer.Place(placement.App{Partition: "default", User: u, Groups: gl, Queue: q, Tags: map[string]string{}, Resolver: r})
		return y, yk, err
	}
}

// probed: the user is one the proof makes up (a user no rule names).
func probed(u string) bool { return u == probeUser || u == probeDotUser }

func resolves(r resolve.Resolver, u string) bool {
	_, err := r.Resolve(u)
	return err == nil
}

func placedIn(y *yarn.Placement) string {
	if y.Placed {
		return y.Queue
	}
	return ""
}

func yuniKornQueue(r *placement.Result, err error) string {
	if err == nil && r.Placed {
		return r.Queue
	}
	return ""
}

// readsAskedQueue reports whether either system reads the queue an
// application asks for: the Capacity Scheduler always does (without the
// override flag, a named queue is where it goes); the Fair Scheduler
// through a specified rule; YuniKorn through a provided rule, or when it
// has no rule at all.
func readsAskedQueue(s *yarn.Setup, cfg *config.Config) bool {
	if !s.FS {
		return true
	}
	rs, _, _ := s.FSRules()
	for _, r := range rs {
		for x := r; x != nil; x = x.Parent {
			if x.Name == "specified" {
				return true
			}
		}
	}
	for _, p := range cfg.Partitions {
		if len(p.PlacementRules) == 0 {
			return true // YuniKorn then places by a provided rule of its own
		}
		for _, r := range p.PlacementRules {
			for x := r; x != nil; x = x.Parent {
				if strings.EqualFold(x.Name.Value, "provided") {
					return true
				}
			}
		}
	}
	return false
}

// proofScope finds, for a queue name, the ACLs any request for it may be
// checked against, in both systems: those on the paths of every queue a
// probe that no ACL names is placed in, tried on, or created under (the
// probe is refused wherever a subject can be, so it meets every queue the
// rules try). ok is false when that cannot be told: an answer that is not
// known, or a queue YARN creates from a template ACL.
func proofScope(s *yarn.Setup, cfg *config.Config, ask func(u string, gl []string, q string) (*yarn.Placement, *placement.Result, error)) func(q string) ([]aclNames, string, bool) {
	yq, tails := yarnQueues(s)
	kq := map[string]*config.Queue{}
	for _, p := range cfg.Partitions {
		if p.CanonicalName() == "default" && p.Root != nil {
			p.Root.Walk(func(q *config.Queue) { kq[strings.ToLower(q.Path())] = q })
		}
	}
	// the ACLs of the queues at a path, in both systems, read once each
	cache := map[string][]aclNames{}
	aclsAt := func(path string) []aclNames {
		if out, ok := cache[path]; ok {
			return out
		}
		var out []aclNames
		for _, y := range yq[path] {
			for _, a := range []yarn.Action{yarn.Submit, yarn.Administer} {
				us, gs := map[string]bool{}, map[string]bool{}
				y.ACL[a].EachUser(func(n string) { us[n] = true })
				y.ACL[a].EachGroup(func(n string) { gs[n] = true })
				out = append(out, aclNames{us, gs})
			}
		}
		if k := kq[path]; k != nil {
			for _, raw := range []string{k.SubmitACL.Value, k.AdminACL.Value} {
				_, us, gs := acl.Parse(raw).Grants()
				out = append(out, aclNames{entryNames(us), entryNames(gs)})
			}
		}
		cache[path] = out
		return out
	}
	return func(q string) ([]aclNames, string, bool) {
		// the name itself, as a path, below root, and as any queue's
		// short name or path's tail: what YARN may take it for, and the
		// queues it is created under
		cands := []string{q, "root." + q}
		if ts := tails[strings.ToLower(q)]; q != "" && len(ts) == 1 {
			// a short name YARN takes for one queue (one that names
			// several is refused before any ACL is read)
			cands = append(cands, ts...)
		}
		for _, gl := range [][]string{nil, {probeGroup}} {
			y, yk, err := ask(probeUser, gl, q)
			if y.Unknown != "" || y.ACLTemplate != "" || err != nil || yk.Crash != "" {
				return nil, "", false
			}
			cands = append(cands, y.Queue, y.CreatedUnder, yk.Queue, yk.CreatedUnder, "root.default")
			if y.ACL != nil && y.ACL.Queue != nil {
				cands = append(cands, y.ACL.Queue.Path) // the queue YARN checked, placed or not
			}
			for _, st := range y.Steps {
				cands = append(cands, st.Queue)
			}
			for _, st := range yk.Rules {
				cands = append(cands, st.Queue)
				if d := st.Decision; d != nil {
					cands = append(cands, d.Queue, d.Deciding)
				}
			}
			if d := yk.Decision; d != nil {
				cands = append(cands, d.Queue, d.Deciding)
			}
		}
		// the paths, sorted: their ACLs in that order, and the paths as the
		// scope's signature (two names with one signature are checked on
		// the same queues)
		paths := pathsOf(cands)
		var out []aclNames
		var queues []string // the paths of queues, which hold the ACLs
		for _, p := range paths {
			if as := aclsAt(p); len(as) > 0 {
				out = append(out, as...)
				queues = append(queues, p)
			}
		}
		return out, strings.Join(queues, "\x00"), true
	}
}

// yarnQueues are YARN's queues by lower-case path, and the paths that end
// in .NAME by NAME (a short name or a path's tail), indexed once: a name
// looked up among 16,000 queues is then one map access.
func yarnQueues(s *yarn.Setup) (map[string][]*yarn.Queue, map[string][]string) {
	yq := map[string][]*yarn.Queue{}
	tails := map[string][]string{}
	for _, q := range s.CS.ByPath {
		p := strings.ToLower(q.Path)
		if _, seen := yq[p]; !seen {
			for i := strings.IndexByte(p, '.'); i >= 0; i = next(p, i) {
				tails[p[i+1:]] = append(tails[p[i+1:]], p)
			}
		}
		yq[p] = append(yq[p], q)
	}
	return yq, tails
}

// pathsOf is every queue path the names and their ancestors make,
// lower-cased, each once, sorted.
func pathsOf(names []string) []string {
	seen := map[string]bool{}
	var paths []string
	for _, c := range names {
		parts := strings.Split(strings.ToLower(c), ".")
		for i := range parts {
			path := strings.Join(parts[:i+1], ".")
			if path != "" && !seen[path] {
				seen[path] = true
				paths = append(paths, path)
			}
		}
	}
	sort.Strings(paths)
	return paths
}

// next is the index of the dot after the one at i in p, -1 when none.
func next(p string, i int) int {
	j := strings.IndexByte(p[i+1:], '.')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

func entryNames(es []acl.Entry) map[string]bool {
	out := make(map[string]bool, len(es))
	for _, e := range es {
		out[e.Name] = true
	}
	return out
}

// differenceKind groups the applications placed differently by what each
// system does with them: YARN's stage or rule, YuniKorn's rule or
// fallback, and whether the request carries groups.
func differenceKind(y *yarn.Placement, r *placement.Result, err error, groups []string) string {
	yk := "placed"
	if !y.Placed {
		yk = "rejected " + y.Stage
	}
	if y.Unknown != "" {
		yk = "unknown"
	}
	for _, st := range y.Steps {
		if st.Result == "placed" || st.Result == "rejected" {
			yk += " by " + ruleName(st.Rule)
		}
	}
	kk := "error"
	if err == nil {
		kk = "rejected"
		if r.Placed {
			kk = "placed"
			if r.Fallback != "" {
				kk += " by the root.default fallback"
			}
			for _, st := range r.Rules {
				if st.Result == "placed" {
					kk += " by " + ruleName(st.Rule)
				}
			}
		}
	}
	return fmt.Sprintf("%s|%s|%v", yk, kk, len(groups) == 0)
}

// ruleName is a rule's kind: its text's first word (u:alice:q is a u:
// mapping).
func ruleName(text string) string {
	f := strings.Fields(text)
	if len(f) == 0 {
		return ""
	}
	if i := strings.IndexByte(f[0], ':'); i >= 0 {
		return f[0][:i+1]
	}
	return f[0]
}

// samePlace: both place the application in the same queue (YuniKorn's
// names ignore case), or both reject it.
func samePlace(y *yarn.Placement, r *placement.Result, err error) bool {
	switch {
	case y.Unknown != "" || err != nil || r.Crash != "":
		return false
	case y.Placed && r.Placed:
		return strings.EqualFold(y.Queue, r.Queue)
	}
	return !y.Placed && !r.Placed
}

func yarnWhere(p *yarn.Placement) string {
	switch {
	case p.Unknown != "":
		return "does not say (" + p.Unknown + ")"
	case p.Placed:
		return "places it in " + p.Queue
	}
	return "rejects it (" + p.Reason + ")"
}

func yuniKornWhere(r *placement.Result, err error) string {
	switch {
	case err != nil:
		return "does not say (" + err.Error() + ")"
	case r.Crash != "":
		return "crashes (" + r.Crash + ")"
	case r.Placed:
		return "places it in " + r.Queue
	}
	return "rejects it (" + r.Reason + ")"
}
