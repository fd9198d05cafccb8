package yarn

import (
	"fmt"
	"strings"
)

// A Capacity Scheduler queue is RUNNING or STOPPED (Hadoop 3.4.1,
// QueueStateHelper.setQueueState at start): its configured state is
// <path>.state read by CapacitySchedulerConfiguration.getConfiguredState,
// QueueState.valueOf of the value upper-cased and not trimmed (" STOPPED"
// is no state: IllegalArgumentException), and only RUNNING or STOPPED may
// be configured (DRAINING is refused). A queue without one takes its
// parent's; a queue configured RUNNING under a parent that is not is
// refused. A STOPPED leaf takes no submission:
// AbstractLeafQueue.validateSubmitApplication throws "Queue root.a is
// STOPPED. Cannot accept submission of application: ...", after the ACLs
// allowed it, whatever yarn.acl.enable says.

// queueStateEnum is org.apache.hadoop.yarn.api.records.QueueState's name.
const queueStateEnum = "org.apache.hadoop.yarn.api.records.QueueState"

// readState sets q's state from its .state property p (nil: not set) and
// its parent's, as QueueStateHelper.initializeState does; what refuses the
// tree is kept for CapacityRefused.
func (q *Queue) readState(c *Conf, p *Property) {
	if q.Parent != nil {
		q.Stopped = q.Parent.Stopped
	}
	if p == nil || !p.HasValue {
		return
	}
	q.StateFrom = p
	v, e := c.Expand(p.Value)
	switch e {
	case NotKnown:
		q.stateProblem = &CapacityRefusal{At: p, Queue: q.Path, Unknown: p.Name + " uses ${...}, which Configuration substitutes from settings aclint does not have"}
		return
	case TooDeep:
		q.stateProblem = &CapacityRefusal{At: p, Queue: q.Path, Reason: tooDeepMessage(p.Value)}
		return
	}
	// StringUtils.toUpperCase: toUpperCase(Locale.ENGLISH), no trim
	switch name := strings.ToUpper(v); name {
	case "STOPPED":
		q.Stopped = p
	case "RUNNING":
		if q.Parent != nil && q.Parent.Stopped != nil {
			q.stateProblem = &CapacityRefusal{At: p, Queue: q.Path, Reason: "The parent queue:" + q.Parent.Path + " cannot be STOPPED as the child queue:" + q.Path + " is in RUNNING state."}
		}
		q.Stopped = nil
	case "DRAINING":
		q.stateProblem = &CapacityRefusal{At: p, Queue: q.Path, Reason: "Invalid queue state configuration. We can only use RUNNING or STOPPED."}
	default:
		q.stateProblem = &CapacityRefusal{At: p, Queue: q.Path, Reason: "No enum constant " + queueStateEnum + "." + name}
	}
}

// stateSource is the Hadoop code that reads and checks a queue's state.
const stateSource = "CapacitySchedulerConfiguration.getConfiguredState / QueueStateHelper.setQueueState"

// stateRefusal is what the queue's state refuses (nil: nothing).
func (q *Queue) stateRefusal() *CapacityRefusal {
	if r := q.stateProblem; r != nil && r.Reason != "" && r.Source == "" && !r.substitution() {
		r.Source = stateSource
	}
	return q.stateProblem
}

// refusesSubmission is whether the queue's state refuses a submission the
// ACLs let through: AbstractLeafQueue.validateSubmitApplication is a leaf's
// check, so a STOPPED parent is answered by its ACLs, and the scheduler
// refuses any submission to it as a non-leaf queue whatever its state
// (ParentQueueNote).
func (s *Setup) refusesSubmission(q *Queue) bool {
	return !s.FS && q.Stopped != nil && !q.IsParentQueue()
}

// StoppedNote says why a submission to a STOPPED queue fails, naming the
// property that stops it, or "" for a running queue.
func (q *Queue) StoppedNote() string {
	p := q.Stopped
	if p == nil {
		return ""
	}
	where := "its own " + p.Name
	if p != q.StateFrom {
		where = p.Name + ", which its parent queues pass down to it (a queue without a state takes its parent's)"
	}
	return fmt.Sprintf("queue %s is STOPPED (%s, at %s:%d:%d): the Capacity Scheduler refuses every submission to it after the ACL check (AbstractLeafQueue.validateSubmitApplication: \"Queue %s is STOPPED. Cannot accept submission of application\")",
		q.Path, where, p.File, p.ValuePos.Line, p.ValuePos.Col, q.Path)
}
