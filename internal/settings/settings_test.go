package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/systems"

	"github.com/aclint/aclint/internal/engine"
)

func TestGlobMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, path string
		want          bool
	}{
		{"generated/**", "generated/a/b.yaml", true},
		{"generated/**", "generated", true},
		{"generated/**", "src/generated/a.yaml", false},
		{"**/charts/*.yaml", "a/b/charts/x.yaml", true},
		{"**/charts/*.yaml", "charts/x.yaml", true},
		{"*.yaml", "x.yaml", true},
		{"*.yaml", "d/x.yaml", false},
		{"d/*/q.yaml", "d/e/q.yaml", true},
	} {
		if got := globMatch(c.pattern, c.path); got != c.want {
			t.Errorf("globMatch(%q, %q) = %v", c.pattern, c.path, got)
		}
	}
}

func TestApply(t *testing.T) {
	s := &Settings{Rules: map[string]string{"shadowed-acl": "off", "duplicate-entry": "error"}}
	got := s.Apply([]engine.Finding{{Rule: "shadowed-acl", Severity: engine.Warning}, {Rule: "duplicate-entry", Severity: engine.Info}, {Rule: "yaml-syntax", Severity: engine.Error}})
	if len(got) != 2 || got[0].Severity != engine.Error || got[1].Rule != "yaml-syntax" {
		t.Errorf("Apply: %+v", got)
	}
	var none *Settings
	if len(none.Apply(got)) != 2 || none.Ignored("x") {
		t.Error("nil settings change nothing")
	}
}

func TestLoadAndFind(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "a", FileName)
	os.WriteFile(p, []byte("fail-on: info\nkey: batch.yaml\noutput: sarif=x.sarif\nignore: [\"b/**\"]\nrules: {shadowed-acl: off, yaml-syntax: error}\n"), 0o644)
	found, err := Find(sub)
	if err != nil {
		t.Fatal(err)
	}
	if abs, _ := filepath.Abs(found); abs != p {
		t.Fatalf("Find = %q, want %q", found, p)
	}
	s, err := Load(found, testRegistry, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s.FailOn != "info" || s.Key != "batch.yaml" || len(s.Output) != 1 || s.Rules["shadowed-acl"] != "off" {
		t.Errorf("loaded %+v", s)
	}
	if !s.Ignored(filepath.Join(sub, "q.yaml")) || s.Ignored(filepath.Join(dir, "a", "q.yaml")) {
		t.Error("ignore globs are relative to the settings file")
	}
	os.Mkdir(filepath.Join(sub, ".git"), 0o755)
	if f, err := Find(sub); f != "" || err != nil {
		t.Error("the search stops at the repository root")
	}
	// the other spelling is read, and both in one directory is an error
	alt := filepath.Join(sub, AltFileName)
	os.WriteFile(alt, []byte("fail-on: info\n"), 0o644)
	if f, err := Find(sub); err != nil || filepath.Base(f) != AltFileName {
		t.Errorf("Find with %s: %q, %v", AltFileName, f, err)
	}
	os.WriteFile(filepath.Join(sub, FileName), []byte("fail-on: info\n"), 0o644)
	if _, err := Find(sub); err == nil || !strings.Contains(err.Error(), "are both in") {
		t.Errorf("both spellings: %v", err)
	}
}

// testRegistry is every system's rules, as aclint runs with them.
var testRegistry = systems.New()
