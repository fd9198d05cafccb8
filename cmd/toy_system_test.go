package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aclint/aclint/pkg/lint"
)

// toy is a fourth system that exists only in this test: its inputs are
// YAML documents with a top-level "toy_acl" key, one "user: allow|deny"
// line each. It plugs in through lint.System and lint.Register alone, as
// docs/architecture.md says a new system does.
type toy struct{}

type toyState struct {
	file  string
	lines []string
}

func (toy) Name() string                  { return "toy" }
func (toy) Detect(in *lint.Input) bool    { return in.Shape().HasKey("toy_acl") }
func (toy) Refuses() string               { return "toy ACLs the toy server refuses" }
func (toy) ExampleFile(*lint.Rule) string { return "toy.yaml" }
func (toy) ExampleBlock(_ *lint.Rule, text string) string {
	return "```yaml\n" + text + "```\n"
}

func (t toy) Example(_ *lint.Rule, text string) (string, []lint.Finding, map[string][]string) {
	rep, _ := t.Lint(&lint.Input{Path: "toy.yaml", Data: []byte(text), Explicit: true}, lint.Options{})
	return "aclint lint toy.yaml", rep.Findings, rep.Sources
}

func (toy) Lint(in *lint.Input, _ lint.Options) (*lint.Report, error) {
	st := &toyState{file: in.Path, lines: strings.Split(string(in.Data), "\n")}
	return &lint.Report{Findings: lint.Run(lint.RulesOf("toy"), st), Sources: map[string][]string{in.Path: st.lines}, Configs: 1}, nil
}

var toyRule = lint.Register(&lint.Rule{
	Name: "toy-deny-everyone", Severity: lint.Warning, System: "toy",
	Summary: "a toy ACL that denies everyone", Doc: "Denying everyone locks the toy.",
	Bad: "toy_acl:\n  everyone: deny\n", Good: "toy_acl:\n  alice: allow\n",
	Check: func(state any, report func(lint.Finding)) {
		st := state.(*toyState)
		for i, l := range st.lines {
			if strings.TrimSpace(l) == "everyone: deny" {
				report(lint.Finding{Rule: "toy-deny-everyone", Severity: lint.Warning, Pos: lint.Position{File: st.file, Line: i + 1, Col: strings.Index(l, "everyone") + 1},
					Message: "everyone is denied", Hint: "name the users to deny"})
			}
		}
	},
})

func init() { lint.RegisterSystem(toy{}) }

// The toy system is linted by the same command, loop and outputs as the
// real ones, its rule is listed and documented, and .aclint.yaml judges it
// as a toy rule.
func TestToySystem(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "locks.yaml")
	if err := os.WriteFile(file, []byte("toy_acl:\n  alice: allow\n  everyone: deny\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run("lint", "--color", "never", file)
	if code != 1 || !strings.Contains(out, "locks.yaml:3:3: warning: everyone is denied [toy-deny-everyone]") {
		t.Fatalf("lint: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := run("lint", "-o", "json", file); code != 1 || !strings.Contains(out, `"rule": "toy-deny-everyone"`) {
		t.Errorf("json output: %d %s", code, out)
	}
	// a directory: the toy file found by its keys, beside a queue config
	if err := os.WriteFile(filepath.Join(dir, "queues.yaml"), []byte("partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: \"*\"\n        queues:\n          - name: a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := run("lint", "--color", "never", dir); code != 1 || !strings.Contains(out, "[toy-deny-everyone]") || !strings.Contains(errOut, "in 2 configs") {
		t.Errorf("directory: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := run("rules", "toy-deny-everyone"); code != 0 || !strings.Contains(out, "Denying everyone locks the toy.") || !strings.Contains(out, "everyone is denied") {
		t.Errorf("rules: %d %s", code, out)
	}
	if code, out, _ := run("lint", "--system", "toy", "--color", "never", file); code != 1 || !strings.Contains(out, "[toy-deny-everyone]") {
		t.Errorf("--system toy: %d %s", code, out)
	}
	settings := filepath.Join(dir, "settings.yaml")
	if err := os.WriteFile(settings, []byte("rules:\n  toy-deny-everyone: \"off\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := run("lint", "--config", settings, "--color", "never", file); code != 0 || out != "" {
		t.Errorf("settings turn the toy rule off: %d %s%s", code, out, errOut)
	}
	_ = toyRule
}
