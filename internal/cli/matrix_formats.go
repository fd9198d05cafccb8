package cli

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
)

// This file writes a matrix as CSV and JSON, row by row, and looks up the
// cells of a matrix given as codes (audit.MatrixHead.Words).

// codeTable is what a matrix given as codes (MatrixHead.Words) needs of
// each code, looked up by it: a code past the words is a cell not known.
type codeTable struct {
	word, field     [256]string
	access, unknown [256]bool
	last            []uint8 // the codes of the row before
	cells           []string
}

func (k *codeTable) set(h audit.MatrixHead) {
	for i := range k.word {
		w := audit.UnknownCell
		if i < len(h.Words) {
			w = h.Words[i]
		}
		var b strings.Builder
		writeCSVField(&b, w)
		k.word[i], k.field[i] = w, b.String()
		k.access[i], k.unknown[i] = w != audit.NoAccess, w == audit.UnknownCell
	}
}

// matrixCSVOut writes the matrix as CSV, row by row: a row's cells are
// rendered again only when they differ from the row before's, which keeps
// a large matrix bound by writing.
type matrixCSVOut struct {
	*collect
	tail  []byte      // the cells of the last row written, rendered
	words [][2]string // cell words and their fields
}

type collect = matrixCollect

func (o *matrixCSVOut) Head(h audit.MatrixHead) error {
	o.collect.head = h
	o.codes.set(h)
	o.line(append([]string{csvWord(h.SectionWord), csvWord(h.ObjectWord)}, h.Subjects...))
	return nil
}

func (o *matrixCSVOut) Row(r audit.MatrixRow) error {
	o.changed = false
	if !o.keep(r) {
		return nil
	}
	w := o.w
	writeCSVField(w, r.Section)
	w.WriteByte(',')
	writeCSVField(w, r.Object)
	if o.changed || o.tail == nil {
		o.tail = o.tail[:0]
		for _, code := range r.Codes {
			o.tail = append(o.tail, ',')
			o.tail = append(o.tail, o.codes.field[code]...)
		}
		for _, cell := range r.Cells {
			o.tail = append(o.tail, ',')
			o.tail = append(o.tail, o.cell(cell)...)
		}
		o.tail = append(o.tail, '\n')
	}
	_, err := w.Write(o.tail)
	return err
}

// cell is a cell's word as a CSV field: the few words a system's cells
// take are rendered once each, and found again by a look along them.
func (o *matrixCSVOut) cell(word string) string {
	for _, w := range o.words {
		if w[0] == word {
			return w[1]
		}
	}
	var b strings.Builder
	writeCSVField(&b, word)
	if len(o.words) < 16 {
		o.words = append(o.words, [2]string{word, b.String()})
	}
	return b.String()
}

// line writes one CSV record.
func (o *matrixCSVOut) line(fields []string) {
	for i, f := range fields {
		if i > 0 {
			o.w.WriteByte(',')
		}
		writeCSVField(o.w, f)
	}
	o.w.WriteByte('\n')
}

// writeCSVField writes a field made printable, quoted as encoding/csv
// quotes it: when it holds a comma, a quote or a line break, or starts
// with a blank.
func writeCSVField(w interface {
	WriteString(string) (int, error)
	WriteByte(byte) error
}, f string) {
	f = engine.Printable(f)
	first, _ := utf8.DecodeRuneInString(f)
	if f == "" || f != `\.` && !strings.ContainsAny(f, ",\"\r\n") && !unicode.IsSpace(first) {
		w.WriteString(f)
		return
	}
	w.WriteByte('"')
	w.WriteString(strings.ReplaceAll(f, `"`, `""`))
	w.WriteByte('"')
}

// matrixJSONOut streams matrix's one JSON shape (docs/audits.md).
type matrixJSONOut struct {
	*collect
	js *clikit.Stream
}

func (o *matrixJSONOut) Head(h audit.MatrixHead) error {
	o.collect.head = h
	o.codes.set(h)
	o.js.Open("rows", "system", h.System, "subjects", h.Subjects, "notes", clikit.NonNil(h.Notes))
	return o.js.Err()
}

func (o *matrixJSONOut) Row(r audit.MatrixRow) error {
	if !o.keep(r) {
		return nil
	}
	o.js.Item(clikit.Object{{Key: "section", Value: r.Section}, {Key: "object", Value: r.Object}, {Key: "cells", Value: o.cellsOf(r)}})
	return o.js.Err()
}
