package ytsaurus

import (
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/internal/budget"
	"github.com/aclint/aclint/internal/systems/ytsaurus/gen"
)

// bigTree has 20,000 nodes, 2,000 users in 200 groups.
var bigTree = gen.YTTree(20000)

// BenchmarkYAMLNode is the yardstick: a bare yaml.Unmarshal into a
// yaml.Node of the same document.
func BenchmarkYAMLNode(b *testing.B) {
	b.SetBytes(int64(len(bigTree)))
	for i := 0; i < b.N; i++ {
		var n yaml.Node
		if err := yaml.Unmarshal(bigTree, &n); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLint is `aclint lint` on the tree without output.
func BenchmarkLint(b *testing.B) {
	b.SetBytes(int64(len(bigTree)))
	for i := 0; i < b.N; i++ {
		Lint(Parse("tree.yaml", bigTree), Options{})
	}
}

// BenchmarkCheck is `aclint yt check` without output: read, load, one
// decision at the bottom of the tree.
func BenchmarkCheck(b *testing.B) {
	b.SetBytes(int64(len(bigTree)))
	for i := 0; i < b.N; i++ {
		checkBig(b)
	}
}

// BenchmarkDecision is one decision on a loaded tree: the cost of each
// further question.
func BenchmarkDecision(b *testing.B) {
	tr := Load(Parse("tree.yaml", bigTree), Options{})
	req := Request{User: "u17", Permission: Read, Path: "//home/p42/team3/table7", Columns: []string{"c7", "c1"}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := tr.Check(req); err != nil {
			b.Fatal(err)
		}
	}
}

func checkBig(tb testing.TB) {
	tr := Load(Parse("tree.yaml", bigTree), Options{})
	if tr.Errors() != nil {
		tb.Fatalf("generated tree refused: %v", tr.Errors()[0])
	}
	if _, err := tr.Check(Request{User: "u17", Permission: Write, Path: "//home/p42/team3/table7"}); err != nil {
		tb.Fatal(err)
	}
}

// TestScaleBudget holds lint and check on a 20,000-node tree to at most
// twice a bare YAML decode of the document (best of three). It measures
// time, so make test runs it alone.
func TestScaleBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("scale budget skipped in -short mode")
	}
	base := budget.Best(3, func() {
		var n yaml.Node
		_ = yaml.Unmarshal(bigTree, &n)
	})
	l := budget.Best(3, func() { Lint(Parse("tree.yaml", bigTree), Options{}) })
	c := budget.Best(3, func() { checkBig(t) })
	t.Logf("%d bytes: yaml.Node %v, lint %v (%.2fx), check %v (%.2fx)", len(bigTree), base, l, float64(l)/float64(base), c, float64(c)/float64(base))
	if lim := budget.Limit(2); float64(l) > lim*float64(base) || float64(c) > lim*float64(base) {
		t.Errorf("over budget: lint %.2fx, check %.2fx of a bare YAML decode (limit %gx)", float64(l)/float64(base), float64(c)/float64(base), lim)
	}
}
