package yunikorn

import (
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/internal/budget"
	"github.com/aclint/aclint/internal/gen"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

var big = gen.Config(100000)

// BenchmarkYAMLNode is the yardstick: a bare yaml.Unmarshal into a yaml.Node.
func BenchmarkYAMLNode(b *testing.B) {
	b.SetBytes(int64(len(big)))
	for i := 0; i < b.N; i++ {
		var n yaml.Node
		if err := yaml.Unmarshal(big, &n); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLint is `aclint lint` without output: parse, decode, every rule.
func BenchmarkLint(b *testing.B) {
	b.SetBytes(int64(len(big)))
	for i := 0; i < b.N; i++ {
		lintBig()
	}
}

// BenchmarkCheck is `aclint check` without output: parse, decode, the error
// rules that decide whether YuniKorn accepts the config, one decision.
func BenchmarkCheck(b *testing.B) {
	b.SetBytes(int64(len(big)))
	for i := 0; i < b.N; i++ {
		checkBig()
	}
}

func lintBig() []Finding {
	return Lint(config.Decode(config.Parse("queues.yaml", big)))
}

func checkBig() *acl.Decision {
	cfg := config.Decode(config.Parse("queues.yaml", big))
	if len(Errors(cfg)) > 0 {
		panic("generated config rejected")
	}
	d, err := acl.NewPolicy(cfg).Decide(acl.Query{Partition: "default", Queue: "root.dept49.team39.q49", User: "nobody", Action: acl.Submit})
	if err != nil {
		panic(err)
	}
	return d
}

// TestScaleBudget holds lint and check to at most twice the time of a bare
// YAML decode of the same 100,000-queue file (best of five runs each). It
// measures time, so make test runs it alone.
func TestScaleBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("scale budget skipped in -short mode")
	}
	best := func(f func()) time.Duration { return budget.Best(5, f) }
	base := best(func() {
		var n yaml.Node
		_ = yaml.Unmarshal(big, &n)
	})
	l := best(func() { lintBig() })
	c := best(func() { checkBig() })
	t.Logf("%d bytes: yaml.Node %v, lint %v (%.2fx), check %v (%.2fx)", len(big), base, l, float64(l)/float64(base), c, float64(c)/float64(base))
	if lim := budget.Limit(2); float64(l) > lim*float64(base) || float64(c) > lim*float64(base) {
		t.Errorf("over budget: lint %.2fx, check %.2fx of a bare YAML decode (limit %gx)", float64(l)/float64(base), float64(c)/float64(base), lim)
	}
}

// BenchmarkRules runs every rule over an already decoded config.
func BenchmarkRules(b *testing.B) {
	cfg := config.Decode(config.Parse("queues.yaml", big))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Lint(cfg)
	}
}

// BenchmarkDecode builds the model from an already parsed document.
func BenchmarkDecode(b *testing.B) {
	doc := config.Parse("queues.yaml", big)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		config.Decode(doc)
	}
}

// tree is the shape real configs have (gen.Tree, ../shared/bench/gen_tree.py):
// 100,000 queues, 4 levels, most with mixed ACLs.
var tree = gen.Tree(100000)

// BenchmarkYAMLNodeTree is the yardstick on the tree shape.
func BenchmarkYAMLNodeTree(b *testing.B) {
	b.SetBytes(int64(len(tree)))
	for i := 0; i < b.N; i++ {
		var n yaml.Node
		if err := yaml.Unmarshal(tree, &n); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLintTree is BenchmarkLint on the tree shape.
func BenchmarkLintTree(b *testing.B) {
	b.SetBytes(int64(len(tree)))
	for i := 0; i < b.N; i++ {
		Lint(config.Decode(config.Parse("queues.yaml", tree)))
	}
}

// BenchmarkRulesTree runs every rule over the decoded tree shape.
func BenchmarkRulesTree(b *testing.B) {
	cfg := config.Decode(config.Parse("queues.yaml", tree))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Lint(cfg)
	}
}

// BenchmarkDecodeTree builds the model of the tree shape from its parsed
// document.
func BenchmarkDecodeTree(b *testing.B) {
	doc := config.Parse("queues.yaml", tree)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		config.Decode(doc)
	}
}
