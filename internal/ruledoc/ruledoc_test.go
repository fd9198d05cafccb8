package ruledoc

import (
	"github.com/aclint/aclint/internal/systems"
	"github.com/aclint/aclint/internal/systems/yunikorn"

	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md, the system pages' rule tables and schema/queues.schema.json")

const rulesMD = "../../docs/rules.md"

// TestSystemTablesUpToDate fails when a system page's rule table differs
// from the registry's. Refresh them with `make docs`.
func TestSystemTablesUpToDate(t *testing.T) {
	for page, system := range map[string]string{"../../docs/mesos.md": "mesos", "../../docs/ytsaurus.md": "ytsaurus", "../../docs/yarn.md": "yarn"} {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		want, ok := docs.UpdateTable(string(b), system)
		if !ok {
			t.Fatalf("%s has no generated rules:%s region", page, system)
		}
		if *update {
			if err := os.WriteFile(page, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if want != string(b) {
			t.Errorf("%s: the rule table is stale: run `make docs`", page)
		}
	}
}

// TestRulesDocUpToDate fails when docs/rules.md differs from what the rules'
// metadata generates. Refresh it with `make docs`.
func TestRulesDocUpToDate(t *testing.T) {
	want := docs.Markdown()
	if *update {
		if err := os.WriteFile(rulesMD, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(rulesMD)
	if err != nil {
		t.Fatalf("%v (generate it with `make docs`)", err)
	}
	if string(got) != want {
		t.Fatalf("docs/rules.md is stale: run `make docs` and commit the result")
	}
}

// TestExamples checks every rule's documentation: the bad example triggers
// the rule, the fixed example lints clean at every severity.
func TestExamples(t *testing.T) {
	for _, r := range docs.Reg.Rules() {
		if r.Summary == "" || r.Doc == "" || r.Bad == "" || r.Good == "" {
			t.Errorf("%s: summary, doc and both examples are required", r.Name)
			continue
		}
		if yunikorn.IsLDAPRule(r.Name) {
			bad, err := yunikorn.LDAPExample(t.TempDir(), r.Bad)
			if err != nil || !hasRule(bad, r.Name) {
				t.Errorf("%s: bad LDAP example does not trigger it: %v %v", r.Name, bad, err)
			}
			if good, err := yunikorn.LDAPExample(t.TempDir(), r.Good); err != nil || len(good) != 0 {
				t.Errorf("%s: fixed LDAP example still has findings: %v %v", r.Name, good, err)
			}
			continue
		}
		bad, _ := docs.Findings(r, r.Bad)
		found := false
		for _, f := range bad {
			if f.Rule == r.Name {
				found = true
				if f.Severity != r.Severity {
					t.Errorf("%s: finding has severity %s, rule says %s", r.Name, f.Severity, r.Severity)
				}
				if f.Hint == "" || f.Message == "" {
					t.Errorf("%s: finding without message or hint", r.Name)
				}
			}
		}
		if !found {
			t.Errorf("%s: bad example does not trigger the rule; got %v", r.Name, bad)
		}
		// "this rule can fix" is the rule's own property, and true
		fixed := false
		for _, f := range bad {
			if f.Rule == r.Name && (f.Fix != nil || len(f.Alternatives) > 0) {
				fixed = true
			}
		}
		if fixed != r.Fixes {
			t.Errorf("%s: Fixes is %v, but its bad example's finding carries a fix: %v", r.Name, r.Fixes, fixed)
		}
		if good, _ := docs.Findings(r, r.Good); len(good) != 0 {
			t.Errorf("%s: fixed example still has findings: %v", r.Name, good)
		}
		if !strings.Contains(docs.ExampleOutput(r), "["+r.Name+"]") {
			t.Errorf("%s: example output does not name the rule", r.Name)
		}
	}
}

// docs documents every system aclint runs with.
var docs = Docs{Reg: systems.New()}

func hasRule(fs []engine.Finding, name string) bool {
	for _, f := range fs {
		if f.Rule == name {
			return true
		}
	}
	return false
}

// TestSchemaFileUpToDate fails when schema/queues.schema.json differs from
// what `aclint schema` prints (config.JSONSchema). Refresh it with `make docs`.
func TestSchemaFileUpToDate(t *testing.T) {
	const path = "../../schema/queues.schema.json"
	want := config.JSONSchema()
	if *update {
		if err := os.MkdirAll("../../schema", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (generate it with `make docs`)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("schema/queues.schema.json is stale: run `make docs` and commit the result")
	}
}
