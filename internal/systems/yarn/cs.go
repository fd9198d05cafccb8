package yarn

import "strings"

// The Capacity Scheduler's queues and their ACLs, as
// CapacitySchedulerConfiguration reads them from capacity-scheduler.xml.

// CSPrefix is CapacitySchedulerConfiguration.PREFIX.
const CSPrefix = "yarn.scheduler.capacity."

// Action is a queue ACL: QueueACL.SUBMIT_APPLICATIONS or ADMINISTER_QUEUE.
type Action int

const (
	Submit Action = iota
	Administer
)

// Key is the ACL's key suffix: "acl_" + QueueACL lower-cased
// (CapacitySchedulerConfiguration.getAclKey).
func (a Action) Key() string {
	if a == Administer {
		return "acl_administer_queue"
	}
	return "acl_submit_applications"
}

func (a Action) String() string {
	if a == Administer {
		return "administer"
	}
	return "submit"
}

// Queue is one queue of the tree.
type Queue struct {
	Name, Path string
	Parent     *Queue
	Children   []*Queue
	// ListedAt is the property whose .queues value names this queue
	// (nil for root).
	ListedAt *Property
	// ACLs by Action: the ACL YARN builds, and the property it comes from
	// (nil when the default applies: "*" for root, " " for every other
	// queue, CapacitySchedulerConfiguration.ALL_ACL and NONE_ACL).
	ACL  [2]ACL
	From [2]*Property
	// Unknown is set for an ACL aclint cannot know: its value uses
	// Configuration's ${...} substitution, which reads other
	// configuration and the JVM's system properties.
	Unknown [2]bool
	// Repeat is set on a queue listed again under the same parent: the
	// first one is the queue, this one is not read again.
	Repeat bool
	// Stopped is the .state property that stops this queue, its own or an
	// ancestor's (nil: RUNNING); StateFrom is its own .state property.
	Stopped, StateFrom *Property
	stateProblem       *CapacityRefusal
	// QueuesTooDeep is the .queues property of this queue when its ${...}
	// chain is too deep for Configuration: getQueues throws, and the
	// Capacity Scheduler does not start.
	QueuesTooDeep *Property
	// MarkedParent is a Fair Scheduler queue with type="parent": a parent
	// queue even without children.
	MarkedParent bool
	// Policy is a Fair Scheduler queue's schedulingPolicy as written
	// (PolicyText), "" when it sets none.
	Policy     SchedPolicy
	PolicyText string
}

// IsParentQueue reports whether a queue is a parent queue: it has
// children, or the allocation file marks it type="parent". YARN runs
// applications only in leaf queues.
func (q *Queue) IsParentQueue() bool {
	if q.MarkedParent {
		return true
	}
	for _, c := range q.Children {
		if !c.Repeat {
			return true
		}
	}
	return false
}

// ParentQueueNote says why a submission to a parent queue fails whatever
// its ACLs say, for answers about one.
func ParentQueueNote(q *Queue, fs bool) string {
	if fs {
		return q.Path + " is a parent queue: this is its ACL answer, but the Fair Scheduler puts applications only in leaf queues (QueueManager.getLeafQueue finds none there), so an application submitted to it is rejected"
	}
	note := q.Path + " is a parent queue: this is its ACL answer, but the Capacity Scheduler runs applications only in leaf queues (CapacityScheduler.addApplication rejects one submitted to a non-leaf queue)"
	if q.Stopped != nil {
		// validateSubmitApplication, the STOPPED check, is a leaf's
		note += "; it is STOPPED too, which decides nothing here: only a leaf queue checks its state (AbstractLeafQueue.validateSubmitApplication)"
	}
	return note
}

// CS is a capacity-scheduler.xml read as a queue tree.
type CS struct {
	Conf *Conf
	Root *Queue
	// ByPath finds a queue by its full path, as written ("root.a.b").
	ByPath map[string]*Queue
	// Truncated is set when the tree went past maxQueues or maxDepth:
	// what is below is not read, and questions about it are not answered.
	Truncated bool
	// FS is set for a Fair Scheduler allocation file's tree (ReadFS); its
	// Conf then holds the ACL elements as properties.
	FS bool
	// Unknown is what the tree cannot be built from: a .queues value that
	// uses ${...}, which Configuration.getStrings substitutes.
	Unknown []Unknown
	// UnreadACLs are an allocation file's elements in a <queue> that look
	// like an ACL but that the Fair Scheduler does not know, and passes
	// over (AllocationFileQueueParser.loadQueue).
	UnreadACLs []*Property
	// Placement is an allocation file's queuePlacementPolicy (nil when it
	// has none: yarn-site.xml's settings make the policy).
	Placement *FSPolicy
	// DefaultPolicy is an allocation file's defaultQueueSchedulingPolicy
	// (fair when not set; "" for a class aclint does not know), the
	// policy of every queue that does not set its own.
	DefaultPolicy     SchedPolicy
	DefaultPolicyText string
}

// maxQueues and maxDepth bound the tree a hostile file can make: every
// level is a property, but paths grow with depth, so a deep chain would
// cost memory by the square of its depth. Real trees are a few levels.
const (
	maxQueues = 1 << 20
	maxDepth  = 256
)

// ReadCS builds the queue tree from root as the Capacity Scheduler does:
// a queue's children are yarn.scheduler.capacity.<path>.queues, read as
// Configuration.getStrings reads a list (split at commas, empty pieces
// dropped) and each name trimmed (getQueues). Each queue's ACLs are
// getAcl: the value of <path>.acl_submit_applications and
// <path>.acl_administer_queue, else "*" for root and " " (nobody) for the
// rest.
func ReadCS(c *Conf) *CS {
	cs := &CS{Conf: c, ByPath: map[string]*Queue{}}
	cs.Root = &Queue{Name: "root", Path: "root"}
	count := 0
	var key []byte // reused: a lookup with string(key) does not allocate
	get := func(path, suffix string) (*Property, bool) {
		key = append(append(append(append(key[:0], CSPrefix...), path...), '.'), suffix...)
		p, ok := c.set[string(key)]
		return p, ok
	}
	var walk func(q *Queue, depth int)
	walk = func(q *Queue, depth int) {
		cs.ByPath[q.Path] = q
		for _, a := range []Action{Submit, Administer} {
			if p, ok := get(q.Path, a.Key()); ok {
				q.From[a] = p
				p.read = true
				// ${...} is followed through the files' properties
				// (Conf.Expand); a chain aclint cannot follow, or one
				// too deep, leaves the ACL unknown
				v, e := c.Expand(p.Value)
				q.Unknown[a] = e != Expanded
				q.ACL[a] = ParseACL(p.Value)
				if e == Expanded && v != p.Value {
					q.ACL[a] = ParseACL(v)
				}
			} else if q.Path == "root" {
				q.ACL[a] = ParseACL("*")
			} else {
				q.ACL[a] = ParseACL(" ")
			}
		}
		sp, _ := get(q.Path, "state")
		q.readState(c, sp)
		p, ok := get(q.Path, "queues")
		if !ok {
			return
		}
		list, e := c.Expand(p.Value)
		switch e {
		case NotKnown:
			cs.Unknown = append(cs.Unknown, Unknown{p.File, p.ValuePos, p.Name + " uses ${...}, which Configuration substitutes from settings aclint does not have: the queues below " + q.Path + " are not known"})
			return
		case TooDeep:
			q.QueuesTooDeep = p // Configuration throws: CapacityRefused says so
			return
		}
		if depth >= maxDepth {
			cs.Truncated = true
			return
		}
		for _, piece := range strings.Split(list, ",") {
			if piece == "" {
				continue // StringTokenizer skips empty tokens
			}
			if count >= maxQueues {
				cs.Truncated = true
				return
			}
			name := javaTrim(piece)
			count++
			child := &Queue{Name: name, Path: q.Path + "." + name, Parent: q, ListedAt: p}
			q.Children = append(q.Children, child)
			if _, dup := cs.ByPath[child.Path]; dup {
				child.Repeat = true
			} else {
				walk(child, depth+1)
			}
		}
	}
	walk(cs.Root, 0)
	return cs
}

// Walk calls fn for every queue of the tree, in tree order (a queue before
// its children, children as listed), once each: a name listed again under
// the same parent is not walked again.
func (cs *CS) Walk(fn func(q *Queue)) {
	var walk func(q *Queue)
	walk = func(q *Queue) {
		fn(q)
		for _, c := range q.Children {
			if !c.Repeat {
				walk(c)
			}
		}
	}
	walk(cs.Root)
}

// names adds every user and group any ACL of the tree names to users and
// groups.
func (cs *CS) names(users, groups map[string]bool) {
	for _, q := range cs.ByPath {
		for _, a := range []Action{Submit, Administer} {
			for _, e := range q.ACL[a].Users {
				users[e.Name] = true
			}
			for _, e := range q.ACL[a].Groups {
				groups[e.Name] = true
			}
		}
	}
}

// Decision is YARN's answer to one access question, with the ACL that
// decided it.
type Decision struct {
	Allowed bool
	// Queue and Action are where access was granted (nil when denied).
	Queue  *Queue
	Action Action
	// Consulted are the queues whose ACLs were read, from the queue up.
	Consulted []*Queue
	// Unknown is set when an ACL on the way could not be read: the answer
	// is not known.
	Unknown bool
}

// Decide answers whether user (with groups) may act on the queue at path,
// with ACLs enabled: ConfiguredYarnAuthorizer.checkPermission asks the
// queue's ACL for the access type and, when it does not allow the user,
// the ACL of the queue named by the path up to its last dot, up to a name
// without a dot; there is no deny. A path with no queue has no ACLs and
// the walk goes on. Submitting is allowed when the submit check or the
// administer check passes (RMAppManager, and the scheduler's own check
// when the application is added).
func (cs *CS) Decide(path string, user string, groups []string, action Action) Decision {
	tries := []Action{action}
	if action == Submit {
		tries = []Action{Submit, Administer}
	}
	// below a cut-off tree, a queue's own ACLs are not known
	d := Decision{Unknown: cs.Truncated && cs.ByPath[path] == nil}
	for p := path; ; {
		if q := cs.ByPath[p]; q != nil {
			d.Consulted = append(d.Consulted, q)
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	for _, a := range tries {
		for _, x := range d.Consulted {
			if x.Unknown[a] {
				d.Unknown = true
				continue
			}
			if x.ACL[a].Allows(user, groups) {
				return Decision{Allowed: true, Queue: x, Action: a, Consulted: d.Consulted}
			}
		}
	}
	return d
}
