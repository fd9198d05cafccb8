package config

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// TestSplitLines checks both paths of splitLines: the fast one for text
// broken by \n alone and the general one for \r, \r\n, NEL, LS and PS,
// which yaml.v3 also counts as line breaks.
func TestSplitLines(t *testing.T) {
	for _, tc := range []struct {
		in    string
		lines []string
	}{
		{"", []string{""}},
		{"a", []string{"a"}},
		{"a\n", []string{"a", ""}},
		{"a\nb\n\nc", []string{"a", "b", "", "c"}},
		{"a\r\nb\rc\n", []string{"a", "b", "c", ""}},
		{"a\u0085b\u2028c\u2029d", []string{"a", "b", "c", "d"}},
		{"é\nü", []string{"é", "ü"}},
	} {
		lines, starts := splitLines(tc.in)
		if !slices.Equal(lines, tc.lines) {
			t.Errorf("splitLines(%q) = %q, want %q", tc.in, lines, tc.lines)
		}
		for i, l := range lines {
			if !strings.HasPrefix(tc.in[starts[i]:], l) {
				t.Errorf("splitLines(%q): line %d starts at %d, not at %q", tc.in, i, starts[i], l)
			}
		}
	}
}

// TestSplitLinesOffsets holds splitLines, whose offsets are now worked out
// from the lines, to a plain scan that records each line's start as it
// goes, on random text made of every line break yaml.v3 counts.
func TestSplitLinesOffsets(t *testing.T) {
	scan := func(s string) (lines []string, starts []int) {
		start := 0
		for i := 0; i < len(s); {
			if w := breakWidth(s, i); w > 0 {
				lines, starts = append(lines, s[start:i]), append(starts, start)
				i += w
				start = i
				continue
			}
			i++
		}
		return append(lines, s[start:]), append(starts, start)
	}
	parts := []string{"a", "é", "\n", "\r", "\r\n", "\u0085", "\u2028", "\u2029", "\n\n", "\r\r\n"}
	r := rand.New(rand.NewSource(7))
	for n := 0; n < 3000; n++ {
		var b strings.Builder
		for i := r.Intn(12); i > 0; i-- {
			b.WriteString(parts[r.Intn(len(parts))])
		}
		s := b.String()
		lines, starts := splitLines(s)
		wantLines, wantStarts := scan(s)
		if !slices.Equal(lines, wantLines) || !slices.Equal(starts, wantStarts) {
			t.Fatalf("splitLines(%q) = %q %v, want %q %v", s, lines, starts, wantLines, wantStarts)
		}
	}
}
