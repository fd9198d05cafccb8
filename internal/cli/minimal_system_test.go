package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems"
)

// bare is a system with engine.System alone: no examples of its own
// (engine.Documented), no fixes, no questions. Every command must treat it
// as a system, say what it lacks, and never panic.
type bare struct{ rules []*engine.Rule }

type bareState struct {
	file  string
	lines []string
}

func (bare) Name() string                 { return "bare" }
func (bare) Extensions() []string         { return []string{".bare"} }
func (bare) Inputs() string               { return "bare files" }
func (bare) Refuses() string              { return "bare files the bare server refuses" }
func (b bare) Rules() []*engine.Rule      { return b.rules }
func (bare) Detect(in *engine.Input) bool { return strings.HasSuffix(in.Path, ".bare") }
func (b bare) Lint(in *engine.Input, _ engine.Options) (*engine.Report, error) {
	st := &bareState{file: in.Path, lines: strings.Split(string(in.Data), "\n")}
	return &engine.Report{Findings: engine.Run(b.rules, st), Sources: map[string][]string{in.Path: st.lines}, Configs: 1}, nil
}

func newBare() bare {
	return bare{rules: []*engine.Rule{{
		Name: "bare-empty-line", Severity: engine.Warning, System: "bare",
		Summary: "an empty line in a bare file", Doc: "Bare files have no empty lines.",
		Bad: "a\n\nb\n", Good: "a\nb\n",
		Check: engine.Typed(func(st *bareState, report func(engine.Finding)) {
			for i, l := range st.lines {
				if l == "" && i < len(st.lines)-1 {
					report(engine.Finding{Rule: "bare-empty-line", Severity: engine.Warning, Pos: engine.Position{File: st.file, Line: i + 1, Col: 1}, Message: "an empty line"})
				}
			}
		}),
	}}}
}

// TestMinimalSystem: `aclint rules RULE` documents a rule of a system with
// no examples of its own (it was a nil dereference), and lint --diff or
// --fix on it says that it has no fixes.
func TestMinimalSystem(t *testing.T) {
	reg := systems.New().With(newBare())
	code, out, errOut := runWith(reg, "rules", "bare-empty-line")
	if code != 0 || !strings.Contains(out, "Bare files have no empty lines.") || !strings.Contains(out, "bare.bare:2:1: warning: an empty line [bare-empty-line]") {
		t.Errorf("rules RULE: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := runWith(reg, "rules"); code != 0 || !strings.Contains(out, "bare-empty-line") {
		t.Errorf("rules: exit %d\n%s%s", code, out, errOut)
	}
	file := filepath.Join(t.TempDir(), "x.bare")
	os.WriteFile(file, []byte("a\n\nb\n"), 0o644)
	if code, out, _ := runWith(reg, "lint", "--color", "never", file); code != 1 || !strings.Contains(out, "[bare-empty-line]") {
		t.Errorf("lint: exit %d\n%s", code, out)
	}
	for _, flag := range []string{"--diff", "--fix"} {
		if code, _, errOut := runWith(reg, "lint", flag, file); code != 1 || !strings.Contains(errOut, "bare has no fixes, so "+flag+" changes nothing there") {
			t.Errorf("lint %s: exit %d\n%s", flag, code, errOut)
		}
	}
}
