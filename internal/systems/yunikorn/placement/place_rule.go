package placement

// What one placement rule does with an application: the queue it names,
// under its parent rule's, or why it does not match.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

// rule runs one rule as its placeApplication does and returns the queue
// name it produced ("" for no match), how its filter decided, why it did
// not match, and an error when the rule fails (which rejects the app).
func (c *run) rule(r *Rule) (name, filter, reason string, err error) {
	switch r.Name {
	case "recovery":
		if c.forced {
			return "root.@recovery@", "", "", nil
		}
		return "", "", "the recovery rule places only forced applications", nil
	case "test":
		return c.testRule()
	}
	f := &ruleFilter{c: c, r: r}
	name, child, reason, err := c.ruleQueue(r, f)
	if err != nil || reason != "" {
		return "", f.why, reason, err
	}
	if name == "" {
		if name, reason, err = c.underParent(r, child); name == "" {
			return "", f.why, reason, err
		}
	}
	if !r.Create && c.lookup(name) == nil {
		return "", f.why, fmt.Sprintf("%s does not exist and the rule has create: false", name), nil
	}
	return name, f.why, "", nil
}

// ruleFilter runs a rule's filter once, remembering what it said.
type ruleFilter struct {
	c   *run
	r   *Rule
	why string
}

// allows runs the filter; reason is why it filters the application out.
func (f *ruleFilter) allows() (ok bool, reason string) {
	if f.c.noFilter {
		return true, ""
	}
	ok, why := f.r.Filter.allows(f.c.sub.User, f.c.sub.Groups)
	f.why = why
	if !ok {
		reason = "filtered out"
		if why != "" {
			reason = "filtered out: " + why
		}
	}
	return ok, reason
}

// testRule is the test rule: the requested queue with its dots replaced,
// or "test", unqualified.
func (c *run) testRule() (name, filter, reason string, err error) {
	q := c.app.Queue
	if q == "" {
		return "test", "", "the test rule returns \"test\", unqualified", nil
	}
	for _, p := range strings.Split(q, ".") {
		if !acl.ValidQueueName(p) {
			return "", "", fmt.Sprintf("%q is not a valid queue name (invalid queue name)", p), errors.New("invalid queue name")
		}
	}
	return strings.ReplaceAll(q, ".", dotReplace), "", "the test rule returns the requested queue with its dots replaced, unqualified", nil
}

// ruleQueue is the queue a provided, tag, user or fixed rule names: a
// full path (name), or a child of its parent (child); neither, with the
// reason, when it does not match.
func (c *run) ruleQueue(r *Rule, f *ruleFilter) (name, child, reason string, err error) {
	switch r.Name {
	case "provided", "tag":
		return c.askedQueue(r, f)
	case "user":
		if ok, why := f.allows(); !ok {
			return "", "", why, nil
		}
		user := c.sub.User
		child = strings.ReplaceAll(user, ".", dotReplace)
		if !acl.ValidQueueName(child) {
			return "", "", fmt.Sprintf("the user name %q gives the queue name %q, which is not valid (invalid queue name)", user, child), errors.New("invalid queue name")
		}
		return "", child, "", nil
	case "fixed":
		if ok, why := f.allows(); !ok {
			return "", "", why, nil
		}
		if r.Qualified {
			return r.Value, "", "", nil
		}
		return "", r.Value, "", nil
	}
	return "", "", "", nil
}

// askedQueue is the queue a provided rule (the requested queue) or a tag
// rule (the tag's value) names.
func (c *run) askedQueue(r *Rule, f *ruleFilter) (name, child, reason string, err error) {
	v := c.app.Queue
	what := "the requested queue"
	if r.Name == "tag" {
		var note string
		v, note = c.app.tag(r.Value)
		if note != "" {
			c.res.Notes = append(c.res.Notes, note)
		}
		what = "tag " + r.Value
		if v == "" {
			return "", "", fmt.Sprintf("the application has no tag %s (or it is empty)", r.Value), nil
		}
	} else if v == "" {
		return "", "", "the application names no queue", nil
	}
	if ok, why := f.allows(); !ok {
		return "", "", why, nil
	}
	if strings.HasPrefix(v, "root.") {
		for _, p := range strings.Split(v, ".") {
			if !acl.ValidQueueName(p) {
				return "", "", fmt.Sprintf("%s %q has %q, not a valid queue name (invalid queue name)", what, v, p), errors.New("invalid queue name")
			}
		}
		return v, "", "", nil
	}
	child = strings.ReplaceAll(v, ".", dotReplace)
	if !acl.ValidQueueName(child) {
		return "", "", fmt.Sprintf("%s %q gives the queue name %q, which is not valid (invalid queue name)", what, v, child), errors.New("invalid queue name")
	}
	return "", child, "", nil
}

// underParent is child under the queue the rule's parent rule names (root
// without one); "" with the reason when the parent rule does not match.
func (c *run) underParent(r *Rule, child string) (name, reason string, err error) {
	parent := "root"
	if r.Parent != nil {
		pn, _, pr, err := c.rule(r.Parent)
		if err != nil {
			return "", "parent rule " + r.Parent.Name + ": " + pr, err
		}
		if pn == "" {
			return "", "the parent rule " + r.Parent.Describe() + " did not match: " + pr, nil
		}
		if !strings.HasPrefix(pn, "root.") {
			pn = "root." + pn
		}
		if q := c.lookup(pn); q != nil && q.IsLeaf() {
			return "", fmt.Sprintf("parent rule returned a leaf queue: %s", pn), errors.New("parent is a leaf")
		}
		parent = pn
	}
	return parent + "." + child, "", nil
}
