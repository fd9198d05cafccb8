package yarn

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
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
