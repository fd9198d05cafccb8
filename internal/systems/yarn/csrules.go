package yarn

// This file reads the Capacity Scheduler's placement rules as Hadoop 3.4.1
// builds them at start (CapacitySchedulerConfiguration.getMappingRules):
// the legacy yarn.scheduler.capacity.queue-mappings (u: and g: entries) and
// yarn.scheduler.queue-placement-rules.app-name (a: entries), or, with
// mapping-rule-format json, the JSON rules (MappingRuleCreator); then it
// validates each rule as CSMappingPlacementRule.initialize does, where a
// failure stops the ResourceManager.

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// Placement rule keys.
const (
	QueueMappingKey    = CSPrefix + "queue-mappings"
	mappingOverrideKey = QueueMappingKey + "-override.enable"
	appNameMappingKey  = "yarn.scheduler.queue-placement-rules.app-name"
	ruleFormatKey      = CSPrefix + "mapping-rule-format"
	ruleJSONKey        = CSPrefix + "mapping-rule-json"
	ruleJSONFileKey    = CSPrefix + "mapping-rule-json-file"
	placementRulesKey  = "yarn.scheduler.queue-placement-rules"
)

// matchKind is what a mapping rule matches on (MappingRuleMatchers).
type matchKind int

const (
	matchAll   matchKind = iota // u:%user, or "*" for user in JSON
	matchUser                   // VariableMatcher on %user
	matchGroup                  // UserGroupMatcher: any of the user's groups
	matchApp                    // VariableMatcher on %application
)

// actionKind is what a matching rule does (MappingRuleActions).
type actionKind int

const (
	actPlace  actionKind = iota // PlaceToQueueAction
	actReject                   // RejectAction
	actSet                      // VariableUpdateAction (setDefaultQueue)
)

// fallbackKind is what a rule does when its queue cannot be used
// (MappingRuleActionBase's fallback).
type fallbackKind int

const (
	fallSkip fallbackKind = iota
	fallReject
	fallDefault
)

func (f fallbackKind) String() string {
	return [...]string{"skip to the next rule", "reject", "place in the default queue"}[f]
}

// MappingRule is one placement rule as the Capacity Scheduler builds it.
type MappingRule struct {
	// Text is the rule as written: "u:alice:root.a", or the JSON rule's
	// index and policy.
	Text       string
	Match      matchKind
	MatchValue string
	Action     actionKind
	// Pattern is the queue the rule places in, with its variables
	// (%user, %primary_group, %secondary_group, %specified, %application,
	// %default); for actSet, the value %default is set to.
	Pattern  string
	Create   bool
	Fallback fallbackKind
	From     *Property
}

// CSPlacement is the Capacity Scheduler's placement as it starts.
type CSPlacement struct {
	Rules []MappingRule
	// Override is queue-mappings-override.enable: the rules also place
	// applications that name a queue.
	Override     bool
	OverrideFrom *Property
	// JSON is set when the rules are the JSON ones.
	JSON bool
	// Refused is Hadoop's message when the rules stop the
	// ResourceManager at start, and RefusedAt the property.
	Refused   string
	RefusedAt *Property
	// Unknown says why aclint cannot know the rules as Hadoop reads
	// them (a ${...} it cannot follow, a JSON file it was not given).
	Unknown string
	// tree is the queue store the rules were validated against, which
	// each placement reads again
	tree *csTree
}

// trimmedStrings is StringUtils.getTrimmedStringCollection(String): split
// at commas and line breaks with the blanks around them, empty pieces and
// repeats dropped, in order.
func trimmedStrings(v string) []string {
	v = javaTrim(v)
	if v == "" {
		return nil
	}
	pieces := listSplit.Split(v, -1)
	for len(pieces) > 0 && pieces[len(pieces)-1] == "" {
		pieces = pieces[:len(pieces)-1] // String.split drops trailing empties
	}
	seen := map[string]bool{}
	var out []string
	for _, p := range pieces {
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return out
}

// listSplit is getTrimmedStrings' "\\s*[,\n]\\s*".
var listSplit = regexp.MustCompile(`[ \t\n\v\f\r]*[,\n][ \t\n\v\f\r]*`)

// colonFields is StringUtils.getTrimmedStringCollection(s, ":"): the
// StringTokenizer's tokens, each trimmed, blank ones dropped.
func colonFields(s string) []string {
	var out []string
	for _, t := range strings.Split(s, ":") {
		if t = javaTrim(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// placementReader reads the placement values as the Capacity Scheduler
// does at start, each through Configuration.get: the first value that
// throws (a ${...} chain too deep, an illegal mapping) is the refusal.
type placementReader struct {
	s  *Setup
	pl *CSPlacement
}

// get is Configuration.get of key: ok is false when it is not set, throws
// (pl.Refused) or cannot be followed (pl.Unknown).
func (r placementReader) get(key string) (string, *Property, bool) {
	p, ok := r.s.Conf.Get(key)
	if !ok || !p.HasValue {
		return "", nil, false
	}
	v, e := r.s.Conf.Expand(p.Value)
	switch {
	case e == TooDeep:
		r.refuse(p, tooDeepMessage(p.Value)) // the ResourceManager stops here
		return "", p, false
	case e != Expanded:
		if r.pl.Unknown == "" {
			r.pl.Unknown = fmt.Sprintf("%s:%d:%d: %s uses ${...}, which aclint cannot follow as Configuration does", p.File, p.ValuePos.Line, p.ValuePos.Col, key)
		}
		return "", p, false
	}
	return v, p, true
}

// refuse keeps the first refusal: what Hadoop throws first stops it.
func (r placementReader) refuse(p *Property, msg string) {
	if r.pl.Refused == "" {
		r.pl.Refused, r.pl.RefusedAt = msg, p
	}
}

// ReadCSPlacement reads the placement rules of a setup, in the order
// CapacityScheduler.updatePlacementRules and CSMappingPlacementRule.initialize
// read them: the rule list, the override flag, the format, the mappings.
func (s *Setup) ReadCSPlacement() *CSPlacement {
	pl := &CSPlacement{}
	r := placementReader{s: s, pl: pl}
	if v, p, ok := r.get(placementRulesKey); ok {
		for _, name := range trimmedStrings(v) {
			if name != "user-group" && name != "app-name" {
				pl.Unknown = fmt.Sprintf("%s:%d:%d: %s names %q, a placement rule class of its own: aclint reads only the mapping rules (user-group, app-name)", p.File, p.ValuePos.Line, p.ValuePos.Col, placementRulesKey, name)
			}
		}
	}
	if v, p, ok := r.get(mappingOverrideKey); ok {
		b, _ := javaBoolean(v)
		pl.Override, pl.OverrideFrom = b, p
	}
	format := "legacy"
	fv, fp, fok := r.get(ruleFormatKey)
	if fok {
		format = fv // Configuration.get: not trimmed
	}
	switch {
	case pl.Refused != "":
	case format == "legacy":
		r.legacy()
	case format == "json":
		pl.JSON = true
		r.json()
	default:
		r.refuse(fp, fmt.Sprintf("Illegal queue mapping format '%s' please use 'legacy' or 'json'", format))
	}
	if pl.Refused != "" {
		pl.Rules = nil
	}
	return pl
}

// legacy is parseLegacyMappingRules: queue-mappings, then the
// application-name mappings.
func (r placementReader) legacy() {
	v, p, _ := r.get(QueueMappingKey)
	for _, m := range trimmedStrings(v) {
		f := colonFields(m)
		if len(f) != 3 {
			r.refuse(p, "Illegal queue mapping "+m)
			return
		}
		var rule MappingRule
		switch f[0] {
		case "u":
			rule.Match, rule.MatchValue = matchUser, f[1]
			if f[1] == "%user" {
				rule.Match = matchAll
			}
		case "g":
			rule.Match, rule.MatchValue = matchGroup, f[1]
		default:
			r.refuse(p, "unknown mapping prefix "+f[0])
			return
		}
		rule.Text, rule.Action, rule.Pattern, rule.Create, rule.Fallback, rule.From = m, actPlace, f[2], true, fallDefault, p
		r.pl.Rules = append(r.pl.Rules, rule)
	}
	if r.pl.Refused != "" {
		return
	}
	v, p, _ = r.get(appNameMappingKey)
	for _, m := range trimmedStrings(v) {
		f := colonFields(m)
		if len(f) != 2 {
			r.refuse(p, "Illegal queue mapping "+m)
			return
		}
		r.pl.Rules = append(r.pl.Rules, MappingRule{Text: m, Match: matchApp, MatchValue: f[0], Action: actPlace, Pattern: f[1], Create: true, Fallback: fallDefault, From: p})
	}
}

// json is parseJSONMappingRules: the inline rules, else the file's.
func (r placementReader) json() {
	pl := r.pl
	v, p, ok := r.get(ruleJSONKey)
	if pl.Refused != "" {
		return
	}
	if !ok || v == "" {
		fv, fp, ok := r.get(ruleJSONFileKey)
		if !ok || fv == "" {
			return // "Starting with no mapping rules!"
		}
		// MappingRuleCreator.getMappingRulesFromFile: the file's
		// contents, read as the inline value is
		rf := r.s.ruleFile(javaTrim(fv))
		if rf == nil {
			pl.Unknown = fmt.Sprintf("%s:%d:%d: the mapping rules are in %s, a file on the ResourceManager: give it with -f (aclint reads a JSON file named like it), or inline the rules in %s", fp.File, fp.ValuePos.Line, fp.ValuePos.Col, javaTrim(fv), ruleJSONKey)
			return
		}
		v, p = rf.Data, &Property{File: rf.Path, Name: ruleJSONFileKey, Value: rf.Data, HasValue: true, Pos: Pos{Line: 1, Col: 1}, NamePos: Pos{Line: 1, Col: 1}, ValuePos: Pos{Line: 1, Col: 1}}
	}
	rules, err := readJSONRules(v)
	if err != nil {
		if _, ok := err.(unknownJSON); ok {
			pl.Unknown = fmt.Sprintf("%s:%d:%d: %v", p.File, p.ValuePos.Line, p.ValuePos.Col, err)
			return
		}
		r.refuse(p, err.Error())
		return
	}
	for i := range rules {
		rules[i].From = p
	}
	pl.Rules = rules
}

// unknownJSON is JSON aclint does not read as Jackson would.
type unknownJSON string

func (u unknownJSON) Error() string { return string(u) }

// RuleView is a Capacity Scheduler mapping rule as a conversion reads it.
type RuleView struct {
	Text string
	// Match is what the rule matches on: "all", "user", "group" or
	// "application", and Value the user, group or name it matches.
	Match, Value string
	// Action is "place", "reject" or "set"; Target the queue it places
	// in (or the default it sets), with its variables.
	Action, Target string
	Create         bool
	// Fallback is what the rule does when its queue cannot be used:
	// "skip", "reject" or "default".
	Fallback string
	From     *Property
}

// Views are the rules as a conversion reads them, in order.
func (pl *CSPlacement) Views() []RuleView {
	var out []RuleView
	for _, r := range pl.Rules {
		out = append(out, RuleView{Text: r.Text, Match: [...]string{"all", "user", "group", "application"}[r.Match], Value: r.MatchValue,
			Action: [...]string{"place", "reject", "set"}[r.Action], Target: r.Pattern, Create: r.Create,
			Fallback: [...]string{"skip", "reject", "default"}[r.Fallback], From: r.From})
	}
	return out
}

// Queue is the queue a name stands for in the queue store the rules were
// read against (a full path, or a short name one queue has); nil for none.
func (pl *CSPlacement) Queue(name string) *Queue {
	if pl.tree == nil {
		return nil
	}
	return pl.tree.get(name)
}

// Parent says whether the Capacity Scheduler builds q as a parent queue:
// one with children, or one that creates queues at submission
// (auto-create-child-queue.enabled, auto-queue-creation-v2.enabled).
func (pl *CSPlacement) Parent(q *Queue) bool {
	return pl.tree != nil && q != nil && pl.tree.kind[q] != kindLeaf
}

// RuleFile is a JSON mapping rules file given beside the configuration
// files (mapping-rule-json-file names it on the ResourceManager).
type RuleFile struct {
	Path, Data string
}

// ruleFile is the file given for the path mapping-rule-json-file names:
// the one of that path, else the one of that base name; nil for none.
func (s *Setup) ruleFile(path string) *RuleFile {
	for _, rf := range s.RuleFiles {
		if rf.Path == path {
			return rf
		}
	}
	for _, rf := range s.RuleFiles {
		if filepath.Base(rf.Path) == filepath.Base(path) {
			return rf
		}
	}
	return nil
}
