package fix

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aclint/aclint/pkg/config"
	"github.com/aclint/aclint/pkg/lint"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func linter(name string) Linter {
	return func(content []byte) ([]lint.Finding, error) {
		docs, err := config.LoadBytes(name, content, config.LoadOptions{})
		if err != nil {
			return nil, err
		}
		var out []lint.Finding
		for _, d := range docs {
			out = append(out, lint.Lint(config.Decode(d))...)
		}
		return out, nil
	}
}

// TestGolden fixes every testdata/*.yaml and compares the result byte for
// byte with its .golden file; the fixed file must lint clean for every
// fixable rule. Refresh with: go test ./pkg/fix -update
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.yaml")
	if len(files) < 8 {
		t.Fatalf("want a fixture per fixable rule, got %v", files)
	}
	fixable := []string{"unquoted-wildcard", "lost-leading-space", "acl-stray-space", "non-space-separator", "trailing-newline", "duplicate-entry"}
	for _, in := range files {
		src, _ := os.ReadFile(in)
		before, _ := linter(in)(src)
		fixed, n, err := File(src, linter(in))
		if err != nil {
			t.Fatal(err)
		}
		golden := strings.TrimSuffix(in, ".yaml") + ".golden"
		if *update {
			os.WriteFile(golden, fixed, 0o644)
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (go test ./pkg/fix -update)", err)
		}
		if string(fixed) != string(want) {
			t.Errorf("%s: fixed output differs from %s:\n%s", in, golden, Diff(in, want, fixed))
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
		if lint.Lookup(rule) != nil {
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
	fixed, n, _ := File(src, linter("configmap-quoted.yaml"))
	if n != 0 || string(fixed) != string(src) {
		t.Errorf("quoted ConfigMap changed:\n%s", Diff("x", src, fixed))
	}
}

func TestApplyOverlapsAndDiff(t *testing.T) {
	src := []byte("a: x\nb: yy\nc: z\n")
	edits := []config.Edit{
		{Start: config.Position{Line: 2, Col: 4}, End: config.Position{Line: 2, Col: 6}, New: "Y"},
		{Start: config.Position{Line: 2, Col: 5}, End: config.Position{Line: 2, Col: 6}, New: "overlap"},
		{Start: config.Position{Line: 9, Col: 1}, End: config.Position{Line: 9, Col: 2}, New: "outside"},
	}
	out, n := Apply(src, edits)
	if n != 1 || string(out) != "a: x\nb: Y\nc: z\n" {
		t.Fatalf("Apply = %q, %d", out, n)
	}
	want := "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a: x\n-b: yy\n+b: Y\n c: z\n"
	if d := Diff("f", src, out); d != want {
		t.Errorf("Diff:\n%s\nwant:\n%s", d, want)
	}
}
