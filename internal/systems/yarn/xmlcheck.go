package yarn

// What makes a file well-formed XML as Hadoop's readers take it (Woodstox
// for configuration files, the JDK's DOM for allocation files): the XML
// declaration, character references, namespaces, attributes; both ReadConf
// and ReadFS hold their files to it.

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

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
