package fix_test

import (
	"github.com/aclint/aclint/internal/fix"
	"github.com/aclint/aclint/internal/systems"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/vectors"

	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func linter(name string) fix.Linter {
	return func(content []byte) ([]engine.Finding, error) {
		docs, err := config.LoadBytes(name, content, config.LoadOptions{})
		if err != nil {
			return nil, err
		}
		var out []engine.Finding
		for _, d := range docs {
			out = append(out, yunikorn.Lint(config.Decode(d))...)
		}
		return out, nil
	}
}

// TestGolden fixes every testdata/*.yaml and compares the result byte for
// byte with its .golden file; the fixed file must lint clean for every
// fixable rule. Refresh with: go test ./internal/fix -update
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.yaml")
	if len(files) < 8 {
		t.Fatalf("want a fixture per fixable rule, got %v", files)
	}
	fixable := []string{"unquoted-wildcard", "lost-leading-space", "acl-stray-space", "non-space-separator", "trailing-newline", "duplicate-entry"}
	for _, in := range files {
		src, _ := os.ReadFile(in)
		before, _ := linter(in)(src)
		r, err := fix.File(src, linter(in), true)
		if err != nil {
			t.Fatal(err)
		}
		fixed, n := r.Content, r.Applied
		golden := strings.TrimSuffix(in, ".yaml") + ".golden"
		if *update {
			os.WriteFile(golden, fixed, 0o644)
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (go test ./internal/fix -update)", err)
		}
		if string(fixed) != string(want) {
			t.Errorf("%s: fixed output differs from %s:\n%s", in, golden, fix.Diff(in, want, fixed))
		}
		after, _ := linter(in)(fixed)
		for _, f := range after {
			for _, r := range fixable {
				if f.Rule == r && f.Fix != nil {
					t.Errorf("%s: still fixable after --fix: %v", in, f)
				}
			}
		}
		rule := strings.TrimSuffix(filepath.Base(in), ".yaml")
		rule = strings.TrimSuffix(rule, "-nbsp")
		if testRegistry.Lookup(rule) != nil {
			had := false
			for _, f := range before {
				had = had || f.Rule == rule
			}
			for _, f := range after {
				if f.Rule == rule {
					t.Errorf("%s: %s still reported after the fix: %s", in, rule, f.Message)
				}
			}
			if !had || n == 0 {
				t.Errorf("%s: the fixture should trigger and fix %s", in, rule)
			}
		}
	}
}

// A ConfigMap with the config in a quoted string cannot be edited character
// for character: the finding stays, without a fix, and the file is unchanged.
func TestQuotedConfigMapIsLeftAlone(t *testing.T) {
	src, _ := os.ReadFile("testdata/configmap-quoted.yaml")
	r, _ := fix.File(src, linter("configmap-quoted.yaml"), true)
	fixed, n := r.Content, r.Applied
	if n != 0 || string(fixed) != string(src) {
		t.Errorf("quoted ConfigMap changed:\n%s", fix.Diff("x", src, fixed))
	}
}

func TestApplyOverlapsAndDiff(t *testing.T) {
	src := []byte("a: x\nb: yy\nc: z\n")
	edits := []config.Edit{
		{Start: config.Position{Line: 2, Col: 4}, End: config.Position{Line: 2, Col: 6}, New: "Y"},
		{Start: config.Position{Line: 2, Col: 5}, End: config.Position{Line: 2, Col: 6}, New: "overlap"},
		{Start: config.Position{Line: 9, Col: 1}, End: config.Position{Line: 9, Col: 2}, New: "outside"},
	}
	out, n := fix.Apply(src, edits)
	if n != 1 || string(out) != "a: x\nb: Y\nc: z\n" {
		t.Fatalf("Apply = %q, %d", out, n)
	}
	want := "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a: x\n-b: yy\n+b: Y\n c: z\n"
	if d := fix.Diff("f", src, out); d != want {
		t.Errorf("Diff:\n%s\nwant:\n%s", d, want)
	}
}

// Safe fixes keep who has access: over every fixture and every config of the
// conformance vectors that YuniKorn accepts, fixing with safe fixes only
// leaves access exactly as it was (acl.Diff finds no change), and every ACL
// fix that would change access is marked unsafe.
func TestSafeFixesKeepAccess(t *testing.T) {
	var corpus [][2]string
	files, _ := filepath.Glob("testdata/*.yaml")
	for _, f := range files {
		b, _ := os.ReadFile(f)
		corpus = append(corpus, [2]string{f, string(b)})
	}
	vectors.Each(t, []string{"../../testdata/conformance/*.jsonl"}, func(file string, n int, v *vectors.Config) {
		corpus = append(corpus, [2]string{fmt.Sprintf("%s#%d", filepath.Base(file), n), v.Config})
	})
	fixedSome, compared := 0, 0
	for _, c := range corpus {
		src := []byte(c[1])
		r, err := fix.File(src, linter("q.yaml"), false)
		if err != nil || r.Applied == 0 {
			continue
		}
		fixedSome++
		before := config.Decode(config.Parse("q.yaml", src))
		after := config.Decode(config.Parse("q.yaml", r.Content))
		if len(yunikorn.Errors(after)) > 0 && len(yunikorn.Errors(before)) == 0 {
			t.Errorf("%s: a safe fix made an accepted config rejected:\n%s", c[0], fix.Diff("q.yaml", src, r.Content))
			continue
		}
		if len(yunikorn.Errors(before)) > 0 || len(yunikorn.Errors(after)) > 0 {
			continue // access is compared between accepted configs
		}
		compared++
		d := acl.Diff(acl.NewPolicy(before), acl.NewPolicy(after))
		if len(d.Changes) > 0 || len(d.Queues) > 0 {
			t.Errorf("%s: safe fixes changed access: %+v\n%s", c[0], d.Changes, fix.Diff("q.yaml", src, r.Content))
		}
	}
	if compared < 30 {
		t.Fatalf("only %d accepted configs had safe fixes (of %d fixed): the corpus does not exercise the test", compared, fixedSome)
	}
	t.Logf("%d configs fixed, %d compared for access", fixedSome, compared)
}

// The lost leading space fix turns users into groups: it is unsafe, left by
// a safe run and applied when unsafe fixes are asked for.
func TestUnsafeFixNeedsAsking(t *testing.T) {
	src := []byte("partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl:  dev,ops\n")
	r, err := fix.File(src, linter("q.yaml"), false)
	if err != nil || r.Applied != 0 || string(r.Content) != string(src) {
		t.Fatalf("a safe run changed the file: %v %d\n%s", err, r.Applied, r.Content)
	}
	found := false
	for _, f := range r.Left {
		if f.Rule == "lost-leading-space" && f.Fix != nil && strings.Contains(f.Unsafe, "users dev, ops; the fix makes it groups dev, ops") {
			found = true
		}
	}
	if !found {
		t.Fatalf("the unsafe fix is not reported as left: %+v", r.Left)
	}
	r, _ = fix.File(src, linter("q.yaml"), true)
	if !strings.Contains(string(r.Content), `submitacl: " dev,ops"`) {
		t.Fatalf("--unsafe-fixes did not apply it:\n%s", r.Content)
	}
}

// testRegistry is the systems aclint runs with.
var testRegistry = systems.New()
