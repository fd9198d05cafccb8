package yarn

import (
	"fmt"
	"strings"
)

// The Fair Scheduler's placement policy as the allocation file sets it
// (QueuePlacementPolicy.fromXml) or, without one, as yarn-site.xml does
// (fromConfiguration), and the scheduling policies that decide whether a
// queue can be created under a parent (SchedulingPolicy.parse,
// isChildPolicyAllowed).

// FSRule is one rule of a queuePlacementPolicy.
type FSRule struct {
	// Name is the rule as written: user, primaryGroup,
	// secondaryGroupExistingQueue, specified, nestedUserQueue, default,
	// reject.
	Name string
	// Create is the rule's create flag (true unless create is written and
	// not "true" in any case).
	Create bool
	// Queue is the default rule's queue, rooted (root.default when not
	// set or not a valid name).
	Queue  string
	Parent *FSRule
	Pos    Pos
}

// Text is the rule as the answer names it.
func (r *FSRule) Text() string {
	s := r.Name
	if r.Name == "default" {
		s += " " + r.Queue
	}
	if r.Name != "reject" && r.Name != "secondaryGroupExistingQueue" {
		s += fmt.Sprintf(" (create=%t)", r.Create)
	}
	if r.Parent != nil {
		s += " under " + r.Parent.Text()
	}
	return s
}

// FSPolicy is the placement policy an allocation file writes.
type FSPolicy struct {
	// Written is set when the file has a queuePlacementPolicy element;
	// Rules are empty when its rules are ignored (an element with no rule
	// in it: updateRuleSet keeps the rules fromConfiguration made).
	Written bool
	Rules   []*FSRule
	Pos     Pos
}

// fsRuleTerminal is QueuePlacementPolicy's RULES: whether each rule ends
// the policy ("create": when its create flag is set); "" for a name it
// does not know.
func fsRuleTerminal(name string) string {
	switch name {
	case "user", "primaryGroup", "nestedUserQueue", "default":
		return "create"
	case "secondaryGroupExistingQueue", "specified":
		return "false"
	case "reject":
		return "true"
	}
	return ""
}

// fsRuleClass is the class behind each rule name (PlacementRule.getName):
// a parent rule of the same class as its child stops the policy.
func fsRuleClass(name string) string {
	switch name {
	case "user", "nestedUserQueue":
		return "UserPlacementRule"
	case "primaryGroup":
		return "PrimaryGroupPlacementRule"
	case "secondaryGroupExistingQueue":
		return "SecondaryGroupExistingPlacementRule"
	case "specified":
		return "SpecifiedPlacementRule"
	case "default":
		return "DefaultPlacementRule"
	}
	return "RejectPlacementRule"
}

const fsPlacementPkg = "org.apache.hadoop.yarn.server.resourcemanager.placement."

// readFSPolicy is QueuePlacementPolicy.fromXml over the element: the
// rules, or the AllocationConfigurationException that refuses the file.
func readFSPolicy(file string, e *fsElement) (*FSPolicy, error) {
	p := &FSPolicy{Written: true, Pos: e.pos}
	refuse := func(at Pos, msg string) error {
		return &FSError{file, at, "queuePlacementPolicy: \"" + msg + "\": the Fair Scheduler refuses the file"}
	}
	if e.first == fsNone {
		return nil, refuse(e.pos, "Empty configuration for QueuePlacementPolicy is not allowed")
	}
	var terminal []bool
	for _, el := range e.children {
		if !strings.EqualFold(el.name, "rule") {
			continue
		}
		r, err := fsRuleOf(el, refuse)
		if err != nil {
			return nil, err
		}
		var parentEl *fsElement
		for _, c := range el.children {
			if strings.EqualFold(c.name, "rule") {
				parentEl = c // the last one counts
			}
		}
		if parentEl != nil {
			if n := parentEl.attrs["name"]; n == "reject" || n == "nestedUserQueue" {
				return nil, refuse(parentEl.pos, "Rule '"+n+"' is not allowed as a parent rule for any rule")
			}
			if r.Parent, err = fsRuleOf(parentEl, refuse); err != nil {
				return nil, err
			}
		}
		if strings.EqualFold(r.Name, "nestedUserQueue") && r.Parent == nil {
			return nil, refuse(el.pos, "Rule '"+r.Name+"' must have a parent rule set")
		}
		t := fsTerminal(r)
		if r.Parent != nil {
			t = t && fsTerminal(r.Parent)
		}
		p.Rules = append(p.Rules, r)
		terminal = append(terminal, t)
	}
	if len(p.Rules) == 0 {
		return p, nil // "Empty rule set defined, ignoring update"
	}
	for i := 0; i < len(terminal)-1; i++ {
		if terminal[i] {
			return nil, refuse(p.Rules[i+1].Pos, fmt.Sprintf("Rules after rule %d in queue placement policy can never be reached", i+1))
		}
	}
	if !terminal[len(terminal)-1] {
		return nil, refuse(p.Rules[len(p.Rules)-1].Pos, "Could get past last queue placement rule without assigning")
	}
	for _, r := range p.Rules {
		if r.Parent == nil {
			continue
		}
		why := ""
		switch {
		case fsRuleClass(r.Parent.Name) == fsRuleClass(r.Name):
			why = "Parent rule may not be the same type as the child rule: " + fsPlacementPkg + fsRuleClass(r.Name)
		case r.Name == "specified":
			why = "Parent rule should not be configured for Specified rule."
		case r.Name == "default":
			why = "Parent rule must not be configured for Default rule."
		case r.Name == "reject":
			why = "Parent rule should not be configured for Reject rule."
		}
		if why != "" {
			return nil, refuse(r.Pos, "Rule initialisation failed with exception ("+why+")")
		}
	}
	return p, nil
}

// fsRuleOf is createRule and the rule's setConfig.
func fsRuleOf(el *fsElement, refuse func(Pos, string) error) (*FSRule, error) {
	name := el.attrs["name"]
	if name == "" {
		return nil, refuse(el.pos, "No name provided for a rule element")
	}
	if fsRuleTerminal(name) == "" {
		return nil, refuse(el.pos, "No rule class found for "+name)
	}
	c, set := el.attrs["create"]
	r := &FSRule{Name: name, Create: !set || c == "" || strings.EqualFold(c, "true"), Pos: el.pos}
	if name == "default" {
		q := el.attrs["queue"]
		if !fsValidQueueName(q) || q == "" {
			q = "default"
		}
		r.Queue = assureRoot(q)
	}
	return r, nil
}

func fsTerminal(r *FSRule) bool {
	switch fsRuleTerminal(r.Name) {
	case "true":
		return true
	case "false":
		return false
	}
	return r.Create
}

// fsValidQueueName is FairQueuePlacementUtils.isValidQueueName.
func fsValidQueueName(q string) bool {
	return q == trimQueueName(q) && !strings.HasPrefix(q, ".") && !strings.HasSuffix(q, ".")
}

// assureRoot is FairQueuePlacementUtils.assureRoot.
func assureRoot(q string) string {
	if q != "" && !strings.HasPrefix(q, "root.") && q != "root" {
		return "root." + q
	}
	return q
}

// fsCleanName is FairQueuePlacementUtils.cleanName: trimmed, dots
// replaced by _dot_.
func fsCleanName(name string) string {
	return strings.ReplaceAll(trimQueueName(name), ".", "_dot_")
}

// SchedPolicy is a Fair Scheduler scheduling policy.
type SchedPolicy string

// The scheduling policies Hadoop has (SchedulingPolicy.parse); "" is one
// aclint does not know (a class of its own on the classpath).
const (
	PolicyFair SchedPolicy = "fair"
	PolicyFifo SchedPolicy = "fifo"
	PolicyDRF  SchedPolicy = "drf"
)

// parseSchedPolicy is SchedulingPolicy.parse on the element's trimmed
// text: a short name in any case, or a policy's class name.
func parseSchedPolicy(text string) SchedPolicy {
	const pkg = "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies."
	switch {
	case strings.EqualFold(text, "fair") || text == pkg+"FairSharePolicy":
		return PolicyFair
	case strings.EqualFold(text, "fifo") || text == pkg+"FifoPolicy":
		return PolicyFifo
	case strings.EqualFold(text, "drf") || text == pkg+"DominantResourceFairnessPolicy":
		return PolicyDRF
	}
	return ""
}

// childAllowed is SchedulingPolicy.isChildPolicyAllowed.
func (p SchedPolicy) childAllowed(child SchedPolicy) bool {
	switch p {
	case PolicyFair:
		return child != PolicyDRF
	case PolicyFifo:
		return false
	}
	return true
}
