package yarn

// The Capacity Scheduler's mapping rules written as JSON
// (mapping-rule-format json): read as Jackson reads them, and made into
// rules as MappingRuleCreator makes them.

import (
	"encoding/json"
	"fmt"
	"strings"
)

// jsonRule is schema/Rule of Hadoop's MappingRulesDescription.
type jsonRule struct {
	Type            *string `json:"type"`
	Matches         *string `json:"matches"`
	Policy          *string `json:"policy"`
	ParentQueue     *string `json:"parentQueue"`
	CustomPlacement *string `json:"customPlacement"`
	Value           *string `json:"value"`
	FallbackResult  *string `json:"fallbackResult"`
	Create          *bool   `json:"create"`
}

// jsonRuleKeys are the keys of jsonRule, as Jackson matches them: exactly.
var jsonRuleKeys = []string{"type", "matches", "policy", "parentQueue", "customPlacement", "value", "fallbackResult", "create"}

// readJSONRules is MappingRuleCreator.getMappingRules over the JSON
// Jackson reads: an error is Hadoop's refusal, or unknownJSON for JSON
// aclint does not read as Jackson would (a value of another type, which
// Jackson may coerce).
func readJSONRules(v string) ([]MappingRule, error) {
	var desc struct {
		Rules []json.RawMessage `json:"rules"`
	}
	if err := json.Unmarshal([]byte(v), &desc); err != nil {
		return nil, unknownJSON("the mapping rule JSON is not read here as Jackson would read it (" + err.Error() + "): aclint does not know the rules")
	}
	var out []MappingRule
	for i, raw := range desc.Rules {
		r, err := decodeJSONRule(i, raw)
		if err != nil {
			return nil, err
		}
		m, err := r.mappingRule(i)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}

// decodeJSONRule reads rule i as Jackson does: keys as written, values of
// the schema's types.
func decodeJSONRule(i int, raw json.RawMessage) (*jsonRule, error) {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return nil, unknownJSON(fmt.Sprintf("rule %d of the mapping rule JSON is not an object: aclint does not know how Jackson reads it", i+1))
	}
	for k := range keys {
		for _, name := range jsonRuleKeys {
			if k != name && strings.EqualFold(k, name) {
				return nil, unknownJSON(fmt.Sprintf("rule %d of the mapping rule JSON has the key %q: Jackson reads keys as written (%q), so aclint does not read it either way", i+1, k, name))
			}
		}
	}
	var r jsonRule
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, unknownJSON(fmt.Sprintf("rule %d of the mapping rule JSON has a value of another type than the schema's (%v): aclint does not know how Jackson reads it", i+1, err))
	}
	return &r, nil
}

// enum is Rule.X.fromValue: one of values, or Hadoop's
// IllegalArgumentException(value); "" when not given.
func enum(p *string, values ...string) (string, error) {
	if p == nil {
		return "", nil
	}
	for _, v := range values {
		if *p == v {
			return v, nil
		}
	}
	return "", fmt.Errorf("%s", *p)
}

// mappingRule is MappingRuleCreator's rule for JSON rule i: its enums,
// checkMandatoryParameters, the matcher, the action and the fallback.
func (r *jsonRule) mappingRule(i int) (MappingRule, error) {
	typ, err := enum(r.Type, "user", "group", "application")
	if err != nil {
		return MappingRule{}, err
	}
	pol, err := enum(r.Policy, "specified", "reject", "defaultQueue", "user", "applicationName", "primaryGroup", "secondaryGroup", "primaryGroupUser", "secondaryGroupUser", "setDefaultQueue", "custom")
	if err != nil {
		return MappingRule{}, err
	}
	fb, err := enum(r.FallbackResult, "skip", "reject", "placeDefault")
	if err != nil {
		return MappingRule{}, err
	}
	switch { // checkMandatoryParameters
	case r.Policy == nil:
		return MappingRule{}, fmt.Errorf("Rule policy is undefined")
	case r.Type == nil:
		return MappingRule{}, fmt.Errorf("Rule type is undefined")
	case r.Matches == nil:
		return MappingRule{}, fmt.Errorf("Match string is undefined")
	case *r.Matches == "":
		return MappingRule{}, fmt.Errorf("Match string is empty")
	}
	m := MappingRule{Text: fmt.Sprintf("rule %d (%s %s, policy %s)", i+1, typ, *r.Matches, pol), MatchValue: *r.Matches}
	switch typ {
	case "user":
		m.Match = matchUser
		if *r.Matches == "*" {
			m.Match = matchAll
		}
	case "group":
		if *r.Matches == "*" {
			return MappingRule{}, fmt.Errorf("Cannot match '*' for groups")
		}
		m.Match = matchGroup
	default:
		m.Match = matchApp
	}
	m.Create = r.Create == nil || *r.Create
	if err := r.action(&m, pol); err != nil {
		return MappingRule{}, err
	}
	switch fb {
	case "reject":
		m.Fallback = fallReject
	case "placeDefault":
		m.Fallback = fallDefault
	}
	return m, nil
}

// action is what the rule's policy does: the queue it places in (under
// parentQueue where the policy takes one), a rejection, or the default
// queue it sets.
func (r *jsonRule) action(m *MappingRule, pol string) error {
	target := func(placeholder string) string {
		if r.ParentQueue == nil {
			return placeholder
		}
		return *r.ParentQueue + "." + placeholder
	}
	m.Action = actPlace
	switch pol {
	case "defaultQueue":
		m.Pattern, m.Create = "%default", false
	case "reject":
		m.Action = actReject
	case "primaryGroup":
		m.Pattern = target("%primary_group")
	case "secondaryGroup":
		m.Pattern = target("%secondary_group")
	case "primaryGroupUser":
		m.Pattern = target("%primary_group.%user")
	case "secondaryGroupUser":
		m.Pattern = target("%secondary_group.%user")
	case "specified":
		m.Pattern = "%specified"
	case "custom":
		if r.CustomPlacement == nil {
			return fmt.Errorf("custom queue is undefined")
		}
		m.Pattern = *r.CustomPlacement
	case "user":
		m.Pattern = target("%user")
	case "applicationName":
		m.Pattern = target("%application")
	case "setDefaultQueue":
		if r.Value == nil {
			return fmt.Errorf("default queue is undefined")
		}
		m.Action, m.Pattern = actSet, *r.Value
	}
	return nil
}
