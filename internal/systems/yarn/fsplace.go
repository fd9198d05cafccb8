package yarn

import (
	"fmt"
	"strings"
)

// Where the Fair Scheduler places an application on a freshly started
// ResourceManager: PlacementManager runs the policy's rules in order
// (SpecifiedPlacementRule, UserPlacementRule, ... with their parent
// rules), RMAppManager checks the ACLs of the queue chosen or of its
// nearest existing ancestor when yarn.acl.enable is true, and
// FairScheduler.addApplication gets the leaf queue (QueueManager creates
// it and its missing parents when their scheduling policies allow) and
// checks the ACLs again.

// The yarn-site.xml keys that make the policy when the allocation file
// writes none (FairSchedulerConfiguration).
const (
	AllowUndeclaredPoolsKey = "yarn.scheduler.fair.allow-undeclared-pools"
	UserAsDefaultQueueKey   = "yarn.scheduler.fair.user-as-default-queue"
)

// fsPolicyRead is the Fair Scheduler's policy as PlaceFS reads it once.
type fsPolicyRead struct {
	rules         []*FSRule
	from, unknown string
}

// FSRules are the rules the Fair Scheduler places with, and where they
// come from; Unknown says why aclint cannot know them.
func (s *Setup) FSRules() (rules []*FSRule, from string, unknown string) {
	if p := s.CS.Placement; p != nil && len(p.Rules) > 0 {
		return p.Rules, "the allocation file's queuePlacementPolicy", ""
	}
	from = "no queuePlacementPolicy in the allocation file: " + AllowUndeclaredPoolsKey + " and " + UserAsDefaultQueueKey + " make the policy (QueuePlacementPolicy.fromConfiguration)"
	if p := s.CS.Placement; p != nil {
		from = "the allocation file's queuePlacementPolicy has no rule, so Hadoop keeps the policy " + AllowUndeclaredPoolsKey + " and " + UserAsDefaultQueueKey + " make"
	}
	if s.site == nil || !s.Scheduler.Given {
		return nil, from, "the policy comes from " + AllowUndeclaredPoolsKey + " and " + UserAsDefaultQueueKey + " in yarn-site.xml (default true), which was not given: give it with -f"
	}
	flag := func(key string) (bool, string) {
		p, ok := s.site.Get(key)
		if !ok || !p.HasValue {
			return true, ""
		}
		v, e := s.site.Expand(p.Value)
		if e != Expanded {
			return false, fmt.Sprintf("%s at %s:%d:%d uses ${...}, which Configuration substitutes from settings aclint does not have", key, p.File, p.ValuePos.Line, p.ValuePos.Col)
		}
		b, ok := javaBoolean(v)
		if !ok {
			return true, ""
		}
		return b, ""
	}
	create, why := flag(AllowUndeclaredPoolsKey)
	if why != "" {
		return nil, from, why
	}
	uad, why := flag(UserAsDefaultQueueKey)
	if why != "" {
		return nil, from, why
	}
	rules = []*FSRule{{Name: "specified", Create: create}}
	if uad {
		rules = append(rules, &FSRule{Name: "user", Create: create})
	}
	if !uad || !create {
		rules = append(rules, &FSRule{Name: "default", Create: true, Queue: "root.default"})
	}
	return rules, from, ""
}

// fsPlaceUnknown says why no placement over this allocation file is known:
// a tree past what aclint reads, a root queue of another name, or
// scheduling policies aclint cannot follow.
func (s *Setup) fsPlaceUnknown() string {
	cs := s.CS
	switch {
	case cs.Truncated:
		return "the queue tree goes past what aclint reads"
	case cs.Root.Path != "root":
		return fmt.Sprintf("the allocation file names its root queue %q: aclint does not place applications under a root of another name", cs.Root.Path)
	case cs.DefaultPolicy == "":
		return fmt.Sprintf("defaultQueueSchedulingPolicy %q is no policy aclint knows (a class on the ResourceManager's classpath decides which queues can be created)", cs.DefaultPolicyText)
	}
	for _, q := range cs.ByPath {
		if q.PolicyText != "" && q.Policy == "" {
			return fmt.Sprintf("schedulingPolicy %q of %s is no policy aclint knows", q.PolicyText, q.Path)
		}
	}
	return ""
}

// fsExists says whether a queue of the allocation file exists once the
// Fair Scheduler has started: QueueManager creates each configured queue
// with its parents, each with its configured policy, and creates none
// whose parent's policy does not allow its own (FairSharePolicy: not
// drf; FifoPolicy: none) nor a parent queue of policy fifo, nor anything
// below those (createNewQueues returns null).
func (s *Setup) fsExists(q *Queue) bool {
	for ; q != nil && q != s.CS.Root; q = q.Parent {
		if !s.fsPolicy(q.Parent).childAllowed(s.fsPolicy(q)) || s.fsParent(q) && s.fsPolicy(q) == PolicyFifo {
			return false
		}
	}
	return true
}

// fsPolicy is a queue's scheduling policy: its own, else the default.
func (s *Setup) fsPolicy(q *Queue) SchedPolicy {
	if q != nil && q.PolicyText != "" {
		return q.Policy
	}
	return s.CS.DefaultPolicy
}

// fsParent says whether a queue of the allocation file is an
// FSParentQueue: root, a queue with children, or one of type="parent".
func (s *Setup) fsParent(q *Queue) bool { return q == s.CS.Root || q.IsParentQueue() }

// fsQueue is QueueManager.getQueue on a fresh scheduler: the name with
// root. added when it has none, nil for a queue the scheduler did not
// create.
func (s *Setup) fsQueue(name string) *Queue {
	if q := s.CS.ByPath[assureRoot(name)]; q != nil && s.fsExists(q) {
		return q
	}
	return nil
}

// fsPolicyOf is AllocationConfiguration.getSchedulingPolicy: the policy a
// queue of that name is made with, configured or the default.
func (s *Setup) fsPolicyOf(name string) SchedPolicy {
	if q := s.CS.ByPath[name]; q != nil {
		return s.fsPolicy(q)
	}
	return s.CS.DefaultPolicy
}

// fsRuleError is a YarnException a rule throws: the submission fails.
type fsRuleError struct{ msg string }

func (e *fsRuleError) Error() string { return e.msg }

// fsRun is one rule's getPlacementForApp: the queue, or "" for none.
func (s *Setup) fsRun(r *FSRule, req PlaceRequest, asked string, groups []string) (string, error) {
	configured := func(q string) bool { return s.fsQueue(q) != nil }
	under := func() (string, bool, error) {
		if r.Parent == nil {
			return "", true, nil
		}
		p, err := s.fsRun(r.Parent, req, asked, groups)
		if err != nil || p == "" {
			return "", false, err
		}
		if q := s.fsQueue(p); q != nil && !s.fsParent(q) {
			return "", false, nil // the parent rule gave a leaf queue
		}
		return p, true, nil
	}
	pick := func(q string) (string, error) {
		if r.Create || configured(q) {
			return q, nil
		}
		return "", nil
	}
	switch r.Name {
	case "specified":
		if !fsValidQueueName(asked) {
			return "", &fsRuleError{"Application submitted by user " + req.User + "with illegal queue name '" + asked + "'."}
		}
		if asked == "default" {
			return "", nil
		}
		return pick(assureRoot(asked))
	case "user", "nestedUserQueue":
		p, ok, err := under()
		if !ok {
			return "", err
		}
		if p != "" {
			return pick(p + "." + fsCleanName(req.User))
		}
		return pick(assureRoot(fsCleanName(req.User)))
	case "primaryGroup":
		if len(groups) == 0 {
			return "", &fsRuleError{"No groups returned for user " + req.User}
		}
		p, ok, err := under()
		if !ok {
			return "", err
		}
		g := fsCleanName(groups[0])
		if p != "" {
			return pick(p + "." + g)
		}
		return pick(assureRoot(g))
	case "secondaryGroupExistingQueue":
		p, ok, err := under()
		if !ok {
			return "", err
		}
		for _, g := range groups {
			q := assureRoot(fsCleanName(g))
			if p != "" {
				q = p + "." + fsCleanName(g)
			}
			if configured(q) {
				return q, nil
			}
		}
		return "", nil
	case "default":
		return pick(r.Queue)
	}
	return "", nil // reject
}

// PlaceFS answers where the Fair Scheduler places req.
func (s *Setup) PlaceFS(req PlaceRequest) *Placement {
	out := &Placement{}
	// the policy and whether it is known: read once per setup, not per
	// application (convert's proof places thousands)
	s.fsOnce.Do(func() {
		p := &s.fsPolicyRead
		p.rules, p.from, p.unknown = s.FSRules()
		if p.unknown == "" {
			p.unknown = s.fsPlaceUnknown()
		}
	})
	rules, from, unknown := s.fsPolicyRead.rules, s.fsPolicyRead.from, s.fsPolicyRead.unknown
	if unknown != "" {
		out.Unknown = unknown
		return out
	}
	out.Notes = append(out.Notes, "placement rules: "+from)
	asked := req.Queue
	if asked == "" {
		asked = "default" // ClientRMService.submitApplication
	}
	var groups []string
	seen := map[string]bool{}
	for _, g := range req.Groups {
		if !seen[g] {
			seen[g] = true
			groups = append(groups, g)
		}
	}
	queue := ""
	for i, r := range rules {
		st := PlaceStep{Index: i + 1, Rule: r.Text(), Result: "no match"}
		if r.Pos.Line > 0 {
			st.From = &Property{File: s.CS.Conf.File, Name: "rule", Pos: r.Pos, NamePos: r.Pos, ValuePos: r.Pos}
		}
		q, err := s.fsRun(r, req, asked, groups)
		if err != nil {
			st.Result, st.Reason = "rejected", err.Error()
			out.Steps = append(out.Steps, st)
			out.Stage, out.Reason = "mapping", err.Error()
			return out
		}
		if r.Name == "reject" {
			st.Result = "rejected"
		}
		if q != "" {
			st.Result, st.Queue = "placed", q
			out.Steps = append(out.Steps, st)
			queue = q
			break
		}
		out.Steps = append(out.Steps, st)
	}
	if queue == "" {
		out.Stage, out.Reason = "mapping", "Reject application <application> submitted by user "+req.User+" application rejected by placement rules."
		return out
	}
	out.By = "rule"
	s.fsSubmit(req, queue, out)
	return out
}

// fsSubmit is RMAppManager's ACL check and FairScheduler.addApplication
// on the queue the rules chose.
func (s *Setup) fsSubmit(req PlaceRequest, queue string, out *Placement) {
	// the nearest existing queue, from the queue up: its ACLs decide for
	// a queue created at submission, which has none of its own
	near := s.fsQueue(queue)
	for p := queue; near == nil; {
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			break
		}
		p = p[:i]
		near = s.fsQueue(p)
	}
	if near == nil {
		near = s.CS.Root
	}
	ans := s.Check(near, req.User, req.Groups, Submit)
	out.ACL = &ans
	if !ans.Known {
		out.Unknown = ans.Why
		return
	}
	aclDenied := ""
	if !ans.Allowed {
		aclDenied = "User " + req.User + " does not have permission to submit <application> to queue " + queue
	}
	if aclDenied != "" && s.Known && s.ACLEnable {
		// RMAppManager checks first, on the nearest existing queue
		out.Stage, out.Reason = "acl", aclDenied+" denied by ACL for queue "+near.Path
		return
	}
	// addApplication: QueueManager.getLeafQueue(queue, create)
	leafErr, created, under := s.fsLeaf(queue)
	switch {
	case leafErr == "?":
		out.Unknown = "the queue name " + queue + " has an empty or untrimmed part: QueueManager throws InvalidQueueNameException creating it inside the scheduler's event handler, and aclint does not say what becomes of the application"
	case leafErr != "":
		out.Stage, out.Reason = "non-leaf", leafErr
	case aclDenied != "":
		out.Stage, out.Reason = "acl", aclDenied
	default:
		out.Placed, out.Queue, out.Created, out.CreatedUnder = true, queue, created, under
	}
}

// fsLeaf is QueueManager.getLeafQueue(queue, true) on a fresh scheduler:
// the reason it gives no leaf queue ("" when it does), whether it creates
// it and under which queue; "?" when it throws.
func (s *Setup) fsLeaf(queue string) (reason string, created bool, under string) {
	notLeaf := queue + " is not a leaf queue"
	name := assureRoot(queue)
	if q := s.fsQueue(name); q != nil {
		if s.fsParent(q) {
			return notLeaf, false, ""
		}
		return "", false, ""
	}
	// buildNewQueueList: up the path to the first queue that exists
	var missing []string
	end := len(name)
	for {
		i := strings.LastIndexByte(name[:end], '.')
		node := name[i+1 : end]
		if node == "" || node != trimQueueName(node) {
			return "?", false, ""
		}
		missing = append(missing, name[:end])
		if i < 0 {
			return notLeaf, false, "" // no queue above it exists
		}
		if q := s.fsQueue(name[:i]); q != nil {
			if !s.fsParent(q) {
				return notLeaf, false, ""
			}
			// createNewQueues: each new queue, from the top, takes the
			// policy its name is configured with (or the default), which
			// its parent must allow; a parent on the way may not be fifo
			parent := s.fsPolicy(q)
			for j := len(missing) - 1; j >= 0; j-- {
				child := s.fsPolicyOf(missing[j])
				if !parent.childAllowed(child) || j > 0 && child == PolicyFifo {
					return notLeaf + fmt.Sprintf(" (the Fair Scheduler cannot create %s: a queue of policy %s under one of policy %s)", missing[j], child, parent), false, ""
				}
				parent = child
			}
			return "", true, q.Path
		}
		end = i
	}
}
