package yarn

import (
	"strings"
	"unicode/utf16"
)

// Configuration.get substitutes ${var} in a value (substituteVars, Hadoop
// 3.4.1) from system properties, environment variables (${env.NAME}) and
// other properties, at most MAX_SUBST = 20 times: a value that needs more
// throws IllegalStateException("Variable substitution depth too large: 20
// <value>"), and a ResourceManager that reads such a value at start (every
// queue's ACLs, queues, capacities and state) does not start. aclint knows
// the properties of the files it reads, not the JVM's system properties or
// the environment: it follows a chain of ${...} only through properties
// the files set, and calls a value too deep only when that chain needs more
// than 20 steps.

// maxSubst is Configuration.MAX_SUBST.
const maxSubst = 20

// findSubVariable is Configuration.findSubVariable on Java's UTF-16 code
// units: the bounds of the first ${name} whose name is not empty and holds
// no blank or '$', or -1.
func findSubVariable(eval []uint16) (int, int) {
	indexOf := func(c uint16, from int) int {
		for i := max(from, 0); i < len(eval); i++ {
			if eval[i] == c {
				return i
			}
		}
		return -1
	}
	matchStart := 1
	for leftBrace := indexOf('{', matchStart); leftBrace > 0 && leftBrace+2 < len(eval); leftBrace = indexOf('{', matchStart) {
		if eval[leftBrace-1] != '$' {
			matchStart = leftBrace + 1
			continue
		}
		subStart, matched := leftBrace+1, 0
		restart := false
		for i := subStart; i < len(eval); i++ {
			switch eval[i] {
			case '}':
				if matched > 0 {
					return subStart, subStart + matched
				}
				matchStart, restart = i+1, true
			case ' ', '$':
				matchStart, restart = i+1, true
			default:
				matched++
			}
			if restart {
				break
			}
		}
		if !restart {
			return -1, -1 // no '}' up to the end
		}
	}
	return -1, -1
}

// Expansion is what Configuration.get makes of a value, as far as aclint
// can follow it.
type Expansion int

const (
	// Expanded: the value as Hadoop reads it (no ${...} left that Hadoop
	// would replace, or a loop Hadoop gives back as written).
	Expanded Expansion = iota
	// NotKnown: the chain reaches a name no file sets: a system property,
	// an environment variable, a key of core-default.xml or
	// yarn-default.xml, or nothing (Hadoop then keeps the text).
	NotKnown
	// TooDeep: Configuration throws "Variable substitution depth too
	// large".
	TooDeep
)

// Expand is Configuration.substituteVars over the properties of c: the
// value Hadoop reads, and whether aclint could follow every step.
func (c *Conf) Expand(value string) (string, Expansion) {
	if !strings.Contains(value, "${") {
		return value, Expanded
	}
	eval := utf16.Encode([]rune(value))
	for s := 0; s < maxSubst; s++ {
		start, end := findSubVariable(eval)
		if start < 0 {
			return string(utf16.Decode(eval)), Expanded
		}
		name := string(utf16.Decode(eval[start:end]))
		if strings.HasPrefix(name, "env.") && len(name) > 4 {
			return "", NotKnown // the environment
		}
		p, ok := c.set[name]
		if !ok || !p.HasValue {
			return "", NotKnown // a system property, a default, or unbound
		}
		ref := string(utf16.Decode(eval[start-2 : end+1]))
		if strings.Contains(p.Value, ref) {
			return value, Expanded // a loop: Hadoop returns the value as written
		}
		val := utf16.Encode([]rune(p.Value))
		next := make([]uint16, 0, len(eval)-len(ref)+len(val))
		next = append(append(append(next, eval[:start-2]...), val...), eval[end+1:]...)
		eval = next
		if len(eval) > 1<<20 {
			return "", NotKnown // a value that doubles each step: bounded here
		}
	}
	return "", TooDeep
}

// substPrefix starts the message of IllegalStateException that
// substituteVars throws.
const substPrefix = "Variable substitution depth too large: "

// tooDeepMessage is Hadoop's message for a value whose chain is too deep:
// the value as written, after MAX_SUBST.
func tooDeepMessage(value string) string { return substPrefix + "20 " + value }

// SubstitutionTooDeep reports whether Configuration.get would throw
// "Variable substitution depth too large" for value (Expand), with
// Hadoop's own message.
func (c *Conf) SubstitutionTooDeep(value string) (bool, string) {
	if _, e := c.Expand(value); e == TooDeep {
		return true, tooDeepMessage(value)
	}
	return false, ""
}

// enableTooDeep is yarn.acl.enable or yarn.admin.acl when its ${...}
// chain is too deep: the ResourceManager reads the first before it builds
// the queues (isAclEnabled), the second after (the authorizer's init).
func (s *Setup) enableTooDeep(key string) *CapacityRefusal {
	c := s.rmConf()
	if c == nil {
		return nil
	}
	if p, ok := c.Get(key); ok && p.HasValue {
		if deep, msg := c.SubstitutionTooDeep(p.Value); deep {
			return &CapacityRefusal{At: p, Reason: msg}
		}
	}
	return nil
}

// queueFlags are the booleans parseQueue reads of a queue before it
// builds it (isReservable, isAutoCreateChildQueueEnabled,
// isAutoQueueCreationV2Enabled), in that order.
var queueFlags = [...]string{"reservable", "auto-create-child-queue.enabled", "auto-queue-creation-v2.enabled"}

// flagsTooDeep is the first of q's queueFlags whose ${...} chain is too
// deep, or nil.
func (s *Setup) flagsTooDeep(q *Queue) *CapacityRefusal {
	for _, k := range queueFlags {
		if p, ok := s.queueKey(&s.keyBuf, q, k); ok && p.HasValue && strings.Contains(p.Value, "${") {
			if deep, msg := s.Conf.SubstitutionTooDeep(p.Value); deep {
				return &CapacityRefusal{At: p, Queue: q.Path, Reason: msg}
			}
		}
	}
	return nil
}

// SubstitutionRefused is the first value whose ${...} chain is too deep
// for Configuration outside the queue tree's own walk (CapacityRefused
// reads each queue's .queues, flags, ACLs, capacities and state as
// parseQueue builds it), in the order the ResourceManager reads them:
// yarn.acl.enable, read before the queues; yarn.admin.acl, once they
// stand (the authorizer's init); then the placement rules
// (CapacityScheduler.updatePlacementRules, CSMappingPlacementRule.initialize:
// the rule list, the override flag, the format, the mappings). nil: none.
func (s *Setup) SubstitutionRefused() *CapacityRefusal {
	if r := s.enableTooDeep(ACLEnableKey); r != nil {
		return r
	}
	if r := s.enableTooDeep(AdminACLKey); r != nil {
		return r
	}
	if s.FS || s.CS == nil {
		return nil
	}
	if pl := s.ReadCSPlacement(); strings.HasPrefix(pl.Refused, substPrefix) {
		return &CapacityRefusal{At: pl.RefusedAt, Reason: pl.Refused}
	}
	return nil
}
