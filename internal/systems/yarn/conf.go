package yarn

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Pos is a place in a configuration file: 1-based line and column (in
// bytes), as encoding/xml counts them.
type Pos struct{ Line, Col int }

// Property is one <property> of a Hadoop configuration file, as
// Configuration's parser (org.apache.hadoop.conf.Configuration.Parser, the
// StAX reader of Hadoop 3) reads it.
type Property struct {
	// File is the file it is written in.
	File string
	// Name is the <name> text, trimmed (or the name attribute, as written).
	Name string
	// Value is the <value> text as written: not trimmed. HasValue is false
	// when there is none (no <value>, or an empty one): Configuration then
	// does not set the property at all, so its default applies.
	Value    string
	HasValue bool
	// EmptyValue is set when a <value> element is there but empty: the
	// property is then not set, which is easily taken for "set to empty".
	EmptyValue bool
	// Final is set by <final>true</final> exactly (or final="true").
	Final bool
	// Pos is the <property> element, NamePos the name, ValuePos the first
	// character of the value's text.
	Pos, NamePos, ValuePos Pos
	// Ignored is set when an earlier property of the same name was final:
	// Configuration keeps the earlier one ("an attempt to override final
	// parameter").
	Ignored bool
	// Overridden is set when a later property of the same name replaced
	// this one.
	Overridden bool
	// ReplacedBy is, in an allocation file, the later ACL element of the
	// same queue and kind that replaced this one (in the same <queue>, or
	// in another definition of the queue).
	ReplacedBy *Property

	named bool // a name was given (Hadoop drops a property without one)
	read  bool // the queue tree read it as a queue's ACL
}

// Conf is a Hadoop configuration file: every property in file order, and
// for each name the one Configuration ends up with.
type Conf struct {
	File  string
	Props []*Property
	// Root is the document element's name (Hadoop 3's parser reads
	// <property> elements wherever they are; a file of YARN settings has
	// <configuration> at the top).
	Root    string
	RootPos Pos
	set     map[string]*Property
	final   map[string]bool
	// Unknown lists what aclint cannot read as Hadoop does, with where:
	// an XInclude (Hadoop reads the other file), a DOCTYPE (entities), a
	// CDATA section in a name or value. A question that depends on them
	// is not answered.
	Unknown []Unknown
}

// Unknown is something in a file aclint does not read as Hadoop would.
type Unknown struct {
	File string
	Pos  Pos
	Why  string
}

// String is where and what: "file:line:col: why".
func (u Unknown) String() string {
	return fmt.Sprintf("%s:%d:%d: %s", u.File, u.Pos.Line, u.Pos.Col, u.Why)
}

// FileError is a configuration file that cannot be read: Refused when
// Hadoop refuses it too (it is not well-formed XML), otherwise aclint
// cannot read it as Hadoop does (a character set other than UTF-8, an
// entity a DOCTYPE declares).
type FileError struct {
	File    string
	Pos     Pos
	Refused bool
	Err     error
	// Hint says how to fix it, when the error is one aclint names itself
	Hint string
}

func (e *FileError) Error() string {
	if e.Refused {
		return fmt.Sprintf("%s:%d:%d: not well-formed XML, which Hadoop refuses: %v", e.File, e.Pos.Line, e.Pos.Col, e.Err)
	}
	return fmt.Sprintf("%s:%d:%d: aclint cannot read this as Hadoop does: %v", e.File, e.Pos.Line, e.Pos.Col, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// Get returns the property a name resolves to, when it has a value.
func (c *Conf) Get(name string) (*Property, bool) {
	p, ok := c.set[name]
	return p, ok
}

// IsFinal reports whether a property of this name was marked final.
func (c *Conf) IsFinal(name string) bool { return c.final[name] }

// ReadConf reads a Hadoop configuration file. It follows Configuration's
// StAX parser event by event: <property> starts a property (its name,
// value and final attributes read as written); the text of <name>,
// <value> and <final> (and of anything nested in them) is collected; at
// </name> the name is the text trimmed, at </value> the value is the text
// as written when there is any, at </final> final is the text equal to
// "true"; at </property> a property without a name is dropped. Loading
// then sets a name's value unless an earlier property of that name was
// final, and a final property marks its name final even without a value.
// A file that is not well-formed XML is an error, as it is for Hadoop.
func ReadConf(file string, data []byte) (*Conf, error) {
	r := &confReader{c: &Conf{File: file, set: map[string]*Property{}, final: map[string]bool{}}, file: file, data: data}
	r.d = xml.NewDecoder(bytes.NewReader(data))
	r.d.Strict = true
	r.d.Entity = nil // only XML's own entities; a DOCTYPE's are not expanded
	r.d.CharsetReader = func(label string, in io.Reader) (io.Reader, error) {
		r.otherCharset = true
		return nil, fmt.Errorf("the file declares encoding %q; aclint reads UTF-8 only", label)
	}
	for {
		at := r.pos()
		r.startOff = r.d.InputOffset()
		// RawToken, with the element nesting checked here: Token's
		// namespace translation is work this reader does not need (it
		// reads local names), and the nesting is what makes the file
		// well-formed
		t, err := r.d.RawToken()
		if errors.Is(err, io.EOF) {
			return r.c, r.eof(at)
		}
		if err != nil {
			// after a DOCTYPE, an unknown entity may be one it declares;
			// Go's reader takes XML 1.0 only, Java's 1.1 too
			fe := &FileError{File: file, Pos: at, Refused: !r.doctype && !r.otherCharset && !xml11(data), Err: err}
			return nil, fe.entity(r.doctype)
		}
		if err := r.token(t, at); err != nil {
			return nil, err
		}
	}
}

// confReader is ReadConf's state between tokens.
type confReader struct {
	c                     *Conf
	file                  string
	data                  []byte
	d                     *xml.Decoder
	startOff              int64
	doctype, otherCharset bool
	cur                   *Property
	text                  strings.Builder
	textStart             Pos
	parseText             bool
	depth                 int
	// open elements whose text is collected: Hadoop keeps appending text
	// after they end, but it is only ever read at the end of one of them,
	// which starts by clearing it; so text outside them never counts
	inText   int
	open     []xml.Name
	declared nsScope // the namespace prefixes the open elements declare
}

func (r *confReader) pos() Pos {
	l, col := r.d.InputPos()
	return Pos{l, col}
}

func (r *confReader) refused(at Pos, err error, hint string) error {
	return &FileError{File: r.file, Pos: at, Refused: true, Err: err, Hint: hint}
}

// eof ends the file: every element closed, a root element read.
func (r *confReader) eof(at Pos) error {
	if len(r.open) > 0 {
		return r.refused(at, fmt.Errorf("unexpected EOF: <%s> is not closed", r.open[len(r.open)-1].Local), "")
	}
	if r.c.Root == "" {
		// Java's parser: "Premature end of file"
		return r.refused(at, errors.New("no root element"), "an empty file is not a configuration: write <configuration> with its properties, or remove the file")
	}
	return nil
}

// token reads one token.
func (r *confReader) token(t xml.Token, at Pos) error {
	switch t := t.(type) {
	case xml.StartElement:
		return r.start(t, at)
	case xml.CharData:
		return r.charData(t, at)
	case xml.ProcInst:
		if err := xmlDeclAt(t, r.startOff, r.data); err != nil {
			return r.refused(at, err, xmlDeclHint)
		}
	case xml.Directive:
		if bytes.HasPrefix(bytes.TrimSpace(t), []byte("DOCTYPE")) {
			r.doctype = true
			r.c.Unknown = append(r.c.Unknown, Unknown{r.file, at, "a DOCTYPE: its entities and defaults are not applied by aclint"})
		}
	case xml.EndElement:
		return r.end(t, at)
	}
	return nil
}

func (r *confReader) start(t xml.StartElement, at Pos) error {
	if r.depth == 0 && r.c.Root != "" {
		return r.refused(at, errors.New("a second root element"), "a file has one <configuration>: move the properties into the first one")
	}
	if badCharRef(r.data[r.startOff:r.d.InputOffset()]) {
		return r.refused(at, errBadCharRef, badCharRefHint)
	}
	// Hadoop's reader (Woodstox) is namespace aware: a prefix must be
	// declared by the element or one it is in
	if err := r.declared.push(t); err != nil {
		return err.at(r.file, at)
	}
	r.open = append(r.open, t.Name)
	r.depth++
	if r.depth == 1 {
		r.c.Root, r.c.RootPos = t.Name.Local, at
	}
	if a, twice := duplicateAttr(t.Attr); twice {
		return r.refused(at, fmt.Errorf("attribute %q twice in <%s>", a.Local, t.Name.Local), "")
	}
	switch t.Name.Local {
	case "property":
		r.cur = &Property{File: r.file, Pos: at}
		for _, a := range t.Attr {
			switch a.Name.Local {
			case "name":
				r.cur.Name, r.cur.NamePos, r.cur.named = a.Value, at, true
			case "value":
				r.cur.Value, r.cur.HasValue, r.cur.ValuePos = a.Value, true, at
			case "final":
				r.cur.Final = a.Value == "true"
			}
		}
	case "name", "value", "final", "source", "tag":
		r.parseText = true
		r.inText++
		r.text.Reset()
		r.textStart = r.pos()
	case "include":
		r.c.Unknown = append(r.c.Unknown, Unknown{r.file, at, "an XInclude: Hadoop reads the included file into this one, aclint does not follow it"})
	}
	return nil
}

func (r *confReader) charData(t xml.CharData, at Pos) error {
	cdata := bytes.HasPrefix(r.data[r.startOff:], []byte("<![CDATA["))
	if !cdata && badCharRef(r.data[r.startOff:r.d.InputOffset()]) {
		return r.refused(at, errBadCharRef, badCharRefHint)
	}
	if r.startOff == 0 {
		t = bytes.TrimPrefix(t, []byte(bom)) // a byte order mark may start the file
	}
	if r.depth == 0 && (len(bytes.Trim(t, " \t\r\n")) > 0 || cdata) {
		// XML allows only white space outside the root element (Java's
		// parser: "Content is not allowed in prolog" or "in trailing
		// section")
		return r.refused(at, errors.New("text outside the root element"), "outside <configuration> ... </configuration>, only comments and blanks may stand: move the text in, or remove it")
	}
	if r.parseText && r.inText > 0 {
		if cdata && r.cur != nil {
			r.c.Unknown = append(r.c.Unknown, Unknown{r.file, at, "a CDATA section: Hadoop's XML reader may report it apart from the text around it, and aclint cannot tell what the value is"})
		}
		r.text.Write(t)
	}
	return nil
}

func (r *confReader) end(t xml.EndElement, at Pos) error {
	if len(r.open) == 0 || r.open[len(r.open)-1] != t.Name {
		return r.refused(at, fmt.Errorf("unexpected end element </%s>", t.Name.Local), "")
	}
	r.open = r.open[:len(r.open)-1]
	r.declared.pop()
	r.depth--
	switch t.Name.Local {
	case "name", "value", "final", "source", "tag":
		r.inText--
	}
	cur := r.cur
	if cur == nil {
		return nil
	}
	text := r.text.String()
	switch t.Name.Local {
	case "name":
		if text != "" {
			cur.Name, cur.NamePos, cur.named = javaTrim(text), r.textStart, true
		}
	case "value":
		if text != "" {
			cur.Value, cur.HasValue, cur.ValuePos, cur.EmptyValue = text, true, r.textStart, false
		} else if !cur.HasValue {
			cur.EmptyValue, cur.ValuePos = true, r.textStart
		}
	case "final":
		cur.Final = text == "true"
	case "property":
		if cur.named {
			r.c.load(cur)
		}
		r.cur = nil
	}
	return nil
}

// load is Configuration.loadProperty for one parsed property.
func (c *Conf) load(p *Property) {
	c.Props = append(c.Props, p)
	if p.HasValue {
		if c.final[p.Name] {
			p.Ignored = true
		} else {
			if prev := c.set[p.Name]; prev != nil {
				prev.Overridden = true
			}
			c.set[p.Name] = p
		}
	}
	if p.Final {
		c.final[p.Name] = true
	}
}

// bom is the UTF-8 byte order mark, which may start an XML file.
const bom = "\xef\xbb\xbf"

// xmlDeclHint is how to fix what xmlDeclAt refuses.
const xmlDeclHint = "remove what stands before <?xml version=\"1.0\"?> (a blank line, a comment, a byte order mark written twice), or remove the declaration"

// xmlDeclAt refuses what Java's XML parsers refuse of a processing
// instruction whose target is xml in any case: it is reserved for the XML
// declaration, which must be written <?xml and come first in the file
// (after a byte order mark only). A blank line before <?xml makes Hadoop
// refuse the file.
func xmlDeclAt(pi xml.ProcInst, off int64, data []byte) error {
	if !strings.EqualFold(pi.Target, "xml") {
		return nil
	}
	start := int64(0)
	if bytes.HasPrefix(data, []byte(bom)) {
		start = int64(len(bom))
	}
	if pi.Target != "xml" || off != start {
		return errors.New("an XML declaration (<?xml ...?>) is allowed only at the very start of the file, written in lower case")
	}
	return nil
}

// errBadCharRef and its hint: a character reference to a character XML
// does not allow.
var errBadCharRef = errors.New("a character reference to a character XML does not allow (&#0;, a surrogate such as &#xD800;, &#xFFFE;)")

const badCharRefHint = "write the character itself, or remove the reference"

// badCharRef reports whether raw, the text of a token as written, holds a
// character reference to a character outside XML's Char production: Go's
// reader takes them, Java's parsers refuse the file.
func badCharRef(raw []byte) bool {
	for {
		i := bytes.Index(raw, []byte("&#"))
		if i < 0 {
			return false
		}
		raw = raw[i+2:]
		j := bytes.IndexByte(raw, ';')
		if j < 0 {
			return false
		}
		num, base := string(raw[:j]), 10
		if strings.HasPrefix(num, "x") {
			num, base = num[1:], 16
		}
		v, err := strconv.ParseUint(num, base, 32)
		if err != nil || !xmlChar(rune(v)) {
			return true
		}
		raw = raw[j+1:]
	}
}

// xmlChar is XML 1.0's Char production.
func xmlChar(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// xml11 reports whether a file declares XML 1.1, which Java's parsers
// read and Go's does not: aclint cannot tell what Hadoop reads then.
func xml11(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte(bom))
	end := bytes.Index(data, []byte("?>"))
	if !bytes.HasPrefix(data, []byte("<?xml")) || end < 0 {
		return false
	}
	decl := data[:end]
	return bytes.Contains(decl, []byte(`version="1.1"`)) || bytes.Contains(decl, []byte(`version='1.1'`))
}

// entity names the real cause when the error is an entity reference after
// a DOCTYPE: aclint does not expand the entities a DOCTYPE declares, so
// "invalid character entity &x;" would blame the reference for what is the
// DOCTYPE's.
func (e *FileError) entity(doctype bool) *FileError {
	var se *xml.SyntaxError
	if !doctype || !errors.As(e.Err, &se) {
		return e
	}
	name, ok := strings.CutPrefix(se.Msg, "invalid character entity ")
	if !ok {
		return e
	}
	name = strings.TrimSuffix(name, " (no semicolon)")
	e.Err = fmt.Errorf("the entity reference %s is not expanded: aclint does not apply the DOCTYPE that declares it, nor expand its entities", name)
	e.Hint = "write the value itself in place of the entity and remove the DOCTYPE; aclint then reads the file as Hadoop does"
	return e
}

// nsError is a namespace error of one element, with its fix.
type nsError struct{ err, hint string }

func (e *nsError) at(file string, pos Pos) *FileError {
	return &FileError{File: file, Pos: pos, Refused: true, Err: errors.New(e.err), Hint: e.hint}
}

// nsScope holds the namespace prefixes the open elements declare, as a
// count per prefix and one frame per element, so that a look-up costs the
// same however deep the element or however many prefixes are in force.
type nsScope struct {
	count  map[string]int
	frames [][]string
}

// push checks an element's names as a namespace-aware reader (Hadoop's,
// Woodstox) does, and opens its frame: a prefix must be declared on the
// element or one around it, bound to a URI that is not empty, and no
// element is named xmlns:*.
func (s *nsScope) push(t xml.StartElement) *nsError {
	var mine []string
	for _, a := range t.Attr {
		if a.Name.Space == "xmlns" {
			if a.Value == "" {
				return &nsError{fmt.Sprintf("xmlns:%s binds the prefix to an empty namespace name", a.Name.Local), "give the prefix a URI, or remove the declaration"}
			}
			mine = append(mine, a.Name.Local)
		}
	}
	if len(mine) > 0 && s.count == nil {
		s.count = map[string]int{}
	}
	for _, p := range mine {
		s.count[p]++
	}
	s.frames = append(s.frames, mine)
	if t.Name.Space == "xmlns" {
		return &nsError{fmt.Sprintf("the element <xmlns:%s>: the prefix xmlns is reserved", t.Name.Local), "rename the element"}
	}
	check := func(n xml.Name) *nsError {
		if n.Space == "" || n.Space == "xml" || s.count[n.Space] > 0 {
			return nil
		}
		return &nsError{fmt.Sprintf("undeclared namespace prefix %q in %s:%s", n.Space, n.Space, n.Local),
			fmt.Sprintf("declare it (xmlns:%s=\"...\" on this element or one around it), or write the name without a prefix", n.Space)}
	}
	if err := check(t.Name); err != nil {
		return err
	}
	for _, a := range t.Attr {
		if a.Name.Space != "xmlns" {
			if err := check(a.Name); err != nil {
				return err
			}
		}
	}
	return nil
}

// pop closes the innermost element's frame.
func (s *nsScope) pop() {
	last := s.frames[len(s.frames)-1]
	for _, p := range last {
		s.count[p]--
	}
	s.frames = s.frames[:len(s.frames)-1]
}

// duplicateAttr reports an attribute name given twice in one element, which
// both of Hadoop's XML readers refuse. Compared pairwise while the list is
// short, through a set past that: an element of 80,000 attributes is read
// in linear time, not in 3.2 billion comparisons.
func duplicateAttr(attrs []xml.Attr) (xml.Name, bool) {
	if len(attrs) <= 16 {
		for i, a := range attrs {
			for _, o := range attrs[:i] {
				if a.Name == o.Name {
					return a.Name, true
				}
			}
		}
		return xml.Name{}, false
	}
	seen := make(map[xml.Name]struct{}, len(attrs))
	for _, a := range attrs {
		if _, ok := seen[a.Name]; ok {
			return a.Name, true
		}
		seen[a.Name] = struct{}{}
	}
	return xml.Name{}, false
}
