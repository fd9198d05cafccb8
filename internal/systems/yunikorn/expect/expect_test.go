package expect

import (
	"bytes"
	"github.com/aclint/aclint/internal/vectors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

const queues = `partitions:
  - name: default
    placementrules:
      - name: tag
        value: namespace
        create: true
        parent: {name: fixed, value: teams}
    queues:
      - name: root
        submitacl: " admins"
        queues:
          - name: prod
            submitacl: "deployer etl"
            queues:
              - name: etl
          - name: teams
            parent: true
            submitacl: "*"
`

// env loads a config as check does.
func env(t *testing.T, text string) (Env, *config.Config) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "queues.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	docs, err := config.Load(path, config.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l := yunikorn.Accept(docs, nil)
	if len(l.Errors) > 0 {
		t.Fatalf("config rejected: %v", l.Errors)
	}
	return Env{Policy: l.Policy, Placer: l.Placer}, l.Config
}

func TestRunCases(t *testing.T) {
	e, _ := env(t, queues)
	f, err := Parse("t.yaml", []byte(`config: q.yaml
cases:
  - {user: dave, groups: [etl], queue: root.prod.etl, expect: allow}
  - {user: dave, groups: [etl], queue: root.prod.etl, expect: deny}
  - {user: deployer, groups: [x], queue: root.prod, action: admin, expect: deny}
  - {user: dave, groups: [x], queue: root.prd, expect: deny}
  - {user: carol, groups: [x], place: {tags: {namespace: team-a}}, expect: root.teams.team-a}
  - {user: carol, groups: [x], place: {tags: {namespace: team-a}}, expect: Root.Teams.Team-A}
  - {user: carol, groups: [x], place: {queue: root.prod.etl}, expect: rejected}
  - {user: carol, groups: [x], place: {queue: root.prod.etl}, expect: root.prod.etl}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		out Outcome
		got string
		why string
	}{
		{Pass, Allow, `allowed by root.prod submitacl, group "etl" at`},
		{Fail, Allow, `allowed by root.prod submitacl`},
		{Pass, Deny, `consulted root.prod adminacl not set, root adminacl not set`},
		{Error, "", "did you mean root.prod?"},
		{Pass, "root.teams.team-a", "placed in root.teams.team-a (created under root.teams) by rule 1 tag"},
		{Pass, "root.teams.team-a", "placed in"},
		{Pass, Rejected, "rejected"},
		{Fail, Rejected, "rejected"},
	}
	for i, c := range f.Cases {
		r := e.Run(c)
		w := want[i]
		if r.Outcome != w.out || r.Got != w.got || !strings.Contains(r.Why, w.why) {
			t.Errorf("case %d (%s): got %s %q %q, want %s %q containing %q", i, c.Title(), r.Outcome, r.Got, r.Why, w.out, w.got, w.why)
		}
	}
}

func TestParseProblems(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"config: q\npartiton: x\ncases: [{user: a, queue: root, expect: allow}]", `t.yaml:2:1: unknown key "partiton" in the test file; did you mean partition?`},
		{"config: q\ncases:\n  - {user: a, queue: root, expcet: allow}", `t.yaml:3:28: unknown key "expcet" in a case; did you mean expect?`},
		{"config: q\ncases:\n  - {user: a, queue: root, expect: allowed}", `t.yaml:3:36: an access case expects allow or deny, not "allowed"; did you mean allow?`},
		{"config: q\ncases:\n  - {user: a, queue: root, expect: denied}", `did you mean deny?`},
		{"config: q\ncases:\n  - {user: a, queue: root, action: admn, expect: deny}", `unknown action "admn"; did you mean admin?`},
		{"config: q\ncases:\n  - {user: a, place: {tag: {}}, expect: rejected}", `t.yaml:3:23: unknown key "tag" in place; did you mean tags?`},
		{"config: q\ncases:\n  - {user: a, place: {}, expect: rejectd}", `unknown expectation "rejectd"; did you mean rejected?`},
		{"config: q\ncases:\n  - {user: a, place: {}, expect: allow}", `a place case expects the queue the application lands in`},
		{"config: q\ncases:\n  - {user: a, place: {}, queue: root, expect: rejected}", `inside place:`},
		{"config: q\ncases:\n  - {user: a, expect: allow}", `t.yaml:3:5: this case has no queue`},
		{"config: q\ncases:\n  - {queue: root, expect: allow}", `this case has no user`},
		{"config: q\ncases:\n  - {user: a, queue: root}", `this case has no expect`},
		{"config: q\ncases:\n  - {user: a, user: b, queue: root, expect: allow}", `key user is given twice in a case`},
		{"config: q\ncases:\n  - {user: a, groups: etl, queue: root, expect: allow}", `groups is a list of group names`},
		{"config: q\ncases: []", `cases is empty`},
		{"config: q\n", `no cases`},
		{"- a\n", `a test file is a mapping`},
		{"config: q\nresolver: ldpa\ncases: [{user: a, queue: root, expect: allow}]", `unknown resolver "ldpa"; did you mean ldap?`},
		{"config: q\ncases: [{user: a, queue: root, expect: allow}]\n---\nx: 1\n", `a test file is one YAML document`},
		{"config: [q, '']\ncases: [{user: a, queue: root, expect: allow}]", `t.yaml:1:13: config names the queue config`},
		{"config: q\ncases: [{user: a, place: {forced: maybe}, expect: rejected}]", `forced is true or false`},
		{"config: q\ncases: [{user: a, place: {tags: {a: 1, a: 2}}, expect: rejected}]", `tag a is given twice`},
		{"config: q\ncases: [{user: a\n", `not a YAML test file`},
	} {
		_, err := Parse("t.yaml", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.src, err, tc.want)
		}
	}
}

func TestParseRelativeConfig(t *testing.T) {
	f, err := Parse(filepath.Join("ci", "tests.yaml"), []byte("config: [../a.yaml, /abs/b.yaml]\ngroupsFile: g.yaml\npartition: gpu\ncases: [{user: a, queue: root, expect: allow}]"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Config[0] != "a.yaml" || f.Config[1] != "/abs/b.yaml" || f.GroupsFile != filepath.Join("ci", "g.yaml") || f.Cases[0].Partition != "gpu" {
		t.Errorf("got %+v", f)
	}
}

func TestYAMLScalarRoundTrip(t *testing.T) {
	for _, s := range []string{"alice", "*", " dev", "a b", "null", "True", "#x", "a: b", "x #y", "-", "- a", "'q'", `"d"`, "a\\b", "tab\there", "nl\nx", "é", "[x]", "{x}", "&a", "!t", "%p", "@at", "1e3", "0x1F", "", "~", "?", "a,b", "\u2028"} {
		var out map[string]string
		if err := yaml.Unmarshal([]byte("k: "+yamlScalar(s)+"\n"), &out); err != nil || out["k"] != s {
			t.Errorf("%q written as %s reads back as %q (%v)", s, yamlScalar(s), out["k"], err)
		}
	}
}

// TestGenerateRoundTrip generates the snapshot of every valid config of
// the conformance vectors, reads it back and runs it: every case must pass,
// and flipping one expectation must make exactly that case fail.
func TestGenerateRoundTrip(t *testing.T) {
	configs, cases := 0, 0
	vectors.Each(t, []string{"../../../../testdata/conformance/*.jsonl"}, func(_ string, _ int, v *vectors.Config) {
		if !v.Valid || testing.Short() && configs >= 150 {
			return
		}
		configs++
		cases += roundTrip(t, v.Config)
	})
	if configs < 100 || cases < 1000 {
		t.Fatalf("only %d configs and %d cases checked", configs, cases)
	}
	t.Logf("%d configs, %d generated cases", configs, cases)
}

func roundTrip(t *testing.T, text string) int {
	t.Helper()
	e, cfg := env(t, text)
	var b bytes.Buffer
	if err := Generate(&b, e.Policy, cfg, GenerateOptions{Config: []string{"queues.yaml"}}); err != nil {
		t.Fatalf("generate: %v\n%s", err, text)
	}
	f, err := Parse("gen.yaml", b.Bytes())
	if err != nil {
		t.Fatalf("generated file does not parse: %v\n%s", err, b.String())
	}
	if f.Resolver != "none" {
		t.Fatalf("generated file has resolver %q", f.Resolver)
	}
	e.Resolver = noneResolver()
	for i, c := range f.Cases {
		r := e.Run(c)
		if r.Outcome != Pass {
			t.Fatalf("generated case %s: %s %s: %s\nconfig:\n%s", c.Title(), r.Outcome, r.Got, r.Why, text)
		}
		if i == len(f.Cases)/2 {
			flipped := *c
			flipped.Expect = map[string]string{Allow: Deny, Deny: Allow}[c.Expect]
			if r := e.Run(&flipped); r.Outcome != Fail {
				t.Fatalf("flipped case %s did not fail: %s", c.Title(), r.Outcome)
			}
		}
	}
	return len(f.Cases)
}

func noneResolver() resolve.Resolver { r, _ := resolve.New("none", resolve.Options{}); return r }
