package yarn

import (
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
)

// parsed is what YARN's Lint hands the editor (engine.Report.Parsed): the
// file and the queue tree it read, a Capacity Scheduler file's or an
// allocation file's.
type parsed struct {
	conf *Conf
	cs   *CS
}

// Symbols outlines the file by queue, root first: each queue with the
// properties (or allocation file elements) that configure it.
func (Sys) Symbols(p any, file string) []audit.Symbol {
	st, ok := p.(*parsed)
	if !ok || st.cs == nil || st.cs.Root == nil {
		return nil
	}
	own := st.ownProps()
	var walk func(q *Queue) (audit.Symbol, bool)
	walk = func(q *Queue) (audit.Symbol, bool) {
		sym := audit.Symbol{Name: q.Path, Kind: audit.SymbolNamespace, Detail: aclDetail(q)}
		var have bool
		for _, pr := range own[q] {
			ps := propSpan(file, pr)
			sym.Children = append(sym.Children, audit.Symbol{Name: strings.TrimPrefix(pr.Name, CSPrefix+q.Path+"."), Detail: oneLine(pr.Value), Kind: audit.SymbolProperty, Range: ps, Selection: ps})
			sym.Range, have = widen(sym.Range, ps, have), true
		}
		for _, c := range q.Children {
			if cs, ok := walk(c); ok {
				sym.Children = append(sym.Children, cs)
				sym.Range, have = widen(sym.Range, cs.Range, have), true
			}
		}
		if have {
			sym.Selection = sym.Range
			if len(own[q]) > 0 {
				sym.Selection = propSpan(file, own[q][0])
			}
		}
		return sym, have
	}
	if root, ok := walk(st.cs.Root); ok {
		return []audit.Symbol{root}
	}
	return nil
}

// ownProps are each queue's properties: in a Capacity Scheduler file those
// named yarn.scheduler.capacity.PATH.KEY (KEY without a dot), in an
// allocation file its ACL elements.
func (st *parsed) ownProps() map[*Queue][]*Property {
	out := map[*Queue][]*Property{}
	for _, pr := range st.conf.Props {
		if st.cs.FS {
			continue
		}
		rest, ok := strings.CutPrefix(pr.Name, CSPrefix)
		if !ok {
			continue
		}
		i := strings.LastIndex(rest, ".")
		if i < 0 {
			continue
		}
		if q := st.cs.ByPath[rest[:i]]; q != nil {
			out[q] = append(out[q], pr)
		}
	}
	if st.cs.FS {
		for _, q := range st.cs.ByPath {
			for _, pr := range q.From {
				if pr != nil {
					out[q] = append(out[q], pr)
				}
			}
		}
	}
	return out
}

// Hover explains the property under the cursor: a queue's ACL (whom it
// lets in, as YARN reads it, and whether it counts), a queue's .queues
// list or one queue named in it, or any other property of a queue.
func (Sys) Hover(p any, at engine.Position) (audit.Hover, bool) {
	st, ok := p.(*parsed)
	if !ok || st.cs == nil {
		return audit.Hover{}, false
	}
	pr, inValue := st.propAt(at)
	if pr == nil {
		return audit.Hover{}, false
	}
	span := propSpan(at.File, pr)
	if q, a, ok := st.aclOf(pr); ok {
		var b strings.Builder
		fmt.Fprintf(&b, "**%s** ACL of queue %s (%s)\n\n", a, clikit.MDCode(q.Path), clikit.MDText(pr.Name))
		switch {
		case pr.Ignored:
			b.WriteString("Ignored: an earlier property of the same name is final, and Configuration keeps it.\n")
		case pr.Overridden || pr.ReplacedBy != nil:
			b.WriteString("Replaced by a later definition of the same name: this one is not read.\n")
		case q.Unknown[a]:
			b.WriteString("Its value uses `${...}`: what it grants is not known to aclint.\n")
		default:
			fmt.Fprintf(&b, "YARN reads it as %s.\n", clikit.MDText(describeACL(q.ACL[a])))
		}
		if a == Submit {
			b.WriteString("\nSubmitting is allowed to whoever may submit or administer here or on any ancestor; there is no deny.\n")
		}
		return audit.Hover{Markdown: b.String(), From: span.From, To: span.To}, true
	}
	if q, name, ok := st.queueNamed(pr, at, inValue); ok {
		md := fmt.Sprintf("queue %s\n\n%s\n", clikit.MDCode(q.Path), queueText(q))
		if name != "" {
			return audit.Hover{Markdown: md, From: engine.Position{File: at.File, Line: at.Line, Col: wordStart(pr, at)}, To: engine.Position{File: at.File, Line: at.Line, Col: wordStart(pr, at) + len(name)}}, true
		}
	}
	if q := st.queueOf(pr); q != nil {
		return audit.Hover{Markdown: fmt.Sprintf("%s of queue %s\n\n%s\n", clikit.MDCode(strings.TrimPrefix(pr.Name, CSPrefix+q.Path+".")), clikit.MDCode(q.Path), queueText(q)), From: span.From, To: span.To}, true
	}
	return audit.Hover{}, false
}

// Definition goes from a queue named in a .queues list to the queue's
// first property.
func (Sys) Definition(p any, at engine.Position) []audit.Span {
	st, ok := p.(*parsed)
	if !ok || st.cs == nil {
		return nil
	}
	pr, inValue := st.propAt(at)
	if pr == nil {
		return nil
	}
	q, name, ok := st.queueNamed(pr, at, inValue)
	if !ok || name == "" {
		return nil
	}
	if props := st.ownProps()[q]; len(props) > 0 {
		return []audit.Span{propSpan(at.File, props[0])}
	}
	return nil
}

// propAt finds the property whose name or value the position is in.
func (st *parsed) propAt(at engine.Position) (*Property, bool) {
	for _, pr := range st.conf.Props {
		if in(at, pr.NamePos, pr.Name) {
			return pr, false
		}
		if pr.HasValue && in(at, pr.ValuePos, pr.Value) {
			return pr, true
		}
	}
	return nil, false
}

func in(at engine.Position, p Pos, text string) bool {
	if strings.Contains(text, "\n") || p.Line != at.Line {
		return false
	}
	return at.Col >= p.Col && at.Col <= p.Col+len(text)
}

// aclOf says which queue's ACL a property is, and of which action.
func (st *parsed) aclOf(pr *Property) (*Queue, Action, bool) {
	for _, q := range st.cs.ByPath {
		for a, from := range q.From {
			if from == pr {
				return q, Action(a), true
			}
		}
	}
	if rest, ok := strings.CutPrefix(pr.Name, CSPrefix); ok {
		for _, a := range []Action{Submit, Administer} {
			if path, ok := strings.CutSuffix(rest, "."+a.Key()); ok {
				if q := st.cs.ByPath[path]; q != nil {
					return q, a, true
				}
			}
		}
	}
	return nil, 0, false
}

// queueOf is the queue a property configures.
func (st *parsed) queueOf(pr *Property) *Queue {
	rest, ok := strings.CutPrefix(pr.Name, CSPrefix)
	if !ok {
		return nil
	}
	if i := strings.LastIndex(rest, "."); i > 0 {
		return st.cs.ByPath[rest[:i]]
	}
	return nil
}

// queueNamed is the queue a .queues value names at the position.
func (st *parsed) queueNamed(pr *Property, at engine.Position, inValue bool) (*Queue, string, bool) {
	parent := st.queueOf(pr)
	if parent == nil || !inValue || !strings.HasSuffix(pr.Name, ".queues") {
		return nil, "", false
	}
	start := wordStart(pr, at)
	off := start - pr.ValuePos.Col
	end := off
	for end < len(pr.Value) && pr.Value[end] != ',' && pr.Value[end] != ' ' && pr.Value[end] != '\t' {
		end++
	}
	name := pr.Value[off:end]
	for _, c := range parent.Children {
		if c.Name == name {
			return c, name, true
		}
	}
	return nil, "", false
}

// wordStart is the column where the word of a value under the cursor
// starts.
func wordStart(pr *Property, at engine.Position) int {
	off := at.Col - pr.ValuePos.Col
	off = max(0, min(off, len(pr.Value)))
	for off > 0 && pr.Value[off-1] != ',' && pr.Value[off-1] != ' ' && pr.Value[off-1] != '\t' {
		off--
	}
	return pr.ValuePos.Col + off
}

func queueText(q *Queue) string {
	var b strings.Builder
	for _, a := range []Action{Submit, Administer} {
		fmt.Fprintf(&b, "- %s: ", a)
		switch {
		case q.Unknown[a]:
			b.WriteString("not known (`${...}`)")
		case q.From[a] == nil && q.Parent == nil:
			b.WriteString("everyone (root's default, not set)")
		case q.From[a] == nil:
			b.WriteString("nobody here (not set); the ancestors' ACLs still apply")
		default:
			b.WriteString(clikit.MDText(describeACL(q.ACL[a])))
		}
		b.WriteString("\n")
	}
	if len(q.Children) > 0 {
		fmt.Fprintf(&b, "- %d child %s: a parent queue, where no application runs\n", len(q.Children), plural(len(q.Children), "queue", "queues"))
	}
	return b.String()
}

func aclDetail(q *Queue) string {
	parts := []string{}
	for _, a := range []Action{Submit, Administer} {
		if q.From[a] != nil && !q.Unknown[a] {
			parts = append(parts, a.String()+": "+q.ACL[a].String())
		}
	}
	return strings.Join(parts, "; ")
}

func describeACL(a ACL) string {
	switch {
	case a.All:
		return "everyone (`*`)"
	case len(a.Users) == 0 && len(a.Groups) == 0:
		return "nobody"
	}
	var parts []string
	if len(a.Users) > 0 {
		parts = append(parts, "users "+strings.Join(a.UserNames(), ", "))
	}
	if len(a.Groups) > 0 {
		parts = append(parts, "groups "+strings.Join(a.GroupNames(), ", "))
	}
	return strings.Join(parts, " and ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " ..."
	}
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	return s
}

// propSpan is the property's span: from its name to the end of its value
// (or its name, when the value is on other lines or absent).
func propSpan(file string, pr *Property) audit.Span {
	from := engine.Position{File: file, Line: pr.NamePos.Line, Col: pr.NamePos.Col}
	to := engine.Position{File: file, Line: pr.NamePos.Line, Col: pr.NamePos.Col + len(pr.Name)}
	if pr.HasValue && !strings.Contains(pr.Value, "\n") && pr.ValuePos.Line >= pr.NamePos.Line {
		to = engine.Position{File: file, Line: pr.ValuePos.Line, Col: pr.ValuePos.Col + len(pr.Value)}
	}
	return audit.Span{From: from, To: to}
}

// widen is the span covering both; the first when have is false.
func widen(a, b audit.Span, have bool) audit.Span {
	if !have {
		return b
	}
	if before(b.From, a.From) {
		a.From = b.From
	}
	if before(a.To, b.To) {
		a.To = b.To
	}
	return a
}

func before(x, y engine.Position) bool {
	return x.Line < y.Line || x.Line == y.Line && x.Col < y.Col
}
