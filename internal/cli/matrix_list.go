package cli

import (
	"bufio"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
)

// writeList is the list layout of a matrix: each object with who has
// what there, grouped by the cell's word.
func (c *matrixCollect) writeList(w *bufio.Writer) {
	names := c.head.Subjects
	engine.Fprintf(w, "%d subjects, one line per %s: who has what there (%s)\n", len(names), c.head.ObjectWord, c.head.Legend)
	for _, r := range c.rows {
		var parts []string
		seen := map[string]int{}
		var words []string
		for i, cell := range r.Cells {
			if cell == audit.NoAccess {
				continue
			}
			if _, ok := seen[cell]; !ok {
				seen[cell] = len(words)
				words = append(words, cell)
				parts = append(parts, cell+":")
			}
			k := seen[cell]
			parts[k] += " " + names[i] + ","
		}
		what := "no one"
		if len(parts) > 0 {
			for i := range parts {
				parts[i] = strings.TrimSuffix(parts[i], ",")
			}
			what = strings.Join(parts, "; ")
		}
		engine.Fprintf(w, "%s  %s\n", engine.Printable(c.label(r)), engine.Printable(what))
	}
}

// writeGrowing is the list layout of a matrix whose access only grows
// down a path: each object with what it adds to the nearest object above
// it that was listed, the most access first.
func (c *matrixCollect) writeGrowing(w *bufio.Writer) {
	names, sep := c.head.Subjects, c.head.PathSep
	engine.Fprintf(w, "%d subjects, one line per %s: who gains %s there; a %s with nothing new has what its parent has\n", len(names), c.head.ObjectWord, c.head.Legend, c.head.ObjectWord)
	rank := map[string]int{}
	for i, word := range c.head.Grows {
		rank[word] = i
	}
	type level struct {
		path  string
		cells []string
	}
	var stack []level // the listed ancestors of the current object
	for _, r := range c.rows {
		path := c.label(r)
		for len(stack) > 0 && !strings.HasPrefix(path, stack[len(stack)-1].path+sep) {
			stack = stack[:len(stack)-1]
		}
		var parent []string
		if len(stack) > 0 {
			parent = stack[len(stack)-1].cells
		}
		gains := make([][]string, len(c.head.Grows))
		for i, cell := range r.Cells {
			if parent != nil && rank[parent[i]] >= rank[cell] {
				continue
			}
			if cell != audit.NoAccess {
				gains[rank[cell]] = append(gains[rank[cell]], names[i])
			}
		}
		stack = append(stack, level{path, r.Cells})
		what := "no one"
		if parent != nil {
			what = "nothing new"
		}
		var parts []string
		for k := len(gains) - 1; k >= 0; k-- {
			if len(gains[k]) > 0 {
				parts = append(parts, c.head.Grows[k]+": "+strings.Join(gains[k], ", "))
			}
		}
		if len(parts) > 0 {
			what = strings.Join(parts, "; ")
		}
		engine.Fprintf(w, "%s  %s\n", engine.Printable(path), engine.Printable(what))
	}
}
