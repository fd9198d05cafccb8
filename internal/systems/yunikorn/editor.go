package yunikorn

// This file answers an editor's questions about a queue config
// (audit.Navigator): hover on a queue name or an ACL, the partition and
// queue tree as symbols, and a fixed placement rule's queue as its
// definition. The language server asks them of whichever system reads the
// document; the answers are spans in lines and characters, which it turns
// into the protocol's units.

import (
	"fmt"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// maxHoverNames bounds each list a hover shows: a queue open to ten
// thousand users must still answer in a tooltip.
const maxHoverNames = 12

// ykModel is the YuniKorn config a document holds, as the other commands
// load it: decided by the same rules, the access policy and placement
// ready.
type ykModel struct {
	l     *Loaded
	doc   *config.Document
	lines []string
	cols  engine.Columns // the lines' character columns
}

// model is the YuniKorn model of what Lint parsed for file; nil for a
// document that holds no queue config of this file. An editor asks hover,
// symbols and folding of the same version one after the other, and each
// would otherwise decide the whole config again: the model is kept on the
// parsed document itself (config.Document.Memo), so it lives as long as
// the version the editor holds, and no longer.
func model(parsed any, file string) *ykModel {
	docs, _ := parsed.([]*config.Document)
	if len(docs) == 0 {
		return nil
	}
	m, _ := docs[0].Memo(func() any { return buildModel(docs, file) }).(*ykModel)
	return m
}

func buildModel(docs []*config.Document, file string) (m *ykModel) {
	defer func() {
		if recover() != nil {
			m = nil
		}
	}()
	l := Accept(docs, nil)
	if l.Config == nil || l.Config.Doc == nil || l.Config.Doc.File != file {
		return nil // the built-in default: nothing in this file to point at
	}
	return &ykModel{l: l, doc: l.Config.Doc, lines: l.Config.Doc.Lines()}
}

// nodeSpan is the YAML token a node starts, or false when it is not in
// this file or not where a character-by-character mapping puts it (a
// gzipped or folded ConfigMap value).
func (m *ykModel) nodeSpan(n *yaml.Node, file string) (audit.Span, bool) {
	if n == nil {
		return audit.Span{}, false
	}
	p := m.doc.NodePos(n)
	if p.File != file || p.Inner != "" {
		return audit.Span{}, false
	}
	l := m.line(p.Line)
	end := engine.TokenEnd(l, m.cols.ByteOf(p.Line, l, p.Col))
	return audit.Span{From: p, To: engine.Position{File: file, Line: p.Line, Col: m.cols.ColOf(p.Line, l, end)}}, true
}

func (m *ykModel) line(n int) string {
	if n < 1 || n > len(m.lines) {
		return ""
	}
	return m.lines[n-1]
}

// within reports whether at lies in s, its end included: a cursor just
// past a word still hovers it.
func within(s audit.Span, at engine.Position) bool {
	after := at.Line > s.From.Line || at.Line == s.From.Line && at.Col >= s.From.Col
	before := at.Line < s.To.Line || at.Line == s.To.Line && at.Col <= s.To.Col
	return after && before
}

// Hover answers on an ACL value (how YuniKorn reads it, who it lets in
// there) and on a queue name (who may submit and administer, its limits).
func (Sys) Hover(parsed any, at engine.Position) (audit.Hover, bool) {
	m := model(parsed, at.File)
	if m == nil {
		return audit.Hover{}, false
	}
	var out *audit.Hover
	for _, part := range m.l.Config.Partitions {
		part.Root.Walk(func(q *config.Queue) {
			if out != nil || q.Synthetic {
				return
			}
			if s, ok := m.nodeSpan(q.Name.Node, at.File); ok && within(s, at) {
				out = &audit.Hover{Markdown: m.queueHover(part, q), From: s.From, To: s.To}
				return
			}
			for _, f := range []struct {
				field string
				s     config.Str
			}{{acl.SubmitField, q.SubmitACL}, {acl.AdminField, q.AdminACL}} {
				if !f.s.Set() {
					continue
				}
				if s, ok := m.nodeSpan(f.s.Node, at.File); ok && within(s, at) {
					out = &audit.Hover{Markdown: m.aclHover(part, q, f.field, f.s), From: s.From, To: s.To}
					return
				}
			}
		})
		if out != nil {
			return *out, true
		}
	}
	return audit.Hover{}, false
}

// refused says that YuniKorn rejects the config, when it does: then no
// access question has an answer.
func (m *ykModel) refused() string {
	if n := len(m.l.Errors); n > 0 {
		return fmt.Sprintf("YuniKorn rejects this config (%d %s: see the diagnostics), so it answers no access question.", n, plural(n, "error", "errors"))
	}
	return ""
}

func (m *ykModel) aclHover(part *config.Partition, q *config.Queue, field string, s config.Str) string {
	var b strings.Builder
	v := acl.Parse(s.Value)
	fmt.Fprintf(&b, "**%s** of `%s`: YuniKorn reads `%q` as\n\n", field, q.Path(), s.Value)
	switch {
	case v.ValidatorErr != nil:
		fmt.Fprintf(&b, "- nothing: validate-conf rejects it (%v)\n", v.ValidatorErr)
	case v.RuntimeErr != nil:
		fmt.Fprintf(&b, "- nothing: it passes validation, then the queues cannot be built (%v), so the config does not load\n", v.RuntimeErr)
	default:
		everyone, users, groups := v.Grants()
		if everyone {
			b.WriteString("- everyone (`*`)\n")
		}
		fmt.Fprintf(&b, "- users: %s\n", entryNames(users))
		fmt.Fprintf(&b, "- groups: %s\n", entryNames(groups))
		for _, e := range v.Entries {
			if !e.Effective() {
				fmt.Fprintf(&b, "- dropped: `%s`: %s\n", e.Name, e.DropReason())
			}
		}
	}
	action := acl.Submit
	if field == acl.AdminField {
		action = acl.Admin
	}
	b.WriteString("\n")
	b.WriteString(m.whoCan(part, q, action))
	return b.String()
}

func entryNames(es []acl.Entry) string {
	if len(es) == 0 {
		return "none"
	}
	var names []string
	seen := map[string]bool{}
	for _, e := range es {
		if !seen[e.Name] {
			seen[e.Name] = true
			names = append(names, "`"+e.Name+"`")
		}
	}
	return bounded(names)
}

func bounded(names []string) string {
	if len(names) > maxHoverNames {
		return strings.Join(names[:maxHoverNames], ", ") + fmt.Sprintf(" and %d more", len(names)-maxHoverNames)
	}
	return strings.Join(names, ", ")
}

// whoCan is what `aclint who-can` says for the queue, bounded.
func (m *ykModel) whoCan(part *config.Partition, q *config.Queue, action acl.Action) string {
	if r := m.refused(); r != "" {
		return r + "\n"
	}
	verb := "submit to"
	if action == acl.Admin {
		verb = "administer"
	}
	r, err := m.l.Policy.WhoCan(part.CanonicalName(), q.Path(), action)
	if err != nil {
		return fmt.Sprintf("Who may %s `%s`: not answered (%v)\n", verb, q.Path(), err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**Who may %s `%s`** (its ACLs and those above it):\n\n", verb, q.Path())
	if len(r.Everyone) > 0 {
		h := r.Everyone[0]
		fmt.Fprintf(&b, "- everyone, by %s %s (line %d)\n", h.Queue, h.ACL, h.Pos.Line)
	} else {
		b.WriteString("- everyone: no\n")
	}
	for _, sec := range []struct {
		name string
		hs   []acl.Holder
	}{{"users", r.Users}, {"groups", r.Groups}} {
		var names []string
		for _, h := range sec.hs {
			names = append(names, fmt.Sprintf("`%s` (%s %s)", h.Name, h.Queue, h.ACL))
		}
		if len(names) == 0 {
			names = []string{"none"}
		}
		fmt.Fprintf(&b, "- %s: %s\n", sec.name, bounded(names))
	}
	if n := len(r.Dropped); n > 0 {
		fmt.Fprintf(&b, "- %d %s dropped by YuniKorn on the way\n", n, plural(n, "entry", "entries"))
	}
	return b.String()
}

func (m *ykModel) queueHover(part *config.Partition, q *config.Queue) string {
	var b strings.Builder
	kind := "leaf queue"
	if !q.IsLeaf() || q.Parent == nil {
		kind = "parent queue"
	}
	fmt.Fprintf(&b, "**%s** — %s of partition `%s`\n\n", q.Path(), kind, part.CanonicalName())
	b.WriteString(m.whoCan(part, q, acl.Submit))
	b.WriteString("\n")
	b.WriteString(m.whoCan(part, q, acl.Admin))
	b.WriteString("\n")
	b.WriteString(limitsHover(m.l.Config, part, q))
	return b.String()
}

// limitsHover lists the limits written on the queue and its own maximum
// figures; `aclint limits` answers them for one user.
func limitsHover(cfg *config.Config, part *config.Partition, q *config.Queue) string {
	var b strings.Builder
	b.WriteString("**Limits**")
	own := []string{}
	if q.MaxApplications > 0 {
		own = append(own, fmt.Sprintf("maxapplications %d", q.MaxApplications))
	}
	if len(q.Max.Entries) > 0 {
		own = append(own, "resources.max "+resourceText(q.Max.Entries))
	}
	if len(own) > 0 {
		fmt.Fprintf(&b, " — the queue's own: %s", strings.Join(own, ", "))
	}
	b.WriteString("\n\n")
	lims := part.LimitsOf(q)
	if len(lims) == 0 {
		b.WriteString("- no user or group limit written here\n")
	}
	for i, l := range lims {
		if i == maxHoverNames {
			fmt.Fprintf(&b, "- and %d more\n", len(lims)-i)
			break
		}
		var who []string
		for _, u := range l.Users {
			who = append(who, "user `"+u.Value+"`")
		}
		for _, g := range l.Groups {
			who = append(who, "group `"+g.Value+"`")
		}
		var figs []string
		if l.MaxApplications > 0 {
			figs = append(figs, fmt.Sprintf("maxapplications %d", l.MaxApplications))
		}
		if len(l.MaxResources.Entries) > 0 {
			figs = append(figs, "maxresources "+resourceText(l.MaxResources.Entries))
		}
		fmt.Fprintf(&b, "- %q: %s: %s\n", l.Limit.Value, bounded(who), strings.Join(figs, ", "))
	}
	var last *config.Partition
	for _, p := range cfg.Partitions {
		if p.HasLimits() {
			last = p
		}
	}
	if len(lims) > 0 && last != nil && last != part {
		fmt.Fprintf(&b, "\nThese limits do not apply: YuniKorn keeps only the limits of the last partition that writes any (`%s`).\n", last.CanonicalName())
	}
	fmt.Fprintf(&b, "\nFor one user: `aclint limits %s USER --groups ...%s`\n", q.Path(), acl.AskPartition(part.CanonicalName()))
	return b.String()
}

func resourceText(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + ": " + m[k]
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// Symbols is the partition and queue tree.
func (Sys) Symbols(parsed any, file string) []audit.Symbol {
	out := []audit.Symbol{}
	m := model(parsed, file)
	if m == nil {
		return out
	}
	for _, part := range m.l.Config.Partitions {
		pr, ok := m.blockSpan(part.Node, file)
		if !ok {
			continue
		}
		sel := pr
		if s, ok := m.nodeSpan(part.Name.Node, file); ok {
			sel = s
		}
		ps := audit.Symbol{Name: part.CanonicalName(), Detail: "partition", Kind: audit.SymbolNamespace, Range: pr, Selection: sel}
		roots := []*config.Queue{part.Root}
		if part.Root.Synthetic {
			roots = part.Root.Children
		}
		for _, q := range roots {
			if s, ok := m.queueSymbol(q, file); ok {
				ps.Children = append(ps.Children, s)
			}
		}
		out = append(out, ps)
	}
	return out
}

func (m *ykModel) queueSymbol(q *config.Queue, file string) (audit.Symbol, bool) {
	r, ok := m.blockSpan(q.Node, file)
	if !ok {
		return audit.Symbol{}, false
	}
	sel := r
	if nr, ok := m.nodeSpan(q.Name.Node, file); ok {
		sel = nr
	}
	kind, detail := audit.SymbolClass, "leaf queue"
	if !q.IsLeaf() || q.Parent == nil {
		kind, detail = audit.SymbolPackage, "parent queue"
	}
	s := audit.Symbol{Name: q.Name.Value, Detail: detail + " " + q.Path(), Kind: kind, Range: r, Selection: sel}
	if s.Name == "" {
		s.Name = "(unnamed)" // editors refuse an empty symbol name
	}
	for _, c := range q.Children {
		if cs, ok := m.queueSymbol(c, file); ok {
			s.Children = append(s.Children, cs)
		}
	}
	return s, true
}

// blockSpan spans a mapping node from its first line to the end of the
// last line of anything inside it.
func (m *ykModel) blockSpan(n *yaml.Node, file string) (audit.Span, bool) {
	if n == nil {
		return audit.Span{}, false
	}
	start := m.doc.NodePos(n)
	if start.File != file || start.Inner != "" {
		return audit.Span{}, false
	}
	lastLine := n.Line
	var walk func(*yaml.Node)
	walk = func(x *yaml.Node) {
		if x.Line > lastLine {
			lastLine = x.Line
		}
		for _, c := range x.Content {
			walk(c)
		}
	}
	walk(n)
	end := m.doc.NodePos(&yaml.Node{Kind: yaml.MappingNode, Line: lastLine, Column: 1})
	if end.File != file || end.Line < start.Line {
		end = start
	}
	l := m.line(end.Line)
	return audit.Span{From: start, To: engine.Position{File: file, Line: end.Line, Col: m.cols.ColOf(end.Line, l, len(l))}}, true
}

// Definition goes from a placement rule's queue name (a fixed rule, its
// own or its parent's) to the queue it names.
func (Sys) Definition(parsed any, at engine.Position) []audit.Span {
	out := []audit.Span{}
	m := model(parsed, at.File)
	if m == nil {
		return out
	}
	for _, part := range m.l.Config.Partitions {
		for _, r := range part.PlacementRules {
			for x := r; x != nil; x = x.Parent {
				if !strings.EqualFold(x.Name.Value, "fixed") || x.Value.Value == "" {
					continue
				}
				vs, ok := m.nodeSpan(x.Value.Node, at.File)
				if !ok || !within(vs, at) {
					continue
				}
				if q := fixedQueue(part, x); q != nil {
					if qs, ok := m.nodeSpan(q.Name.Node, at.File); ok {
						out = append(out, qs)
					}
				}
				return out
			}
		}
	}
	return out
}

// fixedQueue is the queue a fixed rule's value names, when placement
// would use it: a qualified value (lower-cased, starting with "root",
// fixed_rule.go) as it is, an unqualified one below what its parent rule
// names (root without a parent rule), and nothing when the parent is not
// a fixed rule (the path then depends on the application) or a part of
// the path does not exist.
func fixedQueue(part *config.Partition, x *config.PlacementRule) *config.Queue {
	path, ok := fixedPath(x)
	if !ok {
		return nil
	}
	q, missing, err := acl.FindQueue(part.Root, path)
	if err != nil || len(missing) > 0 {
		return nil
	}
	return q
}

func fixedPath(x *config.PlacementRule) (string, bool) {
	v := strings.ToLower(x.Value.Value)
	switch {
	case strings.HasPrefix(v, "root"):
		return v, true
	case x.Parent == nil:
		return "root." + v, true
	case !strings.EqualFold(x.Parent.Name.Value, "fixed"):
		return "", false
	}
	p, ok := fixedPath(x.Parent)
	return p + "." + v, ok
}
