package mesos

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// JSONKind is the type of a JSON value.
type JSONKind uint8

// The JSON value types, named as Mesos names them in its errors
// ("Not expecting a JSON number for field ...").
const (
	JSONNull JSONKind = iota
	JSONBool
	JSONNumber
	JSONString
	JSONArray
	JSONObject
)

func (k JSONKind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// Value is a parsed JSON value with the byte offset where it starts.
type Value struct {
	Text string // a string's decoded text; a number's literal
	// kids are an array's elements or an object's members; nil for a
	// scalar and an empty container. A file holds a Value per JSON value,
	// most of them strings: what only containers have is held apart, and
	// each byte left out is memory the parse never writes.
	kids *kids
	Off  int
	Kind JSONKind
	Bool bool
}

// kids are what a container holds.
type kids struct {
	elems   []*Value
	members []*Member
}

// Elems are an array's elements, in order.
func (v *Value) Elems() []*Value {
	if v.kids == nil {
		return nil
	}
	return v.kids.elems
}

// Members are an object's members in file order, repeated keys too.
func (v *Value) Members() []*Member {
	if v.kids == nil {
		return nil
	}
	return v.kids.members
}

// Member is one key of an object. Every key is kept in file order, also
// repeated ones; Mesos keeps the last (Shadowed marks the others).
type Member struct {
	Key      string
	KeyOff   int
	Value    *Value
	Shadowed bool
}

// Get returns the value Mesos reads for key: the last member with it.
func (v *Value) Get(key string) *Member {
	var found *Member
	for _, m := range v.Members() {
		if m.Key == key {
			found = m
		}
	}
	return found
}

// SyntaxError is input Mesos' JSON parser refuses. Msg is Mesos' own text.
type SyntaxError struct {
	Off int
	Msg string
	// Trailing is true for text after a complete JSON value.
	Trailing bool
}

// maxDepth is stout's STOUT_JSON_MAX_DEPTH: nesting deeper than this many
// arrays and objects is a syntax error.
const maxDepth = 200

// ParseJSON parses data as Mesos does (stout's JSON::parse over picojson
// 1.3.0): standard JSON, except that any byte other than a control
// character may appear in strings, numbers may have leading zeros, a key
// may repeat, nesting stops at 200 levels, numbers that overflow a double
// are an error, and nothing but blanks may follow the value. The top-level
// value is returned whatever its type.
func ParseJSON(data []byte) (*Value, *SyntaxError) { return parseJSON(data, string(data)) }

// parseJSON is ParseJSON over data and the same bytes as a string, which
// the values' strings are cut from: a caller that keeps the text too (a
// Document, for its lines) converts the file once.
func parseJSON(data []byte, text string) (*Value, *SyntaxError) {
	p := &jsonParser{src: data, text: text, lastCh: -1, line: 1, failAt: -1}
	v, ok := p.value(maxDepth)
	if !ok {
		if p.err != nil {
			return nil, p.err
		}
		return nil, &SyntaxError{Off: p.errOff(), Msg: p.syntaxMessage()}
	}
	// stout compares where picojson stopped with the last non-blank byte.
	// A top-level number stops one byte late (it reads the byte after it),
	// so even a blank after one is "trailing", shown as what follows it.
	end := p.cur
	last := len(data) - 1
	for last >= 0 && isJSONSpace(data[last]) {
		last--
	}
	if end != last+1 {
		first, text := end, ""
		if last+1 > end {
			text = string(data[end : last+1])
			for first < len(data) && isJSONSpace(data[first]) {
				first++
			}
		} else {
			first, text = last+1, string(data[end:])
		}
		return nil, &SyntaxError{Off: first, Trailing: true,
			Msg: "Parsed JSON included non-whitespace trailing characters: " + text}
	}
	return v, nil
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// jsonParser reads bytes the way picojson's input class does: one byte
// of look-back (unget), and a line counter that moves when the byte after
// a newline is read. The line counter and the unget rule decide the text of
// Mesos' syntax errors.
type jsonParser struct {
	src    []byte
	text   string // src as a string: unescaped strings are slices of it
	values []Value
	member []Member
	kids   []kids
	cur    int
	lastCh int
	ungot  bool
	line   int
	err    *SyntaxError // a failure with its own message (Value out of range)
	failAt int          // offset to point at for a failure, -1 when unset
}

func (p *jsonParser) getc() int {
	if p.ungot {
		p.ungot = false
		return p.lastCh
	}
	if p.cur == len(p.src) {
		p.lastCh = -1
		return -1
	}
	if p.lastCh == '\n' {
		p.line++
	}
	p.lastCh = int(p.src[p.cur])
	p.cur++
	return p.lastCh
}

func (p *jsonParser) ungetc() {
	if p.lastCh != -1 {
		p.ungot = true
	}
}

func (p *jsonParser) skipWS() {
	for {
		c := p.getc()
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			p.ungetc()
			return
		}
	}
}

func (p *jsonParser) expect(c int) bool {
	p.skipWS()
	if p.getc() != c {
		p.ungetc()
		return false
	}
	return true
}

func (p *jsonParser) match(rest string) bool {
	for i := 0; i < len(rest); i++ {
		if p.getc() != int(rest[i]) {
			p.ungetc()
			return false
		}
	}
	return true
}

// offset of the byte the next getc returns.
func (p *jsonParser) next() int {
	if p.ungot {
		return p.cur - 1
	}
	return p.cur
}

// errOff is where a syntax error points: the byte the parser stopped at.
func (p *jsonParser) errOff() int {
	if p.failAt >= 0 {
		return p.failAt
	}
	if p.lastCh == -1 {
		return len(p.src)
	}
	return p.cur - 1
}

// syntaxMessage is picojson's error: the line, then the rest of that line
// from where parsing stopped, without control characters.
func (p *jsonParser) syntaxMessage() string {
	var b strings.Builder
	fmt.Fprintf(&b, "syntax error at line %d near: ", p.line)
	for {
		c := p.getc()
		if c == -1 || c == '\n' {
			break
		}
		if c >= ' ' {
			b.WriteByte(byte(c))
		}
	}
	return b.String()
}

// str reads a string after its opening quote, as picojson does: any byte
// from 0x20 up is taken as it is (no UTF-8 check), control bytes end it
// with an error, and \u escapes must pair surrogates.
func (p *jsonParser) str() (string, bool) {
	// most strings have no escape: take them from the input in one piece
	if !p.ungot {
		for i := p.cur; i < len(p.src); i++ {
			c := p.src[i]
			if c == '"' {
				s := p.text[p.cur:i]
				p.cur, p.lastCh = i+1, '"'
				return s, true
			}
			if c == '\\' || c < ' ' {
				break
			}
		}
	}
	var b strings.Builder
	for {
		c := p.getc()
		switch {
		case c < ' ':
			p.ungetc()
			return "", false
		case c == '"':
			return b.String(), true
		case c == '\\':
			e := p.getc()
			switch e {
			case '"', '\\', '/':
				b.WriteByte(byte(e))
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				if !p.codepoint(&b) {
					return "", false
				}
			default:
				return "", false
			}
		default:
			b.WriteByte(byte(c))
		}
	}
}

func (p *jsonParser) quadhex() int {
	n := 0
	for i := 0; i < 4; i++ {
		c := p.getc()
		var h int
		switch {
		case c >= '0' && c <= '9':
			h = c - '0'
		case c >= 'A' && c <= 'F':
			h = c - 'A' + 10
		case c >= 'a' && c <= 'f':
			h = c - 'a' + 10
		default:
			p.ungetc()
			return -1
		}
		n = n*16 + h
	}
	return n
}

func (p *jsonParser) codepoint(b *strings.Builder) bool {
	u := p.quadhex()
	if u == -1 {
		return false
	}
	if u >= 0xd800 && u <= 0xdfff {
		if u >= 0xdc00 {
			return false // a second half with no first
		}
		if p.getc() != '\\' || p.getc() != 'u' {
			p.ungetc()
			return false
		}
		second := p.quadhex()
		if second < 0xdc00 || second > 0xdfff {
			return false
		}
		u = ((u-0xd800)<<10 | (second-0xdc00)&0x3ff) + 0x10000
	}
	var buf [4]byte
	n := utf8.EncodeRune(buf[:], rune(u))
	b.Write(buf[:n])
	return true
}

// newValue and newMember allocate from chunks: an --acls file is mostly
// small values, and one allocation per chunk instead of per value halves
// the parser's cost. A chunk is never grown, so the pointers stay valid.
func (p *jsonParser) newValue(v Value) *Value {
	if len(p.values) == cap(p.values) {
		p.values = make([]Value, 0, 512)
	}
	p.values = append(p.values, v)
	return &p.values[len(p.values)-1]
}

func (p *jsonParser) newKids(k kids) *kids {
	if len(p.kids) == cap(p.kids) {
		p.kids = make([]kids, 0, 256)
	}
	p.kids = append(p.kids, k)
	return &p.kids[len(p.kids)-1]
}

func (p *jsonParser) newMember(m Member) *Member {
	if len(p.member) == cap(p.member) {
		p.member = make([]Member, 0, 512)
	}
	p.member = append(p.member, m)
	return &p.member[len(p.member)-1]
}
