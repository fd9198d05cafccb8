package commands

import (
	"strings"
	"testing"
)

// wrapLine cuts at blanks within the width and indents what follows; 0 (not
// a terminal) keeps the line whole.
func TestWrapLine(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  []string
	}{
		{"a bb ccc dddd", 0, []string{"a bb ccc dddd"}},
		{"a bb ccc dddd", 20, []string{"a bb ccc dddd"}},
		{"a bb ccc dddd", 8, []string{"a bb ccc", "  dddd"}},
		{"a bb ccc dddd", 6, []string{"a bb", "  ccc", "  dddd"}},
		{"averyveryverylongword x", 6, []string{"averyveryverylongword", "  x"}},
	} {
		if got := wrapLine(c.in, c.width, "  "); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrapLine(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}
