package config

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// ProblemKind classifies what the loader found wrong with the YAML itself or
// with its shape, before any YuniKorn semantics.
type ProblemKind int

const (
	SyntaxError      ProblemKind = iota // not valid YAML
	UnquotedWildcard                    // an ACL value starting with a plain "*"
	UnknownKey                          // a key YuniKorn's strict decoder rejects
	WrongType                           // a value YuniKorn cannot decode into its field
	DuplicateKey                        // the same key twice in one mapping
	ExtraDocument                       // a raw config with more than one YAML document
)

// Problem is something the loader found, with the position of the offending
// value and a suggested fix.
type Problem struct {
	Kind    ProblemKind
	Pos     Position
	Message string
	Hint    string
	fix     *Edit // the certain fix, when there is one
}

// Document is one queue config: a raw queues.yaml, or the value of a
// ConfigMap key. Text is what YuniKorn would parse; Source is the file a person
// opens, and all positions are given in it.
type Document struct {
	File   string // path as given on the command line; "<stdin>" for "-"
	Source []byte // the outer file
	Text   []byte // the queue config text

	// Set when the config is embedded in a ConfigMap.
	ConfigMap string // metadata.name
	Key       string // the data or binaryData key
	Gzipped   bool

	// Settings are the ConfigMap's other data keys (nil for a raw file).
	Settings map[string]Setting

	Root     *yaml.Node // the first document's top node; nil when empty or unparseable
	Problems []Problem  // YAML-level problems, found while parsing
	Docs     int        // number of YAML documents in Text

	zeroBytes bool   // the config text, before any decoding, is zero bytes
	absentKey string // set on AbsentKeyDocument: why there is no config text

	parsed    []byte       // Text as parsed, after recovery quoted broken values
	splits    splits       // line splits of Source, Text and parsed, on first use
	outer     offsetMapper // Text offsets -> Source positions; nil for raw files
	innerName string       // how to name Text when positions are not exact
	patched   map[[2]int]bool
}

// Empty reports whether the config is zero bytes long, the only case in
// which YuniKorn falls back to its built-in default. A config of blank lines
// or comments is not empty: YuniKorn parses it and finds no partitions.
func (d *Document) Empty() bool {
	return d.zeroBytes
}

// Lines returns the lines of the outer source, for showing snippets.
func (d *Document) Lines() []string {
	lines, _ := d.splits.of(d.Source)
	return lines
}

// Pos maps a line and column of Text to a position in the outer file.
func (d *Document) Pos(line, col int) Position {
	if d.outer == nil {
		return Position{File: d.File, Line: line, Col: col}
	}
	off := d.offsetOf(line, col)
	l, c, exact := d.outer.at(off)
	p := Position{File: d.File, Line: l, Col: c}
	if !exact {
		p.Inner = fmt.Sprintf("%s:%d:%d", d.innerName, line, col)
	}
	return p
}

func (d *Document) offsetOf(line, col int) int {
	if line < 1 {
		return 0
	}
	lines, starts := d.splits.of(d.Text)
	if line > len(starts) {
		return len(d.Text)
	}
	start := starts[line-1]
	l := lines[line-1]
	i := byteIndexOfColumn(l, col)
	if i < 0 {
		i = len(l)
	}
	return start + i
}

// NodePos is the position of a node.
func (d *Document) NodePos(n *yaml.Node) Position {
	if n == nil {
		return d.Pos(1, 1)
	}
	return d.Pos(n.Line, n.Column)
}

// ValuePos is the position of byte off of scalar n's value, so that a finding
// about one name inside an ACL lands on that name.
func (d *Document) ValuePos(n *yaml.Node, off int) Position {
	if n == nil || n.Kind != yaml.ScalarNode {
		return d.NodePos(n)
	}
	if d.patched[[2]int{n.Line, n.Column}] {
		// a plain value the loader quoted to recover from a YAML error
		return d.Pos(n.Line, n.Column+utf8.RuneCountInString(n.Value[:clamp(off, len(n.Value))]))
	}
	lines, _ := d.splits.of(d.parsed)
	if shift, ok := singleLineShift(lines, n); ok {
		// the usual case, without building a mapper
		return d.Pos(n.Line, shift+1+utf8.RuneCountInString(n.Value[:clamp(off, len(n.Value))]))
	}
	l, c, _ := newScalarMapper(lines, n).at(off)
	return d.Pos(l, c)
}

func clamp(v, hi int) int {
	if v < 0 {
		return 0
	}
	if v > hi {
		return hi
	}
	return v
}

// newDocument parses text as a raw queue config read from file.
func newDocument(file string, source, text []byte) *Document {
	return (&Document{File: file, Source: source}).init(text)
}

// init sets the config text and parses it.
func (d *Document) init(text []byte) *Document {
	d.zeroBytes = len(text) == 0
	text = normalize(text)
	d.Text = text
	d.patched = map[[2]int]bool{}
	d.parsed = text
	d.parse()
	return d
}

var (
	lineRe          = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	unknownAnchorRe = regexp.MustCompile(`unknown anchor '([^']*)' referenced`)
	// a plain scalar starting with '*' after "key:" or a "- " item marker
	starValueRe = regexp.MustCompile(`^(\s*(?:-\s+)*)(?:([^\s#'"][^:#]*?|"[^"]*"|'[^']*')\s*:\s+)?(\*[^#]*?)\s*(#.*)?$`)
)

// parserProblems are yaml.v3's parser (not scanner) errors. yaml.v3 reports
// their line 0-based, one less than an editor shows.
var parserProblems = map[string]bool{
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"did not find expected '-' indicator":    true,
	"did not find expected <document start>": true,
	"did not find expected <stream-start>":   true,
	"did not find expected key":              true,
	"did not find expected node content":     true,
	"found duplicate %TAG directive":         true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found undefined tag handle":             true,
}

// parse decodes Text into a yaml.Node. A value starting with an unquoted "*"
// is a YAML alias and stops yaml.v3 at the first one; YuniKorn rejects the
// file. So that every other finding in the file can still be reported, the
// loader records the problem, quotes that value in its private copy of the
// text and parses again.
func (d *Document) parse() {
	text := d.Text
	for attempt := 0; attempt < 1000; attempt++ {
		next := documents(text)
		var n yaml.Node
		err := next(&n)
		if errors.Is(err, io.EOF) {
			return
		}
		if err == nil {
			d.Docs = 1 + laterDocuments(next)
			if len(n.Content) > 0 {
				d.Root = n.Content[0]
			}
			d.parsed = text
			return
		}
		fixed, ok := d.recover(text, err)
		if !ok {
			return
		}
		text = fixed
	}
}

// recover records err as a problem and returns text with the offending value
// quoted, when that is possible.
func (d *Document) recover(text []byte, err error) ([]byte, bool) {
	msg := err.Error()
	lines, starts := splitLines(string(text))
	line := 0
	if m := lineRe.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		if parserProblems[m[2]] {
			line++ // yaml.v3 reports parser errors with a 0-based line
		}
	} else if parserProblems[strings.TrimPrefix(msg, "yaml: ")] {
		line = 1 // a parser error on the first line: yaml.v3 gives no line
	} else if m := unknownAnchorRe.FindStringSubmatch(msg); m != nil {
		line = findAlias(lines, m[1])
	}
	if l, c := locate(msg, lines, line); l > 0 {
		// yaml.v3 names the line of the token before a tab or gives no
		// line for a control character: point at the character itself
		d.Problems = append(d.Problems, Problem{Kind: SyntaxError, Pos: d.Pos(l, c),
			Message: yamlMessage(msg),
			Hint:    locateHint(msg)})
		return nil, false
	}
	if line < 1 || line > len(lines) {
		d.Problems = append(d.Problems, Problem{Kind: SyntaxError, Pos: d.Pos(1, 1),
			Message: yamlMessage(msg),
			Hint:    "fix the YAML syntax; `yamllint` or an editor with YAML support shows the exact spot"})
		return nil, false
	}
	src := lines[line-1]
	m := starValueRe.FindStringSubmatchIndex(src)
	if m == nil || (!strings.Contains(msg, "did not find expected alphabetic or numeric character") && !strings.Contains(msg, "unknown anchor")) {
		col := 1 + utf8.RuneCountInString(src) - utf8.RuneCountInString(strings.TrimLeft(src, " \t-"))
		d.Problems = append(d.Problems, Problem{Kind: SyntaxError, Pos: d.Pos(line, col),
			Message: yamlMessage(msg),
			Hint:    "fix the YAML syntax at this line; YuniKorn rejects the whole file until it parses"})
		return nil, false
	}
	key := ""
	if m[4] >= 0 {
		key = strings.Trim(src[m[4]:m[5]], `"'`)
	}
	value := src[m[6]:m[7]]
	col := 1 + utf8.RuneCountInString(src[:m[6]])
	quoted := "'" + strings.ReplaceAll(value, "'", "''") + "'"
	p := Problem{Pos: d.Pos(line, col)}
	if isACLKey(key) {
		p.Kind = UnquotedWildcard
		p.Message = fmt.Sprintf("%s value %s starts with an unquoted *, which YAML reads as an alias: YuniKorn rejects the file (%s)", key, value, yamlMessage(msg))
		p.Hint = fmt.Sprintf("quote the value: %s: %s", key, strconv.Quote(value))
	} else {
		p.Kind = SyntaxError
		p.Message = fmt.Sprintf("value %s starts with an unquoted *, which YAML reads as an alias (%s)", value, yamlMessage(msg))
		p.Hint = fmt.Sprintf("quote the value: %s", strconv.Quote(value))
	}
	if p.Kind == UnquotedWildcard {
		// quoting is the certain fix for an ACL value only
		if e, ok := d.editSpan(line, col, col+utf8.RuneCountInString(value), Render(value, yaml.DoubleQuotedStyle)); ok {
			p.fix = e
		}
	}
	d.Problems = append(d.Problems, p)
	d.patched[[2]int{line, col}] = true
	at := starts[line-1]
	out := make([]byte, 0, len(text)+len(quoted))
	out = append(out, text[:at+m[6]]...)
	out = append(out, quoted...)
	return append(out, text[at+m[7]:]...), true
}

// locate finds the character a YAML error is about, for the errors whose
// line yaml.v3 reports elsewhere or not at all; it returns 0, 0 otherwise.
func locate(msg string, lines []string, reported int) (int, int) {
	switch {
	case strings.Contains(msg, "tab character"):
		// the first tab in a line's indentation, from the reported line on
		for i := max(reported-1, 0); i < len(lines); i++ {
			l := lines[i]
			indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
			if j := strings.IndexByte(indent, '\t'); j >= 0 {
				return i + 1, 1 + utf8.RuneCountInString(indent[:j])
			}
		}
	case strings.Contains(msg, "control characters are not allowed"):
		for i, l := range lines {
			col := 1
			for _, r := range l {
				if !yamlAllowed(r) {
					return i + 1, col
				}
				col++
			}
		}
	case strings.Contains(msg, "invalid leading UTF-8 octet") || strings.Contains(msg, "invalid trailing UTF-8 octet") || strings.Contains(msg, "incomplete UTF-8 octet sequence"):
		for i, l := range lines {
			if j := firstInvalidUTF8(l); j >= 0 {
				return i + 1, 1 + utf8.RuneCountInString(l[:j])
			}
		}
	}
	return 0, 0
}

func locateHint(msg string) string {
	switch {
	case strings.Contains(msg, "tab character"):
		return "indent with spaces: YAML does not allow tabs in indentation"
	case strings.Contains(msg, "control characters"):
		return "remove the control character (an editor may show it as ^A or a box), or write it as an escape in a double-quoted string"
	}
	return "save the file as UTF-8"
}

// yamlAllowed is yaml.v3's reader check: the characters YAML allows in a
// stream.
func yamlAllowed(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0x7E || r == 0x85 ||
		r >= 0xA0 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

func firstInvalidUTF8(s string) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

func isACLKey(k string) bool {
	k = strings.ToLower(k)
	return k == "submitacl" || k == "adminacl"
}

// findAlias returns the line of the first use of alias *name.
func findAlias(lines []string, name string) int {
	re := regexp.MustCompile(`(^|[\s\[{,])\*` + regexp.QuoteMeta(name) + `($|[\s\]},])`)
	for i, l := range lines {
		if re.MatchString(l) {
			return i + 1
		}
	}
	return 0
}

// yamlMessage strips yaml.v3's "yaml: line N: " prefix: the position is
// reported separately.
func yamlMessage(msg string) string {
	if m := lineRe.FindStringSubmatch(msg); m != nil {
		return "YAML: " + m[2]
	}
	return "YAML: " + strings.TrimPrefix(msg, "yaml: ")
}

// Parse reads data as a raw queue config named file.
func Parse(file string, data []byte) *Document {
	data = normalize(data)
	return newDocument(file, data, data)
}
