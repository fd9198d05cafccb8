package yarn

// This file is where the Capacity Scheduler places an application, as
// Hadoop 3.4.1 runs it: CSMappingPlacementRule.getPlacementForApp (rules in
// order, their variables, fallbacks, validateAndNormalizeQueue), then
// RMAppManager (the queue's ACLs, or an auto-created queue's template
// ACLs) and CapacityScheduler.addApplication (an existing leaf, or a queue
// created under a parent that allows it). Held to Hadoop's own classes by
// TestPlacementVectors.

import (
	"fmt"
	"sort"
	"strings"
)

// csKind is the class parseQueue builds for a queue.
type csKind int

const (
	kindLeaf    csKind = iota // LeafQueue
	kindParent                // ParentQueue
	kindManaged               // ManagedParentQueue (legacy auto creation)
)

// csTree is the queue store of a freshly started Capacity Scheduler, for
// placement: CSQueueStore's lookups and each queue's class.
type csTree struct {
	s     *Setup
	kind  map[*Queue]csKind
	v2    map[*Queue]bool // auto-queue-creation-v2.enabled
	short map[string][]*Queue
	// unknown is the first value placement read that aclint cannot read
	// as Hadoop does (a ${...} it cannot follow, a number Configuration.getInt
	// throws on): an answer that rests on it is not known.
	unknown string
}

func (s *Setup) placeTree() *csTree {
	t := &csTree{s: s, kind: map[*Queue]csKind{}, v2: map[*Queue]bool{}, short: map[string][]*Queue{}}
	if s.CS.Truncated {
		t.unknown = "the queue tree is deeper or larger than aclint reads"
	}
	s.CS.Walk(func(q *Queue) {
		legacy := t.queueBool(q.Path, "auto-create-child-queue.enabled")
		v2 := t.queueBool(q.Path, "auto-queue-creation-v2.enabled")
		t.v2[q] = v2
		switch {
		case legacy:
			t.kind[q] = kindManaged
		case q.IsParentQueue() || v2:
			t.kind[q] = kindParent
		default:
			t.kind[q] = kindLeaf
		}
		if q.Name != "root" {
			t.short[q.Name] = append(t.short[q.Name], q)
		}
	})
	return t
}

// value is Configuration.get of key as placement reads it; ok is false
// when it is not set. A value aclint cannot expand is noted in t.unknown.
func (t *csTree) value(key string) (v string, ok bool) {
	p, set := t.s.Conf.Get(key)
	if !set || !p.HasValue {
		return "", false
	}
	v, e := t.s.Conf.Expand(p.Value)
	if e != Expanded {
		t.note(fmt.Sprintf("%s:%d:%d: %s uses ${...}, which aclint cannot follow as Configuration does", p.File, p.ValuePos.Line, p.ValuePos.Col, key))
		return "", false
	}
	return v, true
}

func (t *csTree) note(why string) {
	if t.unknown == "" {
		t.unknown = why
	}
}

// queueBool is getBoolean of a queue's key, false by default.
func (t *csTree) queueBool(path, suffix string) bool {
	v, ok := t.value(CSPrefix + path + "." + suffix)
	if !ok {
		return false
	}
	b, _ := javaBoolean(v)
	return b
}

// get is CSQueueStore.get: a full path, or a short name one queue has.
func (t *csTree) get(name string) *Queue {
	if q := t.s.CS.ByPath[name]; q != nil {
		return q
	}
	if qs := t.short[name]; len(qs) == 1 {
		return qs[0]
	}
	return nil
}

// ambiguous is CSQueueStore.isAmbiguous.
func (t *csTree) ambiguous(name string) bool { return len(t.short[name]) > 1 }

func (t *csTree) leaf(q *Queue) bool { return q != nil && t.kind[q] == kindLeaf }

// eligible is AbstractParentQueue.isEligibleForAutoQueueCreation at start.
func (t *csTree) eligible(q *Queue) bool { return q != nil && t.kind[q] != kindLeaf && t.v2[q] }

// queuePath is Hadoop's QueuePath: parent and leaf split at the last dot,
// each trimmed (a name without a dot is kept as written).
type queuePath struct {
	parent    string
	hasParent bool
	leaf      string
}

func newQueuePath(full string) queuePath {
	i := strings.LastIndexByte(full, '.')
	if i < 0 {
		return queuePath{leaf: full}
	}
	return queuePath{parent: javaTrim(full[:i]), hasParent: true, leaf: javaTrim(full[i+1:])}
}

func (p queuePath) full() string {
	if p.hasParent {
		return p.parent + "." + p.leaf
	}
	return p.leaf
}

// javaSplitDot is String.split("\\."): trailing empty pieces dropped.
func javaSplitDot(s string) []string {
	parts := strings.Split(s, ".")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

func (p queuePath) hasEmptyPart() bool {
	if p.leaf == "" {
		return true
	}
	for _, part := range javaSplitDot(p.full()) {
		if part == "" {
			return true
		}
	}
	return false
}

// normalizeRoot is MappingRuleValidationHelper.normalizeQueuePathRoot.
func (t *csTree) normalizeRoot(full string) (string, error) {
	parts := javaSplitDot(full)
	if len(parts) == 0 {
		parts = []string{""}
	}
	q := t.get(parts[0])
	if q == nil {
		if t.ambiguous(parts[0]) {
			return "", fmt.Errorf("Path root '%s' is ambiguous. Path '%s' is invalid", parts[0], full)
		}
		return "", fmt.Errorf("Path root '%s' does not exist. Path '%s' is invalid", parts[0], full)
	}
	parts[0] = q.Path
	return strings.Join(parts, "."), nil
}

// validity is MappingRuleValidationHelper.ValidationResult.
type validity int

const (
	creatable validity = iota
	queueExists
	noParentProvided
	noDynamicParent
	ambiguousParent
	ambiguousQueue
	emptyPath
)

// autoCreation is MappingRuleValidationHelper.validateQueuePathAutoCreation.
func (t *csTree) autoCreation(path string) validity {
	if path == "" {
		return emptyPath
	}
	if t.get(path) != nil {
		return queueExists
	}
	if t.ambiguous(path) {
		return ambiguousQueue
	}
	parts := javaSplitDot(path)
	parts = parts[:len(parts)-1]
	parent := strings.Join(parts, ".")
	grand := ""
	if len(parts) > 0 {
		grand = strings.Join(parts[:len(parts)-1], ".")
	}
	if parent == "" {
		return noParentProvided
	}
	if t.ambiguous(parent) {
		return ambiguousParent
	}
	pq := t.get(parent)
	if pq == nil {
		if grand == "" {
			return noParentProvided
		}
		if t.ambiguous(grand) {
			return ambiguousParent
		}
		if gq := t.get(grand); gq != nil && t.eligible(gq) {
			return creatable
		}
		return noDynamicParent
	}
	if t.kind[pq] == kindManaged || t.eligible(pq) {
		return creatable
	}
	return noDynamicParent
}

// normalize is CSMappingPlacementRule.validateAndNormalizeQueue: the full
// path of the queue a rule names, or why it cannot be used.
func (t *csTree) normalize(name string, allowCreate bool) (string, error) {
	p := newQueuePath(name)
	if p.hasEmptyPart() {
		return "", fmt.Errorf("Invalid path returned by rule: '%s'", name)
	}
	var norm string
	if p.hasParent {
		n, err := t.normalizeRoot(p.parent + "." + p.leaf)
		if err != nil {
			return "", err
		}
		switch t.autoCreation(n) {
		case ambiguousParent:
			return "", fmt.Errorf("Mapping rule specified a parent queue '%s', but it is ambiguous.", p.parent)
		case ambiguousQueue:
			return "", fmt.Errorf("Mapping rule specified a target queue '%s', but it is ambiguous.", n)
		case emptyPath:
			return "", fmt.Errorf("Mapping rule did not specify a target queue.")
		case noParentProvided:
			return "", fmt.Errorf("Mapping rule did not specify an existing queue nor a dynamic parent queue.")
		case noDynamicParent:
			return "", fmt.Errorf("Mapping rule specified a parent queue '%s', but it is not a dynamic parent queue, and no queue exists with name '%s' under it.", p.parent, p.leaf)
		case creatable:
			if !allowCreate {
				return "", fmt.Errorf("Mapping rule doesn't allow auto-creation of the queue '%s'.", n)
			}
		}
		norm = n
	} else {
		q := t.get(p.leaf)
		if q == nil {
			if t.ambiguous(p.leaf) {
				return "", fmt.Errorf("Queue '%s' specified in mapping rule is ambiguous", p.leaf)
			}
			return "", fmt.Errorf("Queue '%s' specified in mapping rule does not exist.", p.leaf)
		}
		norm = q.Path
	}
	if q := t.s.CS.ByPath[norm]; q != nil && !t.leaf(q) {
		return "", fmt.Errorf("Mapping rule returned a non-leaf queue '%s', cannot place application in it.", norm)
	}
	return norm, nil
}

// immutableVars are the variables every placement sets
// (CSMappingPlacementRule.immutableVariables).
func immutableVars() []string {
	return []string{"%user", "%primary_group", "%secondary_group", "%application", "%specified"}
}

// validate is CSMappingPlacementRule.initialize's check of each rule
// (MappingRuleValidationContextImpl): the first error stops the
// ResourceManager, with Hadoop's message.
func (t *csTree) validate(rules []MappingRule) (int, error) {
	known := map[string]bool{"%default": true}
	for _, v := range immutableVars() {
		known[v] = true
	}
	for i, r := range rules {
		// a setDefaultQueue rule adds %default, which is known already
		if r.Action == actPlace {
			if err := t.validatePath(r.Pattern, known); err != nil {
				return i, err
			}
		}
	}
	return -1, nil
}

// validatePath is MappingRuleValidationContextImpl.validateQueuePath.
func (t *csTree) validatePath(path string, known map[string]bool) error {
	if path == "" {
		return fmt.Errorf("Queue path is empty.")
	}
	// isPathStatic splits with String.split: trailing empty parts are
	// dropped before the check
	static := true
	parts := javaSplitDot(path)
	for _, part := range parts {
		if part == "" {
			return fmt.Errorf("Path segment cannot be empty '%s'.", path)
		}
		if known[part] {
			static = false
		}
	}
	qp := newQueuePath(path)
	if static {
		n, err := t.normalizeRoot(qp.full())
		if err != nil {
			return err
		}
		switch t.autoCreation(n) {
		case ambiguousParent:
			return fmt.Errorf("Target queue path '%s' contains an ambiguous parent queue '%s' reference.", qp.full(), qp.parentOrNull())
		case ambiguousQueue:
			return fmt.Errorf("Target queue is an ambiguous leaf queue '%s'.", qp.full())
		case emptyPath:
			return fmt.Errorf("Mapping rule did not specify a target queue.")
		case noParentProvided:
			return fmt.Errorf("Target queue does not exist and has no parent defined '%s'.", qp.full())
		case noDynamicParent:
			return fmt.Errorf("Mapping rule specified a parent queue '%s', but it is not a dynamic parent queue, and no queue exists with name '%s' under it.", qp.parentOrNull(), qp.leaf)
		case queueExists:
			if !t.leaf(t.get(n)) {
				return fmt.Errorf("Target queue '%s' but it's not a leaf queue.", qp.full())
			}
		}
		return nil
	}
	// validateDynamicQueuePath
	full := javaSplitDot(qp.full())
	if len(full) == 0 {
		return fmt.Errorf("Empty queue path provided '%s'", qp.full())
	}
	if known[full[0]] {
		return nil
	}
	staticPart, staticParent, hasStaticParent := full[0], "", false
	for _, next := range full[1:] {
		if known[next] {
			break
		}
		staticParent, hasStaticParent = staticPart, true
		staticPart += "." + next
	}
	n, err := t.normalizeRoot(staticPart)
	if err != nil {
		return err
	}
	if q := t.get(n); q != nil {
		if t.leaf(q) {
			return fmt.Errorf("Queue path '%s' is invalid because '%s' is a leaf queue, which can have no other queues under it.", qp.full(), n)
		}
		return nil
	}
	if hasStaticParent {
		np, err := t.normalizeRoot(staticParent)
		if err != nil {
			return err
		}
		if q := t.get(np); q != nil && (t.kind[q] == kindManaged || t.eligible(q)) {
			return nil
		}
	}
	return fmt.Errorf("No eligible parent found on path '%s'.", qp.full())
}

func (p queuePath) parentOrNull() string {
	if !p.hasParent {
		return "null"
	}
	return p.parent
}

// cleanName is CSMappingPlacementRule.cleanName: dots become "_dot_".
func cleanName(s string) string { return strings.ReplaceAll(s, ".", "_dot_") }

// varContext is VariableContext as createVariableContext fills it.
type varContext struct {
	vars      map[string]string
	originals map[string]string
	// secondary are the candidates of the conditional %secondary_group
	// (nil when it is a plain variable or unset)
	secondary []string
	t         *csTree
	groups    []string // the "groups" dataset: as given, repeats dropped
	hasGroups bool
}

func (v *varContext) get(name string) string { return v.vars[name] }

// replaceVariables is VariableContext.replaceVariables: each variable,
// longest name first, replaced anywhere in the text.
func (v *varContext) replaceVariables(in string) string {
	keys := make([]string, 0, len(v.vars))
	for k := range v.vars {
		keys = append(keys, k)
	}
	sort.SliceStable(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) > len(keys[j])
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		in = strings.ReplaceAll(in, k, v.vars[k])
	}
	return in
}

// replacePathVariables is VariableContext.replacePathVariables: each
// part of the path that is a variable replaced by its value; the
// conditional %secondary_group is the first secondary group with a queue
// of that name under the parts before it.
func (v *varContext) replacePathVariables(in string) string {
	parts := javaSplitDot(in)
	for i, part := range parts {
		if val, ok := v.vars[part]; ok {
			parts[i] = val
		} else if part == "%secondary_group" && v.secondary != nil {
			prefix := ""
			for _, p := range parts[:i] {
				prefix += p + "."
			}
			parts[i] = ""
			for _, g := range v.secondary {
				if v.t.get(prefix+g) != nil {
					parts[i] = g
					break
				}
			}
		}
	}
	return strings.Join(parts, ".")
}

func (v *varContext) matches(r MappingRule) bool {
	switch r.Match {
	case matchAll:
		return true
	case matchGroup:
		if !v.hasGroups {
			return false
		}
		want := v.replaceVariables(r.MatchValue)
		for _, g := range v.groups {
			if g == want {
				return true
			}
		}
		return false
	}
	name := "%user"
	if r.Match == matchApp {
		name = "%application"
	}
	want := v.replaceVariables(r.MatchValue)
	if o, ok := v.originals[name]; ok {
		return want == o
	}
	return want == v.get(name)
}
