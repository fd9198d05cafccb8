package mesos

import (
	"github.com/aclint/aclint/internal/engine"

	"reflect"
	"slices"
	"strings"
	"testing"
)

func decode(t *testing.T, text string) *ACLs {
	t.Helper()
	return Decode(Parse("acls.json", []byte(text)))
}

func rulesOf(a *ACLs) []string {
	var out []string
	for _, is := range a.Issues {
		out = append(out, is.Rule)
	}
	return out
}

// How stout turns JSON into the ACLs message: what passes, what is
// dropped, what stops Mesos; one case per behaviour of protobuf.hpp.
func TestDecodeLikeStout(t *testing.T) {
	entry := `{"principals": {"values": ["a"]}, "users": {"type": "ANY"}}`
	for _, c := range []struct {
		name, in string
		rules    []string // issues, in file order
		check    func(*ACLs) bool
	}{
		{"empty object", `{}`, nil, func(a *ACLs) bool { return a.Permissive && len(a.Lists) == 0 }},
		{"permissive false", `{"permissive": false}`, nil, func(a *ACLs) bool { return !a.Permissive }},
		{"permissive null is unset", `{"permissive": null}`, nil, func(a *ACLs) bool { return a.Permissive && a.PermissiveNode == nil }},
		{"permissive as a string boolean", `{"permissive": " false "}`, []string{rulePermissiveString}, func(a *ACLs) bool { return !a.Permissive }},
		{"permissive as another string", `{"permissive": "no"}`, []string{ruleWrongType}, nil},
		{"permissive as a string holding null", `{"permissive": "null"}`, []string{ruleWrongType}, func(a *ACLs) bool {
			return strings.Contains(a.Issues[0].Msg, "Unexpected JSON type parsed")
		}},
		{"permissive as a number", `{"permissive": 0}`, []string{ruleWrongType}, func(a *ACLs) bool {
			return strings.Contains(a.Issues[0].Msg, `Not expecting a JSON number for field 'permissive'`)
		}},
		{"a list of entries", `{"run_tasks": [` + entry + `, ` + entry + `]}`, nil, func(a *ACLs) bool { return len(a.Lists["run_tasks"]) == 2 }},
		{"one entry without a list", `{"run_tasks": ` + entry + `}`, nil, func(a *ACLs) bool { return len(a.Lists["run_tasks"]) == 1 }},
		{"nested lists flatten, nulls are skipped", `{"run_tasks": [null, [` + entry + `, [null, ` + entry + `]]]}`, nil, func(a *ACLs) bool {
			l := a.Lists["run_tasks"]
			return len(l) == 2 && l[1].Index == 1
		}},
		{"a kind as a string", `{"run_tasks": "all"}`, []string{ruleWrongType}, nil},
		{"an entry as a number", `{"run_tasks": [1]}`, []string{ruleWrongType}, nil},
		{"an entity as a string", `{"run_tasks": [{"principals": "ANY", "users": {"type": "ANY"}}]}`, []string{ruleWrongType}, func(a *ACLs) bool {
			return strings.Contains(a.Issues[0].Msg, `Not expecting a JSON string for field 'principals'`)
		}},
		{"an entity as a list", `{"run_tasks": [{"principals": [{"type": "ANY"}], "users": {"type": "ANY"}}]}`, []string{ruleWrongType}, nil},
		{"an entity set to null is missing", `{"run_tasks": [{"principals": null, "users": {"type": "ANY"}}]}`, []string{ruleMissingField}, nil},
		{"an empty entity is SOME without values", `{"run_tasks": [{"principals": {}, "users": {"type": "ANY"}}]}`, nil, func(a *ACLs) bool {
			return a.Lists["run_tasks"][0].Subject.MatchesNothing()
		}},
		{"missing object field", `{"run_tasks": [{"principals": {"type": "ANY"}, "user": {"type": "ANY"}}]}`, []string{ruleMissingField, ruleUnknownKey}, func(a *ACLs) bool {
			return strings.Contains(a.Issues[0].Msg, "Missing required fields: run_tasks[0].users")
		}},
		{"type as a number", `{"run_tasks": [{"principals": {"type": 1}, "users": {"type": "ANY"}}]}`, []string{ruleEnumNumber}, nil},
		{"type as a boolean", `{"run_tasks": [{"principals": {"type": true}, "users": {"type": "ANY"}}]}`, []string{ruleWrongType}, nil},
		{"unknown type names are dropped", `{"run_tasks": [{"principals": {"type": "any", "values": ["a"]}, "users": {"type": "ANY"}}]}`, nil, func(a *ACLs) bool {
			s := a.Lists["run_tasks"][0].Subject
			return s.Type == SOME && s.Ignored == "any" && reflect.DeepEqual(s.Values, []string{"a"})
		}},
		{"values as one string", `{"run_tasks": [{"principals": {"values": "a"}, "users": {"type": "ANY"}}]}`, nil, func(a *ACLs) bool {
			return reflect.DeepEqual(a.Lists["run_tasks"][0].Subject.Values, []string{"a"})
		}},
		{"values flatten and skip nulls", `{"run_tasks": [{"principals": {"values": ["a", null, ["b", ["c"]]]}, "users": {"type": "ANY"}}]}`, nil, func(a *ACLs) bool {
			return reflect.DeepEqual(a.Lists["run_tasks"][0].Subject.Values, []string{"a", "b", "c"})
		}},
		{"a number among values", `{"run_tasks": [{"principals": {"values": ["a", 1]}, "users": {"type": "ANY"}}]}`, []string{ruleWrongType}, nil},
		{"an object among values", `{"run_tasks": [{"principals": {"values": [{}]}, "users": {"type": "ANY"}}]}`, []string{ruleWrongType}, nil},
		{"unknown keys at every level", `{"run_task": [], "run_tasks": [{"principal": {}, "principals": {"type": "ANY", "value": ["a"]}, "users": {"type": "ANY"}}]}`,
			[]string{ruleUnknownKey, ruleUnknownKey, ruleUnknownKey}, nil},
		{"obsolete kinds", `{"get_weights": [], "shutdown_frameworks": []}`, []string{ruleUnknownKey, ruleUnknownKey}, func(a *ACLs) bool {
			return strings.Contains(a.Issues[0].Msg, "renamed view_roles") && strings.Contains(a.Issues[1].Msg, "teardown_frameworks replaced it")
		}},
		{"obsolete field", `{"register_agents": [{"principals": {"type": "ANY"}, "agent": {"type": "ANY"}}]}`, []string{ruleMissingField, ruleUnknownKey}, nil},
		{"the last of a repeated key wins", `{"run_tasks": [` + entry + `], "run_tasks": []}`, []string{ruleDuplicateKey}, func(a *ACLs) bool { return len(a.Lists["run_tasks"]) == 0 }},
		{"a repeated key holding an error is never read", `{"run_tasks": 5, "run_tasks": []}`, []string{ruleDuplicateKey}, nil},
		{"top level not an object", `[]`, []string{ruleJSONSyntax}, nil},
		{"syntax", `{"run_tasks": [}`, []string{ruleJSONSyntax}, nil},
		{"trailing", `{} {}`, []string{ruleTrailing}, nil},
		{"validated object kinds", `{"view_flags": [{"principals": {"type": "ANY"}, "flags": {}}, {"principals": {"type": "ANY"}, "flags": {"type": "ANY"}}]}`,
			[]string{ruleObjectAnyOnly}, func(a *ACLs) bool {
				return strings.Contains(a.Issues[0].Msg, "ACL.ViewFlags type must be either NONE or ANY")
			}},
		{"mark_agents_gone is not validated", `{"mark_agents_gone": [{"principals": {"type": "ANY"}, "agents": {"values": ["x"]}}]}`, nil, nil},
		{"endpoints", `{"get_endpoints": [{"principals": {"type": "ANY"}, "paths": {"values": ["/metrics/snapshot", "/slave(1)/containers"]}}, {"principals": {"type": "ANY"}, "paths": {"type": "ANY", "values": ["/state"]}}]}`,
			[]string{ruleEndpointPath}, func(a *ACLs) bool {
				return strings.Contains(a.Issues[0].Msg, "Path: '/slave(1)/containers' is not an authorizable path")
			}},
	} {
		a := decode(t, c.in)
		if got := rulesOf(a); !reflect.DeepEqual(got, c.rules) {
			t.Errorf("%s: issues %v, want %v (%v)", c.name, got, c.rules, a.Issues)
			continue
		}
		if c.check != nil && !c.check(a) {
			t.Errorf("%s: decoded wrongly: %+v", c.name, a)
		}
	}
}

func TestDetect(t *testing.T) {
	for in, want := range map[string]bool{
		`{"permissive": false}`:                 true,
		"\ufeff  {\n \"run_tasks\": [":          true, // broken, still Mesos
		`{"get_weights": []}`:                   true,
		`{"partitions": [{"name": "default"}]}`: false,
		"partitions:\n  - name: default\n":      false,
		"run_tasks: []\n":                       false, // YAML is not what --acls reads
		`{"comment": "run_tasks"}`:              false,
	} {
		if got := (Sys{}).Detect(&engine.Input{Data: []byte(in)}); got != want {
			t.Errorf("Detect(%q) = %v", in, got)
		}
	}
}

func TestKindTable(t *testing.T) {
	if len(Kinds) != 54 {
		t.Fatalf("%d kinds, Mesos has 54", len(Kinds))
	}
	counts := map[ObjectRule]int{}
	for _, k := range Kinds {
		counts[k.Rule]++
	}
	// the authorizer's hierarchical role approver takes 13 kinds, and
	// LocalAuthorizer::validate 21 ANY/NONE kinds and get_endpoints;
	// mark_agents_gone is always ANY without being validated
	if counts[Role] != 13 || counts[AnyOnly] != 21 || counts[AnyUnchecked] != 1 || counts[Endpoint] != 1 {
		t.Errorf("object rules: %v", counts)
	}
}

// TestLinesAreSplit holds Document.Lines, cut from the line starts, to the
// plain strings.Split it replaces, on the ends a file can have.
func TestLinesAreSplit(t *testing.T) {
	for _, src := range []string{"", "\n", "{}", "{}\n", "{\n}\n\n", "\n\n{\"a\":\n1}", "{\r\n}\r\n", "é\nü"} {
		got := Parse("f.json", []byte(src)).Lines()
		if want := strings.Split(src, "\n"); !slices.Equal(got, want) {
			t.Errorf("Lines of %q = %q, want %q", src, got, want)
		}
	}
}
