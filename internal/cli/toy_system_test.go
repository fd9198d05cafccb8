package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/systems"

	"github.com/aclint/aclint/internal/engine"
)

// toy is a fourth system that exists only in this test, and its format is
// not YAML or JSON: .toyacl files of "allow NAME" and "deny NAME" lines, "#"
// comments. It plugs in through engine.System, its engine.RuleList and
// a registry that holds it (toyRegistry) alone, as docs/architecture.md says a new system
// does: a directory search reads its files because it declares their
// ending, it recognises them by content, and help, rule lists and
// "nothing found" messages name it because they come from the registry.
type toy struct{}

type toyState struct {
	file  string
	lines []string
}

func (toy) Name() string                    { return "toy" }
func (toy) Extensions() []string            { return []string{".toyacl"} }
func (toy) Inputs() string                  { return "toy ACLs (lines of allow NAME or deny NAME)" }
func (toy) Refuses() string                 { return "toy ACLs the toy server refuses" }
func (toy) ExampleFile(*engine.Rule) string { return "locks.toyacl" }
func (toy) ExampleBlock(_ *engine.Rule, text string) string {
	return "```\n" + text + "```\n"
}

// Detect reads the content, not YAML keys: the first line that is not a
// comment or blank is an allow or deny line.
func (toy) Detect(in *engine.Input) bool {
	for _, l := range strings.Split(string(in.Data), "\n") {
		if l = strings.TrimSpace(l); l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		return strings.HasPrefix(l, "allow ") || strings.HasPrefix(l, "deny ")
	}
	return false
}

func (t toy) Example(_ *engine.Rule, text string) engine.Example {
	return engine.Example{Command: "aclint lint locks.toyacl", Input: &engine.Input{Path: "locks.toyacl", Data: []byte(text), Explicit: true}}
}

func (toy) Lint(in *engine.Input, _ engine.Options) (*engine.Report, error) {
	st := &toyState{file: in.Path, lines: strings.Split(string(in.Data), "\n")}
	return &engine.Report{Findings: engine.Run(toyRules.All(), st), Sources: map[string][]string{in.Path: st.lines}, Configs: 1, Parsed: st}, nil
}

// toyRules are the toy's rules.
var toyRules engine.RuleList

func (toy) Rules() []*engine.Rule { return toyRules.All() }

var toyRule = toyRules.Add(&engine.Rule{
	Name: "toy-deny-everyone", Severity: engine.Warning, System: "toy",
	Summary: "a toy ACL that denies everyone", Doc: "Denying everyone locks the toy.",
	Bad: "allow alice\ndeny everyone\n", Good: "allow alice\n",
	Check: engine.Typed(func(st *toyState, report func(engine.Finding)) {
		for i, l := range st.lines {
			if strings.TrimSpace(l) == "deny everyone" {
				report(engine.Finding{Rule: "toy-deny-everyone", Severity: engine.Warning, Pos: engine.Position{File: st.file, Line: i + 1, Col: strings.Index(l, "everyone") + 1},
					Message: "everyone is denied", Hint: "name the users to deny"})
			}
		}
	}),
})

// toyRegistry is aclint's registry with the toy in it: the one line a
// real system adds in internal/systems.
var toyRegistry = systems.New().With(toy{})

// The toy system is linted by the same command, loop and outputs as the
// real ones, found in directories by its own file ending, named by the
// help and the "nothing found" message, its rule is listed and documented,
// and .aclint.yaml judges it as a toy rule.
func TestToySystem(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "locks.toyacl")
	if err := os.WriteFile(file, []byte("# the toy's locks\nallow alice\ndeny everyone\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runWith(toyRegistry, "lint", "--color", "never", file)
	if code != 1 || !strings.Contains(out, "locks.toyacl:3:6: warning: everyone is denied [toy-deny-everyone]") {
		t.Fatalf("lint: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := runWith(toyRegistry, "lint", "-o", "json", file); code != 1 || !strings.Contains(out, `"rule": "toy-deny-everyone"`) {
		t.Errorf("json output: %d %s", code, out)
	}
	// a directory: the toy file found by the ending the toy declares,
	// beside a queue config
	if err := os.WriteFile(filepath.Join(dir, "queues.yaml"), []byte("partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: \"*\"\n        queues:\n          - name: a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runWith(toyRegistry, "lint", "--color", "never", dir); code != 1 || !strings.Contains(out, "[toy-deny-everyone]") || !strings.Contains(errOut, "in 2 configs") {
		t.Errorf("directory: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := runWith(toyRegistry, "rules", "toy-deny-everyone"); code != 0 || !strings.Contains(out, "Denying everyone locks the toy.") || !strings.Contains(out, "everyone is denied") {
		t.Errorf("rules: %d %s", code, out)
	}
	if code, out, _ := runWith(toyRegistry, "lint", "--system", "toy", "--color", "never", file); code != 1 || !strings.Contains(out, "[toy-deny-everyone]") {
		t.Errorf("--system toy: %d %s", code, out)
	}
	// the lists of systems come from the registry
	if _, out, _ := runWith(toyRegistry, "lint", "--help"); !strings.Contains(out, "toy: toy ACLs (lines of allow NAME or deny NAME)") || !strings.Contains(out, ".toyacl") || !strings.Contains(out, "toy: toy ACLs the toy server refuses") {
		t.Errorf("lint --help does not name the toy:\n%s", out)
	}
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("nothing\n"), 0o644)
	if code, _, errOut := runWith(toyRegistry, "lint", empty); code != 2 || !strings.Contains(errOut, "toy ACLs (lines of allow NAME or deny NAME)") {
		t.Errorf("nothing found: exit %d %s", code, errOut)
	}
	settings := filepath.Join(dir, "settings.yaml")
	if err := os.WriteFile(settings, []byte("rules:\n  toy-deny-everyone: \"off\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runWith(toyRegistry, "lint", "--config", settings, "--color", "never", file); code != 0 || out != "" {
		t.Errorf("settings turn the toy rule off: %d %s%s", code, out, errOut)
	}
	_ = toyRule
}
