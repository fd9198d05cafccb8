package commands

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"

	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

// writeMatrixText prints the matrix as a grid in blocks of columns that fit
// width (the queue column repeats in each block), or, when the grid would
// not fit in maxGridBlocks blocks or --layout list asks for it, as a list:
// one line per queue with the subjects that gain access there, which is all
// of them at the first queue shown and, below it, only what the queue's
// own ACLs add (YuniKorn has no deny: access only grows down the tree).
func writeMatrixText(s *streams, w *bufio.Writer, rows func(func(part, queue string, cells []acl.Cell) error) error, names []string, width int, layout string) error {
	blocks := 0
	for start := 0; start < len(names); {
		end, used := start, 0
		for end < len(names) && (end == start || used+max(len(names[end]), 6)+2 <= width-40) {
			used += max(len(names[end]), 6) + 2
			end++
		}
		blocks++
		start = end
	}
	if layout == "list" || layout == "auto" && blocks > clikit.MaxGridBlocks {
		return writeMatrixList(w, rows, names)
	}
	return writeMatrixGrid(s, w, rows, names, width)
}

// writeMatrixList is the list layout of writeMatrixText.
func writeMatrixList(w *bufio.Writer, rows func(func(part, queue string, cells []acl.Cell) error) error, names []string) error {
	engine.Fprintf(w, "%d subjects, one line per queue: who gains admin (and submit) or submit there; a queue with nothing new has what its parent has\n", len(names))
	type level struct {
		queue string
		cells []acl.Cell
	}
	var stack []level // the shown ancestors of the current queue
	var admin, submit []string
	return rows(func(part, queue string, cells []acl.Cell) error {
		path := part + "/" + queue
		for len(stack) > 0 && !strings.HasPrefix(path, stack[len(stack)-1].queue+".") {
			stack = stack[:len(stack)-1]
		}
		var parent []acl.Cell
		if len(stack) > 0 {
			parent = stack[len(stack)-1].cells
		}
		admin, submit = admin[:0], submit[:0]
		for i, c := range cells {
			if parent != nil && parent[i] >= c {
				continue
			}
			switch c {
			case acl.SubmitAdmin:
				admin = append(admin, names[i])
			case acl.SubmitOnly:
				submit = append(submit, names[i])
			}
		}
		stack = append(stack, level{path, append([]acl.Cell(nil), cells...)})
		what := "no one"
		if parent != nil {
			what = "nothing new"
		}
		if len(admin)+len(submit) > 0 {
			var parts []string
			if len(admin) > 0 {
				parts = append(parts, "admin: "+strings.Join(admin, ", "))
			}
			if len(submit) > 0 {
				parts = append(parts, "submit: "+strings.Join(submit, ", "))
			}
			what = strings.Join(parts, "; ")
		}
		_, err := engine.Fprintf(w, "%s  %s\n", engine.Printable(path), engine.Printable(what))
		return err
	})
}

// writeMatrixGrid is the grid layout of writeMatrixText: the rows in the
// neutral shape, in the grid every system's matrix has.
func writeMatrixGrid(s *streams, w *bufio.Writer, emitRows func(func(part, queue string, cells []acl.Cell) error) error, names []string, width int) error {
	if len(names) == 1 {
		fmt.Fprintln(w, "no ACL names a user or a group, so only everyone (\"*\") has a column; add columns with --subjects")
	}
	if err := w.Flush(); err != nil {
		return err
	}
	out, end := s.env.Matrix("text", "grid", width, false)
	if err := out.Head(audit.MatrixHead{Subjects: names, ObjectWord: "queue"}); err != nil {
		end()
		return err
	}
	if err := emitRows(func(part, queue string, cells []acl.Cell) error {
		row := audit.MatrixRow{Section: part, Object: queue, Cells: make([]string, len(cells))}
		for i, c := range cells {
			row.Cells[i] = c.String()
		}
		return out.Row(row)
	}); err != nil {
		end()
		return err
	}
	return end()
}
