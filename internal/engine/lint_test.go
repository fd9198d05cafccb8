package engine

import (
	"fmt"
	"math/rand"
	"slices"
	"sort"
	"testing"
)

// TestRunOrder holds Run to its contract with many findings per rule (more
// than one chunk each): seed first, then the rules' findings in rule order,
// all stably sorted by file, line, column and rule, the same on every run
// whatever the scheduling.
func TestRunOrder(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var rules []*Rule
	var want []Finding
	seed := []Finding{{Rule: "seed", Pos: Position{File: "f", Line: 3, Col: 1}, Message: "seed"}}
	want = append(want, seed...)
	for i := 0; i < 5; i++ {
		name := fmt.Sprintf("rule%d", 4-i) // rule order is not name order
		var mine []Finding
		for j := 0; j < 3000; j++ {
			mine = append(mine, Finding{Rule: name, Pos: Position{File: "f", Line: r.Intn(50), Col: r.Intn(3)}, Message: fmt.Sprint(j)})
		}
		want = append(want, mine...)
		rules = append(rules, &Rule{Name: name, Check: func(_ any, report func(Finding)) {
			for _, f := range mine {
				report(f)
			}
		}})
	}
	sort.SliceStable(want, func(i, j int) bool {
		a, b := want[i].Pos, want[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return want[i].Rule < want[j].Rule
	})
	for run := 0; run < 5; run++ {
		got := Run(rules, nil, seed...)
		if !slices.EqualFunc(got, want, func(a, b Finding) bool { return a.Rule == b.Rule && a.Pos == b.Pos && a.Message == b.Message }) {
			t.Fatalf("run %d: %d findings, not in the order of the stable sort of seed then rules (first: %+v)", run, len(got), got[:min(3, len(got))])
		}
	}
	if got := Run(nil, nil); got != nil {
		t.Errorf("Run with no findings = %#v, want nil", got)
	}
}
