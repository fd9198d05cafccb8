package mesos

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
)

// The editor's questions over an ACL file (audit.Navigator): what Lint
// parsed is the file read as Mesos reads it (engine.Report.Parsed).

// Symbols outlines the file: permissive, and each ACL kind with its
// entries, in the order written.
func (Sys) Symbols(p any, _ string) []audit.Symbol {
	a, ok := p.(*ACLs)
	if !ok || a.Doc.Root == nil {
		return nil
	}
	var out []audit.Symbol
	for _, m := range a.Doc.Root.Members() {
		span := a.Doc.span(m.KeyOff, a.Doc.end(m.Value))
		sel := a.Doc.span(m.KeyOff, m.KeyOff+len(m.Key)+2)
		sym := audit.Symbol{Name: m.Key, Kind: audit.SymbolNamespace, Range: span, Selection: sel}
		switch {
		case m.Key == "permissive":
			sym.Kind, sym.Detail = audit.SymbolProperty, fmt.Sprint(a.Permissive)
		case LookupKind(m.Key) != nil && a.KindKeys[m.Key] == m:
			entries := a.Lists[m.Key]
			sym.Detail = fmt.Sprintf("%d %s", len(entries), plural(len(entries), "entry", "entries"))
			for _, e := range entries {
				es := a.Doc.span(e.Node.Off, a.Doc.end(e.Node))
				sym.Children = append(sym.Children, audit.Symbol{Name: e.Name(), Detail: entryDetail(e), Kind: audit.SymbolField, Range: es, Selection: a.Doc.span(e.Node.Off, e.Node.Off+1)})
			}
		default:
			sym.Detail = "not an ACL kind: Mesos ignores it"
		}
		out = append(out, sym)
	}
	return out
}

// Hover explains the entry under the cursor: what it lets through or
// refuses, and how the local authorizer reads the list (the first
// matching entry decides, then permissive).
func (Sys) Hover(p any, at engine.Position) (audit.Hover, bool) {
	a, ok := p.(*ACLs)
	if !ok || a.Doc.Root == nil {
		return audit.Hover{}, false
	}
	off := a.Doc.offset(at)
	for _, k := range Kinds {
		for _, e := range a.Lists[k.Key] {
			end := a.Doc.end(e.Node)
			if off < e.Node.Off || off >= end {
				continue
			}
			var b strings.Builder
			fmt.Fprintf(&b, "**%s** (%s)\n\n", clikit.MDText(e.Name()), clikit.MDText(k.Message))
			fmt.Fprintf(&b, "- principals: %s\n", clikit.MDText(describe(e.Subject)))
			fmt.Fprintf(&b, "- %s: %s\n", k.Object, clikit.MDText(describe(e.Object)))
			fmt.Fprintf(&b, "\nMesos' local authorizer takes the first entry of %s whose principals and %s both match a request; when none does, permissive (%v) decides.\n", clikit.MDCode(k.Key), k.Object, a.Permissive)
			if e.Subject != nil && e.Subject.MatchesNothing() || e.Object != nil && e.Object.MatchesNothing() {
				b.WriteString("\nThis entry matches no request: an empty list of values is matched by nothing.\n")
			}
			span := a.Doc.span(e.Node.Off, end)
			return audit.Hover{Markdown: b.String(), From: span.From, To: span.To}, true
		}
	}
	if m := a.PermissiveNode; m != nil && off >= m.Off && off < a.Doc.end(m) {
		span := a.Doc.span(m.Off, a.Doc.end(m))
		return audit.Hover{Markdown: fmt.Sprintf("**permissive**: %v\n\nWhat a request that no entry of its kind matches gets.\n", a.Permissive), From: span.From, To: span.To}, true
	}
	return audit.Hover{}, false
}

// Definition: an ACL file names nothing defined elsewhere in it.
func (Sys) Definition(any, engine.Position) []audit.Span { return nil }

func describe(e *Entity) string {
	if e == nil {
		return "missing: Mesos refuses to start"
	}
	return e.Describe()
}

func entryDetail(e *Entry) string {
	return fmt.Sprintf("%s: %s", e.Kind.Object, describe(e.Object))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// span is the positions of a byte range.
func (d *Document) span(from, to int) audit.Span {
	return audit.Span{From: d.Pos(from), To: d.Pos(to)}
}

// offset is the byte offset of a position (lines and columns from 1, a
// column counting characters).
func (d *Document) offset(at engine.Position) int {
	if at.Line < 1 || at.Line > len(d.starts) {
		return -1
	}
	off := d.starts[at.Line-1]
	for col := 1; col < at.Col && off < len(d.text) && d.text[off] != '\n'; col++ {
		_, size := utf8.DecodeRuneInString(d.text[off:])
		off += size
	}
	return off
}

// end is the offset just past the JSON value that starts at v.Off.
func (d *Document) end(v *Value) int {
	s := d.text
	i := v.Off
	if i >= len(s) {
		return len(s)
	}
	switch s[i] {
	case '"':
		for i++; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return len(s)
	case '{', '[':
		depth := 0
		for ; i < len(s); i++ {
			switch s[i] {
			case '"':
				for i++; i < len(s) && s[i] != '"'; i++ {
					if s[i] == '\\' {
						i++
					}
				}
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return len(s)
	}
	for i < len(s) && !strings.ContainsRune(",}] \t\r\n", rune(s[i])) {
		i++
	}
	return i
}
