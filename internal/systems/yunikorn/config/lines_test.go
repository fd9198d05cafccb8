package config

import (
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
