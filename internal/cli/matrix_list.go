package cli

import (
	"slices"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
)

// growing is the state of the list layout of a matrix whose access only
// grows down a path: the listed ancestors of the current object, each
// with its cells' ranks (their place in MatrixHead.Grows).
type growing struct {
	stack    []grownLevel
	ranks    []int8    // the current row's
	codeRank [256]int8 // each code's rank, for rows given as codes
}

type grownLevel struct {
	path  string
	ranks []int8
}

// rank is a cell word's place in MatrixHead.Grows, found by a look along
// its few words; a word it does not list is the least access.
func (c *matrixCollect) rank(word string) int8 {
	for i, w := range c.head.Grows {
		if w == word {
			return int8(i)
		}
	}
	return 0
}

// listHead opens the list layout: one line per object, written as the
// rows come.
func (c *matrixCollect) listHead() {
	names := c.head.Subjects
	if c.head.Grows == nil {
		engine.Fprintf(c.w, "%d subjects, one line per %s: who has what there (%s)\n", len(names), c.head.ObjectWord, c.head.Legend)
		return
	}
	engine.Fprintf(c.w, "%d subjects, one line per %s: who gains %s there; a %s with nothing new has what its parent has\n", len(names), c.head.ObjectWord, c.head.Legend, c.head.ObjectWord)
	for i := range c.grows.codeRank {
		c.grows.codeRank[i] = c.rank(c.codes.word[i])
	}
}

// listRow is one object's line of the list layout: who has what there,
// grouped by the cell's word; or, when access only grows down a path,
// what it adds to the nearest object above it that was listed, the most
// access first.
func (c *matrixCollect) listRow(r audit.MatrixRow) {
	if c.head.Grows != nil {
		c.growRow(r)
		return
	}
	names := c.head.Subjects
	var parts []string
	seen := map[string]int{}
	for i, cell := range c.cellsOf(r) {
		if cell == audit.NoAccess {
			continue
		}
		if _, ok := seen[cell]; !ok {
			seen[cell] = len(parts)
			parts = append(parts, cell+":")
		}
		parts[seen[cell]] += " " + names[i] + ","
	}
	what := "no one"
	if len(parts) > 0 {
		for i := range parts {
			parts[i] = strings.TrimSuffix(parts[i], ",")
		}
		what = strings.Join(parts, "; ")
	}
	c.writeLine(c.label(r), what)
}

// writeLine writes an object's line of the list layout, wrapped at the
// terminal's width (or --width) after a comma, each further line indented:
// 361 subjects are a paragraph, not one line of 5,000 characters.
func (c *matrixCollect) writeLine(label, what string) {
	label, what = engine.Printable(label), engine.Printable(what)
	width := max(c.width, 40)
	line := label + "  "
	for len(what) > 0 {
		room := width - len(line)
		cut := len(what)
		if len(line)+len(what) > width {
			// the last ", " that fits; else the first one there is
			cut = strings.LastIndex(what[:max(min(room, len(what)), 0)], ", ")
			if cut <= 0 {
				if cut = strings.Index(what, ", "); cut < 0 {
					cut = len(what)
				}
			}
			if cut < len(what) {
				cut++ // keep the comma on this line
			}
		}
		engine.Fprintf(c.w, "%s%s\n", line, strings.TrimRight(what[:cut], " "))
		what = strings.TrimLeft(what[cut:], " ")
		line = "    "
	}
}

func (c *matrixCollect) growRow(r audit.MatrixRow) {
	g, names, sep := &c.grows, c.head.Subjects, c.head.PathSep
	path := c.label(r)
	for len(g.stack) > 0 && !strings.HasPrefix(path, g.stack[len(g.stack)-1].path+sep) {
		g.stack = g.stack[:len(g.stack)-1]
	}
	if !r.Same || g.ranks == nil {
		g.ranks = g.ranks[:0]
		for _, code := range r.Codes {
			g.ranks = append(g.ranks, g.codeRank[code])
		}
		for _, cell := range r.Cells {
			g.ranks = append(g.ranks, c.rank(cell))
		}
	}
	var parent []int8
	if len(g.stack) > 0 {
		parent = g.stack[len(g.stack)-1].ranks
	}
	gains := make([][]string, len(c.head.Grows))
	for i, k := range g.ranks {
		if k > 0 && (parent == nil || parent[i] < k) {
			if len(gains[k]) == 1 && gains[k][0] == audit.Everyone {
				continue // access only grows: everyone's says every subject's
			}
			gains[k] = append(gains[k], names[i])
		}
	}
	g.stack = append(g.stack, grownLevel{path, slices.Clone(g.ranks)})
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
	c.writeLine(path, what)
}
