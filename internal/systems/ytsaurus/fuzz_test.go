package ytsaurus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLint: any document lints without a panic, findings point inside the
// file and name registered rules, and a tree YTsaurus would hold answers
// questions for every user it knows.
func FuzzLint(f *testing.F) {
	for _, r := range Rules().All() {
		f.Add([]byte(r.Bad))
		f.Add([]byte(r.Good))
	}
	files, _ := filepath.Glob("../../../testdata/script/yt-*.txtar")
	for _, p := range files {
		b, _ := os.ReadFile(p)
		for _, part := range strings.Split(string(b), "\n-- ") {
			if _, body, ok := strings.Cut(part, " --\n"); ok {
				f.Add([]byte(body))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d := Parse("f.yaml", data)
		lines := len(d.Lines())
		rules := Rules()
		for _, x := range Lint(d, Options{Path: "//fuzz"}) {
			if x.Pos.Line < 1 || x.Pos.Line > lines || x.Pos.Col < 1 || x.Message == "" || x.Hint == "" {
				t.Fatalf("bad finding %+v in a %d-line file", x, lines)
			}
			if rules.Lookup(x.Rule) == nil {
				t.Fatalf("a finding of an unknown rule %q", x.Rule)
			}
		}
		tr := Load(d, Options{Path: "//fuzz"})
		if tr.Errors() != nil {
			return
		}
		paths := []string{"/", "//fuzz/x"}
		for _, n := range tr.Order {
			paths = append(paths, n.Path, n.Path+"/child")
		}
		for _, s := range tr.Dir.Subjects() {
			if s.Group {
				continue
			}
			for _, p := range paths {
				for _, perm := range []Permission{Read, FullRead, Write} {
					r, err := tr.Check(Request{User: s.Name, Permission: perm, Path: p})
					if err != nil {
						t.Fatal(err)
					}
					if r.Action == Undefined {
						t.Fatalf("undefined answer for %s %s %s", s.Name, perm, p)
					}
				}
			}
		}
	})
}
