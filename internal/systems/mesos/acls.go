package mesos

import (
	"github.com/aclint/aclint/internal/engine"
	"strconv"

	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Document is one --acls file as read: its bytes, and its JSON when Mesos'
// parser accepts it.
type Document struct {
	File   string
	Src    []byte
	Root   *Value       // nil when Syntax is set
	Syntax *SyntaxError // the reason Mesos cannot read the file as JSON
	starts []int        // byte offset of each line
	text   string       // Src as a string, which values and lines are cut from
	cols   engine.Columns
}

// Parse reads an ACL file. It never fails: a file Mesos cannot read keeps
// the reason in Syntax.
func Parse(file string, data []byte) *Document {
	d := &Document{File: file, Src: data, text: string(data)}
	d.starts = make([]int, 1, bytes.Count(data, []byte("\n"))+1)
	for i, c := range data {
		if c == '\n' {
			d.starts = append(d.starts, i+1)
		}
	}
	d.Root, d.Syntax = parseJSON(data, d.text)
	return d
}

// Pos maps a byte offset to the file, line and column (in characters, as
// editors count them).
func (d *Document) Pos(off int) engine.Position {
	off = max(0, min(off, len(d.Src)))
	line := sort.Search(len(d.starts), func(i int) bool { return d.starts[i] > off }) - 1
	end := len(d.text)
	if line+1 < len(d.starts) {
		end = d.starts[line+1]
	}
	col := d.cols.ColOf(line, d.text[d.starts[line]:end], off-d.starts[line])
	return engine.Position{File: d.File, Line: line + 1, Col: col}
}

// Line returns the line number of an offset.
func (d *Document) Line(off int) int { return d.Pos(off).Line }

// Lines returns the file's lines, for source snippets.
// They are cut from the text the values were, without a copy of the file:
// strings.Split(text, "\n"), from the line starts Parse found.
func (d *Document) Lines() []string {
	lines := make([]string, len(d.starts))
	for i, start := range d.starts {
		end := len(d.text)
		if i+1 < len(d.starts) {
			end = d.starts[i+1] - 1
		}
		lines[i] = d.text[start:end]
	}
	return lines
}

// EntityType is an entity's type, numbered as in acls.proto.
type EntityType int

// The entity types. SOME is the default when type is not given, or when
// it is a string Mesos does not know.
const (
	SOME EntityType = iota
	ANY
	NONE
)

func (t EntityType) String() string { return [...]string{"SOME", "ANY", "NONE"}[t] }

// Entity is a principals or object field as Mesos holds it after parsing.
type Entity struct {
	Type       EntityType
	Values     []string
	Node       *Value   // the JSON object
	TypeNode   *Value   // the "type" value, when given and not null
	Ignored    string   // a type string Mesos discarded, leaving SOME
	BadType    bool     // a type of the wrong JSON type: Mesos stops
	ValueNodes []*Value // one per value, where it was written
}

// MatchesNothing is true for a SOME entity without values: every request
// carries a value, and no value is a subset of none.
func (e *Entity) MatchesNothing() bool { return e.Type == SOME && len(e.Values) == 0 }

// Describe renders the entity as Mesos holds it, e.g. {"values": ["a"]}.
func (e *Entity) Describe() string {
	switch e.Type {
	case ANY:
		return `{"type": "ANY"}`
	case NONE:
		return `{"type": "NONE"}`
	}
	q := make([]string, len(e.Values))
	for i, v := range e.Values {
		q[i] = quote(v)
	}
	return `{"values": [` + strings.Join(q, ", ") + `]}`
}

// key identifies the entity as written, as Describe does, without quoting:
// each value is prefixed by its length, so different lists never meet.
func (e *Entity) key() string {
	switch e.Type {
	case ANY:
		return "ANY"
	case NONE:
		return "NONE"
	}
	var b strings.Builder
	b.WriteString("SOME")
	for _, v := range e.Values {
		b.WriteString(strconv.Itoa(len(v)))
		b.WriteByte(':')
		b.WriteString(v)
	}
	return b.String()
}

// Entry is one ACL of a kind, with its index in Mesos' list (nulls are
// skipped and nested arrays flattened, as Mesos does).
type Entry struct {
	Kind    *Kind
	Index   int
	Node    *Value
	Subject *Entity // nil when missing: Mesos refuses to start
	Object  *Entity
}

// Name is the entry as Mesos names it in errors, e.g. run_tasks[1].
func (e *Entry) Name() string { return fmt.Sprintf("%s[%d]", e.Kind.Key, e.Index) }

// ACLs is an ACL file as Mesos holds it after parsing, with everything the
// parse noticed on the way.
type ACLs struct {
	Doc            *Document
	Permissive     bool
	PermissiveNode *Value // nil: not given, true by default
	Lists          map[string][]*Entry
	KindKeys       map[string]*Member // the member each list was read from
	Unknown        []*Member          // top-level keys Mesos ignores
	Issues         []Issue

	asked asked // the flags of aclint check only a Mesos request has
}

// Issue is one thing reading the file noticed, for the rule named.
type Issue struct {
	Rule string
	Off  int
	Msg  string
	Hint string
}

// Errors are the reasons Mesos refuses to start with these ACLs, in file
// order; none means it starts.
func (a *ACLs) Errors() []Issue { return engine.Refusals(a.Issues, Issue.rule, Rules()) }

func (is Issue) rule() string { return is.Rule }

// Decode reads a parsed document the way Mesos turns JSON into its ACLs
// message (stout's protobuf::parse) and then validates it
// (LocalAuthorizer::validate). Mesos stops at the first problem; Decode
// records every one and goes on, so that lint can report them all.
func Decode(d *Document) *ACLs {
	a := &ACLs{Doc: d, Permissive: true, Lists: map[string][]*Entry{}, KindKeys: map[string]*Member{}}
	if d.Syntax != nil {
		rule := ruleJSONSyntax
		if d.Syntax.Trailing {
			rule = ruleTrailing
		}
		a.add(rule, d.Syntax.Off, "Mesos cannot read the file as JSON: "+quote(d.Syntax.Msg), syntaxHint(d.Syntax))
		return a
	}
	if d.Root.Kind != JSONObject {
		a.add(ruleJSONSyntax, d.Root.Off, fmt.Sprintf("the ACLs must be a JSON object, not %s %s: Mesos stops with %s", article(d.Root.Kind), d.Root.Kind, quote("Unexpected JSON type parsed")),
			`write the ACLs as {"permissive": ..., "run_tasks": [...], ...}`)
		return a
	}
	top := append([]string{"permissive"}, KindKeys()...)
	for _, m := range d.Root.Members() {
		if a.shadowed(m, d.Root, func() string { return "" }) {
			continue
		}
		switch k := LookupKind(m.Key); {
		case m.Key == "permissive":
			a.permissive(m)
		case k != nil:
			a.KindKeys[k.Key] = m
			a.list(k, m.Key, m.Value)
		default:
			a.Unknown = append(a.Unknown, m)
			if _, ok := ObsoleteKinds[m.Key]; !ok {
				a.unknown(m, "a top-level key", top)
			}
		}
	}
	// obsolete kinds, once permissive and the current kinds are known
	for _, m := range a.Unknown {
		ob, ok := ObsoleteKinds[m.Key]
		if !ok {
			continue
		}
		msg := fmt.Sprintf("%s is no longer an ACL kind (%s): Mesos ignores it and its entries", quote(m.Key), ob.What)
		if !a.Permissive && len(a.Lists[ob.Now]) == 0 {
			msg += fmt.Sprintf("; with permissive false and no %s entries, every %s request is denied", ob.Now, ob.Now)
		}
		a.add(ruleUnknownKey, m.KeyOff, msg, "move the entries to "+quote(ob.Now)+", checking that they still mean what they should there")
	}
	a.validate()
	sort.SliceStable(a.Issues, func(i, j int) bool { return a.Issues[i].Off < a.Issues[j].Off })
	return a
}

func (a *ACLs) add(rule string, off int, msg, hint string) {
	a.Issues = append(a.Issues, Issue{Rule: rule, Off: off, Msg: msg, Hint: hint})
}

// shadowed reports a key written again later in the same object: Mesos
// keeps the last one and never reads this value.
func (a *ACLs) shadowed(m *Member, in *Value, where func() string) bool {
	if !m.Shadowed {
		return false
	}
	var last *Member
	for _, o := range in.Members() {
		if o.Key == m.Key {
			last = o
		}
	}
	a.add(ruleDuplicateKey, m.KeyOff, fmt.Sprintf("%s%s is given again at line %d: Mesos keeps only the last one and ignores this value", quote(m.Key), where(), a.Doc.Line(last.KeyOff)),
		"merge the two into one key")
	return true
}

func (a *ACLs) unknown(m *Member, what string, valid []string) {
	hint := "remove it, or use one of: " + strings.Join(valid, ", ")
	if len(valid) > 8 {
		hint = "remove it; `aclint rules mesos-unknown-key` lists the keys Mesos reads"
	}
	msg := fmt.Sprintf("unknown key %s: Mesos ignores %s it does not know, with everything under it", quote(m.Key), what)
	if near := engine.Nearest(m.Key, valid); near != "" {
		msg += "; did you mean " + quote(near) + "?"
		hint = "rename it to " + quote(near)
	}
	a.add(ruleUnknownKey, m.KeyOff, msg, hint)
}

func (a *ACLs) wrongType(v *Value, field, hint string) {
	a.add(ruleWrongType, v.Off, fmt.Sprintf("%s cannot be %s %s: Mesos stops with %s", field, article(v.Kind), v.Kind,
		quote(fmt.Sprintf("Not expecting a JSON %s for field '%s'", v.Kind, field))), hint)
}

func (a *ACLs) permissive(m *Member) {
	v := m.Value
	switch v.Kind {
	case JSONNull:
		return
	case JSONBool:
		a.Permissive, a.PermissiveNode = v.Bool, v
	case JSONString:
		// A string is read as JSON text that must be a boolean.
		inner, err := ParseJSON([]byte(v.Text))
		switch {
		case err != nil:
			a.add(ruleWrongType, v.Off, fmt.Sprintf("permissive %s is not a boolean: Mesos stops with %s", quote(v.Text),
				quote(fmt.Sprintf("Failed to parse '%s' as a JSON boolean for field 'permissive': %s", v.Text, err.Msg))), "write true or false, without quotes")
		case inner.Kind != JSONBool:
			a.add(ruleWrongType, v.Off, fmt.Sprintf("permissive %s is not a boolean: Mesos stops with %s", quote(v.Text),
				quote(fmt.Sprintf("Failed to parse '%s' as a JSON boolean for field 'permissive': Unexpected JSON type parsed", v.Text))), "write true or false, without quotes")
		default:
			a.Permissive, a.PermissiveNode = inner.Bool, v
			a.add(rulePermissiveString, v.Off, fmt.Sprintf("permissive is the string %s: Mesos reads it as the boolean %t, but other tools reading the file see a string", quote(v.Text), inner.Bool),
				fmt.Sprintf("write %t, without quotes", inner.Bool))
		}
	default:
		a.wrongType(v, "permissive", "write true or false")
	}
}

// list reads a kind's entries: an array of objects, or one object. Nested
// arrays are flattened and nulls skipped, as stout's parser does.
func (a *ACLs) list(k *Kind, field string, v *Value) {
	switch v.Kind {
	case JSONNull:
	case JSONObject:
		a.entry(k, v)
	case JSONArray:
		for _, e := range v.Elems() {
			a.list(k, field, e)
		}
	default:
		a.wrongType(v, field, "write a list of entries: ["+`{"principals": {...}, "`+k.Object+`": {...}}`+"]")
	}
}

func (a *ACLs) entry(k *Kind, v *Value) {
	e := &Entry{Kind: k, Index: len(a.Lists[k.Key]), Node: v}
	a.Lists[k.Key] = append(a.Lists[k.Key], e)
	where := func() string { return " in " + e.Name() }
	// a field of the wrong type is reported as that, not also as missing
	var subjGiven, objGiven *Value
	for _, m := range v.Members() {
		if a.shadowed(m, v, where) {
			continue
		}
		switch m.Key {
		case Subject:
			e.Subject = a.entity(m.Value, Subject)
			subjGiven = m.Value
		case k.Object:
			e.Object = a.entity(m.Value, k.Object)
			objGiven = m.Value
		default:
			if ob, ok := obsoleteFields[k.Key][m.Key]; ok {
				a.add(ruleUnknownKey, m.KeyOff, fmt.Sprintf("%s is no longer read in %s entries (%s): Mesos ignores it", quote(m.Key), k.Key, ob.What), "rename it to "+quote(ob.Now))
			} else {
				a.unknown(m, "an entry key", []string{Subject, k.Object})
			}
		}
	}
	a.missing(e, Subject, e.Subject, subjGiven)
	a.missing(e, k.Object, e.Object, objGiven)
}

func (a *ACLs) missing(e *Entry, field string, got *Entity, given *Value) {
	if got != nil || given != nil && given.Kind != JSONNull {
		return
	}
	null := given
	mesos := quote("Missing required fields: " + e.Name() + "." + field)
	example := `{"values": [...]}, {"type": "ANY"} or {"type": "NONE"}`
	if null != nil {
		a.add(ruleMissingField, null.Off, fmt.Sprintf("%s of %s is null, which Mesos reads as not set: Mesos stops with %s", field, e.Name(), mesos), "give "+field+" an entity: "+example)
		return
	}
	a.add(ruleMissingField, e.Node.Off, fmt.Sprintf("%s has no %s: Mesos stops with %s", e.Name(), quote(field), mesos), "add "+quote(field)+": "+example)
}

func (a *ACLs) entity(v *Value, field string) *Entity {
	switch v.Kind {
	case JSONNull:
		return nil
	case JSONObject:
	default:
		a.wrongType(v, field, `write an entity: {"values": [...]}, {"type": "ANY"} or {"type": "NONE"}`)
		return nil
	}
	en := &Entity{Node: v}
	for _, m := range v.Members() {
		if a.shadowed(m, v, func() string { return " in " + field }) {
			continue
		}
		switch m.Key {
		case "type":
			a.entityType(en, m.Value)
		case "values":
			a.values(en, m.Value)
		default:
			a.unknown(m, "an entity key", []string{"type", "values"})
		}
	}
	return en
}

func (a *ACLs) entityType(en *Entity, v *Value) {
	switch v.Kind {
	case JSONNull:
	case JSONString:
		en.TypeNode = v
		switch v.Text {
		case "SOME":
			en.Type = SOME
		case "ANY":
			en.Type = ANY
		case "NONE":
			en.Type = NONE
		default:
			// An optional enum with an unknown name is dropped: the entity
			// keeps the default, SOME.
			en.Ignored = v.Text
		}
	case JSONNumber:
		en.BadType = true
		a.add(ruleEnumNumber, v.Off, fmt.Sprintf("type %s is a number: Mesos takes only the names ANY, NONE and SOME, and stops with %s", v.Text,
			quote("Not expecting a JSON number for field 'type'")), `write "type": "ANY", "NONE" or "SOME"`)
	default:
		en.BadType = true
		a.wrongType(v, "type", `write "type": "ANY", "NONE" or "SOME"`)
	}
}

func (a *ACLs) values(en *Entity, v *Value) {
	switch v.Kind {
	case JSONNull:
	case JSONString:
		en.Values = append(en.Values, v.Text)
		en.ValueNodes = append(en.ValueNodes, v)
	case JSONArray:
		if en.Values == nil {
			en.Values, en.ValueNodes = make([]string, 0, len(v.Elems())), make([]*Value, 0, len(v.Elems()))
		}
		for _, e := range v.Elems() {
			a.values(en, e)
		}
	default:
		a.wrongType(v, "values", `write the values as strings: "values": ["a", "b"]`)
	}
}

// validate is LocalAuthorizer::validate: object types a kind cannot take,
// and endpoints that cannot be authorized.
func (a *ACLs) validate() {
	for _, k := range Kinds {
		for _, e := range a.Lists[k.Key] {
			o := e.Object
			if o == nil || o.Type != SOME {
				continue
			}
			switch k.Rule {
			case AnyOnly:
				off, why := o.Node.Off, "has no type, so it is SOME"
				if o.Ignored != "" {
					off, why = o.TypeNode.Off, fmt.Sprintf("has type %s, which Mesos does not know, so it is SOME", quote(o.Ignored))
				} else if o.TypeNode != nil {
					off, why = o.TypeNode.Off, "is SOME"
				}
				a.add(ruleObjectAnyOnly, off, fmt.Sprintf("%s of %s %s, but Mesos takes only ANY or NONE for %s and stops with %s", k.Object, e.Name(), why, k.Key,
					quote("ACL."+k.Message+" type must be either NONE or ANY")), fmt.Sprintf(`use {"type": "ANY"} to allow or {"type": "NONE"} to deny; Mesos never looks at the %s of these requests`, k.Object))
			case Endpoint:
				for i, p := range o.Values {
					if !authorizable(p) {
						hint := "authorizable paths: " + strings.Join(AuthorizableEndpoints, ", ")
						if strings.HasPrefix(p, "/slave(") {
							hint = "Mesos' documentation lists /slave(id)/ paths, but the code takes only: " + strings.Join(AuthorizableEndpoints, ", ")
						}
						a.add(ruleEndpointPath, o.ValueNodes[i].Off, fmt.Sprintf("%s is not an endpoint get_endpoints can authorize: Mesos stops with %s", quote(p),
							quote("Path: '"+p+"' is not an authorizable path")), hint)
					}
				}
			}
		}
	}
}

func syntaxHint(e *SyntaxError) string {
	switch {
	case e.Trailing:
		return "remove what follows the closing brace of the ACLs object"
	case e.Msg == "Value out of range":
		return "numbers must fit a double; ACLs take no numbers anyway"
	}
	return "fix the JSON here; Mesos' parser takes standard JSON (no comments, no trailing commas, double quotes only)"
}

// article goes before a JSON type name in messages (null never reaches
// them: a null field is unset).
func article(k JSONKind) string {
	if k == JSONArray || k == JSONObject {
		return "an"
	}
	return "a"
}

// quote renders a string as a JSON string, with invisible characters
// escaped, for messages.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < ' ' || r == 0x7f || r == 0xfeff || r == 0xa0 || (r >= 0x2000 && r <= 0x200f) || r == 0x2028 || r == 0x2029:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += n
	}
	b.WriteByte('"')
	return b.String()
}
