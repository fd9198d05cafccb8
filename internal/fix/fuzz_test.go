package fix_test

import (
	"fmt"
	"github.com/aclint/aclint/internal/fix"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// reading lists every scalar of a config as YuniKorn would read it, by path,
// leaving out the values of submitacl and adminacl, which fixes may change.
func reading(doc *config.Document) []string {
	var out []string
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		if n == nil {
			return
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if lk := strings.ToLower(k.Value); lk == "submitacl" || lk == "adminacl" {
					out = append(out, path+"/"+k.Value+"=<acl>")
					continue
				}
				walk(n.Content[i+1], path+"/"+k.Value)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				walk(c, fmt.Sprintf("%s[%d]", path, i))
			}
		case yaml.AliasNode:
			out = append(out, path+"=*"+n.Value)
		default:
			out = append(out, fmt.Sprintf("%s=%s:%q", path, n.ShortTag(), n.Value))
		}
	}
	walk(doc.Root, "")
	return out
}

// FuzzFix: on any input, --fix changes only lines that hold a fixed ACL
// value, keeps the number of lines, leaves YuniKorn's reading of every
// other value as it was, and leaves nothing fixable behind.
func FuzzFix(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.yaml")
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, text string) {
		src := []byte(text)
		run := linter("f.yaml")
		r, err := fix.File(src, run, true)
		fixed, n := r.Content, r.Applied
		if err != nil || n == 0 {
			return
		}
		a, b := strings.Split(string(src), "\n"), strings.Split(string(fixed), "\n")
		if len(a) != len(b) {
			t.Fatalf("fix changed the number of lines:\n%s", fix.Diff("f", src, fixed))
		}
		for i := range a {
			if a[i] != b[i] && !strings.Contains(strings.ToLower(a[i]), "acl") {
				t.Fatalf("fix changed line %d, which holds no ACL: %q -> %q", i+1, a[i], b[i])
			}
		}
		docsA, errA := config.LoadBytes("f.yaml", src, config.LoadOptions{})
		docsB, errB := config.LoadBytes("f.yaml", fixed, config.LoadOptions{})
		if (errA == nil) != (errB == nil) || len(docsA) != len(docsB) {
			t.Fatalf("fix changed what the file is: %v / %v", errA, errB)
		}
		for i := range docsA {
			if docsA[i].Root == nil {
				continue // YuniKorn could not read it before: nothing to keep
			}
			ra, rb := reading(docsA[i]), reading(docsB[i])
			if strings.Join(ra, "\n") != strings.Join(rb, "\n") {
				t.Fatalf("fix changed a value other than an ACL:\nbefore %v\nafter  %v\n%s", ra, rb, fix.Diff("f", src, fixed))
			}
		}
		if again, _ := fix.File(fixed, run, true); again.Applied != 0 || string(again.Content) != string(fixed) {
			t.Fatalf("a second --fix still changed the file:\n%s", fix.Diff("f", fixed, again.Content))
		}
	})
}
