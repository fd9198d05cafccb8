package config

import (
	"github.com/aclint/aclint/internal/engine"

	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"gopkg.in/yaml.v3"
)

// Position is a place in a file a person opens: 1-based line and column,
// columns counted in characters as editors and yaml.v3 count them.
type Position = engine.Position

// offsetMapper maps a byte offset inside a scalar's value to the line and
// column in the source text where that byte was written.
type offsetMapper interface {
	at(off int) (line, col int, exact bool)
}

// pointMapper maps every offset to the scalar's own position: used when the
// scalar's source cannot be matched byte for byte.
type pointMapper struct{ line, col int }

func (p pointMapper) at(int) (int, int, bool) { return p.line, p.col, false }

// lineMapper covers values whose lines are copied verbatim from consecutive
// source lines, each shifted by a fixed number of columns: plain and simple
// quoted scalars on one line, and literal block scalars.
type lineMapper struct {
	value      string
	lineStarts []int // byte offset in value where each line starts
	firstLine  int   // source line of the value's first line
	firstShift int   // columns before the value on its first line
	shift      int   // columns before the value on later lines (block indent)
}

func (m lineMapper) at(off int) (int, int, bool) {
	if off < 0 {
		off = 0
	}
	if off > len(m.value) {
		off = len(m.value)
	}
	i := len(m.lineStarts) - 1
	for i > 0 && m.lineStarts[i] > off {
		i--
	}
	shift := m.shift
	if i == 0 {
		shift = m.firstShift
	}
	return m.firstLine + i, shift + 1 + utf8.RuneCountInString(m.value[m.lineStarts[i]:off]), true
}

// tableMapper holds the source position of every byte of a value: used for
// quoted scalars with escapes.
type tableMapper struct {
	line, col []int32
	endLine   int
	endCol    int
}

func (m tableMapper) at(off int) (int, int, bool) {
	if off < 0 {
		off = 0
	}
	if off >= len(m.line) {
		return m.endLine, m.endCol, true
	}
	return int(m.line[off]), int(m.col[off]), true
}

func lineStarts(s string) []int {
	starts := []int{0}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' && i+1 < len(s) {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// newScalarMapper builds the best exact mapper for scalar node n whose source
// is lines (the text n was parsed from, split on "\n"). It checks its work by
// rebuilding the value from the source and falls back to pointing at the
// scalar when the two differ.
func newScalarMapper(lines []string, n *yaml.Node) offsetMapper {
	fallback := pointMapper{n.Line, n.Column}
	if n.Line < 1 || n.Line > len(lines) {
		return fallback
	}
	src := lines[n.Line-1]
	start := byteIndexOfColumn(src, n.Column)
	if start < 0 {
		return fallback
	}
	switch n.Style {
	case 0, yaml.TaggedStyle:
		if strings.HasPrefix(src[start:], n.Value) && !strings.Contains(n.Value, "\n") {
			return lineMapper{value: n.Value, lineStarts: []int{0}, firstLine: n.Line, firstShift: n.Column - 1}
		}
	case yaml.SingleQuotedStyle, yaml.DoubleQuotedStyle:
		// the common case: no escapes, closed on the same line
		q := src[start]
		if end := start + 1 + len(n.Value); end < len(src) && src[end] == q && src[start+1:end] == n.Value &&
			!strings.ContainsAny(n.Value, "\\'\"") {
			return lineMapper{value: n.Value, lineStarts: []int{0}, firstLine: n.Line, firstShift: n.Column}
		}
		if m, ok := quotedMapper(lines, n, start); ok {
			return m
		}
	case yaml.LiteralStyle:
		if m, ok := literalMapper(lines, n); ok {
			return m
		}
	}
	return fallback
}

func byteIndexOfColumn(s string, col int) int {
	c := 1
	for i := range s {
		if c == col {
			return i
		}
		c++
	}
	if c == col {
		return len(s)
	}
	return -1
}

// singleLineShift reports the number of columns before the value of a plain
// or simply quoted scalar written on one line, or false when its source is not
// a verbatim copy of the value.
func singleLineShift(lines []string, n *yaml.Node) (int, bool) {
	if n.Line < 1 || n.Line > len(lines) || strings.IndexByte(n.Value, '\n') >= 0 {
		return 0, false
	}
	src := lines[n.Line-1]
	start := byteIndexOfColumn(src, n.Column)
	if start < 0 {
		return 0, false
	}
	switch n.Style {
	case 0, yaml.TaggedStyle:
		if strings.HasPrefix(src[start:], n.Value) {
			return n.Column - 1, true
		}
	case yaml.SingleQuotedStyle, yaml.DoubleQuotedStyle:
		q := src[start]
		end := start + 1 + len(n.Value)
		if end < len(src) && src[end] == q && src[start+1:end] == n.Value && !strings.ContainsAny(n.Value, "\\'\"") {
			return n.Column, true
		}
	}
	return 0, false
}

// literalMapper maps a "|" block scalar: its content starts on the line after
// the indicator, every line indented by the same amount.
func literalMapper(lines []string, n *yaml.Node) (offsetMapper, bool) {
	first := n.Line // 0-based index of the first content line
	indent := -1
	for i := first; i < len(lines); i++ {
		l := lines[i]
		if strings.TrimSpace(l) == "" {
			continue
		}
		indent = len(l) - len(strings.TrimLeft(l, " "))
		break
	}
	if indent < 0 {
		return nil, false
	}
	starts := lineStarts(n.Value)
	for i, s := range starts {
		end := len(n.Value)
		if i+1 < len(starts) {
			end = starts[i+1] - 1
		} else if strings.HasSuffix(n.Value, "\n") {
			end--
		}
		want := n.Value[s:end]
		if first+i >= len(lines) {
			return nil, false
		}
		l := lines[first+i]
		if want == "" {
			if strings.TrimSpace(l) != "" {
				return nil, false
			}
			continue
		}
		if len(l) < indent || l[indent:] != want {
			return nil, false
		}
	}
	return lineMapper{value: n.Value, lineStarts: starts, firstLine: first + 1, firstShift: indent, shift: indent}, true
}

// quotedMapper walks a single- or double-quoted scalar in its source, decoding
// escapes and line folding, and records where each byte of the value came
// from.
func quotedMapper(lines []string, n *yaml.Node, start int) (offsetMapper, bool) {
	double := n.Style == yaml.DoubleQuotedStyle
	quote := byte('\'')
	if double {
		quote = '"'
	}
	var out []byte
	var ml, mc []int32
	emit := func(b []byte, line, col int) {
		for _, c := range b {
			out = append(out, c)
			ml = append(ml, int32(line))
			mc = append(mc, int32(col))
		}
	}
	li := n.Line - 1
	src := lines[li]
	if start >= len(src) || src[start] != quote {
		return nil, false
	}
	i := start + 1
	col := n.Column + 1
	pendingBreaks := 0
	kept := 0 // bytes of out that folding must not trim (escaped blanks)
	for {
		if i >= len(src) {
			// line break inside the scalar: fold
			li++
			if li >= len(lines) {
				return nil, false
			}
			// drop trailing blanks already emitted on the previous line
			for len(out) > kept && (out[len(out)-1] == ' ' || out[len(out)-1] == '\t') {
				out, ml, mc = out[:len(out)-1], ml[:len(ml)-1], mc[:len(mc)-1]
			}
			src = lines[li]
			trimmed := strings.TrimLeft(src, " \t")
			if trimmed == "" {
				pendingBreaks++
				i = len(src)
				continue
			}
			i = len(src) - len(trimmed)
			col = 1 + utf8.RuneCountInString(src[:i])
			if pendingBreaks == 0 {
				emit([]byte{' '}, li+1, col)
			} else {
				for ; pendingBreaks > 0; pendingBreaks-- {
					emit([]byte{'\n'}, li+1, col)
				}
			}
			continue
		}
		c := src[i]
		switch {
		case c == quote && !double && i+1 < len(src) && src[i+1] == '\'':
			emit([]byte{'\''}, li+1, col)
			i += 2
			col += 2
		case c == quote:
			if string(out) != n.Value {
				return nil, false
			}
			return tableMapper{line: ml, col: mc, endLine: li + 1, endCol: col}, true
		case c == '\\' && double:
			if i+1 >= len(src) {
				// escaped line break: join without a space
				li++
				if li >= len(lines) {
					return nil, false
				}
				src = lines[li]
				trimmed := strings.TrimLeft(src, " \t")
				i = len(src) - len(trimmed)
				col = 1 + utf8.RuneCountInString(src[:i])
				continue
			}
			dec, width, ok := unescape(src[i+1:])
			if !ok {
				return nil, false
			}
			emit(dec, li+1, col)
			kept = len(out)
			col += 1 + utf8.RuneCountInString(src[i+1:i+1+width])
			i += 1 + width
		default:
			_, size := utf8.DecodeRuneInString(src[i:])
			emit([]byte(src[i:i+size]), li+1, col)
			i += size
			col++
		}
	}
}

// unescape decodes one YAML double-quoted escape sequence (without its
// backslash) and reports how many source bytes it used.
func unescape(s string) ([]byte, int, bool) {
	if s == "" {
		return nil, 0, false
	}
	simple := map[byte]string{'0': "\x00", 'a': "\a", 'b': "\b", 't': "\t", '\t': "\t", 'n': "\n", 'v': "\v",
		'f': "\f", 'r': "\r", 'e': "\x1b", ' ': " ", '"': "\"", '/': "/", '\\': "\\",
		'N': "\u0085", '_': "\u00a0", 'L': "\u2028", 'P': "\u2029"}
	if r, ok := simple[s[0]]; ok {
		return []byte(r), 1, true
	}
	width := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[0]]
	if width == 0 || len(s) < 1+width {
		return nil, 0, false
	}
	var v rune
	for _, h := range s[1 : 1+width] {
		var d rune
		switch {
		case h >= '0' && h <= '9':
			d = h - '0'
		case h >= 'a' && h <= 'f':
			d = h - 'a' + 10
		case h >= 'A' && h <= 'F':
			d = h - 'A' + 10
		default:
			return nil, 0, false
		}
		v = v*16 + d
	}
	return []byte(string(v)), 1 + width, true
}

// splitLines splits text into lines at every line break yaml.v3 counts:
// "\r\n", "\r", "\n", and the Unicode breaks NEL, LS and PS. It returns each
// line's text and its byte offset, so positions agree with yaml.v3's.
func splitLines(s string) (lines []string, starts []int) {
	lines = lineTexts(s)
	return lines, textStarts(s, lines)
}

// lineTexts is the lines of splitLines without their offsets: what most
// readers of a document's lines need (snippets, comments, edits), 8 bytes
// a line less.
func lineTexts(s string) []string {
	// sized for the usual line breaks, so a large file is not copied as
	// the slice grows
	lines := make([]string, 0, strings.Count(s, "\n")+1)
	start := 0
	if strings.IndexByte(s, '\r') < 0 && !strings.Contains(s, "\u0085") && !strings.Contains(s, "\u2028") && !strings.Contains(s, "\u2029") {
		// only \n breaks lines: find them with the vectorised search
		for {
			i := strings.IndexByte(s[start:], '\n')
			if i < 0 {
				break
			}
			lines = append(lines, s[start:start+i])
			start += i + 1
		}
		return append(lines, s[start:])
	}
	for i := 0; i < len(s); {
		width := breakWidth(s, i)
		if width == 0 {
			i++
			continue
		}
		lines = append(lines, s[start:i])
		i += width
		start = i
	}
	return append(lines, s[start:])
}

// breakWidth is the length of the line break at s[i], 0 when there is none.
func breakWidth(s string, i int) int {
	switch {
	case s[i] == '\n':
		return 1
	case s[i] == '\r':
		if i+1 < len(s) && s[i+1] == '\n' {
			return 2
		}
		return 1
	case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x85:
		return 2
	case s[i] == 0xe2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xa8 || s[i+2] == 0xa9):
		return 3
	}
	return 0
}

// textStarts is the byte offset of each of s's lines (lineTexts): each
// line starts after the previous one and the break that ends it.
func textStarts(s string, lines []string) []int {
	starts := make([]int, len(lines))
	at := 0
	for i, l := range lines {
		starts[i] = at
		at += len(l)
		if at < len(s) {
			at += breakWidth(s, at)
		}
	}
	return starts
}

// splits caches the line split of the byte slices a Document holds. The
// outer source, the config text and the parsed text are the same bytes for
// a raw file, so a large file is split into lines once, on first use, and
// the lines share the file's memory; the offsets of the lines are worked
// out only when asked for.
type splits struct {
	mu      sync.Mutex
	entries []splitEntry
}

type splitEntry struct {
	data   *byte
	n      int
	lines  []string
	starts []int // nil until startsOf
}

// of returns the lines of b. b must not be modified afterwards: the lines
// alias it.
func (s *splits) of(b []byte) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.entry(b).lines
}

// startsOf returns the byte offset of each line of b.
func (s *splits) startsOf(b []byte) ([]string, []int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.entry(b)
	if e.starts == nil {
		e.starts = textStarts(unsafe.String(unsafe.SliceData(b), len(b)), e.lines)
	}
	return e.lines, e.starts
}

func (s *splits) entry(b []byte) *splitEntry {
	p := unsafe.SliceData(b)
	for i := range s.entries {
		if e := &s.entries[i]; e.data == p && e.n == len(b) {
			return e
		}
	}
	s.entries = append(s.entries, splitEntry{data: p, n: len(b), lines: lineTexts(unsafe.String(p, len(b)))})
	return &s.entries[len(s.entries)-1]
}

// cursors remember, per scalar and per line, how far positions were last
// counted, so that the positions of a million names in one ACL (or one
// line) cost one pass over it, not one pass each. Rules run concurrently,
// so the memory is guarded; each answer is the same as counting from the
// start.
type cursors struct {
	mu     sync.Mutex
	shifts map[*yaml.Node]shiftMemo
	runeAt map[*yaml.Node][2]int // byte offset -> rune count, last asked
	byteAt map[int][2]int        // line -> column, byte index, last asked
}

type shiftMemo struct {
	shift int
	ok    bool
}

// shift is singleLineShift, once per scalar.
func (c *cursors) shift(lines []string, n *yaml.Node) (int, bool) {
	c.mu.Lock()
	m, seen := c.shifts[n]
	c.mu.Unlock()
	if seen {
		return m.shift, m.ok
	}
	s, ok := singleLineShift(lines, n)
	c.mu.Lock()
	if c.shifts == nil {
		c.shifts = map[*yaml.Node]shiftMemo{}
	}
	c.shifts[n] = shiftMemo{s, ok}
	c.mu.Unlock()
	return s, ok
}

// runes counts the runes of n.Value before byte off.
func (c *cursors) runes(n *yaml.Node, off int) int {
	c.mu.Lock()
	last, seen := c.runeAt[n]
	c.mu.Unlock()
	var r int
	if seen && last[0] <= off {
		r = last[1] + utf8.RuneCountInString(n.Value[last[0]:off])
	} else {
		r = utf8.RuneCountInString(n.Value[:off])
	}
	c.mu.Lock()
	if c.runeAt == nil {
		c.runeAt = map[*yaml.Node][2]int{}
	}
	c.runeAt[n] = [2]int{off, r}
	c.mu.Unlock()
	return r
}

// byteIndex is byteIndexOfColumn(l, col) for line number line.
func (c *cursors) byteIndex(line int, l string, col int) int {
	c.mu.Lock()
	last, seen := c.byteAt[line]
	c.mu.Unlock()
	var i int
	if seen && last[0] <= col && last[1] >= 0 {
		// count on from the column asked last
		i = byteIndexOfColumn(l[last[1]:], col-last[0]+1)
		if i >= 0 {
			i += last[1]
		}
	} else {
		i = byteIndexOfColumn(l, col)
	}
	if i >= 0 {
		c.mu.Lock()
		if c.byteAt == nil {
			c.byteAt = map[int][2]int{}
		}
		c.byteAt[line] = [2]int{col, i}
		c.mu.Unlock()
	}
	return i
}
