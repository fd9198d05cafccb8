package yarn

import (
	"fmt"
	"strings"
)

// PlaceRequest is an application as the ResourceManager receives it.
type PlaceRequest struct {
	User string
	// Groups are the user's groups as the group mapping gives them, the
	// first the primary group.
	Groups []string
	// Queue is the queue asked for; "" when none (the client then sends
	// "default").
	Queue string
	// App is the application's name (for a: mappings and %application);
	// NoApp says it is not known, so a rule that reads it has no answer.
	App   string
	NoApp bool
}

// PlaceStep is what one placement rule did.
type PlaceStep struct {
	Index  int
	Rule   string
	From   *Property
	Result string // "no match", "placed", "fallback", "rejected", "set"
	Queue  string
	Reason string
}

// Placement is where the scheduler puts an application, and whether it
// accepts it there.
type Placement struct {
	Placed bool
	// Queue is the queue's full path; Created says the scheduler creates
	// it, under CreatedUnder.
	Queue        string
	Created      bool
	CreatedUnder string
	// By says what chose the queue: a rule, or the queue asked for.
	By    string
	Steps []PlaceStep
	// Stage names the check that rejected it ("mapping", "acl",
	// "unknown", "ambiguous", "non-leaf", "create", "prohibited",
	// "stopped"), Reason says why in Hadoop's words.
	Stage, Reason string
	// ACL is the submit check on the queue (nil when none is made).
	ACL *Answer
	// ACLTemplate is the template ACL that decides for a queue created at
	// submission (its key), when one does.
	ACLTemplate string
	// Unknown says why aclint cannot know the answer.
	Unknown string
	Notes   []string
}

// PlaceCS answers where the Capacity Scheduler places req, or an error when
// the rules stop the ResourceManager at start.
func (s *Setup) PlaceCS(pl *CSPlacement, req PlaceRequest) *Placement {
	out := &Placement{}
	if pl.Unknown != "" {
		out.Unknown = pl.Unknown
		return out
	}
	t := pl.tree
	if t == nil {
		t = s.placeTree()
	}
	s.placeCS(t, pl, req, out)
	if t.unknown != "" {
		// the answer rests on a value aclint cannot read as Hadoop does
		*out = Placement{Unknown: t.unknown, Steps: out.Steps}
	}
	return out
}

// placeCS is PlaceCS over the queue store.
func (s *Setup) placeCS(t *csTree, pl *CSPlacement, req PlaceRequest, out *Placement) {
	asked := req.Queue
	if asked == "" {
		asked = "default" // ClientRMService.submitApplication
	}
	pc, pcOK := "", false
	if asked != "default" && !pl.Override {
		if len(pl.Rules) > 0 {
			out.Notes = append(out.Notes, "the application names a queue and "+mappingOverrideKey+" is not true, so the mapping rules are not read")
		}
	} else {
		var reject string
		pc, pcOK, reject = t.runRules(pl, req, asked, out)
		if out.Unknown != "" {
			return
		}
		if reject != "" {
			out.Stage, out.Reason = "mapping", reject
			return
		}
	}
	// RMAppManager: the ACL check, on the queue the rules chose or the
	// one asked for
	queueName := asked
	if pcOK {
		queueName = pc
		out.By = "rule"
	} else {
		out.By = "the queue asked for"
	}
	if d := s.submitCheck(t, queueName, req, out); d != "" {
		return
	}
	name := queueName
	if q := t.get(name); q != nil {
		name = q.Path
	}
	// created makes the queue under an existing parent; a queue made under
	// a parent that is not RUNNING takes its state (QueueStateHelper), and
	// validateSubmitApplication refuses the application
	created := func(under *Queue, path string) {
		if under.Stopped != nil {
			out.Stage, out.Reason = "stopped", fmt.Sprintf("%s would be created under %s, which is STOPPED (%s), so it takes that state and refuses the application", path, under.Path, under.StoppedNote())
			return
		}
		out.Placed, out.Queue, out.Created, out.CreatedUnder = true, path, true, under.Path
	}
	q := t.get(name)
	if q == nil {
		if t.ambiguous(name) {
			out.Stage, out.Reason = "ambiguous", fmt.Sprintf("submitted to ambiguous queue: %s please use full queue path instead.", name)
			return
		}
		qp := newQueuePath(name)
		if qp.hasEmptyPart() || !qp.hasParent {
			out.Stage, out.Reason = "unknown", "submitted to unknown queue: "+name
			return
		}
		parent := t.get(qp.parent)
		if parent != nil && t.queueBool(parent.Path, "auto-create-child-queue.enabled") {
			if !pcOK {
				out.Stage, out.Reason = "prohibited", fmt.Sprintf("submission to specified queue : %s  is prohibited. Verify automatic queue mapping for user exists in %s", name, QueueMappingKey)
				return
			}
			created(parent, parent.Path+"."+qp.leaf)
			return
		}
		missing, base, err := t.missingParents(qp)
		if err != nil {
			if !pcOK {
				out.Stage, out.Reason = "unknown", "submitted to unknown queue: "+name
			} else {
				out.Stage, out.Reason = "create", err.Error()
			}
			return
		}
		path := base.Path
		for _, m := range missing {
			path += "." + m[strings.LastIndexByte(m, '.')+1:]
		}
		created(base, path+"."+qp.leaf)
		return
	}
	if !t.leaf(q) {
		out.Stage, out.Reason = "non-leaf", "submitted to non-leaf queue : "+name
		return
	}
	if q.Stopped != nil {
		out.Stage, out.Reason = "stopped", q.StoppedNote()
		return
	}
	out.Placed, out.Queue = true, q.Path
	return
}

// runRules is CSMappingPlacementRule.getPlacementForApp over the rules:
// the queue they choose (ok false: none did), or the rejection.
func (t *csTree) runRules(pl *CSPlacement, req PlaceRequest, asked string, out *Placement) (queue string, ok bool, reject string) {
	v := &varContext{vars: map[string]string{}, originals: map[string]string{}, t: t}
	if c := cleanName(req.User); c != req.User {
		v.originals["%user"] = req.User
	}
	v.vars["%user"] = cleanName(req.User)
	v.vars["%specified"] = ""
	if asked != "default" {
		v.vars["%specified"] = asked
	}
	v.vars["%application"] = req.App
	v.vars["%default"] = "root.default"
	var groups []string
	seen := map[string]bool{}
	for _, g := range req.Groups {
		if !seen[g] {
			seen[g] = true
			groups = append(groups, g)
		}
	}
	v.groups, v.hasGroups = groups, true
	if len(groups) > 0 {
		v.vars["%primary_group"] = cleanName(groups[0])
		if len(groups) == 1 {
			v.vars["%secondary_group"] = ""
		} else {
			for _, g := range groups[1:] {
				v.secondary = append(v.secondary, cleanName(g))
			}
		}
	}
	for i, r := range pl.Rules {
		st := PlaceStep{Index: i + 1, Rule: r.Text, From: r.From}
		if req.NoApp && r.readsApp() {
			out.Unknown = fmt.Sprintf("rule %d (%s) reads the application's name, which was not given: give it with --app-name", i+1, r.Text)
			return "", false, ""
		}
		res, q := "skip", ""
		if v.matches(r) {
			switch r.Action {
			case actReject:
				res = "reject"
			case actSet:
				v.vars["%default"] = v.replaceVariables(r.Pattern)
				st.Result, st.Queue = "set", v.vars["%default"]
			case actPlace:
				name := v.replacePathVariables(r.Pattern)
				n, err := t.normalize(name, r.Create)
				if err == nil {
					res, q = "place", n
				} else {
					st.Reason = err.Error()
					res = [...]string{"skip", "reject", "default"}[r.Fallback]
					st.Result, st.Queue = "fallback", name
				}
			}
		} else {
			st.Result = "no match"
		}
		switch res {
		case "reject":
			if st.Result == "" {
				st.Result = "rejected"
			}
			out.Steps = append(out.Steps, st)
			return "", false, "Application submission have been rejected by a mapping rule"
		case "default":
			if st.Result == "" {
				st.Result = "default"
			}
			def := v.replacePathVariables("%default")
			n, err := t.normalize(def, false)
			st.Queue = def
			if err != nil {
				st.Reason = strings.TrimSpace(st.Reason + " default queue: " + err.Error())
				out.Steps = append(out.Steps, st)
				return "", false, "Application submission have been rejected by a mapping rule (the default queue " + def + " cannot be used: " + err.Error() + ")"
			}
			st.Queue = n
			out.Steps = append(out.Steps, st)
			return n, true, ""
		case "place":
			st.Result, st.Queue = "placed", q
			out.Steps = append(out.Steps, st)
			return q, true, ""
		}
		out.Steps = append(out.Steps, st)
	}
	return "", false, ""
}

// readsApp says whether the rule reads the application's name: an a:
// mapping, or %application in what it matches or makes.
func (r MappingRule) readsApp() bool {
	return r.Match == matchApp || strings.Contains(r.MatchValue, "%application") || strings.Contains(r.Pattern, "%application")
}

// missingParents is CapacitySchedulerQueueManager.determineMissingParents:
// the parents to create (highest first) and the existing parent under
// which they are made.
func (t *csTree) missingParents(qp queuePath) ([]string, *Queue, error) {
	if !qp.hasParent {
		return nil, nil, fmt.Errorf("Can not auto create queue %s due to missing ParentQueue path.", qp.full())
	}
	if t.ambiguous(qp.parent) {
		return nil, nil, fmt.Errorf("Could not auto-create queue %s due to ParentQueue %s being ambiguous.", qp.full(), qp.parent)
	}
	distance := 1
	cand := qp.parent
	var toCreate []string
	firstExisting := t.get(cand)
	firstStatic := firstExisting
	for firstStatic == nil && cand != "" {
		distance++
		if firstExisting == nil {
			toCreate = append([]string{cand}, toCreate...)
		}
		if i := strings.LastIndexByte(cand, '.'); i >= 0 {
			cand = cand[:i]
		} else {
			cand = ""
		}
		if firstExisting == nil {
			firstExisting = t.get(cand)
		}
		firstStatic = t.get(cand)
	}
	if firstExisting == nil || firstStatic == nil {
		return nil, nil, fmt.Errorf("Could not auto-create queue %s parent queue does not exist.", qp.full())
	}
	if max := t.autoQueueDepth(firstStatic.Path); distance > max {
		return nil, nil, fmt.Errorf("Could not auto create queue %s. The distance of the LeafQueue from the first static ParentQueue is %d, which is above the limit.", qp.full(), distance)
	}
	if t.kind[firstExisting] == kindLeaf {
		return nil, nil, fmt.Errorf("Could not auto create hierarchy of %s. Queue %s is not a ParentQueue.", qp.full(), qp.parent)
	}
	if !t.eligible(firstExisting) {
		return nil, nil, fmt.Errorf("Auto creation of queue %s is not enabled under parent %s", qp.full(), firstExisting.Path)
	}
	return toCreate, firstExisting, nil
}

// autoQueueDepth is getMaximumAutoCreatedQueueDepth: the queue's
// auto-queue-creation-v2.maximum-queue-depth, else the global one, else 2.
// A value getInt throws on is noted as unknown.
func (t *csTree) autoQueueDepth(path string) int {
	for _, key := range []string{CSPrefix + path + ".auto-queue-creation-v2.maximum-queue-depth", CSPrefix + "auto-queue-creation-v2.maximum-queue-depth"} {
		if v, ok := t.value(key); ok {
			if n, ok := javaGetInt(v); ok {
				return n
			}
			t.note(fmt.Sprintf("%s is %q, which aclint does not read as Configuration.getInt does (it throws on what is not a decimal number)", key, v))
			return 2
		}
	}
	return 2
}

// javaGetInt is Configuration.getInt's reading of a set value: trimmed,
// decimal (or 0x hex).
func javaGetInt(v string) (int, bool) {
	v = javaTrim(v)
	n := 0
	if v == "" {
		return 0, false
	}
	neg := false
	if v[0] == '-' || v[0] == '+' {
		neg = v[0] == '-'
		v = v[1:]
	}
	if v == "" {
		return 0, false
	}
	for _, c := range v {
		if c < '0' || c > '9' || n > 1<<30 {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// submitCheck is RMAppManager's ACL check before the scheduler sees the
// application: on the queue when it exists, else on the template ACLs of
// the queue the scheduler would create (getPermissionsForDynamicQueue),
// with every existing queue above it. It returns the stage that stops
// the submission ("acl", "unknown"), or "".
func (s *Setup) submitCheck(t *csTree, name string, req PlaceRequest, out *Placement) string {
	if s.Known && !s.ACLEnable {
		return "" // isAclEnabled: no check
	}
	deny := func(why string) string {
		if !s.Known {
			out.Unknown = "the ACLs deny it, but queue ACLs count only when yarn.acl.enable is true (default false): " + s.EnableHint()
			return "unknown"
		}
		out.Stage, out.Reason = "acl", why
		return "acl"
	}
	if q := t.get(name); q != nil {
		ans := s.Check(q, req.User, req.Groups, Submit)
		out.ACL = &ans
		if !ans.Known {
			out.Unknown = ans.Why
			return "unknown"
		}
		if !ans.Allowed && ans.Stopped == "" {
			return deny(fmt.Sprintf("User %s does not have permission to submit the application to queue %s", req.User, q.Path))
		}
		return ""
	}
	perms := t.dynamicACLs(newQueuePath(name))
	if len(perms) == 0 {
		return "" // nothing to check: the scheduler decides
	}
	d := s.CS.Decide(name, req.User, req.Groups, Submit)
	if d.Unknown && !d.Allowed {
		out.Unknown = "an ACL on the way uses ${...}, which Configuration substitutes from settings aclint does not have"
		return "unknown"
	}
	ans := Answer{Decision: d, Allowed: d.Allowed, Known: true}
	out.ACL = &ans
	if d.Allowed {
		return ""
	}
	for p := name; ; {
		for _, perm := range perms {
			if perm.entity != p {
				continue
			}
			for _, a := range []Action{Submit, Administer} {
				if perm.acl[a].Allows(req.User, req.Groups) {
					out.ACLTemplate = perm.key[a]
					ans.Allowed = true
					out.ACL = &ans
					return ""
				}
			}
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return deny(fmt.Sprintf("User %s does not have permission to submit the application to queue %s (created at submission: neither the ACLs above it nor its template ACLs let the user in)", req.User, name))
}

// dynamicPerm is one Permission of getPermissionsForDynamicQueue.
type dynamicPerm struct {
	entity string
	acl    [2]ACL
	key    [2]string // the template key that sets each ACL ("" for the default, nobody)
}

// dynamicACLs is CapacitySchedulerQueueManager.getPermissionsForDynamicQueue.
func (t *csTree) dynamicACLs(qp queuePath) []dynamicPerm {
	var perms []dynamicPerm
	parent := t.s.CS.ByPath[qp.parent]
	if !qp.hasParent {
		parent = nil
	}
	if parent == nil {
		missing, _, err := t.missingParents(qp)
		if err != nil {
			return nil
		}
		for _, m := range missing {
			tp := t.templates(newQueuePath(m).parent)
			perms = append(perms, tp.perm(m, tp.parent))
		}
	}
	if parent != nil && t.kind[parent] == kindManaged {
		p := dynamicPerm{entity: qp.full()}
		for _, a := range []Action{Submit, Administer} {
			p.acl[a] = ParseACL(" ")
			key := CSPrefix + qp.parent + ".leaf-queue-template." + a.Key()
			if v, ok := t.value(key); ok {
				p.acl[a], p.key[a] = ParseACL(v), key
			}
		}
		return append(perms, p)
	}
	tp := t.templates(qp.parent)
	return append(perms, tp.perm(qp.full(), tp.leaf))
}

// aqcTemplates are AutoCreatedQueueTemplate's three maps, each ACL name to
// its value and key.
type aqcTemplates struct {
	template, leaf, parent map[string][2]string
}

func (tp aqcTemplates) perm(entity string, own map[string][2]string) dynamicPerm {
	p := dynamicPerm{entity: entity}
	for _, a := range []Action{Submit, Administer} {
		v, ok := own[a.Key()]
		if !ok {
			v, ok = tp.template[a.Key()]
		}
		p.acl[a] = ParseACL(" ")
		if ok {
			p.acl[a], p.key[a] = ParseACL(v[0]), v[1]
		}
	}
	return p
}

// templates is AutoCreatedQueueTemplate.setTemplateConfigEntries for a
// parent path: the path's own templates first, then with its last parts
// replaced by "*", one more at each level, up to the maximum queue depth.
func (t *csTree) templates(parentPath string) aqcTemplates {
	tp := aqcTemplates{template: map[string][2]string{}, leaf: map[string][2]string{}, parent: map[string][2]string{}}
	qp := newQueuePath(parentPath)
	parts := javaSplitDot(qp.full())
	isRoot := !qp.hasParent && qp.leaf == "root"
	if len(parts) <= 1 && !isRoot {
		return tp
	}
	maxIdx := len(parts) - 1
	supported := min(maxIdx, t.autoQueueDepth(qp.full()))
	if isRoot {
		supported = 0
	}
	for level := 0; level <= supported; level++ {
		prefix := CSPrefix + strings.Join(parts, ".") + ".auto-queue-creation-v2."
		for _, kind := range []struct {
			name string
			m    map[string][2]string
		}{{"template.", tp.template}, {"leaf-template.", tp.leaf}, {"parent-template.", tp.parent}} {
			for _, a := range []Action{Submit, Administer} {
				key := prefix + kind.name + a.Key()
				if _, have := kind.m[a.Key()]; have {
					continue
				}
				if v, ok := t.value(key); ok {
					kind.m[a.Key()] = [2]string{v, key}
				}
			}
		}
		parts[maxIdx-level] = "*"
	}
	return tp
}

// CSRefusal is why the Capacity Scheduler's placement stops the
// ResourceManager at start: Hadoop's message, and the property.
type CSRefusal struct {
	Message string
	At      *Property
	Rule    int // the rule's index from 0, or -1
}

// StartPlacement reads and validates the placement rules as
// CSMappingPlacementRule.initialize does: the rules, or the refusal.
func (s *Setup) StartPlacement() (*CSPlacement, *CSRefusal) {
	pl := s.ReadCSPlacement()
	if pl.Refused != "" {
		return pl, &CSRefusal{Message: pl.Refused, At: pl.RefusedAt, Rule: -1}
	}
	pl.tree = s.placeTree()
	if i, err := pl.tree.validate(pl.Rules); err != nil {
		if pl.tree.unknown != "" {
			// the check read a value aclint cannot: whether Hadoop
			// starts is not known
			pl.Unknown = pl.tree.unknown
			return pl, nil
		}
		return pl, &CSRefusal{Message: err.Error(), At: pl.Rules[i].From, Rule: i}
	}
	return pl, nil
}
