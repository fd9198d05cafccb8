package ytsaurus

import (
	"github.com/aclint/aclint/internal/engine"

	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Pos is a line and column in the document (1-based; 0 when unknown).
type Pos struct{ Line, Col int }

func at(n *yaml.Node) Pos {
	if n == nil {
		return Pos{}
	}
	return Pos{n.Line, n.Column}
}

// Document is one tree document (YAML or JSON), or the JSON of a single
// node's @acl, as read.
type Document struct {
	File  string
	Src   []byte
	Root  *yaml.Node // the first document's content; nil on a syntax error
	Err   *Issue     // a syntax error
	text  []byte     // Src with lone carriage returns as line feeds, as YAML counts lines
	lines []string   // text split into lines
}

// Lines returns the file's lines, for snippets.
func (d *Document) Lines() []string { return d.lines }

// Pos maps a position to the file. YAML places a missing value after the
// last line; it is shown at the end of the file.
func (d *Document) Pos(p Pos) engine.Position {
	if n := len(d.lines); p.Line > n {
		p = Pos{n, len([]rune(d.lines[n-1])) + 1}
	}
	return engine.Position{File: d.File, Line: max(p.Line, 1), Col: max(p.Col, 1)}
}

// Parse reads a document once into YAML nodes. JSON is YAML, except that
// YAML refuses tabs where JSON allows them; they are read as spaces, which
// keeps every column.
func Parse(file string, data []byte) *Document {
	d := &Document{File: file, Src: data, text: loneCR(data)}
	d.lines = strings.Split(string(d.text), "\n")
	text := d.text
	if t := bytes.TrimLeft(data, " \t\r\n"); bytes.HasPrefix(t, []byte("{")) || bytes.HasPrefix(t, []byte("[")) {
		text = untab(text)
	}
	var n yaml.Node
	if err := yaml.Unmarshal(text, &n); err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		line := 1
		if _, rest, ok := strings.Cut(msg, "line "); ok {
			if num, _, ok := strings.Cut(rest, ":"); ok {
				if l, err := strconv.Atoi(num); err == nil {
					line = l
				}
			}
		}
		d.Err = &Issue{Rule: ruleDocument, At: Pos{line, 1}, Msg: "the document is not valid YAML or JSON: " + msg, Hint: "fix the syntax at this line"}
		return d
	}
	if len(n.Content) > 0 {
		d.Root = n.Content[0]
	}
	return d
}

// loneCR turns carriage returns not followed by a line feed into line
// feeds: YAML ends a line at either, and positions count lines that way.
func loneCR(b []byte) []byte {
	if bytes.IndexByte(b, '\r') < 0 {
		return b // the usual file: nothing to turn, nothing to copy
	}
	out := append([]byte(nil), b...)
	for i, c := range out {
		if c == '\r' && (i+1 == len(out) || out[i+1] != '\n') {
			out[i] = '\n'
		}
	}
	return out
}

// untab replaces tabs outside JSON strings with spaces.
func untab(b []byte) []byte {
	out := append([]byte(nil), b...)
	inStr, esc := false, false
	for i, c := range out {
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case !inStr && c == '\t':
			out[i] = ' '
		}
	}
	return out
}

func treeKeys(keys []string) bool {
	for _, k := range keys {
		if k != "users" && k != "groups" && k != "nodes" {
			return false
		}
	}
	return len(keys) > 0
}

// Node is a Cypress node: listed in the document, or implied (an ancestor
// of a listed node, or a path asked about) with an empty ACL that
// inherits.
type Node struct {
	Path      string
	ACL       []*ACE
	Inherit   bool
	InheritAt Pos
	Owner     string
	OwnerAt   Pos
	Listed    bool
	At        Pos // the node's key
	ACLAt     Pos
	HasACLKey bool
	children  bool
}

// Tree is a document as YTsaurus would hold it: subjects and nodes, with
// every issue found on the way.
type Tree struct {
	Doc   *Document
	Dir   *Directory
	Nodes map[string]*Node
	Order []*Node // listed nodes, in document order
	Bare  bool    // the document is a single node's ACL
	// BarePath is false for a lone ACL read without --path: where it
	// hangs is not known.
	BarePath bool
	Issues   []Issue

	asked askedFlags // the flags of aclint check only a YTsaurus question has

	refs    []subjectRef // member_of names, resolved once all subjects are read
	aliasAt []aliasDef
}

// Issue is one thing reading the tree found, for the rule named.
type Issue struct {
	Rule string
	At   Pos
	Msg  string
	Hint string
}

// Options say how to read a document.
type Options struct {
	// Path is where a bare ACL (the JSON of a node's @acl) hangs; "/"
	// when empty.
	Path string
}

// Load decodes a parsed document into a tree.
func Load(d *Document, opts Options) *Tree {
	t := &Tree{Doc: d, Dir: newDirectory(), Nodes: map[string]*Node{}}
	if d.Err != nil {
		t.Issues = append(t.Issues, *d.Err)
		return t
	}
	if d.Root == nil {
		t.Dir.closeOver()
		return t
	}
	switch d.Root.Kind {
	case yaml.SequenceNode:
		t.Bare, t.BarePath = true, opts.Path != ""
		path := opts.Path
		if path == "" {
			path = "/"
		}
		p, err := NormalizePath(path)
		if err != nil {
			t.add(ruleDocument, at(d.Root), "--path "+err.Error(), "give the Cypress path the ACL belongs to, e.g. --path //home/project")
			p = "/"
		}
		t.Dir.closeOver()
		n := t.node(p)
		n.Listed, n.At, n.HasACLKey, n.ACLAt = true, at(d.Root), true, at(d.Root)
		t.Order = append(t.Order, n)
		n.ACL = t.acl(d.Root, p)
	case yaml.MappingNode:
		t.mapping(d.Root)
	default:
		t.add(ruleDocument, at(d.Root), "the document must be a mapping with users, groups and nodes, or the list of a node's ACEs", "see docs/ytsaurus.md for the tree format")
		t.Dir.closeOver()
	}
	sort.SliceStable(t.Issues, func(i, j int) bool {
		a, b := t.Issues[i].At, t.Issues[j].At
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	return t
}

func (t *Tree) add(rule string, p Pos, msg, hint string) {
	t.Issues = append(t.Issues, Issue{Rule: rule, At: p, Msg: msg, Hint: hint})
}

// Errors are the issues that make the tree answer no question: YTsaurus
// would refuse part of it, or the document cannot be read.
func (t *Tree) Errors() []Issue { return engine.Refusals(t.Issues, Issue.rule, Rules()) }

func (is Issue) rule() string { return is.Rule }

// node returns the node at a normalized path, implying it when the
// document does not list it.
func (t *Tree) node(path string) *Node {
	if n := t.Nodes[path]; n != nil {
		return n
	}
	n := &Node{Path: path, Inherit: true}
	t.Nodes[path] = n
	return n
}

// Node returns the node at a path as YTsaurus would have it: listed, or
// implied with an empty ACL that inherits.
func (t *Tree) Node(path string) (*Node, error) {
	p, err := NormalizePath(path)
	if err != nil {
		return nil, err
	}
	if n := t.Nodes[p]; n != nil {
		return n, nil
	}
	return &Node{Path: p, Inherit: true}, nil
}

// NormalizePath checks a Cypress path: "/" is the root, "//a/b" a node
// below it.
func NormalizePath(p string) (string, error) {
	if p == "/" {
		return p, nil
	}
	if !strings.HasPrefix(p, "//") || len(p) == 2 {
		return "", fmt.Errorf("%s is not a Cypress path: paths are / or start with // (//home/project)", yq(p))
	}
	// an empty segment: a trailing slash, or two slashes in a row after
	// the leading "//" (p[1:] keeps that pair's second slash, so a third
	// right after it, "///a", counts)
	if strings.Contains(p[1:], "//") || strings.HasSuffix(p, "/") {
		return "", fmt.Errorf("%s has an empty path segment (a doubled or trailing /)", yq(p))
	}
	return p, nil
}

// Parent returns the parent path, or "" for the root.
func Parent(p string) string {
	if p == "/" {
		return ""
	}
	i := strings.LastIndex(p, "/")
	if i <= 1 {
		return "/"
	}
	return p[:i]
}

// keys visits a mapping's pairs, reporting repeated keys (YSON maps cannot
// hold a key twice: YTsaurus refuses the value) and non-string keys. what
// names the mapping in those messages; it is a func so that the name of
// each of a large tree's ACEs and nodes is built only when one is wrong.
func (t *Tree) keys(m *yaml.Node, what func() string, fn func(k, v *yaml.Node)) {
	// small mappings (most ACEs and nodes) look back over their keys; a
	// map is built only for a large one
	var seen map[string]*yaml.Node
	if len(m.Content) > 16 {
		seen = make(map[string]*yaml.Node, len(m.Content)/2)
	}
	earlier := func(i int, key string) *yaml.Node {
		if seen != nil {
			return seen[key]
		}
		for j := 0; j < i; j += 2 {
			if k := m.Content[j]; k.Kind == yaml.ScalarNode && k.Value == key {
				return k
			}
		}
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			t.add(ruleDocument, at(k), fmt.Sprintf("a key in %s must be a string", what()), "write the key as a plain string")
			continue
		}
		if first := earlier(i, k.Value); first != nil {
			t.add(ruleDuplicateKey, at(k), fmt.Sprintf("%s is given twice in %s (first at line %d): YTsaurus refuses the value (%s)", yq(k.Value), what(), first.Line, ytSays("Duplicate key "+yq(k.Value))),
				"merge the two into one key")
			continue
		}
		if seen != nil {
			seen[k.Value] = k
		}
		fn(k, v)
	}
}

// ytSays attributes a message to YTsaurus, inside aclint's own.
func ytSays(s string) string { return "YTsaurus: " + s }

func (t *Tree) mapping(root *yaml.Node) {
	var users, groups, nodes *yaml.Node
	t.keys(root, func() string { return "the document" }, func(k, v *yaml.Node) {
		switch k.Value {
		case "users":
			users = v
		case "groups":
			groups = v
		case "nodes":
			nodes = v
		default:
			t.unknownDocKey(k, "the document", []string{"users", "groups", "nodes"})
		}
	})
	t.subjects(users, false)
	t.subjects(groups, true)
	t.checkSubjects()
	for _, cyc := range t.Dir.closeOver() {
		s := t.Dir.byName[cyc[0]]
		t.add(ruleCycle, s.At, fmt.Sprintf("groups form a membership cycle: %s; YTsaurus refuses the membership that closes it (%s)", strings.Join(cyc, " -> "),
			ytSays(fmt.Sprintf("Adding group %s to group %s would produce a cycle", yq(cyc[len(cyc)-2]), yq(cyc[len(cyc)-1])))), "remove one membership of the cycle")
	}
	if nodes != nil {
		t.nodes(nodes)
	}
}

func (t *Tree) unknownDocKey(k *yaml.Node, where string, valid []string) {
	msg := fmt.Sprintf("unknown key %s in %s", yq(k.Value), where)
	hint := "the keys are: " + strings.Join(valid, ", ")
	if near := engine.Nearest(k.Value, valid); near != "" {
		msg += "; did you mean " + yq(near) + "?"
		hint = "rename it to " + near
	}
	t.add(ruleDocument, at(k), msg, hint)
}

// strList reads a list of strings of the document.
func (t *Tree) strList(v *yaml.Node, what string) ([]string, []Pos) {
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return nil, nil
	}
	if v.Kind != yaml.SequenceNode {
		t.add(ruleDocument, at(v), what+" must be a list of names", "write a list: [a, b]")
		return nil, nil
	}
	var out []string
	var ps []Pos
	for _, e := range v.Content {
		if e.Kind != yaml.ScalarNode || e.Tag != "!!str" && e.Tag != "!!int" && e.Tag != "!!float" && e.Tag != "!!bool" {
			t.add(ruleDocument, at(e), what+" must hold names (strings)", "write each name as a string")
			continue
		}
		out = append(out, e.Value)
		ps = append(ps, at(e))
	}
	return out, ps
}

// subjectRef remembers where the document names a subject: in the
// member_of of the subject named of.
type subjectRef struct {
	name string
	at   Pos
	of   string
}

// what names the list the reference is in, for messages.
func (r subjectRef) what() string { return "member_of of " + yq(r.of) }

func (t *Tree) subjects(m *yaml.Node, groups bool) {
	section := "users"
	if groups {
		section = "groups"
	}
	if m == nil || m.Kind == yaml.ScalarNode && m.Tag == "!!null" {
		return
	}
	if m.Kind != yaml.MappingNode {
		t.add(ruleDocument, at(m), section+" must be a mapping of names to their attributes", "write "+section+": {name: {...}}")
		return
	}
	fields := []string{"member_of", "aliases", "tags", "banned"}
	if groups {
		fields = []string{"member_of", "aliases"}
	}
	t.keys(m, func() string { return section }, func(k, v *yaml.Node) {
		name := k.Value
		s := t.Dir.byName[name]
		switch {
		case name == "":
			t.add(ruleSubjectInvalid, at(k), "a subject name cannot be empty", "give the subject a name")
			return
		case s != nil && !s.Builtin:
			t.add(ruleNameConflict, at(k), fmt.Sprintf("%s is both a user and a group: users, groups and aliases share one namespace", yq(name)), "rename one of them")
			return
		case s != nil && s.Group != groups:
			t.add(ruleNameConflict, at(k), fmt.Sprintf("%s is a built-in %s and cannot be defined as a %s", yq(name), kindOf(s), strings.TrimSuffix(section, "s")), "use another name")
			return
		case s == nil:
			s = &Subject{Name: name, Group: groups, Tags: map[string]bool{}}
			if !groups {
				s.MemberOf = []string{Users} // every new user is created in users
			}
			t.Dir.byName[name] = s
			t.Dir.order = append(t.Dir.order, s)
		}
		s.At = at(k)
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			return
		}
		if v.Kind != yaml.MappingNode {
			t.add(ruleDocument, at(v), fmt.Sprintf("%s %s must be a mapping of its attributes (%s)", strings.TrimSuffix(section, "s"), yq(name), strings.Join(fields, ", ")), "write {member_of: [...], ...}")
			return
		}
		t.keys(v, func() string { return strings.TrimSuffix(section, "s") + " " + yq(name) }, func(fk, fv *yaml.Node) {
			switch fk.Value {
			case "member_of":
				list, ps := t.strList(fv, "member_of")
				for i, g := range list {
					s.MemberOf = append(s.MemberOf, g)
					t.refs = append(t.refs, subjectRef{g, ps[i], name})
				}
			case "aliases":
				list, ps := t.strList(fv, "aliases")
				for i, a := range list {
					s.Aliases = append(s.Aliases, a)
					t.aliasAt = append(t.aliasAt, aliasDef{a, s, ps[i]})
				}
			case "tags":
				if groups {
					t.unknownDocKey(fk, "group "+yq(name), fields)
					return
				}
				list, _ := t.strList(fv, "tags")
				for _, tag := range list {
					s.Tags[tag] = true
				}
			case "banned":
				if groups {
					t.unknownDocKey(fk, "group "+yq(name), fields)
					return
				}
				b, ok := boolValue(fv)
				if !ok {
					t.add(ruleDocument, at(fv), "banned must be true or false", "write banned: true")
					return
				}
				s.Banned = b
				if b && name == Root {
					t.add(ruleSubjectInvalid, at(fv), fmt.Sprintf("root cannot be banned (%s)", ytSays(`User "root" cannot be banned`)), "remove banned from root")
					s.Banned = false
				}
			default:
				t.unknownDocKey(fk, strings.TrimSuffix(section, "s")+" "+yq(name), fields)
			}
		})
	})
}

type aliasDef struct {
	alias string
	s     *Subject
	at    Pos
}

// checkSubjects resolves memberships and aliases once every subject is
// known.
func (t *Tree) checkSubjects() {
	for _, a := range t.aliasAt {
		switch other := t.Dir.byName[a.alias]; {
		case a.alias == "":
			t.add(ruleSubjectInvalid, a.at, "an alias cannot be empty", "remove it")
		case other != nil:
			t.add(ruleNameConflict, a.at, fmt.Sprintf("alias %s of %s is already the name of %s: users, groups and aliases share one namespace", yq(a.alias), subjectLabel(a.s), subjectLabel(other)), "choose another alias")
		case t.Dir.byAlias[a.alias] != nil:
			t.add(ruleNameConflict, a.at, fmt.Sprintf("alias %s of %s is already an alias of %s", yq(a.alias), subjectLabel(a.s), subjectLabel(t.Dir.byAlias[a.alias])), "choose another alias")
		default:
			t.Dir.byAlias[a.alias] = a.s
		}
	}
	for _, r := range t.refs {
		s := t.Dir.Lookup(r.name)
		switch {
		case s == nil:
			t.unknownSubject(r.name, r.at, r.what())
		case !s.Group:
			t.add(ruleSubjectInvalid, r.at, fmt.Sprintf("%s names %s, a user: only groups have members", r.what(), yq(r.name)), "name a group")
		}
	}
	// member_of names resolve through aliases too
	for _, s := range t.Dir.order {
		for i, g := range s.MemberOf {
			if gs := t.Dir.Lookup(g); gs != nil {
				s.MemberOf[i] = gs.Name
			}
		}
	}
}

func (t *Tree) unknownSubject(name string, p Pos, what string) {
	msg := fmt.Sprintf("%s names %s, which is neither in the document nor a built-in user or group", what, yq(name))
	hint := "define it under users or groups, or fix the name"
	if near := engine.Nearest(name, t.Dir.Names()); near != "" {
		msg += "; did you mean " + yq(near) + "?"
		hint = "rename it to " + near
	}
	t.add(ruleUnknownSubject, p, msg, hint)
}

func boolValue(v *yaml.Node) (bool, bool) {
	if v.Kind != yaml.ScalarNode {
		return false, false
	}
	switch {
	case v.Tag == "!!bool":
		var b bool
		if err := v.Decode(&b); err == nil {
			return b, true
		}
	case v.Tag == "!!int" && (v.Value == "0" || v.Value == "1"):
		return v.Value == "1", true
	case v.Tag == "!!str" && (v.Value == "true" || v.Value == "false"):
		return v.Value == "true", true
	}
	return false, false
}

func (t *Tree) nodes(m *yaml.Node) {
	if m.Kind == yaml.ScalarNode && m.Tag == "!!null" {
		return
	}
	if m.Kind != yaml.MappingNode {
		t.add(ruleDocument, at(m), "nodes must be a mapping of Cypress paths to {acl, inherit_acl, owner}", `write nodes: {"//home/x": {acl: [...]}}`)
		return
	}
	t.keys(m, func() string { return "nodes" }, func(k, v *yaml.Node) {
		p, err := NormalizePath(k.Value)
		if err != nil {
			t.add(ruleDocument, at(k), err.Error(), "write the path as / or //a/b")
			return
		}
		n := t.Nodes[p]
		if n != nil && n.Listed {
			t.add(ruleDuplicateKey, at(k), fmt.Sprintf("node %s is listed twice", p), "merge the two entries")
			return
		}
		if n == nil {
			n = t.node(p)
		}
		n.Listed, n.At = true, at(k)
		t.Order = append(t.Order, n)
		// every ancestor has children; one already marked had its own
		// ancestors marked with it
		for q := Parent(p); q != ""; q = Parent(q) {
			a := t.node(q)
			if a.children {
				break
			}
			a.children = true
		}
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			return
		}
		if v.Kind != yaml.MappingNode {
			t.add(ruleDocument, at(v), fmt.Sprintf("node %s must be a mapping of acl, inherit_acl and owner", p), "write {acl: [...], inherit_acl: true, owner: name}")
			return
		}
		t.keys(v, func() string { return "node " + p }, func(fk, fv *yaml.Node) {
			switch fk.Value {
			case "acl":
				n.HasACLKey, n.ACLAt = true, at(fv)
				n.ACL = t.acl(fv, p)
			case "inherit_acl":
				b, ok := boolValue(fv)
				if !ok {
					t.add(ruleWrongType, at(fv), "inherit_acl must be a boolean", "write inherit_acl: false")
					return
				}
				n.Inherit, n.InheritAt = b, at(fv)
			case "owner":
				if fv.Kind != yaml.ScalarNode || fv.Tag == "!!null" {
					t.add(ruleWrongType, at(fv), "owner must be a user or group name", "write owner: alice")
					return
				}
				n.OwnerAt = at(fv)
				s := t.Dir.Lookup(fv.Value)
				if s == nil {
					t.unknownSubject(fv.Value, at(fv), "owner of "+p)
					return
				}
				n.Owner = s.Name
			default:
				t.unknownDocKey(fk, "node "+p, []string{"acl", "inherit_acl", "owner"})
			}
		})
	})
}

// HasChildren reports whether the document lists a node below n.
func (n *Node) HasChildren() bool { return n.children }
