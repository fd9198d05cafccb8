package convert

import (
	"fmt"
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
	var out []PlaceDifference
	byKind := map[string]int{} // a kind of difference, its cause and its acceptance: its index in out
	asked := 0
	judge := func(pq placeQuestion) {
		u, gl, q := pq.user, pq.groups, pq.queue
		if gl == nil && opts.Resolver != nil && probed(u) && !resolves(opts.Resolver, u) {
			return // stands for a user of the directory: the other probes ask their groups
		}
		asked++
		y, yk, err := ask(u, gl, q)
		if samePlace(y, yk, err) {
			return
		}
		// each application's own cause: what a team accepts is decided
		// for every application, never by another of its kind
		kind := differenceKind(y, yk, err, gl)
		cause := placeCause(ask, pq, y, yk, err)
		acc := opts.Accepted.match(cause, u, q, placedIn(y), yuniKornQueue(yk, err))
		key := fmt.Sprintf("%s|%s|%p", kind, cause, acc)
		if i, ok := byKind[key]; ok {
			out[i].Like++
			return
		}
		byKind[key] = len(out)
		out = append(out, PlaceDifference{User: u, Groups: gl, Requested: q, YARN: yarnWhere(y), YuniKorn: yuniKornWhere(yk, err), Like: 1, Cause: cause, Accepted: acc, kind: kind})
	}
	if err := placeQuestions(s, pl, !readsAskedQueue(s, cfg), reps, proofScope(s, cfg, ask), judge); err != nil {
		return nil, 0, err
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
	acls := &aclCache{yq: yq, kq: kq, cache: map[string][]aclNames{}}
	aclsAt := acls.at
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

// aclCache is the ACLs of the queues at a path, in both systems: YARN's
// where they are, YuniKorn's entries read once each while they are asked
// (a queue's names are asked one after another, its ancestors'
// throughout: the cache starts afresh past maxCached paths, so it never
// holds every queue's names at once).
type aclCache struct {
	yq    map[string][]*yarn.Queue
	kq    map[string]*config.Queue
	cache map[string][]aclNames
}

const maxCached = 256

func (c *aclCache) at(path string) []aclNames {
	if out, ok := c.cache[path]; ok {
		return out
	}
	var out []aclNames
	for _, y := range c.yq[path] {
		for _, a := range []yarn.Action{yarn.Submit, yarn.Administer} {
			out = append(out, aclNames{yarn: &y.ACL[a]})
		}
	}
	if k := c.kq[path]; k != nil {
		for _, raw := range []string{k.SubmitACL.Value, k.AdminACL.Value} {
			_, us, gs := acl.Parse(raw).Grants()
			out = append(out, aclNames{users: us, groups: gs})
		}
	}
	if len(c.cache) >= maxCached {
		clear(c.cache)
	}
	c.cache[path] = out
	return out
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
