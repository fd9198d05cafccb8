package lsp

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/aclint/aclint/internal/budget"
	"github.com/aclint/aclint/internal/systems/ytsaurus/gen"
)

// walkPos and walkOffset are positions found by walking the line from its
// start, as they were before long lines were indexed: the reference.
func walkPos(t *text, line, col int) Position {
	l := t.lineText(line - 1)
	return Position{Line: line - 1, Character: t.units(l[:byteCol(l, col)])}
}

func walkOffset(t *text, p Position) int {
	l := t.lineText(p.Line)
	i, n := 0, 0
	for i < len(l) && n < p.Character {
		r, size := utf8.DecodeRuneInString(l[i:])
		switch t.enc {
		case encUTF8:
			n += size
		case encUTF32:
			n++
		default:
			n += utf16.RuneLen(r)
		}
		i += size
	}
	return t.starts[p.Line] + i
}

// TestLongLineMarks: on lines long enough to be indexed (ASCII, accents,
// CJK, astral runes, invalid bytes, \r\n), every position, offset, column
// and token is what walking the line gives, in all three encodings.
func TestLongLineMarks(t *testing.T) {
	pieces := []string{"a", "bc", "é", "名", "😀", "\xff", " ", "\"q\"", ":", "<v>"}
	rnd := rand.New(rand.NewSource(7))
	for _, enc := range []string{encUTF16, encUTF8, encUTF32} {
		for doc := 0; doc < 20; doc++ {
			var b strings.Builder
			for line := 0; line < 3; line++ {
				for i := rnd.Intn(2000); i > 0; i-- {
					b.WriteString(pieces[rnd.Intn(len(pieces))])
				}
				b.WriteString([]string{"\n", "\r\n"}[rnd.Intn(2)])
			}
			tx := newText(b.String(), enc)
			for q := 0; q < 300; q++ {
				line := 1 + rnd.Intn(len(tx.starts))
				n := utf8.RuneCountInString(tx.lineText(line - 1))
				col := 1 + rnd.Intn(n+3)
				if got, want := tx.pos(line, col), walkPos(tx, line, col); got != want {
					t.Fatalf("%s: pos(%d, %d) = %v, want %v", enc, line, col, got, want)
				}
				p := Position{Line: line - 1, Character: rnd.Intn(3*n + 3)}
				if got, want := tx.offset(p), walkOffset(tx, p); got != want {
					t.Fatalf("%s: offset(%v) = %d, want %d", enc, p, got, want)
				}
				off := walkOffset(tx, p) - tx.starts[p.Line]
				if _, c := tx.column(p); c != utf8.RuneCountInString(tx.lineText(p.Line)[:off])+1 {
					t.Fatalf("%s: column(%v) = %d", enc, p, c)
				}
				if r := tx.token(line, col); r.Start != walkPos(tx, line, col) || r.End.Character < r.Start.Character {
					t.Fatalf("%s: token(%d, %d) = %v", enc, line, col, r)
				}
			}
		}
	}
}

// TestLongLineOutline: the outline and the folding of a one-line
// capacity-scheduler.xml, Mesos file and YuniKorn file cost time linear
// in the line, within a loose bound of eight times for eight times the
// entries (a walk from the line's start for every position took 38 s
// for 872 KB).
func TestLongLineOutline(t *testing.T) {
	c := start(t, testOptions())
	c.initialize()
	docs := map[string]func(n int) string{
		"capacity-scheduler.xml": func(n int) string {
			var b strings.Builder
			b.WriteString("<configuration>")
			var qs []string
			for i := 0; i < n; i++ {
				qs = append(qs, fmt.Sprintf("q%d", i))
			}
			fmt.Fprintf(&b, "<property><name>yarn.scheduler.capacity.root.queues</name><value>%s</value></property>", strings.Join(qs, ","))
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "<property><name>yarn.scheduler.capacity.root.q%d.capacity</name><value>1</value></property>", i)
			}
			return b.String() + "</configuration>"
		},
		"mesos-acls.json": func(n int) string {
			var es []string
			for i := 0; i < n; i++ {
				es = append(es, fmt.Sprintf(`{"principals": {"values": ["p%d"]}, "users": {"values": ["u%d"]}}`, i, i))
			}
			return `{"run_tasks": [` + strings.Join(es, ", ") + `]}`
		},
		"queues.yaml": func(n int) string {
			var qs []string
			for i := 0; i < n; i++ {
				qs = append(qs, fmt.Sprintf(`{"name": "q%d", "submitacl": "u%d"}`, i, i))
			}
			return `{"partitions": [{"name": "default", "queues": [{"name": "root", "queues": [` + strings.Join(qs, ", ") + `]}]}]}`
		},
	}
	for name, gen := range docs {
		cost := func(n int) time.Duration {
			text := gen(n)
			uri, _ := fileURI(t, name, text)
			c.open(uri, text)
			c.diagnostics(uri)
			return budget.Best(1, func() {
				for _, m := range []string{"textDocument/documentSymbol", "textDocument/foldingRange"} {
					if r := c.call(m, map[string]any{"textDocument": map[string]any{"uri": uri}}); r.Error != nil {
						t.Fatalf("%s %s: %v", name, m, r.Error)
					}
				}
			})
		}
		small, large := cost(500), cost(4000)
		ratio := float64(large) / float64(max(small, time.Millisecond))
		t.Logf("%s: one line of 500 entries %v, 4,000 entries %v: %.1fx", name, small, large, ratio)
		if ratio > budget.Limit(14) && large > 200*time.Millisecond {
			t.Errorf("%s: eight times the line costs %.1f times the CPU: every position walked from the line's start?", name, ratio)
		}
	}
}

// TestOutlineBounded: the 45,500 findings of a 7.6 MB YTsaurus tree are
// published as the first maxDiagnostics and one that counts the rest; its
// outline lists the
// first maxSymbols symbols and one that counts the rest, and allocates a
// few times the document to answer (about 150 times before: a 48.9 MB
// tree took the server past 4 GiB); folding is bounded the same way.
func TestOutlineBounded(t *testing.T) {
	c := start(t, testOptions())
	c.initialize()
	text := string(gen.YTTree(50000))
	uri, _ := fileURI(t, "tree.yaml", text)
	c.open(uri, text)
	diags := c.diagnostics(uri).Diagnostics
	if len(diags) != maxDiagnostics+1 || !strings.Contains(diags[maxDiagnostics].Message, "more findings are not shown") {
		t.Errorf("%d diagnostics published", len(diags))
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r := c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}})
	runtime.ReadMemStats(&after)
	var syms []DocumentSymbol
	if err := json.Unmarshal(r.Result, &syms); err != nil || len(syms) == 0 {
		t.Fatalf("%v %.300s", err, r.Result)
	}
	n := 0
	var count func(DocumentSymbol)
	count = func(s DocumentSymbol) {
		n++
		for _, c := range s.Children {
			count(c)
		}
	}
	for _, s := range syms {
		count(s)
	}
	last := syms[len(syms)-1]
	if n != maxSymbols+1 || !strings.HasSuffix(last.Name, "more not listed") {
		t.Errorf("%d symbols, the last %q", n, last.Name)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(40*len(text)) {
		t.Errorf("the outline allocated %d MB for a %d MB document", alloc>>20, len(text)>>20)
	}
	f := c.call("textDocument/foldingRange", map[string]any{"textDocument": map[string]any{"uri": uri}})
	var folds []FoldingRange
	if err := json.Unmarshal(f.Result, &folds); err != nil || len(folds) > maxSymbols {
		t.Errorf("%d folds, %v", len(folds), err)
	}
}
