package config

import (
	"errors"
	"fmt"
	"io"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// both parses text with the batch (when it takes it) and one error at a
// time, and reports whether the batch took it and whether they differ.
func both(text []byte) (took bool, diff string) {
	a := &Document{Text: text, patched: map[[2]int]bool{}, parsed: text}
	b := &Document{Text: text, patched: map[[2]int]bool{}, parsed: text}
	a.parseWith(true)
	b.parseWith(false)
	if err := documents(text)(new(yaml.Node)); err != nil && !errors.Is(err, io.EOF) {
		c := &Document{Text: text, patched: map[[2]int]bool{}, parsed: text}
		took = c.quoteStars(text, err)
	}
	switch {
	case problems(a) != problems(b):
		return took, fmt.Sprintf("problems:\nbatch %v\neach  %v", a.Problems, b.Problems)
	case string(a.parsed) != string(b.parsed):
		return took, fmt.Sprintf("parsed text:\nbatch %q\neach  %q", a.parsed, b.parsed)
	case a.Docs != b.Docs || (a.Root == nil) != (b.Root == nil):
		return took, "documents differ"
	case a.Root != nil && !reflect.DeepEqual(tree(a.Root), tree(b.Root)):
		return took, "trees differ"
	case !reflect.DeepEqual(a.patched, b.patched):
		return took, "patched values differ"
	}
	return took, ""
}

func problems(d *Document) string {
	var b strings.Builder
	for _, p := range d.Problems {
		fmt.Fprintf(&b, "%d %v %s %s", p.Kind, p.Pos, p.Message, p.Hint)
		if p.fix != nil {
			fmt.Fprintf(&b, " fix %+v", *p.fix)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func tree(n *yaml.Node) string {
	var b strings.Builder
	var walk func(*yaml.Node)
	walk = func(x *yaml.Node) {
		fmt.Fprintf(&b, "%d:%d:%d:%d:%q(", x.Kind, x.Style, x.Line, x.Column, x.Value)
		for _, c := range x.Content {
			walk(c)
		}
		b.WriteString(")")
	}
	walk(n)
	return b.String()
}

// TestBatchParseEqualsEach: the single-pass recovery from unquoted "*"
// values gives exactly what recovering one error per parse gives, on
// configs full of them (and of the look-alikes it must leave to parseEach).
func TestBatchParseEqualsEach(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	values := []string{"*", "* ", "*foo", "*foo bar", "*foo.bar", "*,x", "*-a", "*_", "* # c", "*foo # c", "'*'", `"*"`, "a*", "*:x", "*foo:", "*f?", "*é", "* *"}
	batchable := []string{"*", "* ", "*foo", "* # c", "*_", "'*'"}
	keys := []string{"submitacl", "adminacl", "name", "other", `"submitacl"`, "'adminacl'", "SubmitACL"}
	took := 0
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		b.WriteString("partitions:\n  - name: default\n    queues:\n      - name: root\n        queues:\n")
		for q := 0; q < 1+r.Intn(12); q++ {
			fmt.Fprintf(&b, "          - name: q%d\n", q)
			for k := 0; k < r.Intn(3); k++ {
				vs := values
				if i%3 == 0 {
					vs = batchable // only the forms the batch takes, so it is exercised
				}
				fmt.Fprintf(&b, "            %s: %s\n", keys[r.Intn(len(keys))], vs[r.Intn(len(vs))])
			}
			if i%3 == 0 {
				continue
			}
			switch r.Intn(12) {
			case 0:
				b.WriteString("            properties: |\n              submitacl: *\n")
			case 1:
				b.WriteString("            x: &a v\n            adminacl: *a\n")
			case 2:
				b.WriteString("            queues: [{name: z, submitacl: *}]\n")
			case 3:
				b.WriteString("            - *\n")
			case 4:
				b.WriteString("---\nx: *\n")
			}
		}
		ok, diff := both([]byte(b.String()))
		if diff != "" {
			t.Fatalf("%s\nconfig:\n%s", diff, b.String())
		}
		if ok {
			took++
		}
	}
	if took < 400 {
		t.Errorf("the batch quoted the stars of only %d of 3000 configs", took)
	}
}

// TestBatchParseLinear: 2,000 unquoted "*" are all reported, from two
// parses.
func TestBatchParseLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("partitions:\n  - name: default\n    queues:\n      - name: root\n        queues:\n")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, "          - name: q%d\n            submitacl: *\n", i)
	}
	d := &Document{Text: []byte(b.String()), patched: map[[2]int]bool{}}
	err := documents(d.Text)(new(yaml.Node))
	if !d.quoteStars(d.Text, err) {
		t.Fatal("the batch did not take 2,000 plain wildcards")
	}
	if len(d.Problems) != 2000 || d.Root == nil {
		t.Fatalf("%d problems, root %v", len(d.Problems), d.Root != nil)
	}
}

func FuzzBatchParse(f *testing.F) {
	f.Add([]byte("a:\n  submitacl: *\n  b: *x\n  c: '*'\n"))
	f.Add([]byte("a: |\n  submitacl: *\nb: *\n"))
	f.Fuzz(func(t *testing.T, text []byte) {
		if _, diff := both(text); diff != "" {
			t.Fatalf("%s\n%q", diff, text)
		}
	})
}
