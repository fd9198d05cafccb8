package lsp

import (
	"sort"

	"github.com/aclint/aclint/internal/engine"
	"sync"
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
// and the protocol's. A long line (a one-line XML or JSON file) is
// indexed once, the first time a position in it is asked: every position
// is then found from the nearest mark, not by walking the line from its
// start (which made an outline of a one-line 872 KB file take 38 s).
type text struct {
	s      string
	starts []int
	enc    string

	mu    sync.Mutex
	marks map[int]*lineMarks
}

// markStep is how many characters lie between two marks of a long line,
// and longLine the length past which a line is indexed.
const (
	markStep = 64
	longLine = 4 * markStep
)

// lineMarks are a long line's marks: at character k*markStep, its byte
// offset in the line and the units (in the agreed encoding) before it.
type lineMarks struct{ bytes, units []int }

// lineMarks returns the marks of line i, whose text is l; nil for a line
// short enough to walk.
func (t *text) lineMarks(i int, l string) *lineMarks {
	if len(l) <= longLine {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if m := t.marks[i]; m != nil {
		return m
	}
	m := &lineMarks{}
	c, u := 0, 0
	for b, r := range l {
		if c%markStep == 0 {
			m.bytes = append(m.bytes, b)
			m.units = append(m.units, u)
		}
		c++
		u += t.runeUnits(r, b, l)
	}
	if t.marks == nil {
		t.marks = map[int]*lineMarks{}
	}
	t.marks[i] = m
	return m
}

// runeUnits is how many units rune r at byte b of l counts.
func (t *text) runeUnits(r rune, b int, l string) int {
	switch t.enc {
	case encUTF8:
		if r == utf8.RuneError {
			_, size := utf8.DecodeRuneInString(l[b:])
			return size
		}
		return utf8.RuneLen(r)
	case encUTF32:
		return 1
	}
	return utf16.RuneLen(r) // an invalid byte is one U+FFFD: one unit
}

// byteAt is the byte index in line i (text l) of character column col
// (1-based), clamped to the line.
func (t *text) byteAt(i int, l string, col int) int {
	m := t.lineMarks(i, l)
	if m == nil || col <= 1 {
		return byteCol(l, col)
	}
	k := min((col-1)/markStep, len(m.bytes)-1)
	return m.bytes[k] + byteCol(l[m.bytes[k]:], col-k*markStep)
}

// mark is the last mark of m at or before byte b.
func (m *lineMarks) mark(b int) int {
	return sort.Search(len(m.bytes), func(k int) bool { return m.bytes[k] > b }) - 1
}

// unitsTo counts line i (text l) up to byte b in the agreed encoding.
func (t *text) unitsTo(i int, l string, b int) int {
	m := t.lineMarks(i, l)
	if m == nil {
		return t.units(l[:b])
	}
	k := m.mark(b)
	return m.units[k] + t.units(l[m.bytes[k]:b])
}

// runesTo counts the characters of line i (text l) before byte b.
func (t *text) runesTo(i int, l string, b int) int {
	m := t.lineMarks(i, l)
	if m == nil {
		return utf8.RuneCountInString(l[:b])
	}
	k := m.mark(b)
	return k*markStep + utf8.RuneCountInString(l[m.bytes[k]:b])
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
		l := t.lineText(last)
		return Position{Line: last, Character: t.unitsTo(last, l, len(l))}
	}
	l := t.lineText(line - 1)
	return Position{Line: line - 1, Character: t.unitsTo(line-1, l, t.byteAt(line-1, l, col))}
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
	if m := t.lineMarks(p.Line, l); m != nil {
		k := sort.Search(len(m.units), func(k int) bool { return m.units[k] > p.Character }) - 1
		k = max(k, 0)
		i, n = m.bytes[k], m.units[k]
	}
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
	return p.Line + 1, t.runesTo(p.Line, t.lineText(p.Line), off) + 1
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
	j := engine.TokenEnd(l, t.byteAt(line-1, l, col))
	return Range{start, Position{Line: line - 1, Character: t.unitsTo(line-1, l, j)}}
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
