package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
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
	// ConfigMapPos is where metadata.name is written in the outer file
	ConfigMapPos Position
	// Helm is set for a Helm values file read as the yunikorn-defaults
	// ConfigMap its chart renders (ConfigMap is then yunikorn-defaults)
	Helm bool
	// HelmUnder is the umbrella chart's key the chart values are under
	HelmUnder string
	Key       string // the data or binaryData key
	Gzipped   bool

	// Settings are the ConfigMap's other data keys (nil for a raw file),
	// or a running scheduler's extra settings.
	Settings map[string]Setting

	// Running is set for a running scheduler's config (GET /ws/v1/config)
	Running *Running

	Root     *yaml.Node // the first document's top node; nil when empty or unparseable
	Problems []Problem  // YAML-level problems, found while parsing
	Docs     int        // number of YAML documents in Text

	zeroBytes bool // the config text, before any decoding, is zero bytes
	// raw is the config text as given, when it is not Text: a byte order
	// mark or UTF-16, which the scheduler hashes as they are
	raw       []byte
	absentKey string // set on AbsentKeyDocument: why there is no config text

	parsed []byte // Text as parsed, after recovery quoted broken values
	splits splits // line splits of Source, Text and parsed, on first use
	// source, when set, splits Source for every document of one file (a
	// file of 4,000 ConfigMaps split itself 4,000 times, 22 s)
	source    *splits
	outer     offsetMapper // Text offsets -> Source positions; nil for raw files
	innerName string       // how to name Text when positions are not exact
	patched   map[[2]int]bool
	cursors   cursors // makes many positions inside one long value or line linear

	// simple is 1 when the tree has no anchor, alias, tag or flow
	// collection (Reparse may reuse it), 2 when it has, 0 before asked
	simple     int8
	simpleOnce sync.Once

	memo     sync.Once
	memoized any
}

// Memo returns what build made of this document the first time it was
// asked (the editor's model of one version): kept with the document, so
// that it goes when the document goes.
func (d *Document) Memo(build func() any) any {
	d.memo.Do(func() { d.memoized = build() })
	return d.memoized
}

// Empty reports whether the config is zero bytes long, the only case in
// which YuniKorn falls back to its built-in default. A config of blank lines
// or comments is not empty: YuniKorn parses it and finds no partitions.
func (d *Document) Empty() bool {
	return d.zeroBytes
}

// Lines returns the lines of the outer source, for showing snippets.
func (d *Document) Lines() []string {
	if d.source != nil {
		return d.source.of(d.Source)
	}
	return d.splits.of(d.Source)
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
	lines, starts := d.splits.startsOf(d.Text)
	if line > len(starts) {
		return len(d.Text)
	}
	start := starts[line-1]
	l := lines[line-1]
	i := d.cursors.byteIndex(line, l, col)
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
	line, col := n.Line, n.Column
	if n.Kind != yaml.ScalarNode || n.Value != "" {
		return d.Pos(line, col) // only an empty node can sit past the last line
	}
	if lines := d.splits.of(d.parsed); line > len(lines) && len(lines) > 0 {
		// an empty node after the last line ("---" alone): the end of the
		// last line, so the position is one the file has
		line, col = len(lines), utf8.RuneCountInString(lines[len(lines)-1])+1
	}
	return d.Pos(line, col)
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
	lines := d.splits.of(d.parsed)
	if shift, ok := d.cursors.shift(lines, n); ok {
		// the usual case, without building a mapper
		return d.Pos(n.Line, shift+1+d.cursors.runes(n, clamp(off, len(n.Value))))
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
	d.keepRaw(text)
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
func (d *Document) parse() { d.parseWith(true) }

// parseWith parses Text, recovering from one error per parse. With batch,
// the first error may instead be answered by quoteStars, which quotes every
// unquoted "*" value at once; without, it is the one-error-per-parse
// reference the batch is held to (TestBatchParseEqualsEach).
func (d *Document) parseWith(batch bool) {
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
		if batch && attempt == 0 && d.quoteStars(text, err) {
			return
		}
		fixed, ok := d.recover(text, err)
		if !ok {
			return
		}
		text = fixed
	}
}

// quoteStars quotes every unquoted "*" value of a one-document config in a
// single pass and parses once, so that 2,000 of them cost two parses, not
// 2,000. err is the first parse's error. It takes the result only when it
// is exactly what recovering one error at a time would find: the first
// error is such a value, no value aliases an anchor the file defines, the
// quoted text parses, and every quoted value is a scalar of the tree (not
// text inside a block scalar). Otherwise it leaves the document untouched
// and returns false.
func (d *Document) quoteStars(text []byte, err error) bool {
	msg := err.Error()
	if !strings.Contains(msg, "did not find expected alphabetic or numeric character") && !unknownAnchorRe.MatchString(msg) {
		return false
	}
	if !singleDocument(text) || bytes.IndexByte(text, '&') >= 0 && anchorRe.Match(text) {
		return false
	}
	lines, starts := splitLines(string(text))
	type patch struct {
		line, col       int
		key, value, msg string
		from, to        int // byte span of the value in text
	}
	var patches []patch
	for i, src := range lines {
		if strings.IndexByte(src, '*') < 0 {
			continue
		}
		m := starValueRe.FindStringSubmatchIndex(src)
		if m == nil {
			continue
		}
		key := ""
		if m[4] >= 0 {
			key = strings.Trim(src[m[4]:m[5]], `"'`)
		}
		value := src[m[6]:m[7]]
		msg := aliasError(value)
		if msg == "" || m[7] < len(src) && src[m[7]] != ' ' && src[m[7]] != '\t' {
			return false // a "#" right after the value is no comment: leave it to parseEach
		}
		patches = append(patches, patch{line: i + 1, col: 1 + utf8.RuneCountInString(src[:m[6]]), key: key, value: value,
			msg: msg, from: starts[i] + m[6], to: starts[i] + m[7]})
	}
	// the first error must be the first value, at the line recover reads
	// from the message (yaml.v3 names no line for an error on line 1)
	if len(patches) == 0 || patches[0].line == 1 {
		return false
	}
	if m := lineRe.FindStringSubmatch(msg); m == nil || parserProblems[m[2]] || m[1] != strconv.Itoa(patches[0].line) {
		return false
	}
	out := make([]byte, 0, len(text)+3*len(patches))
	at := 0
	for _, p := range patches {
		out = append(out, text[at:p.from]...)
		out = append(out, '\'')
		out = append(out, strings.ReplaceAll(p.value, "'", "''")...)
		out = append(out, '\'')
		at = p.to
	}
	out = append(out, text[at:]...)
	next := documents(out)
	var fixed yaml.Node
	if next(&fixed) != nil || len(fixed.Content) == 0 {
		return false
	}
	// every quoted value must be a single-quoted scalar where it was written
	quoted := map[[2]int]string{}
	var walk func(*yaml.Node)
	walk = func(x *yaml.Node) {
		if x.Kind == yaml.ScalarNode && x.Style == yaml.SingleQuotedStyle {
			quoted[[2]int{x.Line, x.Column}] = x.Value
		}
		for _, c := range x.Content {
			walk(c)
		}
	}
	walk(&fixed)
	for _, p := range patches {
		if v, ok := quoted[[2]int{p.line, p.col}]; !ok || v != p.value {
			return false
		}
	}
	for _, p := range patches {
		d.starProblem(p.line, p.col, p.key, p.value, p.msg)
	}
	d.Docs = 1 + laterDocuments(next)
	d.Root = fixed.Content[0]
	d.parsed = out
	return true
}

// anchorRe finds an anchor a file defines: with one, an unquoted "*" may be
// a working alias, and only parseEach tells.
var anchorRe = regexp.MustCompile(`&[0-9A-Za-z_-]`)

// aliasError is yaml.v3's message for an alias value when the file defines
// no anchor, for the two forms whose message is certain: "*" alone or before
// a blank (no alias name), and "*" with a name of [0-9A-Za-z_-] and nothing
// after it (an alias to a missing anchor). For any other form it returns "",
// and the batch leaves the file to parseEach.
func aliasError(value string) string {
	name := value[1:]
	end := 0
	for end < len(name) && (isAlnum(name[end]) || name[end] == '_' || name[end] == '-') {
		end++
	}
	switch {
	case end == 0 && (end == len(name) || name[end] == ' ' || name[end] == '\t'):
		// the scanner stops at the "*" itself
		return "yaml: did not find expected alphabetic or numeric character"
	case end > 0 && end == len(name):
		// an alias alone; with more after it, a scanner error there could
		// come before the composer looks the anchor up
		return fmt.Sprintf("yaml: unknown anchor '%s' referenced", name[:end])
	}
	return ""
}

func isAlnum(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// starProblem records an unquoted "*" value: for an ACL key the error
// unquoted-wildcard with its fix, for another key a syntax error.
func (d *Document) starProblem(line, col int, key, value, msg string) {
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
	d.starProblem(line, col, key, value, msg)
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
	raw := data
	data = normalize(data)
	d := newDocument(file, data, data)
	d.keepRaw(raw)
	return d
}

// keepRaw keeps the text as given when reading it changed it (a byte
// order mark dropped, UTF-16 decoded): the scheduler's checksum is over
// the bytes it was given.
func (d *Document) keepRaw(raw []byte) {
	// normalize changes only a text that starts with one of these
	if bytes.HasPrefix(raw, utf8BOM) || bytes.HasPrefix(raw, []byte{0xFE, 0xFF}) || bytes.HasPrefix(raw, []byte{0xFF, 0xFE}) {
		d.raw = raw
	}
}

// Registered is the text the shim registers with the scheduler, byte for
// byte as it was given (Text is that, read as UTF-8 without a byte order
// mark).
func (d *Document) Registered() []byte {
	if d.raw != nil {
		return d.raw
	}
	return d.Text
}
