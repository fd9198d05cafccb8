package lsp

import (
	"unicode/utf16"
	"unicode/utf8"
)

// Position encodings of LSP 3.17: how a Position's character counts.
const (
	encUTF16 = "utf-16"
	encUTF8  = "utf-8"
	encUTF32 = "utf-32"
)

// text is one document's content with its line starts, for converting
// between aclint's positions (1-based line, 1-based column in characters)
// and the protocol's.
type text struct {
	s      string
	starts []int
	enc    string
}

func newText(s, enc string) *text {
	t := &text{s: s, enc: enc, starts: []int{0}}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			t.starts = append(t.starts, i+1)
		}
	}
	return t
}

// lineText is line i (0-based) without its line ending.
func (t *text) lineText(i int) string {
	if i < 0 || i >= len(t.starts) {
		return ""
	}
	end := len(t.s)
	if i+1 < len(t.starts) {
		end = t.starts[i+1] - 1
	}
	l := t.s[t.starts[i]:end]
	if n := len(l); n > 0 && l[n-1] == '\r' {
		l = l[:n-1]
	}
	return l
}

// units counts s in the agreed encoding.
func (t *text) units(s string) int {
	switch t.enc {
	case encUTF8:
		return len(s)
	case encUTF32:
		return utf8.RuneCountInString(s)
	}
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r) // an invalid byte is one U+FFFD: one unit
	}
	return n
}

// byteCol is the byte index in line l of character column col (1-based,
// in characters), clamped to the line.
func byteCol(l string, col int) int {
	c := 1
	for i := range l {
		if c >= col {
			return i
		}
		c++
	}
	return len(l)
}

// pos converts aclint's 1-based line and character column.
func (t *text) pos(line, col int) Position {
	if line < 1 {
		return Position{}
	}
	if line > len(t.starts) {
		last := len(t.starts) - 1
		return Position{Line: last, Character: t.units(t.lineText(last))}
	}
	l := t.lineText(line - 1)
	return Position{Line: line - 1, Character: t.units(l[:byteCol(l, col)])}
}

// offset is the byte offset of a protocol position, clamped to its line
// and to the document.
func (t *text) offset(p Position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(t.starts) {
		return len(t.s)
	}
	l := t.lineText(p.Line)
	i, n := 0, 0
	for i < len(l) && n < p.Character {
		r, size := utf8.DecodeRuneInString(l[i:])
		switch t.enc {
		case encUTF8:
			n += size
		case encUTF32:
			n++
		default:
			n += utf16.RuneLen(r)
		}
		i += size
	}
	return t.starts[p.Line] + i
}

// column is the 1-based character column of a protocol position.
func (t *text) column(p Position) (line, col int) {
	if p.Line < 0 || p.Line >= len(t.starts) {
		return p.Line + 1, 1
	}
	off := t.offset(p) - t.starts[p.Line]
	return p.Line + 1, utf8.RuneCountInString(t.lineText(p.Line)[:off]) + 1
}

// token is the range of the YAML token starting at aclint's position:
// a quoted scalar to its closing quote, a plain one to the next space,
// separator or comment; at least one character when the line has one.
func (t *text) token(line, col int) Range {
	start := t.pos(line, col)
	if line < 1 || line > len(t.starts) {
		return Range{start, start}
	}
	l := t.lineText(line - 1)
	i := byteCol(l, col)
	j := i
	switch {
	case i < len(l) && (l[i] == '"' || l[i] == '\''):
		q := l[i]
		j = i + 1
		for j < len(l) {
			if l[j] == '\\' && q == '"' {
				j += 2
				continue
			}
			if l[j] == q {
				if q == '\'' && j+1 < len(l) && l[j+1] == '\'' {
					j += 2
					continue
				}
				j++
				break
			}
			j++
		}
		j = min(j, len(l))
	default:
		for j < len(l) {
			c := l[j]
			if c == ' ' || c == '\t' || c == ',' || c == ']' || c == '}' || c == '#' || (c == ':' && (j+1 == len(l) || l[j+1] == ' ')) {
				break
			}
			j++
		}
		if j == i && i < len(l) {
			_, size := utf8.DecodeRuneInString(l[i:])
			j = i + size
		}
	}
	return Range{start, Position{Line: line - 1, Character: t.units(l[:j])}}
}

// contains reports whether p lies in r (end included: a cursor just past a
// word still hovers it).
func contains(r Range, p Position) bool {
	after := p.Line > r.Start.Line || (p.Line == r.Start.Line && p.Character >= r.Start.Character)
	before := p.Line < r.End.Line || (p.Line == r.End.Line && p.Character <= r.End.Character)
	return after && before
}

// overlaps reports whether two ranges share a position.
func overlaps(a, b Range) bool {
	return contains(a, b.Start) || contains(a, b.End) || contains(b, a.Start)
}
