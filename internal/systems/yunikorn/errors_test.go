package yunikorn

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// errorFindings are the error-severity findings of every rule, in order:
// what Errors must give, with the ACLs parsed in full.
func errorFindings(cfg *config.Config) []Finding {
	var out []Finding
	for _, f := range run(cfg, ruleList().All()) {
		if f.Severity == engine.Error {
			out = append(out, f)
		}
	}
	return out
}

// Errors validates each ACL without parsing it into entries (check's
// path); it must find exactly what the error rules find over the fully
// parsed ACLs: on every rule's examples, every rule script's config, and
// random ACLs of every spacing YuniKorn's two parsers tell apart.
func TestErrorsAreLintsErrors(t *testing.T) {
	var docs []string
	for _, r := range ruleList().All() {
		docs = append(docs, r.Bad, r.Good)
	}
	scripts, _ := filepath.Glob("../../../testdata/script/rule-*.txtar")
	for _, f := range scripts {
		raw, _ := os.ReadFile(f)
		if _, body, ok := strings.Cut(string(raw), "-- queues.yaml --\n"); ok {
			body, _, _ = strings.Cut(body, "\n-- ")
			docs = append(docs, body)
		}
	}
	rng := rand.New(rand.NewSource(31))
	parts := []string{"alice", "bob,carol", "*", "", "dev", "ops,*", "a b"}
	blanks := []string{" ", "  ", "\t", " \t", ""}
	acl := func() string {
		var b strings.Builder
		for i := rng.Intn(4); i >= 0; i-- {
			b.WriteString(blanks[rng.Intn(len(blanks))])
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		return b.String()
	}
	for i := 0; i < 300; i++ {
		var b strings.Builder
		b.WriteString("partitions:\n  - name: default\n    queues:\n      - name: root\n")
		fmt.Fprintf(&b, "        submitacl: %q\n        queues:\n", acl())
		for q := 0; q < 4; q++ {
			fmt.Fprintf(&b, "          - name: q%d\n            submitacl: %q\n            adminacl: %q\n", q, acl(), acl())
		}
		docs = append(docs, b.String())
	}
	if len(docs) < 500 {
		t.Fatalf("only %d configs", len(docs))
	}
	for i, d := range docs {
		cfg := config.Decode(config.Parse("queues.yaml", []byte(d)))
		got, want := Errors(cfg), errorFindings(cfg)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("config %d: Errors gives %d findings, the rules over parsed ACLs %d\n%s\ngot %v\nwant %v", i, len(got), len(want), d, got, want)
		}
	}
}
