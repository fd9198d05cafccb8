package expect

import (
	"testing"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// FuzzParse: any bytes give a file or problems with positions, never a
// panic, and a parsed case always has an expectation its kind allows.
func FuzzParse(f *testing.F) {
	f.Add([]byte("config: q\ncases:\n  - {user: a, groups: [x], queue: root, action: admin, expect: deny}\n  - {user: b, place: {queue: q, tags: {namespace: n}, forced: true}, expect: rejected}\n"))
	f.Add([]byte("config: &c [a, b]\npartition: *c\ncases: [&k {user: a, queue: root, expect: allow}, *k]\n"))
	f.Add([]byte("cases:\n- user: a\n  queue: root\n  expect: allow\n- {}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("f.yaml", src)
		if err != nil {
			if fe, ok := err.(*FileError); !ok || len(fe.Problems) == 0 {
				t.Fatalf("error without problems: %v", err)
			}
			return
		}
		if len(file.Cases) == 0 {
			t.Fatal("a file without cases parsed")
		}
		for _, c := range file.Cases {
			if c.Place == nil && c.Expect != Allow && c.Expect != Deny {
				t.Fatalf("access case expects %q", c.Expect)
			}
			if c.Place != nil && c.Expect == "" {
				t.Fatal("place case without expectation")
			}
		}
	})
}

// FuzzYAMLScalar: every valid UTF-8 string --generate writes reads back
// as itself.
func FuzzYAMLScalar(f *testing.F) {
	for _, s := range []string{"alice", "*", " dev", "a: b", "\x1b[31m", "\u2028", "null"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		// in a block mapping, and in the flow mappings the cases are; the
		// parser reads scalars as written, whatever type YAML resolves
		var block struct{ K string }
		if err := yaml.Unmarshal([]byte("k: "+yamlScalar(s)+"\n"), &block); err != nil || block.K != s {
			t.Fatalf("%q written as %s reads back as %q (%v)", s, yamlScalar(s), block.K, err)
		}
		var flow []struct {
			K string
			J []string
		}
		err := yaml.Unmarshal([]byte("- {k: "+yamlScalar(s)+", j: ["+yamlScalar(s)+"]}\n"), &flow)
		if err != nil || len(flow) != 1 || flow[0].K != s || len(flow[0].J) != 1 || flow[0].J[0] != s {
			t.Fatalf("%q written as %s in flow style reads back as %+v (%v)", s, yamlScalar(s), flow, err)
		}
	})
}
