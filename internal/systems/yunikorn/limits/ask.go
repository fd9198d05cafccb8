package limits

import (
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// Ask answers the limits on an application of q's user in q's queue: the
// queue and the groups as check finds them (an existing queue, or one
// placement creates for this request; the groups as given or as the
// resolver finds them), then Answer. No answer, as a *acl.QueryError,
// where no application of the user ever runs in the queue: YuniKorn
// rejects the user before any limit is read, or the queue is a parent. The
// decision comes back too, for its notes and whether the user may submit.
func (md *Model) Ask(policy *acl.Policy, q acl.Query) (*Answer, *acl.Decision, error) {
	q.Action = acl.Submit
	d, err := policy.Decide(q)
	if err != nil {
		return nil, nil, err
	}
	if d.Reason != "" {
		return nil, d, &acl.QueryError{Msg: fmt.Sprintf("no limit is read for %s, whose applications never reach a queue: %s", q.User, d.Reason)}
	}
	if d.Parent {
		return nil, d, &acl.QueryError{Msg: fmt.Sprintf("%s is a parent queue: YuniKorn never runs an application in it, so no limit applies to one there; ask about a leaf queue below it%s", d.Queue, leafBelow(policy, d))}
	}
	a, err := md.Decided(policy, d, q.Tags)
	return a, d, err
}

// Decided answers the limits for a submit decision already made (check -v,
// a test case): its queue, user and converted groups.
func (md *Model) Decided(policy *acl.Policy, d *acl.Decision, tags map[string]string) (*Answer, error) {
	part, err := policy.FindPartition(d.Partition)
	if err != nil {
		return nil, err
	}
	a, err := md.Answer(Request{Partition: part, Queue: d.Queue, User: d.Query.User, Groups: d.Groups, Tags: tags})
	if err != nil {
		return nil, err
	}
	a.GroupsSource = d.GroupsSource
	allowed := d.Allowed
	a.SubmitAllowed = &allowed
	return a, nil
}

// leafBelow names the first leaf queue below a parent, for the error.
func leafBelow(policy *acl.Policy, d *acl.Decision) string {
	part, err := policy.FindPartition(d.Partition)
	if err != nil {
		return ""
	}
	q, _, _ := acl.FindQueue(part.Root, d.Queue)
	var leaf *config.Queue
	if q != nil {
		q.Walk(func(c *config.Queue) {
			if leaf == nil && c.IsLeaf() && !strings.EqualFold(c.Path(), d.Queue) {
				leaf = c
			}
		})
	}
	if leaf == nil {
		return ""
	}
	return fmt.Sprintf(", e.g. %s", leaf.Path())
}
