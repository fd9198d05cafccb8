package yunikorn

import (
	"reflect"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/gen"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// TestLintBuildsOnPrevious: given the parse of an earlier version
// (engine.Input.Previous), an edit inside one value reuses it (the untouched
// nodes are the same nodes) and the findings are exactly a fresh lint's;
// anything else is read afresh.
func TestLintBuildsOnPrevious(t *testing.T) {
	v1 := string(gen.EditorConfig(300, true))
	first, err := Sys{}.Lint(&engine.Input{Path: "q.yaml", Data: []byte(v1), Explicit: true}, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	prev := first.Parsed.([]*config.Document)
	for _, c := range []struct {
		next   string
		reused bool
	}{
		// a user typed into a department's ACL: a new finding appears
		{strings.Replace(v1, `"lead1 dept1"`, `"lead1 dept1 ops"`, 1), true},
		{strings.Replace(v1, `"lead1 dept1"`, `"lead1,system:admin dept1"`, 1), true},
		// a queue added after a leaf: only its team is parsed again
		{strings.Replace(v1, "                  - name: q3\n", "                  - name: q3\n                  - name: q9\n                    submitacl: \"a b,system:x\"\n", 1), true},
		{strings.Replace(v1, "- name: q3\n", "- name: q3\n  x\n", 1), false},
		{strings.Replace(v1, `"lead1 dept1"`, `*lead1`, 1), false},
	} {
		in := &engine.Input{Path: "q.yaml", Data: []byte(c.next), Explicit: true, Previous: first.Parsed}
		got, err := Sys{}.Lint(in, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := Sys{}.Lint(&engine.Input{Path: "q.yaml", Data: []byte(c.next), Explicit: true}, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Findings, want.Findings) {
			t.Errorf("findings with the previous parse differ from a fresh lint (%d against %d)", len(got.Findings), len(want.Findings))
		}
		docs := got.Parsed.([]*config.Document)
		reused := len(docs) == 1 && docs[0].Root != nil && docs[0].Root.Content[0] == prev[0].Root.Content[0]
		if reused != c.reused {
			t.Errorf("reused the previous parse: %v, want %v", reused, c.reused)
		}
	}
}
