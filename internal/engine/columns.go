package engine

import (
	"sort"
	"sync"
	"unicode/utf8"
)

// Columns maps between a byte in a line and its character column, for
// lines of any length. A position is found by walking its line from the
// start, which a one-line file (XML or JSON written on one line, of
// hundreds of kilobytes) turns into a walk per value: quadratic. A line
// past a few hundred bytes is marked once instead, at every 64th
// character, and each position is walked from the nearest mark. The
// caller owns the lines: it names each by its index and passes its text,
// the same text each time.
type Columns struct {
	mu    sync.Mutex
	marks map[int][]int
}

// columnStep is how many characters lie between two marks, and
// columnLong the length past which a line is marked.
const (
	columnStep = 64
	columnLong = 4 * columnStep
)

// lineMarks are the byte offsets of characters 0, 64, 128, ... of line i
// (text l); nil for a short line.
func (c *Columns) lineMarks(i int, l string) []int {
	if c == nil || len(l) <= columnLong {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if m, ok := c.marks[i]; ok {
		return m
	}
	var m []int
	n := 0
	for b := range l {
		if n%columnStep == 0 {
			m = append(m, b)
		}
		n++
	}
	if c.marks == nil {
		c.marks = map[int][]int{}
	}
	c.marks[i] = m
	return m
}

// ByteOf is the byte index in line i (text l) of character column col
// (1-based), clamped to the line.
func (c *Columns) ByteOf(i int, l string, col int) int {
	from, at := 0, 1
	if m := c.lineMarks(i, l); m != nil && col > 1 {
		k := min((col-1)/columnStep, len(m)-1)
		from, at = m[k], 1+k*columnStep
	}
	for b := range l[from:] {
		if at >= col {
			return from + b
		}
		at++
	}
	return len(l)
}

// ColOf is the character column (1-based) of byte b of line i (text l).
func (c *Columns) ColOf(i int, l string, b int) int {
	b = max(0, min(b, len(l)))
	from, col := 0, 1
	if m := c.lineMarks(i, l); m != nil {
		k := sort.SearchInts(m, b+1) - 1
		from, col = m[k], 1+k*columnStep
	}
	return col + utf8.RuneCountInString(l[from:b])
}

// TokenEnd is the byte just past the YAML token that starts at byte i of
// line l: a quoted scalar to its closing quote, a plain one to the next
// space, separator or comment; at least one character when the line has
// one. The editor's hover and outline ranges are these tokens.
func TokenEnd(l string, i int) int {
	if i < 0 || i > len(l) {
		return i
	}
	j := i
	switch {
	case i < len(l) && (l[i] == '"' || l[i] == '\''):
		q := l[i]
		for j = i + 1; j < len(l); j++ {
			if l[j] == '\\' && q == '"' {
				j++
				continue
			}
			if l[j] == q {
				if q == '\'' && j+1 < len(l) && l[j+1] == '\'' {
					j++
					continue
				}
				return j + 1
			}
		}
		return len(l)
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
	return j
}
