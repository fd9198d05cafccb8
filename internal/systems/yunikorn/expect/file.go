// Package expect reads aclint test files, which state the access and
// placement a team expects of a YuniKorn queue config, and runs each case
// through the same policy and placement code as `aclint check` and
// `aclint place`, so that a test passes exactly when those commands agree.
package expect

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

// DefaultFile is the test file read when none is named.
const DefaultFile = "aclint-tests.yaml"

// Expected answers.
const (
	Allow    = "allow"
	Deny     = "deny"
	Rejected = "rejected"
)

// File is one parsed test file.
type File struct {
	Path string
	// Config are the config files named by `config:`, relative to the
	// current directory (the file names them relative to itself); empty
	// when the file names none.
	Config    []string
	Partition string // the default partition of the cases
	// Resolver and GroupsFile say where a user's groups come from when a
	// case gives none; "" leaves it to the partition's usergroupresolver.
	Resolver   string
	GroupsFile string
	Cases      []*Case
}

// Case is one expectation.
type Case struct {
	Name      string // as written; "" when the case has none
	Pos       engine.Position
	User      string
	Groups    []string // as the request carries them; none means the resolver runs
	Partition string
	Queue     string     // an access case's queue
	Action    acl.Action // an access case's action
	// Tags are an access case's request tags (namespace and the
	// namespace's annotations): they decide what tag rules create. nil
	// when the case gives none.
	Tags  map[string]string
	Place *Place // set for a placement case
	// Limits is set for a limits case: the figures aclint limits must give
	// for the user on Queue.
	Limits    *Limits
	Expect    string // allow, deny, rejected or the queue an app lands in
	ExpectPos engine.Position
}

// Place is the application a placement case submits.
type Place struct {
	Queue  string // the queue the application asks for, "" for none
	Tags   map[string]string
	Forced bool
}

// Title names a case in output: its name, or what it asks.
func (c *Case) Title() string {
	if c.Name != "" {
		return c.Name
	}
	if c.Place != nil {
		q := c.Place.Queue
		if q == "" {
			q = "no queue"
		}
		return fmt.Sprintf("place %s (%s, tags %s)", c.User, q, acl.DescribeTags(c.Place.Tags))
	}
	return fmt.Sprintf("%s %s %s", c.User, c.Action, c.Queue)
}

// Problem is one thing wrong with a test file.
type Problem struct {
	Pos engine.Position
	Msg string
}

// FileError lists everything wrong with a test file; none of its cases run.
type FileError struct{ Problems []Problem }

func (e *FileError) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s: %s", p.Pos, p.Msg)
	}
	return b.String()
}

var (
	fileKeys  = []string{"config", "partition", "resolver", "groupsFile", "cases"}
	caseKeys  = []string{"name", "user", "groups", "partition", "queue", "action", "tags", "place", "expect", "limits"}
	placeKeys = []string{"queue", "tags", "forced"}
)

// parser collects the problems of one file.
type parser struct {
	path     string
	problems []Problem
}

func (p *parser) pos(n *yaml.Node) engine.Position {
	return engine.Position{File: p.path, Line: n.Line, Col: n.Column}
}

func (p *parser) fail(n *yaml.Node, format string, args ...any) {
	p.problems = append(p.problems, Problem{p.pos(n), fmt.Sprintf(format, args...)})
}

// deref follows an alias to the node it names.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 16; i++ {
		n = n.Alias
	}
	return n
}

// Parse reads a test file. Every problem is reported at its line and
// column, with the key meant when a key is misspelt; the cases are not
// checked against the config here (the runner does that).
func Parse(path string, src []byte) (*File, error) {
	p := &parser{path: path}
	var doc yaml.Node
	dec := yaml.NewDecoder(strings.NewReader(string(src)))
	if err := dec.Decode(&doc); err != nil {
		return nil, &FileError{[]Problem{{engine.Position{File: path, Line: 1, Col: 1}, "not a YAML test file: " + err.Error()}}}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &FileError{[]Problem{{p.pos(&extra), "a test file is one YAML document; this is a second one (remove the ---)"}}}
	}
	root := deref(&doc)
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = deref(root.Content[0])
	}
	f := &File{Path: path, Partition: "default"}
	if root.Kind != yaml.MappingNode {
		p.fail(root, "a test file is a mapping with config, partition and cases; see docs/test.md")
		return nil, &FileError{p.problems}
	}
	var casesNode *yaml.Node
	p.mapping(root, fileKeys, "the test file", func(key string, k, v *yaml.Node) {
		switch key {
		case "config":
			f.Config = p.configPaths(v)
		case "partition":
			f.Partition = p.str(k, v)
		case "resolver":
			f.Resolver = p.str(k, v)
			if f.Resolver != "" && !slices.Contains(resolve.Names, f.Resolver) {
				msg := fmt.Sprintf("unknown resolver %s: use %s", strconv.Quote(f.Resolver), strings.Join(resolve.Names, ", "))
				if s := engine.Nearest(f.Resolver, resolve.Names); s != "" {
					msg = fmt.Sprintf("unknown resolver %s; did you mean %s?", strconv.Quote(f.Resolver), s)
				}
				p.fail(v, "%s", msg)
			}
		case "groupsFile":
			if s := p.str(k, v); s != "" {
				f.GroupsFile = p.relative(s)
			}
		case "cases":
			casesNode = v
		}
	})
	switch {
	case casesNode == nil:
		p.fail(root, "no cases: add a cases: list (see docs/test.md)")
	case casesNode.Kind != yaml.SequenceNode:
		p.fail(casesNode, "cases must be a list of cases, each a mapping with user, queue and expect")
	case len(casesNode.Content) == 0:
		p.fail(casesNode, "cases is empty: a test file that tests nothing would always pass")
	default:
		for _, n := range casesNode.Content {
			if c := p.testCase(deref(n), f.Partition); c != nil {
				f.Cases = append(f.Cases, c)
			}
		}
	}
	if len(p.problems) > 0 {
		sort.SliceStable(p.problems, func(i, j int) bool {
			a, b := p.problems[i].Pos, p.problems[j].Pos
			return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
		})
		return nil, &FileError{p.problems}
	}
	return f, nil
}

// mapping calls each for every key of n, reporting unknown and repeated
// keys; what names the mapping in messages.
func (p *parser) mapping(n *yaml.Node, keys []string, what string, each func(key string, k, v *yaml.Node)) {
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := deref(n.Content[i]), deref(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			p.fail(k, "a key of %s must be a plain name", what)
			continue
		}
		known := false
		for _, x := range keys {
			known = known || x == k.Value
		}
		if !known {
			msg := fmt.Sprintf("unknown key %s in %s", strconv.Quote(k.Value), what)
			if s := engine.Nearest(k.Value, keys); s != "" {
				msg += fmt.Sprintf("; did you mean %s?", s)
			} else {
				msg += "; known keys: " + strings.Join(keys, ", ")
			}
			p.fail(k, "%s", msg)
			continue
		}
		if seen[k.Value] {
			p.fail(k, "key %s is given twice in %s", k.Value, what)
			continue
		}
		seen[k.Value] = true
		each(k.Value, k, v)
	}
}

// str reads a scalar value.
func (p *parser) str(k, v *yaml.Node) string {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		p.fail(v, "%s must be a single value", k.Value)
		return ""
	}
	return v.Value
}

func (p *parser) relative(name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(filepath.Dir(p.path), name)
}

// configPaths reads config: one file, or a list (yunikorn-defaults and
// yunikorn-configs, merged as YuniKorn merges them).
func (p *parser) configPaths(v *yaml.Node) []string {
	var names []*yaml.Node
	switch v.Kind {
	case yaml.ScalarNode:
		names = []*yaml.Node{v}
	case yaml.SequenceNode:
		for _, n := range v.Content {
			names = append(names, deref(n))
		}
	}
	if len(names) == 0 {
		p.fail(v, "config names the queue config: a file, or a list of files")
		return nil
	}
	var out []string
	for _, n := range names {
		if n.Kind != yaml.ScalarNode || n.Value == "" || n.Tag == "!!null" {
			p.fail(n, "config names the queue config: a file, or a list of files")
			continue
		}
		if n.Value == "-" {
			p.fail(n, "config cannot be standard input; name a file (or give -f -)")
			continue
		}
		out = append(out, p.relative(n.Value))
	}
	return out
}

func (p *parser) testCase(n *yaml.Node, partition string) *Case {
	if n.Kind != yaml.MappingNode {
		p.fail(n, "a case is a mapping with user, queue (or place) and expect")
		return nil
	}
	c := &Case{Pos: p.pos(n), Partition: partition, Action: acl.Submit}
	before := len(p.problems)
	w := p.caseKeys(n, c)
	if !w.user {
		p.fail(n, "this case has no user: every case names the user who submits")
	}
	switch {
	case c.Limits != nil:
		p.limitsCase(n, c, w)
	case w.expect == nil:
		p.fail(n, "this case has no expect: write allow or deny (or, for a place case, the queue or rejected)")
	}
	switch {
	case c.Limits != nil:
	case c.Place != nil:
		p.placeCase(n, c, w)
	default:
		p.accessCase(n, c, w)
	}
	if len(p.problems) > before {
		return nil
	}
	if c.Limits != nil {
		c.Expect = c.Limits.String()
	}
	return c
}

// written is which of a case's keys were written, and where.
type written struct {
	user, queue, action    bool
	expect, actionAt, tags *yaml.Node
}

// caseKeys reads a case's keys into c.
func (p *parser) caseKeys(n *yaml.Node, c *Case) written {
	var w written
	p.mapping(n, caseKeys, "a case", func(key string, k, v *yaml.Node) {
		switch key {
		case "name":
			c.Name = p.str(k, v)
		case "user":
			c.User, w.user = p.str(k, v), true
		case "groups":
			c.Groups = p.groups(v)
		case "partition":
			c.Partition = p.str(k, v)
		case "queue":
			c.Queue, w.queue = p.str(k, v), true
		case "action":
			w.actionAt, w.action = v, true
			if a, err := acl.ParseAction(p.str(k, v)); err == nil {
				c.Action = a
			} else if v.Kind == yaml.ScalarNode {
				msg := fmt.Sprintf("unknown action %s: use submit or admin", strconv.Quote(v.Value))
				if s := engine.Nearest(v.Value, []string{"submit", "admin"}); s != "" {
					msg = fmt.Sprintf("unknown action %s; did you mean %s?", strconv.Quote(v.Value), s)
				}
				p.fail(v, "%s", msg)
			}
		case "tags":
			c.Tags, w.tags = p.tags(v), v
		case "place":
			c.Place = p.place(v)
		case "limits":
			c.Limits = p.limitsExpect(v)
		case "expect":
			w.expect = v
			c.Expect = p.str(k, v)
			c.ExpectPos = p.pos(v)
		}
	})
	return w
}

// limitsCase checks a limits case: its figures under limits:, its queue
// with queue:.
func (p *parser) limitsCase(n *yaml.Node, c *Case, w written) {
	switch {
	case w.expect != nil:
		p.fail(w.expect, "a limits case states its figures under limits: and has no expect")
	case c.Place != nil:
		p.fail(n, "a limits case names the queue with queue:, not place:")
	case !w.queue:
		p.fail(n, "this limits case has no queue: name the queue the application runs in (root.a.b)")
	case w.action:
		p.fail(w.actionAt, "action is for access cases: limits are about running applications")
	}
}

// placeCase checks a place case: the request inside place:, and a queue
// or rejected expected.
func (p *parser) placeCase(n *yaml.Node, c *Case, w written) {
	if w.queue {
		p.fail(n, "a place case gives the queue the application asks for inside place: (place: {queue: ...}), not as queue:")
	}
	if w.action {
		p.fail(w.actionAt, "action is for access cases: placement always checks submit access")
	}
	if w.tags != nil {
		p.fail(w.tags, "a place case gives the application's tags inside place: (place: {tags: {...}})")
	}
	if w.expect != nil && w.expect.Kind == yaml.ScalarNode && c.Expect != Rejected && !strings.Contains(c.Expect, ".") {
		msg := fmt.Sprintf("a place case expects the queue the application lands in (a full path such as root.teams.a) or rejected, not %s", strconv.Quote(c.Expect))
		if engine.Nearest(c.Expect, []string{Rejected}) != "" {
			msg = fmt.Sprintf("unknown expectation %s; did you mean rejected?", strconv.Quote(c.Expect))
		}
		p.fail(w.expect, "%s", msg)
	}
}

// accessCase checks an access case: a queue, and allow or deny expected.
func (p *parser) accessCase(n *yaml.Node, c *Case, w written) {
	if !w.queue {
		p.fail(n, "this case has no queue: name the queue (root.a.b), or give place: for a placement case")
	}
	if w.expect != nil && w.expect.Kind == yaml.ScalarNode && c.Expect != Allow && c.Expect != Deny {
		msg := fmt.Sprintf("an access case expects allow or deny, not %s", strconv.Quote(c.Expect))
		meant := map[string]string{"allow": Allow, "allowed": Allow, "deny": Deny, "denied": Deny}
		if s := engine.Nearest(c.Expect, []string{"allow", "allowed", "deny", "denied"}); s != "" {
			msg += fmt.Sprintf("; did you mean %s?", meant[s])
		}
		p.fail(w.expect, "%s", msg)
	}
}

// groups reads a case's groups: a list of names, used exactly as a request
// carries them.
func (p *parser) groups(v *yaml.Node) []string {
	if v.Kind != yaml.SequenceNode {
		p.fail(v, "groups is a list of group names, e.g. groups: [etl, dev]")
		return nil
	}
	out := []string{}
	for _, n := range v.Content {
		n = deref(n)
		if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
			p.fail(n, "a group is a name")
			continue
		}
		out = append(out, n.Value)
	}
	return out
}

func (p *parser) place(v *yaml.Node) *Place {
	if v.Kind != yaml.MappingNode {
		p.fail(v, "place is a mapping: {queue: NAME, tags: {namespace: NS}}")
		return &Place{}
	}
	pl := &Place{Tags: map[string]string{}}
	p.mapping(v, placeKeys, "place", func(key string, k, v *yaml.Node) {
		switch key {
		case "queue":
			pl.Queue = p.str(k, v)
		case "forced":
			s := p.str(k, v)
			b, err := strconv.ParseBool(s)
			if err != nil && v.Kind == yaml.ScalarNode {
				p.fail(v, "forced is true or false")
			}
			pl.Forced = b
		case "tags":
			pl.Tags = p.tags(v)
		}
	})
	return pl
}

// tags reads a mapping of tag names to values: the request's tags of an
// access case, or a place case's application tags.
func (p *parser) tags(v *yaml.Node) map[string]string {
	tags := map[string]string{}
	if v.Kind != yaml.MappingNode {
		p.fail(v, "tags is a mapping of tag names to values, e.g. {namespace: team-a}")
		return tags
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		tk, tv := deref(v.Content[i]), deref(v.Content[i+1])
		if tk.Kind != yaml.ScalarNode || tv.Kind != yaml.ScalarNode {
			p.fail(tk, "a tag is a name and a single value")
			continue
		}
		if _, dup := tags[tk.Value]; dup {
			p.fail(tk, "tag %s is given twice", tk.Value)
			continue
		}
		tags[tk.Value] = tv.Value
	}
	return tags
}
