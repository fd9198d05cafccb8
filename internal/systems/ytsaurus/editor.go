package ytsaurus

import (
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
)

// The editor's questions over a tree document (audit.Navigator): what
// Lint parsed is the tree as the master would hold it
// (engine.Report.Parsed).

// Symbols outlines the document: its users and groups, then each node
// with its ACEs.
func (Sys) Symbols(p any, _ string) []audit.Symbol {
	t, ok := p.(*Tree)
	if !ok || t.Doc.Root == nil {
		return nil
	}
	var out []audit.Symbol
	for _, s := range t.Dir.Subjects() {
		if s.Builtin || s.At.Line == 0 {
			continue
		}
		kind, what := audit.SymbolClass, "user"
		if s.Group {
			kind, what = audit.SymbolPackage, "group"
		}
		if len(s.MemberOf) > 0 {
			what += ", member of " + strings.Join(s.MemberOf, ", ")
		}
		span := t.word(s.At, s.Name)
		out = append(out, audit.Symbol{Name: s.Name, Detail: what, Kind: kind, Range: span, Selection: span})
	}
	for _, n := range t.Order {
		if n.At.Line == 0 {
			continue
		}
		sel := t.word(n.At, n.Path)
		sym := audit.Symbol{Name: n.Path, Kind: audit.SymbolNamespace, Detail: fmt.Sprintf("%d %s, inherit_acl %v", len(n.ACL), plural(len(n.ACL), "ACE", "ACEs"), n.Inherit), Range: sel, Selection: sel}
		for _, a := range n.ACL {
			span := t.word(a.At, "-")
			sym.Children = append(sym.Children, audit.Symbol{Name: fmt.Sprintf("ACE #%d", a.Index), Detail: aceDetail(a), Kind: audit.SymbolField, Range: span, Selection: span})
			sym.Range = cover(sym.Range, span)
		}
		out = append(out, sym)
	}
	return out
}

// Hover explains a subject named in an ACE (who it is, whom it reaches)
// or a node's key (its ACEs and inheritance).
func (Sys) Hover(p any, at engine.Position) (audit.Hover, bool) {
	t, ok := p.(*Tree)
	if !ok || t.Doc.Root == nil {
		return audit.Hover{}, false
	}
	if s, span, ok := t.subjectAt(at); ok {
		return audit.Hover{Markdown: subjectText(s), From: span.From, To: span.To}, true
	}
	for _, n := range t.Order {
		if span := t.word(n.At, n.Path); n.At.Line == at.Line && inSpan(span, at) {
			var b strings.Builder
			fmt.Fprintf(&b, "**%s**\n\n", clikit.MDText(n.Path))
			if n.Inherit {
				b.WriteString("Inherits its parent's ACEs (inherit_acl true): its effective ACL is theirs, then its own.\n")
			} else {
				b.WriteString("Does not inherit (inherit_acl false): only its own ACEs apply.\n")
			}
			for _, a := range n.ACL {
				fmt.Fprintf(&b, "- ACE #%d: %s\n", a.Index, clikit.MDText(aceDetail(a)))
			}
			if n.Owner != "" {
				fmt.Fprintf(&b, "- owner: %s\n", clikit.MDText(n.Owner))
			}
			return audit.Hover{Markdown: b.String(), From: span.From, To: span.To}, true
		}
	}
	return audit.Hover{}, false
}

// Definition goes from a subject named in an ACE to where the document
// defines it.
func (Sys) Definition(p any, at engine.Position) []audit.Span {
	t, ok := p.(*Tree)
	if !ok || t.Doc.Root == nil {
		return nil
	}
	s, _, ok := t.subjectAt(at)
	if !ok || s.At.Line == 0 {
		return nil
	}
	return []audit.Span{t.word(s.At, s.Name)}
}

// subjectAt is the subject an ACE names at the position.
func (t *Tree) subjectAt(at engine.Position) (*Subject, audit.Span, bool) {
	for _, n := range t.Order {
		for _, a := range n.ACL {
			for i, name := range a.Subjects {
				if i >= len(a.SubjectsAt) {
					break
				}
				span := t.word(a.SubjectsAt[i], name)
				if a.SubjectsAt[i].Line == at.Line && inSpan(span, at) {
					if s := t.Dir.Lookup(name); s != nil {
						return s, span, true
					}
				}
			}
		}
	}
	return nil, audit.Span{}, false
}

func subjectText(s *Subject) string {
	var b strings.Builder
	what := "user"
	if s.Group {
		what = "group"
	}
	if s.Builtin {
		what = "built-in " + what
	}
	fmt.Fprintf(&b, "**%s** — %s\n\n", clikit.MDText(s.Name), what)
	if len(s.MemberOf) > 0 {
		fmt.Fprintf(&b, "- member of: %s\n", clikit.MDText(strings.Join(s.MemberOf, ", ")))
	}
	if len(s.Aliases) > 0 {
		fmt.Fprintf(&b, "- aliases: %s\n", clikit.MDText(strings.Join(s.Aliases, ", ")))
	}
	if s.Banned {
		b.WriteString("- banned: every request of the user is refused\n")
	}
	return b.String()
}

func aceDetail(a *ACE) string {
	return fmt.Sprintf("%s %s to %s", a.Action, a.Permissions, strings.Join(a.Subjects, ", "))
}

// word is the span of text written at p (one line).
func (t *Tree) word(p Pos, text string) audit.Span {
	from := t.Doc.Pos(p)
	to := from
	to.Col += len([]rune(text))
	return audit.Span{From: from, To: to}
}

func inSpan(s audit.Span, at engine.Position) bool {
	return at.Line == s.From.Line && at.Col >= s.From.Col && at.Col <= s.To.Col
}

// cover widens a to b.
func cover(a, b audit.Span) audit.Span {
	if b.To.Line > a.To.Line || b.To.Line == a.To.Line && b.To.Col > a.To.Col {
		a.To = b.To
	}
	return a
}
