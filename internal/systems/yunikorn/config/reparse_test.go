package config

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/internal/gen"
	"github.com/aclint/aclint/internal/vectors"
)

// treeDiff describes the first difference between two yaml.v3 trees, in
// everything a node holds, or returns "".
func treeDiff(a, b *yaml.Node, at string) string {
	switch {
	case a == nil || b == nil:
		if a != b {
			return at + ": one tree ends"
		}
		return ""
	case a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value || a.Anchor != b.Anchor:
		return fmt.Sprintf("%s: %v/%v/%q/%q against %v/%v/%q/%q", at, a.Kind, a.Style, a.Tag, a.Value, b.Kind, b.Style, b.Tag, b.Value)
	case a.Line != b.Line || a.Column != b.Column:
		return fmt.Sprintf("%s: at %d:%d against %d:%d", at, a.Line, a.Column, b.Line, b.Column)
	case a.HeadComment != b.HeadComment || a.LineComment != b.LineComment || a.FootComment != b.FootComment:
		return at + ": comments differ"
	case len(a.Content) != len(b.Content):
		return fmt.Sprintf("%s: %d children against %d", at, len(a.Content), len(b.Content))
	case (a.Alias == nil) != (b.Alias == nil):
		return at + ": alias differs"
	}
	for i := range a.Content {
		if d := treeDiff(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", at, i)); d != "" {
			return d
		}
	}
	return ""
}

// reparseCorpus: the conformance configs and generated ones.
func reparseCorpus(t testing.TB) []string {
	out := []string{string(gen.EditorConfig(100, true)), string(gen.Config(2000))}
	vectors.Each(t, []string{"../../../../testdata/conformance/*.jsonl", "../../../../testdata/conformance/*/*.jsonl"},
		func(_ string, _ int, v *struct {
			Config string `json:"config"`
		}) {
			if v.Config != "" {
				out = append(out, v.Config)
			}
		})
	return out
}

// checkReparse edits prev's text into next and, when Reparse takes it,
// requires exactly the document a full parse gives. It reports whether
// Reparse took it.
func checkReparse(t testing.TB, prev *Document, next string) bool {
	t.Helper()
	nd := Reparse(prev, []byte(next))
	if nd == nil {
		return false
	}
	full, err := fromBytes(prev.File, []byte(next), LoadOptions{}, true)
	if err != nil || len(full) != 1 {
		t.Fatalf("Reparse took an edit a full read gives %d documents for (%v):\n%s", len(full), err, next)
	}
	f := full[0]
	if string(nd.Text) != string(f.Text) || string(nd.Source) != string(f.Source) || nd.Docs != f.Docs || len(nd.Problems) != len(f.Problems) ||
		nd.ConfigMap != f.ConfigMap || nd.Helm != f.Helm || nd.Empty() != f.Empty() {
		t.Fatalf("Reparse's document differs from a full read's:\n%s", next)
	}
	if d := treeDiff(nd.Root, f.Root, "root"); d != "" {
		t.Fatalf("Reparse's tree differs from a full parse: %s\nbefore:\n%s\nafter:\n%s", d, prev.Text, next)
	}
	return true
}

const editRunes = "abcXYZ019_-.,:@$/ *#'\"\\!&|>{}[]%?\t~"

// randomEdit changes text inside one line (or, now and then, across lines).
func randomEdit(r *rand.Rand, text string) string {
	if text == "" {
		return "x"
	}
	i := r.Intn(len(text) + 1)
	j := i
	if r.Intn(3) == 0 {
		j = min(len(text), i+r.Intn(4))
	}
	ins := ""
	for n := r.Intn(3); n > 0; n-- {
		ins += string(editRunes[r.Intn(len(editRunes))])
	}
	if r.Intn(40) == 0 {
		ins += "\n"
	}
	return text[:i] + ins + text[j:]
}

// TestReparseEqualsParse edits every corpus config many times, each time
// from the last version (as typing does), and requires Reparse, whenever it
// takes an edit, to give exactly what a full parse gives.
func TestReparseEqualsParse(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	taken, edits, acrossLines := 0, 0, 0
	rounds := 12
	if testing.Short() {
		rounds = 6
	}
	for _, text := range reparseCorpus(t) {
		docs, err := fromBytes("queues.yaml", []byte(text), LoadOptions{}, true)
		if err != nil || len(docs) != 1 {
			continue
		}
		prev := docs[0]
		for k := 0; k < rounds; k++ {
			var next string
			kind := r.Intn(3)
			switch kind {
			case 0:
				next = randomEdit(r, string(prev.Text))
			case 1:
				next = valueEdit(r, string(prev.Text))
			default:
				next = lineEdit(r, string(prev.Text))
			}
			edits++
			if checkReparse(t, prev, next) {
				taken++
				if kind == 2 && strings.Count(next, "\n") != strings.Count(string(prev.Text), "\n") {
					acrossLines++
				}
			}
			// typing goes on from the new text while it stays clean YAML;
			// a broken one is left, as its next keystrokes are full parses
			if d, err := fromBytes("queues.yaml", []byte(next), LoadOptions{}, true); err == nil && len(d) == 1 && len(d[0].Problems) == 0 {
				prev = d[0]
			}
		}
	}
	t.Logf("%d edits, %d taken by Reparse (%d of them adding or removing lines), each equal to a full parse", edits, taken, acrossLines)
	if taken < edits/10 || acrossLines < edits/100 {
		t.Fatalf("Reparse took %d of %d edits, %d across lines: the fast paths are not exercised", taken, edits, acrossLines)
	}
}

// valueEdit types or deletes a character inside a value, the edit Reparse
// is for.
func valueEdit(r *rand.Rand, text string) string {
	lines := strings.Split(text, "\n")
	for tries := 0; tries < 20; tries++ {
		l := r.Intn(len(lines))
		c := strings.Index(lines[l], ": ")
		if c < 0 || c+2 >= len(lines[l]) {
			continue
		}
		pos := c + 2 + r.Intn(len(lines[l])-c-2+1)
		line := lines[l]
		if r.Intn(3) == 0 && pos < len(line) {
			line = line[:pos] + line[pos+1:]
		} else {
			line = line[:pos] + string(editRunes[r.Intn(len(editRunes))]) + line[pos:]
		}
		lines[l] = line
		return strings.Join(lines, "\n")
	}
	return text
}

// lineEdit adds, removes, copies or splits lines, as pressing Enter,
// deleting a line or pasting one does.
func lineEdit(r *rand.Rand, text string) string {
	lines := strings.Split(text, "\n")
	l := r.Intn(len(lines))
	line := lines[l]
	indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
	var repl []string
	switch r.Intn(7) {
	case 0: // a copy of the line below it
		repl = []string{line, line}
	case 1: // the line removed
		repl = nil
	case 2: // a blank line
		repl = []string{line, ""}
	case 3: // a new item at the line's indentation
		repl = []string{line, indent + "- name: n" + fmt.Sprint(r.Intn(9))}
	case 4: // a new key below
		repl = []string{line, indent + "  submitacl: \"x y\""}
	case 5: // the line split where the cursor is
		c := r.Intn(len(line) + 1)
		repl = []string{line[:c], indent + line[c:]}
	default: // two lines joined
		if l+1 < len(lines) {
			repl = []string{line + strings.TrimLeft(lines[l+1], " ")}
			lines = append(lines[:l+1], lines[l+2:]...)
		} else {
			repl = []string{line}
		}
	}
	out := append(append(append([]string(nil), lines[:l]...), repl...), lines[l+1:]...)
	return strings.Join(out, "\n")
}

// TestReparseCases: what Reparse must refuse, and that prev is unchanged.
func TestReparseCases(t *testing.T) {
	base := "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: \"alice dev\"\n        queues:\n          - name: a\n            adminacl: bob\n"
	docs, _ := fromBytes("q.yaml", []byte(base), LoadOptions{}, true)
	prev := docs[0]
	for _, c := range []struct {
		next string
		take bool
	}{
		{strings.Replace(base, "alice dev", "alicex dev", 1), true},
		{strings.Replace(base, "adminacl: bob", "adminacl: bobby", 1), true},
		{strings.Replace(base, "adminacl: bob", "adminacl: yes", 1), true},
		{strings.Replace(base, "adminacl: bob", "adminacl: 'b c'", 1), true},
		{strings.Replace(base, "adminacl: bob", "adminacl: bob # x", 1), false},   // a comment
		{strings.Replace(base, "adminacl: bob", "adminacl: *bob", 1), false},      // an alias
		{strings.Replace(base, "adminacl: bob", "adminacl: \"b\\tc\"", 1), false}, // an escape
		{strings.Replace(base, "adminacl: bob", "adminacls: bob", 1), false},      // the key
		{strings.Replace(base, "name: default", "name: other", 1), true},
		{strings.Replace(base, "partitions:", "partition:", 1), false}, // the top level
		{base + "  extra", false},
		// lines: a queue added, a key added, a queue removed
		{strings.Replace(base, "          - name: a\n", "          - name: a\n          - name: b\n", 1), true},
		{strings.Replace(base, "            adminacl: bob\n", "            adminacl: bob\n            submitacl: sue\n", 1), true},
		{strings.Replace(base, "        queues:\n          - name: a\n            adminacl: bob\n", "", 1), true},
		{strings.Replace(base, "            adminacl: bob\n", "            adminacl: bob\n            # who\n", 1), false}, // a comment
	} {
		nd := Reparse(prev, []byte(c.next))
		if (nd != nil) != c.take {
			t.Errorf("Reparse took it: %v, want %v:\n%s", nd != nil, c.take, c.next)
		}
		checkReparse(t, prev, c.next)
	}
	if string(prev.Text) != base || prev.Root.Content[1].Content[0].Content[3].Content[0].Content[3].Value != "alice dev" {
		t.Fatal("Reparse changed the previous document")
	}
	// a document with an anchor anywhere is not reused
	anchored := strings.Replace(base, "adminacl: bob", "adminacl: &b bob", 1)
	d2, _ := fromBytes("q.yaml", []byte(anchored), LoadOptions{}, true)
	if Reparse(d2[0], []byte(strings.Replace(anchored, "alice dev", "alicex dev", 1))) != nil {
		t.Error("Reparse reused a document with an anchor")
	}
}

// FuzzReparse: any edit of any config, taken or not; taken, it must equal a
// full parse.
func FuzzReparse(f *testing.F) {
	for i, text := range reparseCorpus(f) {
		if i%20 == 0 {
			f.Add(text, uint(len(text)/2), "x", uint(0))
		}
	}
	f.Add("partitions:\n  - queues:\n      - name: root\n        submitacl: a\n", uint(60), "b", uint(0))
	f.Fuzz(func(t *testing.T, text string, pos uint, ins string, del uint) {
		if len(text) > 1<<16 || len(ins) > 64 {
			return
		}
		docs, err := fromBytes("queues.yaml", []byte(text), LoadOptions{}, true)
		if err != nil || len(docs) != 1 {
			return
		}
		i := int(pos % uint(len(text)+1))
		j := min(len(text), i+int(del%4))
		checkReparse(t, docs[0], text[:i]+ins+text[j:])
	})
}
