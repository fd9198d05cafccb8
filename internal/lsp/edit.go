package lsp

import (
	"errors"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// buffer is an open document's text as a gap buffer: the bytes before the
// gap, a gap, the bytes after it. The gap sits where the last edit was, and
// the gap's line and column are kept, so an edit costs the distance from
// the last edit plus its own text, not the document's size: a burst of
// one-character changes costs about what its last version costs to lint,
// and a didChange of many edits in document order (a "replace all") is one
// pass over the document. The text and its line index are built once per
// version, when the version is linted (text).
//
// A document's text came out of a JSON string, so it is valid UTF-8: runes
// decode the same read forwards or backwards.
type buffer struct {
	b      []byte
	gs, ge int // the gap is b[gs:ge]
	// the gap's position: its 0-based line, and its column in the
	// encoding's units from the start of that line
	line, col int
	enc       string
}

func newBuffer(s, enc string) *buffer {
	b := &buffer{b: []byte(s), enc: enc}
	b.gs, b.ge = len(b.b), len(b.b)
	// the gap starts at the end: its line and column are the text's end
	b.line = strings.Count(s, "\n")
	last := s[strings.LastIndexByte(s, '\n')+1:]
	b.col = unitsOf(last, enc)
	return b
}

// size is the text's length in bytes.
func (b *buffer) size() int { return len(b.b) - (b.ge - b.gs) }

// String is the whole text.
func (b *buffer) String() string {
	var sb strings.Builder
	sb.Grow(b.size())
	sb.Write(b.b[:b.gs])
	sb.Write(b.b[b.ge:])
	return sb.String()
}

// at is the text's byte at offset i.
func (b *buffer) at(i int) byte {
	if i < b.gs {
		return b.b[i]
	}
	return b.b[i+b.ge-b.gs]
}

// runeAt decodes the rune starting at offset i.
func (b *buffer) runeAt(i int) (rune, int) {
	if c := b.at(i); c < utf8.RuneSelf {
		return rune(c), 1
	}
	var p [utf8.UTFMax]byte
	n := 0
	for n < utf8.UTFMax && i+n < b.size() {
		p[n] = b.at(i + n)
		n++
	}
	return utf8.DecodeRune(p[:n])
}

// runeBefore decodes the rune ending at offset i.
func (b *buffer) runeBefore(i int) (rune, int) {
	if c := b.at(i - 1); c < utf8.RuneSelf {
		return rune(c), 1
	}
	var p [utf8.UTFMax]byte
	n := 0
	for n < utf8.UTFMax && i-n > 0 {
		n++
		p[utf8.UTFMax-n] = b.at(i - n)
	}
	return utf8.DecodeLastRune(p[utf8.UTFMax-n:])
}

func runeUnits(r rune, size int, enc string) int {
	switch enc {
	case encUTF8:
		return size
	case encUTF32:
		return 1
	}
	return utf16.RuneLen(r) // an invalid rune is one U+FFFD: one unit
}

func unitsOf(s, enc string) int {
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		n += runeUnits(r, size, enc)
		i += size
	}
	return n
}

// cursor is a place in the text: its offset, line and column.
type cursor struct{ off, line, col int }

// lineEnd reports whether the text at off ends a line for positions: its
// '\n', a '\r' just before one or at the end of the text (text.lineText
// leaves out one carriage return), or the end itself.
func (b *buffer) lineEnd(off int) bool {
	n := b.size()
	if off >= n {
		return true
	}
	switch b.at(off) {
	case '\n':
		return true
	case '\r':
		return off+1 == n || b.at(off+1) == '\n'
	}
	return false
}

// seek walks c to the offset of protocol position p as text.offset reads
// it (clamped to its line, a line past the last is the text's end),
// counting the bytes it steps over in *work.
func (b *buffer) seek(c cursor, p Position, work *int) cursor {
	n := b.size()
	if p.Line < 0 {
		p = Position{}
	}
	// back to the start of the target line when it is above, or when the
	// target is left of c on c's line and far (a column to step back to)
	if p.Line < c.line {
		for c.off > 0 && (c.line > p.Line || b.at(c.off-1) != '\n') {
			if b.at(c.off-1) == '\n' {
				c.line--
			}
			c.off--
			*work++
		}
		c.col = 0
	}
	if p.Line == c.line && p.Character < c.col {
		for c.col > max(p.Character, 0) {
			r, size := b.runeBefore(c.off)
			c.off -= size
			c.col -= runeUnits(r, size, b.enc)
			*work += size
		}
		if c.col >= p.Character {
			return c
		}
		// p.Character fell inside a surrogate pair: offset() rounds up
	}
	// forward to the target line, then along it
	for c.line < p.Line {
		if c.off >= n {
			return c // a line past the last: the end of the text
		}
		r, size := b.runeAt(c.off)
		if r == '\n' {
			c.line, c.col = c.line+1, 0
		} else {
			c.col += runeUnits(r, size, b.enc)
		}
		c.off += size
		*work += size
	}
	for c.col < p.Character && !b.lineEnd(c.off) {
		r, size := b.runeAt(c.off)
		c.col += runeUnits(r, size, b.enc)
		c.off += size
		*work += size
	}
	// a position never lands after the carriage return that ends a line
	// (the gap may): offset() stops before it
	if c.off > 0 && b.at(c.off-1) == '\r' && (c.off == n || b.at(c.off) == '\n') {
		c.off--
		c.col--
	}
	return c
}

// moveGap moves the gap to cursor c.
func (b *buffer) moveGap(c cursor) {
	switch {
	case c.off < b.gs:
		n := b.gs - c.off
		copy(b.b[b.ge-n:b.ge], b.b[c.off:b.gs])
		b.gs, b.ge = c.off, b.ge-n
	case c.off > b.gs:
		n := c.off - b.gs
		copy(b.b[b.gs:b.gs+n], b.b[b.ge:b.ge+n])
		b.gs, b.ge = b.gs+n, b.ge+n
	}
	b.line, b.col = c.line, c.col
}

// errTooMuchWork is an edit list whose edits jump about a large document
// more than one message may cost.
var errTooMuchWork = errors.New("too much work")

// apply applies one content change, bounding the bytes it steps over and
// the text's size. A whole new text replaces the buffer.
func (b *buffer) apply(ch TextDocumentContentChangeEvent, work *int, budget, maxSize int) error {
	if ch.Range == nil {
		if len(ch.Text) > maxSize {
			return errTooLarge
		}
		*work += len(ch.Text)
		*b = *newBuffer(ch.Text, b.enc)
		return nil
	}
	gap := cursor{b.gs, b.line, b.col}
	from := b.seek(gap, ch.Range.Start, work)
	to := b.seek(from, ch.Range.End, work)
	if to.off < from.off {
		from, to = to, from
	}
	if *work > budget {
		return errTooMuchWork
	}
	if b.size()-(to.off-from.off)+len(ch.Text) > maxSize {
		return errTooLarge
	}
	*work += abs(from.off-b.gs) + len(ch.Text)
	b.moveGap(from)
	b.ge += to.off - from.off // delete what the range held
	if len(ch.Text) > b.ge-b.gs {
		b.grow(len(ch.Text))
	}
	copy(b.b[b.gs:], ch.Text)
	b.gs += len(ch.Text)
	if i := strings.LastIndexByte(ch.Text, '\n'); i >= 0 {
		b.line += strings.Count(ch.Text, "\n")
		b.col = unitsOf(ch.Text[i+1:], b.enc)
	} else {
		b.col += unitsOf(ch.Text, b.enc)
	}
	return nil
}

var errTooLarge = errors.New("too large")

// grow makes the gap hold at least n bytes, doubling the buffer.
func (b *buffer) grow(n int) {
	size := b.size()
	nb := make([]byte, max(2*len(b.b), size+n+4096))
	copy(nb, b.b[:b.gs])
	after := len(b.b) - b.ge
	copy(nb[len(nb)-after:], b.b[b.ge:])
	b.b, b.ge = nb, len(nb)-after
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
