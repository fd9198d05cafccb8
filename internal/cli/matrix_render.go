package cli

// This file renders audit.Matrixer's matrix once for every system: CSV and
// JSON row by row, and text as a grid in blocks of columns that fit the
// width, or as a list of who has access where.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/progress"
)

// matrixAsk is what a matrix is asked with: the question and the text
// layout.
type matrixAsk struct {
	q      audit.MatrixQuestion
	only   bool
	output string
	layout string
	width  int
}

// askMatrix answers matrix through a system's audit.Matrixer.
func askMatrix(s *streams, q *asked, ask matrixAsk) error {
	mx, err := capability[audit.Matrixer](q, "matrix")
	if err != nil {
		return err
	}
	m, err := q.load()
	if err != nil {
		return err
	}
	out, end := newMatrixOut(s, ask)
	if err := mx.Matrix(m, ask.q, out); err != nil {
		end()
		var u *audit.UsageError
		if errors.As(err, &u) {
			return clikit.Usage("%s: %w", q.sys.Name(), err)
		}
		return answerErr(err)
	}
	return end()
}

// newMatrixOut renders a matrix as ask says, on standard output; end
// finishes it, and is exit 2 when a cell is not known.
func newMatrixOut(s *streams, ask matrixAsk) (out audit.MatrixWriter, end func() error) {
	w := bufio.NewWriter(s.out)
	col := &matrixCollect{ask: ask, w: w, width: clikit.TerminalWidth(ask.width)}
	out = col
	switch ask.output {
	case "csv":
		out = &matrixCSVOut{collect: col}
	case "json":
		out = &matrixJSONOut{collect: col, js: &clikit.Stream{W: w}}
	}
	return out, func() error {
		var err error
		switch o := out.(type) {
		case *matrixCSVOut:
		case *matrixJSONOut:
			if o.js.Started() {
				err = o.js.Close()
			}
		default:
			err = col.writeText()
		}
		if ferr := w.Flush(); err == nil {
			err = ferr
		}
		if err != nil {
			return clikit.Usage("writing output: %w", err)
		}
		if col.unknown {
			return &clikit.ExitError{Code: ExitUsage, Err: errors.New("the matrix is not complete: an answer on the way is not known (marked ?)")}
		}
		return nil
	}
}

// matrixCollect keeps what every format needs: the head, whether a cell
// is not known, and for the text grid, which aligns its columns, the
// rows; the text list is written as the rows come.
type matrixCollect struct {
	ask     matrixAsk
	w       *bufio.Writer
	width   int
	head    audit.MatrixHead
	rows    []audit.MatrixRow
	unknown bool
	// list: the text is the list layout, streamed
	list  bool
	grows growing
	// last are the cells of the row before and whether they had access:
	// most objects write no rule and repeat the row before them
	last    []string
	lastAny bool
	changed bool // the last row kept had other cells than the one before
	headed  bool // the head was given
	codes   codeTable
}

// cellsOf is a row's cells as words: a row given as codes is looked up
// (into a buffer the next row reuses).
func (c *matrixCollect) cellsOf(r audit.MatrixRow) []string {
	if r.Codes == nil {
		return r.Cells
	}
	k := &c.codes
	k.cells = k.cells[:0]
	for _, code := range r.Codes {
		k.cells = append(k.cells, k.word[code])
	}
	return k.cells
}

func (c *matrixCollect) Head(h audit.MatrixHead) error {
	c.head, c.headed = h, true
	c.codes.set(h)
	c.list = c.ask.layout == "list" || c.ask.layout == "auto" && gridBlocks(h.Subjects, c.width-40) > clikit.MaxGridBlocks
	if !c.list {
		return nil
	}
	for _, l := range h.Preamble {
		engine.Fprintf(c.w, "%s\n", l)
	}
	c.listHead()
	return nil
}

// keep reports whether --only-access keeps a row, noting a cell not known.
func (c *matrixCollect) keep(r audit.MatrixRow) bool {
	progress.Answered()
	if r.Codes != nil {
		k := &c.codes
		if k.last == nil || !r.Same && !bytes.Equal(k.last, r.Codes) {
			c.changed = true
			k.last = append(k.last[:0], r.Codes...)
			c.lastAny = false
			for _, code := range r.Codes {
				c.unknown = c.unknown || k.unknown[code]
				c.lastAny = c.lastAny || k.access[code]
			}
		}
		return c.lastAny || !c.ask.only
	}
	if c.last == nil || !r.Same && !slices.Equal(c.last, r.Cells) {
		c.changed = true
		c.last = append(c.last[:0], r.Cells...)
		c.lastAny = false
		for _, cell := range r.Cells {
			c.unknown = c.unknown || cell == audit.UnknownCell
			c.lastAny = c.lastAny || cell != audit.NoAccess
		}
	}
	return c.lastAny || !c.ask.only
}

// Row writes a row of the text list, or keeps a copy for the grid (the
// writer of rows may reuse their cells).
func (c *matrixCollect) Row(r audit.MatrixRow) error {
	if !c.keep(r) {
		return nil
	}
	if c.list {
		c.listRow(r)
		return nil
	}
	r.Cells, r.Codes = slices.Clone(c.cellsOf(r)), nil
	c.rows = append(c.rows, r)
	return nil
}

// label is a row's name in text: its section and object.
func (c *matrixCollect) label(r audit.MatrixRow) string {
	switch {
	case r.Section == "":
		return r.Object
	case c.head.Joiner != "":
		return r.Section + c.head.Joiner + r.Object
	}
	return r.Section + "/" + r.Object
}

// writeText ends the text: the grid, now that every row is known, and
// the notes.
func (c *matrixCollect) writeText() error {
	w, width, names := c.w, c.width, c.head.Subjects
	if !c.headed {
		return nil // no head: the system refused the question, nothing is said
	}
	if c.list {
		return c.writeNotes(w)
	}
	for _, l := range c.head.Preamble {
		engine.Fprintf(w, "%s\n", l)
	}
	qw := len(c.head.ObjectWord)
	for _, r := range c.rows {
		qw = max(qw, len(c.label(r)))
	}
	// a column is as wide as its name and its widest cell ("admin,
	// stopped" is wider than most names)
	colw := make([]int, len(names))
	for i, n := range names {
		colw[i] = max(len(n), 6)
		for _, r := range c.rows {
			if i < len(r.Cells) {
				colw[i] = max(colw[i], len(r.Cells[i]))
			}
		}
	}
	for start := 0; start < len(names) || start == 0; {
		end, used := start, qw+2
		for end < len(names) && (end == start || used+colw[end]+2 <= width) {
			used += colw[end] + 2
			end++
		}
		var line strings.Builder
		engine.Fprintf(&line, "%-*s", qw+2, strings.ToUpper(c.head.ObjectWord))
		for i, n := range names[start:end] {
			engine.Fprintf(&line, "%-*s", colw[start+i]+2, n)
		}
		fmt.Fprintln(w, engine.Printable(strings.TrimRight(line.String(), " ")))
		for _, r := range c.rows {
			line.Reset()
			engine.Fprintf(&line, "%-*s", qw+2, c.label(r))
			for i := start; i < end; i++ {
				engine.Fprintf(&line, "%-*s", colw[i]+2, r.Cells[i])
			}
			fmt.Fprintln(w, engine.Printable(strings.TrimRight(line.String(), " ")))
		}
		if end >= len(names) {
			break
		}
		fmt.Fprintln(w)
		start = end
	}
	return c.writeNotes(w)
}

func (c *matrixCollect) writeNotes(w *bufio.Writer) error {
	var b strings.Builder
	audit.WriteNotes(&b, c.head.Notes)
	_, err := w.WriteString(b.String())
	return err
}

// gridBlocks is how many blocks of columns a grid of these names splits
// into at this width.
func gridBlocks(names []string, width int) int {
	blocks := 0
	for start := 0; start < len(names); {
		end, used := start, 0
		for end < len(names) && (end == start || used+max(len(names[end]), 6)+2 <= width) {
			used += max(len(names[end]), 6) + 2
			end++
		}
		blocks++
		start = end
	}
	return blocks
}
