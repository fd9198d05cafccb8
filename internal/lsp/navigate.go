package lsp

// This file answers the editor's questions about a document (hover,
// symbols, folding, definition) by asking the system that reads it
// (audit.Hoverer, audit.Navigator), from what its lint parsed; the
// answers come in lines and characters, turned here into the protocol's
// units. A system without them answers nothing.

import (
	"fmt"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
)

// at is a protocol position as aclint counts: line and character from 1.
func (an *analysis) at(pos Position) engine.Position {
	line, col := an.t.column(pos)
	return engine.Position{File: an.path, Line: line, Col: col}
}

// span is a system's span in the protocol's units.
func (an *analysis) span(s audit.Span) Range {
	return Range{an.t.pos(s.From.Line, s.From.Col), an.t.pos(s.To.Line, s.To.Col)}
}

// answers reports whether the document's system can be asked: it read
// the document, and kept what it parsed.
func (an *analysis) answers() bool {
	return an.sys != nil && an.failure == "" && an.parsed != nil
}

// hover is what the system says about the place under the cursor.
func (an *analysis) hover(pos Position) *Hover {
	h, ok := an.sys.(audit.Hoverer)
	if !ok || !an.answers() {
		return nil
	}
	hv, ok := safely(func() (audit.Hover, bool) { return h.Hover(an.parsed, an.at(pos)) })
	if !ok {
		return nil
	}
	r := an.span(audit.Span{From: hv.From, To: hv.To})
	return &Hover{Contents: MarkupContent{Kind: "markdown", Value: hv.Markdown}, Range: &r}
}

// symbols is the document's outline, as its system gives it.
func (an *analysis) symbols() []DocumentSymbol {
	an.outline.Do(func() { an.outlineSyms = an.buildSymbols() })
	return an.outlineSyms
}

func (an *analysis) buildSymbols() []DocumentSymbol {
	out := []DocumentSymbol{}
	n, ok := an.sys.(audit.Navigator)
	if !ok || !an.answers() {
		return out
	}
	syms, _ := safely(func() ([]audit.Symbol, bool) { return n.Symbols(an.parsed, an.path), true })
	left := maxSymbols
	for i, s := range syms {
		if left <= 0 {
			return append(out, an.notListed(syms[i:], syms[i-1]))
		}
		out = append(out, an.symbol(s, &left))
	}
	return out
}

// maxSymbols bounds an outline: a tree of 50,000 nodes, each with its
// entries, would be an answer many times the document's size (a 48.9 MB
// YTsaurus tree took the server past 4 GiB), and no one reads an outline
// that long. Past it, one last symbol counts what is not listed.
const maxSymbols = 10000

// symbolString is LSP's SymbolKind.String: the note is no part of the
// document's structure.
const symbolString = 15

// symbol converts s and its children while left lasts.
func (an *analysis) symbol(s audit.Symbol, left *int) DocumentSymbol {
	*left--
	d := DocumentSymbol{Name: s.Name, Detail: s.Detail, Kind: int(s.Kind), Range: an.span(s.Range), SelectionRange: an.span(s.Selection)}
	for _, c := range s.Children {
		if *left <= 0 {
			break
		}
		d.Children = append(d.Children, an.symbol(c, left))
	}
	return d
}

// notListed is the symbol that stands for rest, the symbols past the
// outline's bound, placed where the last one listed ends.
func (an *analysis) notListed(rest []audit.Symbol, last audit.Symbol) DocumentSymbol {
	n := 0
	var count func(audit.Symbol)
	count = func(s audit.Symbol) {
		n++
		for _, c := range s.Children {
			count(c)
		}
	}
	for _, s := range rest {
		count(s)
	}
	end := an.span(last.Range).End
	return DocumentSymbol{Name: fmt.Sprintf("%d more not listed", n), Detail: fmt.Sprintf("the outline lists the first %d symbols", maxSymbols),
		Kind: symbolString, Range: Range{end, end}, SelectionRange: Range{end, end}}
}

// folding folds each symbol that spans more than one line.
func (an *analysis) folding() []FoldingRange {
	out := []FoldingRange{}
	for _, s := range an.symbols() {
		out = appendFolds(out, s)
	}
	return out
}

func appendFolds(out []FoldingRange, s DocumentSymbol) []FoldingRange {
	if s.Range.End.Line > s.Range.Start.Line {
		out = append(out, FoldingRange{StartLine: s.Range.Start.Line, EndLine: s.Range.End.Line, Kind: "region"})
	}
	for _, c := range s.Children {
		out = appendFolds(out, c)
	}
	return out
}

// definition is where what is under the cursor is defined, in the same
// document.
func (an *analysis) definition(uri string, pos Position) []Location {
	out := []Location{}
	n, ok := an.sys.(audit.Navigator)
	if !ok || !an.answers() {
		return out
	}
	spans, _ := safely(func() ([]audit.Span, bool) { return n.Definition(an.parsed, an.at(pos)), true })
	for _, s := range spans {
		out = append(out, Location{URI: uri, Range: an.span(s)})
	}
	return out
}

// safely asks a system, turning a panic into no answer: a half-typed
// document must never end the session.
func safely[T any](ask func() (T, bool)) (v T, ok bool) {
	defer func() {
		if recover() != nil {
			var zero T
			v, ok = zero, false
		}
	}()
	return ask()
}
