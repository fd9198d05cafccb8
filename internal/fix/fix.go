// Package fix applies lint fixes to files byte for byte and shows them as
// unified diffs. Every fix edits text within one line; everything outside
// the edited spans stays exactly as it was.
package fix

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/aclint/aclint/internal/engine"
)

// Apply returns src with the edits applied. Edits that overlap an earlier
// one (two fixes of the same value) are left for the next round; the number
// applied is returned.
func Apply(src []byte, edits []engine.Edit) ([]byte, int) {
	type span struct {
		from, to int
		text     string
	}
	starts := lineStarts(src)
	var spans []span
	for _, e := range edits {
		from, ok1 := offset(src, starts, e.Start)
		to, ok2 := offset(src, starts, e.End)
		if !ok1 || !ok2 || to < from {
			continue
		}
		spans = append(spans, span{from, to, e.New})
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].from < spans[j].from })
	var out []byte
	last, applied := 0, 0
	for _, s := range spans {
		if s.from < last {
			continue // overlaps an edit already taken
		}
		out = append(out, src[last:s.from]...)
		out = append(out, s.text...)
		last = s.to
		applied++
	}
	return append(out, src[last:]...), applied
}

func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// offset converts a 1-based line and character column into a byte offset.
func offset(src []byte, starts []int, p engine.Position) (int, bool) {
	if p.Line < 1 || p.Line > len(starts) {
		return 0, false
	}
	i := starts[p.Line-1]
	for col := 1; col < p.Col; col++ {
		if i >= len(src) || src[i] == '\n' {
			return 0, false
		}
		_, size := utf8.DecodeRune(src[i:])
		i += size
	}
	return i, true
}

// Diff returns a unified diff from old to new, with three lines of context.
// Fixes never add or remove lines, but the diff handles any change of the
// same number of lines, and falls back to whole-file hunks otherwise.
func Diff(name string, old, new []byte) string {
	if string(old) == string(new) {
		return ""
	}
	a, b := strings.SplitAfter(string(old), "\n"), strings.SplitAfter(string(new), "\n")
	var b2 strings.Builder
	fmt.Fprintf(&b2, "--- a/%s\n+++ b/%s\n", name, name)
	if len(a) != len(b) {
		writeHunk(&b2, a, b, 0, len(a), 0, len(b))
		return b2.String()
	}
	const context = 3
	var changed []int
	for i := range a {
		if a[i] != b[i] {
			changed = append(changed, i)
		}
	}
	for k := 0; k < len(changed); {
		from := max(changed[k]-context, 0)
		to := changed[k] + context + 1
		k++
		for k < len(changed) && changed[k]-context <= to {
			to = changed[k] + context + 1
			k++
		}
		to = min(to, len(a))
		writeHunk(&b2, a, b, from, to, from, to)
	}
	return b2.String()
}

func writeHunk(w *strings.Builder, a, b []string, af, at, bf, bt int) {
	// drop the empty string SplitAfter leaves after a final newline
	if at == len(a) && at > af && a[at-1] == "" {
		at--
	}
	if bt == len(b) && bt > bf && b[bt-1] == "" {
		bt--
	}
	fmt.Fprintf(w, "@@ -%d,%d +%d,%d @@\n", af+1, at-af, bf+1, bt-bf)
	if at-af == bt-bf {
		for i := 0; i < at-af; i++ {
			if a[af+i] == b[bf+i] {
				writeLine(w, " ", a[af+i])
			} else {
				writeLine(w, "-", a[af+i])
				writeLine(w, "+", b[bf+i])
			}
		}
		return
	}
	for _, l := range a[af:at] {
		writeLine(w, "-", l)
	}
	for _, l := range b[bf:bt] {
		writeLine(w, "+", l)
	}
}

func writeLine(w *strings.Builder, prefix, l string) {
	w.WriteString(prefix)
	w.WriteString(l)
	if !strings.HasSuffix(l, "\n") {
		w.WriteString("\n\\ No newline at end of file\n")
	}
}

// Linter lints the content of one file and returns the findings it would
// report: suppressions and settings already applied.
type Linter func(content []byte) ([]engine.Finding, error)

// Result is what fixing one file did.
type Result struct {
	Content []byte
	Applied int
	// Left are the findings of the fixed content: those without a fix, and
	// unsafe fixes that were not asked for.
	Left []engine.Finding
}

// File fixes content until no fix it may apply is left (at most ten rounds,
// as fixes of one value are applied one round at a time). Safe fixes keep
// YuniKorn's reading of every ACL; unsafe ones (Finding.Unsafe) change who
// has access and are applied only when unsafe is true.
func File(content []byte, run Linter, unsafe bool) (Result, error) {
	res := Result{Content: content}
	for round := 0; round < 10; round++ {
		findings, err := run(res.Content)
		if err != nil {
			return Result{}, err
		}
		res.Left = findings
		var edits []engine.Edit
		for _, f := range findings {
			if f.Fix != nil && (unsafe || f.Unsafe == "") {
				edits = append(edits, *f.Fix)
			}
		}
		if len(edits) == 0 {
			break
		}
		next, n := Apply(res.Content, edits)
		if n == 0 || string(next) == string(res.Content) {
			break
		}
		res.Content, res.Applied = next, res.Applied+n
		if round == 9 {
			if res.Left, err = run(res.Content); err != nil {
				return Result{}, err
			}
		}
	}
	return res, nil
}
