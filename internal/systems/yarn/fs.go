package yarn

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// The Fair Scheduler's allocation file (fair-scheduler.xml), as
// AllocationFileLoaderService.reloadAllocations and
// AllocationFileQueueParser read it: a DOM built with comments ignored
// (text around a comment is one text node), the root element
// <allocations>, its <queue> and <pool> children, and in each queue the
// aclSubmitApps and aclAdministerApps elements and the child queues.

// fsChildQueueTag reports the element names AllocationFileQueueParser
// takes for a child queue: `QUEUE.endsWith(field.getTagName())` is true for
// every suffix of "queue" (a quirk: <ue> is a child queue too), and "pool".
func fsChildQueueTag(tag string) bool {
	return strings.HasSuffix("queue", tag) || tag == "pool"
}

// fsElement is a DOM element as the loader sees it: its name, attributes,
// child elements in order, and its first child node.
type fsElement struct {
	name     string
	attrs    map[string]string
	pos      Pos
	children []*fsElement
	// first is the element's first child node: "" kind when it has none
	first     fsNodeKind
	firstText string // the text of a first child that is text or CDATA
	firstPos  Pos
}

type fsNodeKind int

const (
	fsNone fsNodeKind = iota
	fsText
	fsCDATA
	fsElementNode
	fsOther // a processing instruction: not a Text node
)

// readDOM builds the element tree of an allocation file. Character data is
// merged into one text node until an element, a CDATA section or a
// processing instruction ends it, as Xerces' DOM builder merges it with
// comments ignored; a CDATA section is a node of its own.
func readDOM(file string, data []byte) (*fsElement, []Unknown, error) {
	r := &domReader{file: file, data: data, lastKind: fsNone}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.Entity = nil
	d.CharsetReader = func(label string, in io.Reader) (io.Reader, error) {
		r.otherCharset = true
		return nil, fmt.Errorf("the file declares encoding %q; aclint reads UTF-8 only", label)
	}
	for {
		l, c := d.InputPos()
		at := Pos{l, c}
		r.off = d.InputOffset()
		t, err := d.Token()
		if errors.Is(err, io.EOF) {
			if r.root == nil {
				return nil, nil, &FileError{File: file, Pos: at, Refused: true, Err: errors.New("no root element"), Hint: "an empty file is not an allocation file: write <allocations> with its queues, or remove the file"}
			}
			return r.root, r.unknown, nil
		}
		if err != nil {
			// a name with two colons is an error to Go's reader, not to
			// the Fair Scheduler's (not namespace aware)
			fe := &FileError{File: file, Pos: at, Refused: !r.doctype && !r.otherCharset && !xml11(data) && !twoColonName.Match(data), Err: err}
			return nil, nil, fe.entity(r.doctype)
		}
		switch t.(type) {
		case xml.StartElement, xml.CharData:
			if !bytes.HasPrefix(data[r.off:], []byte("<![CDATA[")) && badCharRef(data[r.off:d.InputOffset()]) {
				return nil, nil, &FileError{File: file, Pos: at, Refused: true, Err: errBadCharRef, Hint: badCharRefHint}
			}
		}
		if err := r.token(t, at); err != nil {
			return nil, nil, err
		}
	}
}

// domReader builds the DOM the Fair Scheduler's loader reads, token by
// token.
type domReader struct {
	file                  string
	data                  []byte
	off                   int64
	doctype, otherCharset bool
	unknown               []Unknown
	root                  *fsElement
	stack                 []*fsElement
	// the node being built in the innermost element: text merges into it
	lastKind fsNodeKind
}

func (r *domReader) top() *fsElement {
	if len(r.stack) > 0 {
		return r.stack[len(r.stack)-1]
	}
	return nil
}

// noteFirst records the innermost element's first child node.
func (r *domReader) noteFirst(kind fsNodeKind, text string, at Pos) {
	top := r.top()
	if top != nil && top.first == fsNone && !(kind == fsText && len(top.children) > 0) {
		top.first, top.firstText, top.firstPos = kind, text, at
	}
}

func (r *domReader) token(t xml.Token, at Pos) error {
	switch t := t.(type) {
	case xml.StartElement:
		return r.start(t, at)
	case xml.EndElement:
		r.stack = r.stack[:len(r.stack)-1]
		r.lastKind = fsElementNode
	case xml.CharData:
		return r.charData(t, at)
	case xml.Comment:
		// ignored: the text on both sides stays one node
	case xml.ProcInst:
		if err := xmlDeclAt(t, r.off, r.data); err != nil {
			return &FileError{File: r.file, Pos: at, Refused: true, Err: err, Hint: xmlDeclHint}
		}
		if r.top() != nil {
			r.noteFirst(fsOther, "", at)
			r.lastKind = fsOther
		}
	case xml.Directive:
		if bytes.HasPrefix(bytes.TrimSpace(t), []byte("DOCTYPE")) {
			r.doctype = true
			r.unknown = append(r.unknown, Unknown{r.file, at, "a DOCTYPE: its entities and defaults are not applied by aclint"})
		}
	}
	return nil
}

func (r *domReader) start(t xml.StartElement, at Pos) error {
	e := &fsElement{name: t.Name.Local, attrs: map[string]string{}, pos: at}
	if t.Name.Space != "" {
		e.name = t.Name.Space + ":" + t.Name.Local // not namespace aware: the name as written
	}
	if a, twice := duplicateAttr(t.Attr); twice {
		return &FileError{File: r.file, Pos: at, Refused: true, Err: fmt.Errorf("attribute %q twice in <%s>", a.Local, t.Name.Local)}
	}
	for _, a := range t.Attr {
		e.attrs[a.Name.Local] = a.Value
	}
	switch top := r.top(); {
	case top != nil:
		if top.first == fsNone {
			top.first, top.firstPos = fsElementNode, at
		}
		top.children = append(top.children, e)
	case r.root != nil:
		return &FileError{File: r.file, Pos: at, Refused: true, Err: errors.New("a second root element"), Hint: "a file has one <allocations>: move the queues into the first one"}
	default:
		r.root = e
	}
	r.stack = append(r.stack, e)
	r.lastKind = fsNone
	return nil
}

func (r *domReader) charData(t xml.CharData, at Pos) error {
	top := r.top()
	cdata := bytes.HasPrefix(r.data[r.off:], []byte("<![CDATA["))
	if top == nil {
		if r.off == 0 {
			t = bytes.TrimPrefix(t, []byte(bom)) // a byte order mark may start the file
		}
		// XML allows only white space outside the root element
		if len(bytes.Trim(t, " \t\r\n")) > 0 || cdata {
			return &FileError{File: r.file, Pos: at, Refused: true, Err: errors.New("text outside the root element"), Hint: "outside <allocations> ... </allocations>, only comments and blanks may stand: move the text in, or remove it"}
		}
		return nil
	}
	switch {
	case cdata:
		r.noteFirst(fsCDATA, string(t), at)
		r.lastKind = fsCDATA
	case r.lastKind == fsText && top.first == fsText && len(top.children) == 0:
		top.firstText += string(t) // one text node, as the DOM merges it
	default:
		r.noteFirst(fsText, string(t), at)
		r.lastKind = fsText
	}
	return nil
}

// fsWhitespace is Guava's CharMatcher.WHITESPACE, the table
// FairSchedulerUtilities.trimQueueName trims queue names with.
const fsWhitespace = "\u2002\u3000\r\u0085\u200A\u2005\u2000\u2029\u000B\u2008\u2003\u205F\u1680\t \u2006\u2001\u202F\u00A0\u000C\u2009\u2004\u2028\n\u2007"

// trimQueueName is FairSchedulerUtilities.trimQueueName.
func trimQueueName(s string) string {
	return strings.Trim(s, fsWhitespace)
}

// FSError is an allocation file the Fair Scheduler refuses
// (AllocationConfigurationException, or an exception while reading an
// element), with where.
type FSError struct {
	File string
	Pos  Pos
	Msg  string
}

func (e *FSError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// ReadFS reads an allocation file into a queue tree: queues named by their
// name attribute (trimmed; no dot, not empty), root's queues under root
// unless the file's only queue is root itself, the ACLs of aclSubmitApps
// and aclAdministerApps read from the element's first child, untrimmed,
// and the defaults, * for root and " " for every other queue.
func ReadFS(file string, data []byte) (*CS, error) {
	rootEl, unknown, err := readDOM(file, data)
	if err != nil {
		return nil, err
	}
	if rootEl.name != "allocations" {
		return nil, &FSError{file, rootEl.pos, "top-level element not <allocations>: the Fair Scheduler refuses the file"}
	}
	fs := &CS{Conf: &Conf{File: file, Unknown: unknown, set: map[string]*Property{}, final: map[string]bool{}, Root: rootEl.name, RootPos: rootEl.pos}, ByPath: map[string]*Queue{}, FS: true}
	tops, policyEl, err := fsTopLevel(fs, file, rootEl)
	if err != nil {
		return nil, err
	}
	l := &fsLoader{fs: fs, file: file, root: &Queue{Name: "root", Path: "root"}}
	fs.Root = l.root
	if err := l.tops(tops); err != nil {
		return nil, err
	}
	if policyEl != nil {
		if fs.Placement, err = readFSPolicy(file, policyEl); err != nil {
			return nil, err
		}
	}
	return fs, nil
}

// fsTopLevel reads the allocation file's own elements: its queues, its
// placement policy (the last, as AllocationFileParser keeps it) and the
// default scheduling policy.
func fsTopLevel(fs *CS, file string, rootEl *fsElement) (tops []*fsElement, policyEl *fsElement, err error) {
	fs.DefaultPolicy, fs.DefaultPolicyText = PolicyFair, "fair"
	for _, e := range rootEl.children {
		switch e.name {
		case "queue", "pool":
			tops = append(tops, e)
		case "queuePlacementPolicy":
			policyEl = e
		case "defaultQueueSchedulingPolicy", "defaultQueueSchedulingMode":
			text, err := fsTrimmedText(file, e)
			if err != nil {
				return nil, nil, err
			}
			if strings.EqualFold(text, "fifo") {
				return nil, nil, &FSError{file, e.pos, "Bad fair scheduler config file: defaultQueueSchedulingPolicy or defaultQueueSchedulingMode can't be FIFO.: the Fair Scheduler refuses the file"}
			}
			fs.DefaultPolicy, fs.DefaultPolicyText = parseSchedPolicy(text), text
		}
	}
	return tops, policyEl, nil
}

// fsLoader builds the queue tree from the file's queue elements.
type fsLoader struct {
	fs    *CS
	file  string
	root  *Queue
	count int
}

// tops loads the top-level queues: the file's root queue alone, or queues
// that are root's children.
func (l *fsLoader) tops(tops []*fsElement) error {
	if len(tops) == 1 && strings.EqualFold(tops[0].attrs["name"], "root") {
		return l.load(nil, tops[0], 0)
	}
	for _, e := range tops {
		if strings.EqualFold(e.attrs["name"], "root") {
			return &FSError{l.file, e.pos, "a root queue with other queues beside it: the Fair Scheduler refuses the file (if configuring root queue, no other queues can be placed alongside it)"}
		}
	}
	if err := l.load(nil, &fsElement{attrs: map[string]string{"name": "root"}}, 0); err != nil {
		return err
	}
	for _, e := range tops {
		if err := l.load(l.root, e, 1); err != nil {
			return err
		}
	}
	return nil
}

// queue is the queue element e defines under parent: the root queue, a
// new one, or one defined before, which it adds to.
func (l *fsLoader) queue(parent *Queue, e *fsElement) (*Queue, error) {
	name := trimQueueName(e.attrs["name"])
	if strings.Contains(name, ".") {
		return nil, &FSError{l.file, e.pos, fmt.Sprintf("queue name %q contains a period: the Fair Scheduler refuses the file", name)}
	}
	if name == "" {
		return nil, &FSError{l.file, e.pos, "a queue name is empty or only whitespace: the Fair Scheduler refuses the file"}
	}
	if parent == nil {
		// the file's own root queue, named as written (trimmed): Hadoop
		// compares it with "root" ignoring case only to place it
		l.root.Name, l.root.Path = name, name
		return l.root, nil
	}
	path := parent.Path + "." + name
	if prev := l.fs.ByPath[path]; prev != nil {
		// a queue defined again is the same queue: the loader keeps its
		// settings by queue name, and a later ACL element of a kind
		// replaces the earlier one (QueueProperties.Builder.queueAcls puts
		// into the queue's map); its children are added to the first's
		return prev, nil
	}
	q := &Queue{Name: name, Path: path, Parent: parent, ListedAt: &Property{File: l.file, Name: e.name, Pos: e.pos, NamePos: e.pos}}
	parent.Children = append(parent.Children, q)
	return q, nil
}

// load reads one queue element and those below it.
func (l *fsLoader) load(parent *Queue, e *fsElement, depth int) error {
	q, err := l.queue(parent, e)
	if err != nil {
		return err
	}
	q.MarkedParent = q.MarkedParent || e.attrs["type"] == "parent"
	l.count++
	if l.count > maxQueues || depth > maxDepth {
		l.fs.Truncated = true
		return nil
	}
	l.fs.ByPath[q.Path] = q
	hasChild, reservable, amShare := false, false, false
	for _, f := range e.children {
		switch f.name {
		case "reservation":
			reservable = true
		case "maxAMShare":
			amShare = true
		case "schedulingPolicy", "schedulingMode":
			text, err := fsTrimmedText(l.file, f)
			if err != nil {
				return err
			}
			q.Policy, q.PolicyText = parseSchedPolicy(text), text
		case "aclSubmitApps":
			err = l.acl(q, f, Submit)
		case "aclAdministerApps":
			err = l.acl(q, f, Administer)
		default:
			if fsChildQueueTag(f.name) {
				hasChild = true
				err = l.load(q, f, depth+1)
			} else if looksLikeACL(f.name) && !fsACLElements[f.name] {
				// the parser passes over an element it does not know
				l.fs.UnreadACLs = append(l.fs.UnreadACLs, &Property{File: l.file, Name: f.name, Value: f.firstText, Pos: f.pos, NamePos: f.pos, ValuePos: f.firstPos})
			}
		}
		if err != nil {
			return err
		}
	}
	// a leaf with a reservation is a parent queue; a queue with children
	// or type="parent" may not have a reservation or a maxAMShare
	if !hasChild && e.attrs["type"] != "parent" {
		q.MarkedParent = q.MarkedParent || reservable
	} else if reservable || amShare {
		el := "reservation"
		if !reservable {
			el = "maxAMShare"
		}
		return &FSError{l.file, e.pos, "The configuration settings for " + q.Path + " are invalid. A queue element that contains child queue elements or that has the type='parent' attribute cannot also include a " + el + " element.: the Fair Scheduler refuses the file"}
	}
	for _, a := range []Action{Submit, Administer} {
		if q.From[a] == nil { // the parser's defaults: * for root, " " for the rest
			if q.Path == "root" {
				q.ACL[a] = ParseACL("*")
			} else {
				q.ACL[a] = ParseACL(" ")
			}
		}
	}
	return nil
}

// acl reads an aclSubmitApps or aclAdministerApps element: its first
// child as text, as the loader does; a later one of a kind replaces the
// earlier.
func (l *fsLoader) acl(q *Queue, f *fsElement, a Action) error {
	switch f.first {
	case fsNone:
		return &FSError{l.file, f.pos, fmt.Sprintf("<%s> is empty: the Fair Scheduler reads its first child as text and fails (NullPointerException), refusing the file", f.name)}
	case fsElementNode, fsOther:
		return &FSError{l.file, f.pos, fmt.Sprintf("<%s> does not start with text: the Fair Scheduler reads its first child as text and fails (ClassCastException), refusing the file", f.name)}
	}
	p := &Property{File: l.file, Name: f.name, Value: f.firstText, HasValue: true, Pos: f.pos, NamePos: f.pos, ValuePos: f.firstPos}
	if old := q.From[a]; old != nil {
		old.Overridden, old.ReplacedBy = true, p
	}
	q.ACL[a], q.From[a], q.Unknown[a] = ParseACL(p.Value), p, false
	p.read = true
	l.fs.Conf.Props = append(l.fs.Conf.Props, p)
	return nil
}

// fsTrimmedText is AllocationFileParser.getTrimmedTextData: the element's
// first child read as text and trimmed; the loader fails on an element
// that does not start with text.
func fsTrimmedText(file string, e *fsElement) (string, error) {
	switch e.first {
	case fsNone:
		return "", &FSError{file, e.pos, fmt.Sprintf("<%s> is empty: the Fair Scheduler reads its first child as text and fails (NullPointerException), refusing the file", e.name)}
	case fsElementNode, fsOther:
		return "", &FSError{file, e.pos, fmt.Sprintf("<%s> does not start with text: the Fair Scheduler reads its first child as text and fails (ClassCastException), refusing the file", e.name)}
	}
	return javaTrim(e.firstText), nil
}

// twoColonName finds a tag whose name has two colons.
var twoColonName = regexp.MustCompile(`</?[^\s<>/!?=:"']*:[^\s<>/!?=:"']*:`)
