package config

import (
	"github.com/aclint/aclint/internal/engine"

	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Edit replaces the text from Start up to End (exclusive, on the same line)
// of the outer file with New.
type Edit = engine.Edit

// verbatim reports whether the config text appears character for character
// in the outer file, so that an edit of the text is an edit of the file: a
// raw file, or a literal block in a ConfigMap.
func (d *Document) verbatim() bool {
	if d.outer == nil {
		return true
	}
	_, ok := d.outer.(lineMapper)
	return ok
}

// NotEditable says why aclint cannot fix this config in its file, or "".
func (d *Document) NotEditable() string {
	switch {
	case d.Gzipped:
		return fmt.Sprintf("the queue config is gzipped in binaryData %s of ConfigMap %s", d.Key, d.ConfigMap)
	case !d.verbatim():
		return fmt.Sprintf("the queue config is a quoted string in ConfigMap %s (data %s), not a block (|) value; aclint fixes configs written out line by line", d.ConfigMap, d.Key)
	}
	return ""
}

// scalarSpan returns the inner line and the start and end columns (end
// exclusive) of a scalar written on one line, quotes included.
func (d *Document) scalarSpan(n *yaml.Node) (line, start, end int, ok bool) {
	textLines := d.splits.of(d.parsed)
	if n == nil || n.Kind != yaml.ScalarNode || d.patched[[2]int{n.Line, n.Column}] {
		return 0, 0, 0, false
	}
	switch n.Style {
	case 0, yaml.TaggedStyle:
		if shift, ok := singleLineShift(textLines, n); ok && n.Style == 0 {
			return n.Line, n.Column, shift + 1 + utf8.RuneCountInString(n.Value), true
		}
	case yaml.SingleQuotedStyle, yaml.DoubleQuotedStyle:
		m, ok := quotedMapper(textLines, n, byteIndexOfColumn(textLines[n.Line-1], n.Column))
		if ok {
			tm := m.(tableMapper)
			if tm.endLine == n.Line {
				return n.Line, n.Column, tm.endCol + 1, true
			}
		}
	}
	return 0, 0, 0, false
}

// editSpan turns an inner span into an Edit, when the file can be edited
// there.
func (d *Document) editSpan(line, start, end int, text string) (*Edit, bool) {
	if !d.verbatim() {
		return nil, false
	}
	s, e := d.Pos(line, start), d.Pos(line, end)
	if s.Inner != "" || e.Inner != "" || s.Line != e.Line {
		return nil, false
	}
	return &Edit{Start: s, End: e, New: text}, true
}

// ReplaceScalar returns the edit that gives scalar n the value v, written in
// n's own quoting style when that can hold v, else double-quoted. It reports
// false when n spans several lines or is embedded where the file cannot be
// edited character for character (a quoted or gzipped ConfigMap value).
func (d *Document) ReplaceScalar(n *yaml.Node, v string) (*Edit, bool) {
	line, start, end, ok := d.scalarSpan(n)
	if !ok {
		return nil, false
	}
	return d.editSpan(line, start, end, Render(v, n.Style))
}

// QuoteAfterKey returns the edit that rewrites the blanks and plain value
// after "key:" as a single blank and the double-quoted value v: the fix for
// a leading space that YAML dropped.
func (d *Document) QuoteAfterKey(key, n *yaml.Node, v string) (*Edit, bool) {
	line, _, end, ok := d.scalarSpan(n)
	if !ok || key.Line != line {
		return nil, false
	}
	colon := key.Column + utf8.RuneCountInString(key.Value)
	return d.editSpan(line, colon+1, end, " "+Render(v, yaml.DoubleQuotedStyle))
}

// ChompBlock returns the edit that turns a block scalar's header into its
// strip form ("|" into "|-"), so the value loses its trailing line breaks.
func (d *Document) ChompBlock(n *yaml.Node) (*Edit, bool) {
	if n == nil || (n.Style != yaml.LiteralStyle && n.Style != yaml.FoldedStyle) {
		return nil, false
	}
	textLines := d.splits.of(d.parsed)
	src := textLines[n.Line-1]
	i := byteIndexOfColumn(src, n.Column)
	if i < 0 || i >= len(src) {
		return nil, false
	}
	j := i + 1
	for j < len(src) && strings.IndexByte("+-0123456789", src[j]) >= 0 {
		j++
	}
	header := src[i:j]
	digits := strings.Trim(header[1:], "+-")
	return d.editSpan(n.Line, n.Column, n.Column+(j-i), header[:1]+digits+"-")
}

// WildcardEdit returns the edit that quotes a plain value the loader found
// starting with '*' (an alias to YAML).
func (p Problem) WildcardEdit() *Edit { return p.fix }

// Render writes v as a YAML scalar in style when that style can hold it:
// plain only for text YAML reads back as the same string, single quotes
// for printable text, double quotes otherwise.
func Render(v string, style yaml.Style) string {
	switch style {
	case 0, yaml.TaggedStyle:
		if plainSafe(v) {
			return v
		}
	case yaml.SingleQuotedStyle:
		if printable(v) {
			return "'" + strings.ReplaceAll(v, "'", "''") + "'"
		}
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range v {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if unicode.IsPrint(r) || r == ' ' {
				b.WriteRune(r)
			} else if r <= 0xff {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

func printable(v string) bool {
	for _, r := range v {
		if !(unicode.IsPrint(r) || r == ' ') {
			return false
		}
	}
	return true
}

// plainSafe reports whether v written plain reads back as the string v.
func plainSafe(v string) bool {
	if v == "" || !printable(v) || strings.TrimSpace(v) != v || strings.ContainsAny(v[:1], "!&*-?:,[]{}#|>@`'\"%") ||
		strings.Contains(v, ": ") || strings.Contains(v, " #") || strings.HasSuffix(v, ":") {
		return false
	}
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("x: "+v), &n); err != nil || len(n.Content) == 0 || len(n.Content[0].Content) != 2 {
		return false
	}
	s := n.Content[0].Content[1]
	return s.ShortTag() == "!!str" && s.Value == v && !isYAML11Bool(v)
}

func isYAML11Bool(v string) bool {
	switch strings.ToLower(v) {
	case "y", "n", "yes", "no", "on", "off":
		return true
	}
	return false
}
