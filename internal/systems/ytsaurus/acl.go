package ytsaurus

import (
	"github.com/aclint/aclint/internal/engine"

	"fmt"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// aceKeys are the keys YTsaurus reads in an ACE; any other is skipped.
var aceKeys = []string{"action", "subjects", "permissions", "inheritance_mode", "subject_tag_filter", "columns", "vital", "row_access_predicate", "inapplicable_row_access_predicate_mode"}

// MaxTagFilterSize is max_subject_tag_filter_size's default.
const MaxTagFilterSize = 1024

// ysonType names the YSON node type a YAML value becomes.
func ysonType(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "map"
	}
	switch n.Tag {
	case "!!int":
		return "int64"
	case "!!float":
		return "double"
	case "!!bool":
		return "boolean"
	case "!!null":
		return "entity"
	}
	return "string"
}

func isNull(n *yaml.Node) bool { return n.Kind == yaml.ScalarNode && n.Tag == "!!null" }

func (t *Tree) wrong(a *ACE, v *yaml.Node, field, want, ytMsg, hint string) {
	a.Refused = true
	t.add(ruleWrongType, at(v), fmt.Sprintf("%s of ACE #%d must be %s, not %s %s (%s)", field, a.Index, want, article(ysonType(v)), ysonType(v), ytSays(ytMsg)), hint)
}

func article(s string) string {
	if strings.IndexByte("aeiou", s[0]) >= 0 {
		return "an"
	}
	return "a"
}

// acl reads a node's ACL as `set @acl` does: every ACE deserialized and
// checked (CheckAceCorrect), then every subject looked up.
func (t *Tree) acl(v *yaml.Node, path string) []*ACE {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		t.add(ruleWrongType, at(v), fmt.Sprintf("the acl of %s must be a list of ACEs, not %s %s", path, article(ysonType(v)), ysonType(v)), "write acl: [{action: allow, subjects: [...], permissions: [...]}]")
		return nil
	}
	var out []*ACE
	type missing struct {
		name string
		at   Pos
		ace  *ACE
	}
	var absent []missing
	for i, e := range v.Content {
		a := t.ace(e, i)
		out = append(out, a)
		for j, s := range a.Subjects {
			sub := t.Dir.Lookup(s)
			if sub == nil {
				if !t.Bare { // a lone ACL does not say which subjects exist
					absent = append(absent, missing{s, a.SubjectsAt[j], a})
				}
				continue
			}
			a.Subjects[j] = sub.Name // YTsaurus keeps the subject, not the alias
		}
	}
	if len(absent) > 0 {
		var names []string
		for _, m := range absent {
			names = append(names, m.name)
		}
		sort.Strings(names)
		names = uniq(names)
		yt := "Some subjects mentioned in ACL are missing: [" + strings.Join(names, ", ") + "]"
		for _, m := range absent {
			m.ace.Refused = true
			msg := fmt.Sprintf("subject %s of ACE #%d at %s is neither in the document nor a built-in user or group (%s)", yq(m.name), m.ace.Index, path, ytSays(yt))
			hint := "define it under users or groups, or fix the name"
			if near := engine.Nearest(m.name, t.Dir.Names()); near != "" {
				msg += "; did you mean " + yq(near) + "?"
				hint = "rename it to " + near
			}
			t.add(ruleUnknownSubject, m.at, msg, hint)
		}
	}
	return out
}

func uniq(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// ace deserializes one ACE as TSerializableAccessControlEntry does.
func (t *Tree) ace(e *yaml.Node, index int) *ACE {
	a := &ACE{Index: index, At: at(e), Mode: ObjectAndDescendants}
	if e.Kind != yaml.MappingNode {
		a.Refused = true
		t.add(ruleWrongType, at(e), fmt.Sprintf("ACE #%d must be a map, not %s %s", index, article(ysonType(e)), ysonType(e)), "write {action: allow, subjects: [...], permissions: [...]}")
		return a
	}
	// the required keys written (the others are read as they come)
	var hasAction, hasSubjects, hasPermissions bool
	t.keys(e, func() string { return fmt.Sprintf("ACE #%d", index) }, func(k, v *yaml.Node) {
		switch k.Value {
		case "action":
			hasAction = true
			a.Action = Action(t.enum(a, v, "action", "ESecurityAction", []string{"undefined", "allow", "deny"}))
		case "subjects":
			hasSubjects = true
			t.aceSubjects(a, v)
		case "permissions":
			hasPermissions = true
			a.Permissions = t.permissions(a, v)
		case "inheritance_mode":
			a.Mode = Mode(t.enum(a, v, "inheritance_mode", "EAceInheritanceMode", modeNames))
		case "columns":
			t.aceColumns(a, v)
		case "vital":
			t.aceVital(a, v)
		case "subject_tag_filter":
			t.aceTagFilter(a, v)
		case "row_access_predicate":
			t.aceRowPredicate(a, v)
		case "inapplicable_row_access_predicate_mode":
			if !isNull(v) {
				m := t.enum(a, v, "inapplicable_row_access_predicate_mode", "EInapplicableRowAccessPredicateMode", []string{"fail", "ignore"})
				a.RowMode = []string{"fail", "ignore"}[m]
			}
		default:
			t.aceUnknownKey(k, index)
		}
	})
	if t.aceMissing(a, e, hasAction, hasSubjects, hasPermissions) || a.Refused {
		return a
	}
	if msg := a.checkCorrect(); msg != "" {
		a.Refused = true
		t.add(ruleAceIncorrect, at(e), fmt.Sprintf("YTsaurus refuses ACE #%d: %s", index, msg), correctHint(a))
	}
	return a
}

func (t *Tree) aceSubjects(a *ACE, v *yaml.Node) {
	if v.Kind != yaml.SequenceNode {
		t.wrong(a, v, "subjects", "a list of user and group names", fmt.Sprintf(`Cannot parse "list" from %q`, ysonType(v)), "write subjects: [alice, analysts]")
		return
	}
	for _, s := range v.Content {
		if s.Kind != yaml.ScalarNode || isNull(s) {
			t.wrong(a, s, "an item of subjects", "a name (a string)", fmt.Sprintf(`Cannot parse "string" from %q`, ysonType(s)), "write each subject as a string")
			continue
		}
		a.Subjects = append(a.Subjects, s.Value)
		a.SubjectsAt = append(a.SubjectsAt, at(s))
	}
}

func (t *Tree) aceColumns(a *ACE, v *yaml.Node) {
	if isNull(v) {
		return
	}
	if v.Kind != yaml.SequenceNode {
		t.wrong(a, v, "columns", "a list of column names", fmt.Sprintf(`Cannot parse "list" from %q`, ysonType(v)), "write columns: [a, b]")
		return
	}
	a.HasColumns = true
	a.Columns = []string{}
	for _, c := range v.Content {
		if c.Kind != yaml.ScalarNode || isNull(c) {
			t.wrong(a, c, "an item of columns", "a column name", fmt.Sprintf(`Cannot parse "string" from %q`, ysonType(c)), "write each column as a string")
			continue
		}
		a.Columns = append(a.Columns, c.Value)
	}
}

func (t *Tree) aceVital(a *ACE, v *yaml.Node) {
	if isNull(v) {
		return
	}
	b, ok := boolValue(v)
	if !ok {
		t.wrong(a, v, "vital", "a boolean", "Error parsing boolean value "+yq(v.Value), "write vital: true")
		return
	}
	a.Vital = &b
}

// aceTagFilter reads subject_tag_filter: a string YTsaurus parses as a
// formula, within its size limit; an error points into the value.
func (t *Tree) aceTagFilter(a *ACE, v *yaml.Node) {
	if isNull(v) {
		return
	}
	if v.Kind != yaml.ScalarNode || v.Tag != "!!str" {
		t.wrong(a, v, "subject_tag_filter", "a string", fmt.Sprintf(`Cannot parse "string" from %q`, ysonType(v)), `write subject_tag_filter: "tag1 | tag2"`)
		return
	}
	if len(v.Value) > MaxTagFilterSize {
		a.Refused = true
		t.add(ruleTagFilter, at(v), fmt.Sprintf("subject_tag_filter of ACE #%d is %d bytes long; YTsaurus refuses filters longer than max_subject_tag_filter_size (%d by default)", a.Index, len(v.Value), MaxTagFilterSize), "shorten the filter, or use a group")
		return
	}
	f, err := ParseFormula(v.Value)
	if err != nil {
		a.Refused = true
		fe := err.(*FormulaError)
		p := at(v)
		if v.Style == 0 || v.Style == yaml.FlowStyle {
			p.Col += fe.Pos
		} else if v.Style == yaml.DoubleQuotedStyle || v.Style == yaml.SingleQuotedStyle {
			p.Col += fe.Pos + 1
		}
		t.add(ruleTagFilter, p, fmt.Sprintf("subject_tag_filter %s of ACE #%d is not a formula YTsaurus reads: %s", yq(v.Value), a.Index, lastLine(fe.Msg)),
			"tags are names of letters, digits, _ / - . :, combined with ! & | and parentheses (&& and || are not allowed)")
		return
	}
	a.TagFilter = f
}

func (t *Tree) aceRowPredicate(a *ACE, v *yaml.Node) {
	if isNull(v) {
		return
	}
	if v.Kind != yaml.ScalarNode {
		t.wrong(a, v, "row_access_predicate", "a string", fmt.Sprintf(`Cannot parse "string" from %q`, ysonType(v)), `write row_access_predicate: "region = 'eu'"`)
		return
	}
	s := v.Value
	a.RowPredicate = &s
}

// aceUnknownKey says YTsaurus skips a key it does not know, and the key
// meant when one is near.
func (t *Tree) aceUnknownKey(k *yaml.Node, index int) {
	msg := fmt.Sprintf("unknown ACE key %s: YTsaurus skips it silently", yq(k.Value))
	hint := "remove it; an ACE reads: " + strings.Join(aceKeys, ", ")
	if near := engine.Nearest(k.Value, aceKeys); near != "" {
		msg += fmt.Sprintf(", so ACE #%d is read without it; did you mean %s?", index, yq(near))
		hint = "rename it to " + near
		if near == "inheritance_mode" {
			msg += " The ACE keeps the default, object_and_descendants"
		}
	}
	t.add(ruleUnknownKey, at(k), msg, hint)
}

// aceMissing refuses an ACE without action, subjects or permissions.
func (t *Tree) aceMissing(a *ACE, e *yaml.Node, hasAction, hasSubjects, hasPermissions bool) bool {
	var absent []string
	for _, f := range []struct {
		name string
		has  bool
	}{{"action", hasAction}, {"subjects", hasSubjects}, {"permissions", hasPermissions}} {
		if !f.has {
			absent = append(absent, f.name)
		}
	}
	if len(absent) == 0 {
		return false
	}
	a.Refused = true
	t.add(ruleMissingField, at(e), fmt.Sprintf("ACE #%d has no %s (%s)", a.Index, strings.Join(absent, " and no "), ytSays(`Error parsing ACE: "action", "subject" and "permissions" fields are required`)),
		"every ACE needs action, subjects and permissions")
	return true
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func correctHint(a *ACE) string {
	switch {
	case a.Action == Undefined:
		return "use action allow or deny"
	case a.HasColumns:
		return "a columnar ACE grants only read: give the other permissions in an ACE without columns"
	case a.Permissions&RegisterQueueConsumer != 0 && a.Vital == nil:
		return "add vital: true or vital: false"
	case a.Vital != nil:
		return "vital goes only with the single permission register_queue_consumer"
	case a.Permissions&FullRead != 0:
		return "full_read can only be allowed, without columns or row_access_predicate"
	}
	return "row-level ACEs allow exactly [read]; mode goes only with a row_access_predicate"
}

// enum reads a non-bit enum: a string in snake_case, or an int64.
func (t *Tree) enum(a *ACE, v *yaml.Node, field, typeName string, domain []string) int {
	switch {
	case v.Kind == yaml.ScalarNode && v.Tag == "!!int":
		n, err := strconv.ParseInt(v.Value, 0, 64)
		if err == nil && n >= 0 && n < int64(len(domain)) {
			return int(n)
		}
		a.Refused = true
		t.add(ruleEnumValue, at(v), fmt.Sprintf("%s %s of ACE #%d is not a value of %s (0 to %d, or the names %s)", field, v.Value, a.Index, typeName, len(domain)-1, strings.Join(domain, ", ")),
			"write the name: "+domain[min(1, len(domain)-1)])
		return 0
	case v.Kind == yaml.ScalarNode && v.Tag != "!!null" && v.Tag != "!!float" && v.Tag != "!!bool":
		i, err := decodeEnum(typeName, v.Value, domain)
		if err == nil {
			return i
		}
		a.Refused = true
		hint := "use one of: " + strings.Join(domain, ", ")
		if near := engine.Nearest(strings.ToLower(v.Value), domain); near != "" {
			hint = "write " + near
		}
		t.add(ruleEnumValue, at(v), fmt.Sprintf("%s %s of ACE #%d is not one YTsaurus reads (%s)", field, yq(v.Value), a.Index, ytSays(err.Msg)), hint)
		return 0
	}
	t.wrong(a, v, field, "one of "+strings.Join(domain, ", "), fmt.Sprintf("Cannot deserialize enum from %q node", ysonType(v)), "write "+field+": "+domain[min(1, len(domain)-1)])
	return 0
}

// permissions reads EPermissionSet: a list of names, or one string whose
// names are separated by "|".
func (t *Tree) permissions(a *ACE, v *yaml.Node) Permission {
	var set Permission
	parse := func(s string, n *yaml.Node) {
		for more := true; more; {
			var tok string
			tok, s, more = strings.Cut(s, "|")
			tok = strings.TrimSpace(tok)
			i, err := decodeEnum("EPermission", tok, permissionDomain)
			if err != nil {
				a.Refused = true
				rule, hint := ruleEnumValue, "write permissions in lower case: "+camelToUnderscore(underscoreToCamel(tok))
				if err.Unknown {
					rule, hint = ruleUnknownPermission, "the permissions are: "+strings.Join(PermissionNames(), ", ")
					if near := engine.Nearest(tok, PermissionNames()); near != "" {
						hint = "write " + near
					}
				}
				t.add(rule, at(n), fmt.Sprintf("permission %s of ACE #%d is not one YTsaurus knows (%s)", yq(tok), a.Index, ytSays(err.Msg)), hint)
				continue
			}
			set |= permissionNames[i].P
		}
	}
	switch {
	case v.Kind == yaml.SequenceNode:
		for _, e := range v.Content {
			if e.Kind != yaml.ScalarNode || e.Tag == "!!null" || e.Tag == "!!int" || e.Tag == "!!float" || e.Tag == "!!bool" {
				t.wrong(a, e, "an item of permissions", "a permission name", fmt.Sprintf(`Cannot parse "string" from %q`, ysonType(e)), "write permissions: [read, write]")
				continue
			}
			parse(e.Value, e)
		}
	case v.Kind == yaml.ScalarNode && v.Tag == "!!str":
		parse(v.Value, v)
	default:
		t.wrong(a, v, "permissions", "a list of permission names or a \"read|write\" string", fmt.Sprintf("Cannot deserialize bit enum from %q node", ysonType(v)), "write permissions: [read, write]")
	}
	return set
}
