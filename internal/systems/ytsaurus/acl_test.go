package ytsaurus

import (
	"github.com/aclint/aclint/internal/engine"

	"reflect"
	"strings"
	"testing"
)

func issuesOf(t *testing.T, text string) (*Tree, []string, []string) {
	t.Helper()
	tr := Load(Parse("tree.yaml", []byte(text)), Options{})
	var rules, msgs []string
	for _, is := range tr.Issues {
		rules = append(rules, is.Rule)
		msgs = append(msgs, is.Msg)
	}
	return tr, rules, msgs
}

func aceDoc(ace string) string {
	return "users: {alice: {aliases: [a.smith]}}\ngroups: {eng: {}}\nnodes:\n  \"//a\":\n    acl: [" + ace + "]\n"
}

// How `set @acl` reads an ACE: the forms it accepts, what it refuses (with
// its message), what it skips.
func TestACEDecoding(t *testing.T) {
	for _, c := range []struct {
		name, ace string
		rules     []string
		msg       string // a part of the first message
		check     func(a *ACE) bool
	}{
		{"a list of permissions", `{action: allow, subjects: [eng], permissions: [read, write]}`, nil, "", func(a *ACE) bool { return a.Permissions == Read|Write }},
		{"one string with |", `{action: allow, subjects: [eng], permissions: " read | write|remove"}`, nil, "", func(a *ACE) bool { return a.Permissions == Read|Write|Remove }},
		{"| inside a list item", `{action: allow, subjects: [eng], permissions: ["read|mount"]}`, nil, "", func(a *ACE) bool { return a.Permissions == Read|Mount }},
		{"no permissions at all", `{action: allow, subjects: [eng], permissions: []}`, nil, "", func(a *ACE) bool { return a.Permissions == 0 }},
		{"aliases resolve to the subject", `{action: allow, subjects: [a.smith], permissions: [read]}`, nil, "", func(a *ACE) bool { return a.Subjects[0] == "alice" }},
		{"an empty subject list", `{action: allow, subjects: [], permissions: [read]}`, nil, "", func(a *ACE) bool { return len(a.Subjects) == 0 }},
		{"actions as numbers", `{action: 2, subjects: [eng], permissions: [read]}`, nil, "", func(a *ACE) bool { return a.Action == Deny }},
		{"modes as numbers", `{action: allow, subjects: [eng], permissions: [read], inheritance_mode: 3}`, nil, "", func(a *ACE) bool { return a.Mode == ImmediateDescendantsOnly }},
		{"vital as a string", `{action: allow, subjects: [eng], permissions: [register_queue_consumer], vital: "true"}`, nil, "", func(a *ACE) bool { return *a.Vital }},
		{"vital as 0", `{action: allow, subjects: [eng], permissions: [register_queue_consumer], vital: 0}`, nil, "", func(a *ACE) bool { return !*a.Vital }},
		{"columns with no permissions", `{action: allow, subjects: [eng], permissions: [], columns: [c]}`, nil, "", nil},
		{"null optional fields", `{action: allow, subjects: [eng], permissions: [read], columns: null, vital: null, row_access_predicate: null}`, nil, "", func(a *ACE) bool { return !a.HasColumns && a.Vital == nil }},
		{"a case error", `{action: Allow, subjects: [eng], permissions: [read]}`, []string{ruleEnumValue}, `Enum value "Allow" is not in a proper underscore case; did you mean "allow"?`, nil},
		{"YTsaurus' odd suggestion", `{action: ALLOW, subjects: [eng], permissions: [read]}`, []string{ruleEnumValue}, `did you mean "a_l_l_o_w"?`, nil},
		{"camelCase", `{action: allow, subjects: [eng], permissions: [read], inheritance_mode: objectOnly}`, []string{ruleEnumValue}, `did you mean "object_only"?`, nil},
		{"an unknown name", `{action: allow, subjects: [eng], permissions: [read], inheritance_mode: object_and_children}`, []string{ruleEnumValue}, `Error parsing EAceInheritanceMode value "object_and_children"`, nil},
		{"a number out of range", `{action: 5, subjects: [eng], permissions: [read]}`, []string{ruleEnumValue}, "is not a value of ESecurityAction", nil},
		{"null mode", `{action: allow, subjects: [eng], permissions: [read], inheritance_mode: null}`, []string{ruleWrongType}, `Cannot deserialize enum from "entity" node`, nil},
		{"unknown permission", `{action: allow, subjects: [eng], permissions: [read, delete]}`, []string{ruleUnknownPermission}, `Error parsing EPermission value "delete"`, nil},
		{"permission case", `{action: allow, subjects: [eng], permissions: [Read]}`, []string{ruleEnumValue}, `did you mean "read"?`, nil},
		{"an empty permission string", `{action: allow, subjects: [eng], permissions: ""}`, []string{ruleUnknownPermission}, `Error parsing EPermission value ""`, nil},
		{"permissions as a number", `{action: allow, subjects: [eng], permissions: 1}`, []string{ruleWrongType}, `Cannot deserialize bit enum from "int64" node`, nil},
		{"subjects as a string", `{action: allow, subjects: eng, permissions: [read]}`, []string{ruleWrongType}, "", nil},
		{"missing fields", `{action: allow, permission: [read], subjects: [eng]}`, []string{ruleMissingField, ruleUnknownKey}, `unknown ACE key "permission"`, nil},
		{"a misspelled mode is skipped", `{action: allow, subjects: [eng], permissions: [read], inheritence_mode: object_only}`, []string{ruleUnknownKey}, "keeps the default", func(a *ACE) bool { return a.Mode == ObjectAndDescendants }},
		{"a repeated key", `{action: allow, action: deny, subjects: [eng], permissions: [read]}`, []string{ruleDuplicateKey}, `Duplicate key "action"`, nil},
		{"missing subjects, sorted", `{action: allow, subjects: [zed, bob, zed], permissions: [read]}`, []string{ruleUnknownSubject, ruleUnknownSubject, ruleUnknownSubject}, "Some subjects mentioned in ACL are missing: [bob, zed]", nil},
		{"undefined action", `{action: undefined, subjects: [eng], permissions: [read]}`, []string{ruleAceIncorrect}, `"undefined" action is not allowed`, nil},
		{"columns with write", `{action: allow, subjects: [eng], permissions: [read, write], columns: [c]}`, []string{ruleAceIncorrect}, `ACE specifying columns may contain only "read" permission; found "read | write"`, nil},
		{"full_read denied", `{action: deny, subjects: [eng], permissions: [full_read]}`, []string{ruleAceIncorrect}, `ACE with "full_read" permission may have only "allow" action; found "deny"`, nil},
		{"full_read with a predicate", `{action: allow, subjects: [eng], permissions: [full_read], row_access_predicate: "a = 1"}`, []string{ruleAceIncorrect}, `may not specify "row_access_predicate" or "columns"`, nil},
		{"a deny predicate", `{action: deny, subjects: [eng], permissions: [read], row_access_predicate: "a = 1"}`, []string{ruleAceIncorrect}, `ACE specifying "row_access_predicate" may have only "allow" action; found "deny"`, nil},
		{"a predicate with write", `{action: allow, subjects: [eng], permissions: [read, write], row_access_predicate: "a = 1"}`, []string{ruleAceIncorrect}, `may contain only "read" permission; found "read | write"`, nil},
		{"a mode without predicate", `{action: allow, subjects: [eng], permissions: [read], inapplicable_row_access_predicate_mode: ignore}`, []string{ruleAceIncorrect}, `can only be specified if "row_access_predicate" is specified`, nil},
		{"a predicate with columns", `{action: allow, subjects: [eng], permissions: [read], columns: [c], row_access_predicate: "a = 1"}`, []string{ruleAceIncorrect}, `Single ACE must not contain both "columns" and "row_access_predicate"`, nil},
		{"a consumer without vital", `{action: allow, subjects: [eng], permissions: [register_queue_consumer]}`, []string{ruleAceIncorrect}, `Permission "register_queue_consumer" requires vitality to be specified`, nil},
		{"vital with read", `{action: allow, subjects: [eng], permissions: [read], vital: true}`, []string{ruleAceIncorrect}, `ACE specifying vitality must contain a single "register_queue_consumer" permission`, nil},
		{"a bad tag filter", `{action: allow, subjects: [eng], permissions: [read], subject_tag_filter: "a &&"}`, []string{ruleTagFilter}, "Unfinished formula", nil},
		{"&& in a tag filter", `{action: allow, subjects: [eng], permissions: [read], subject_tag_filter: "a && b"}`, []string{ruleTagFilter}, "Invalid token in boolean formula", nil},
		{"a long tag filter", `{action: allow, subjects: [eng], permissions: [read], subject_tag_filter: "` + strings.Repeat("a|", 513) + `a"}`, []string{ruleTagFilter}, "1024", nil},
	} {
		tr, rules, msgs := issuesOf(t, aceDoc(c.ace))
		if !reflect.DeepEqual(rules, c.rules) {
			t.Errorf("%s: issues %v, want %v (%v)", c.name, rules, c.rules, msgs)
			continue
		}
		if c.msg != "" && !strings.Contains(strings.Join(msgs, "\n"), c.msg) {
			t.Errorf("%s: messages %q lack %q", c.name, msgs, c.msg)
		}
		if c.check != nil && !c.check(tr.Nodes["//a"].ACL[0]) {
			t.Errorf("%s: decoded %+v", c.name, tr.Nodes["//a"].ACL[0])
		}
	}
}

func TestDocumentProblems(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		rules     []string
	}{
		{"a cycle", "groups:\n  a: {member_of: [b]}\n  b: {member_of: [c]}\n  c: {member_of: [a]}\n", []string{ruleCycle}},
		{"a cycle through a built-in", "groups:\n  a: {member_of: [superusers]}\n  users: {member_of: [a]}\n", []string{ruleCycle}},
		{"a user and a group", "users: {x: {}}\ngroups: {x: {}}\n", []string{ruleNameConflict}},
		{"an alias taken", "users: {x: {aliases: [y]}, y: {}}\n", []string{ruleNameConflict}},
		{"a built-in as a group", "groups: {root: {}}\n", []string{ruleNameConflict}},
		{"root banned", "users: {root: {banned: true}}\n", []string{ruleSubjectInvalid}},
		{"member of a user", "users: {x: {}, y: {member_of: [x]}}\n", []string{ruleSubjectInvalid}},
		{"member of nobody", "users: {x: {member_of: [nope]}}\n", []string{ruleUnknownSubject}},
		{"an unknown owner", "nodes:\n  \"//a\": {owner: nope}\n", []string{ruleUnknownSubject}},
		{"a bad path", "nodes:\n  \"/home\": {}\n", []string{ruleDocument}},
		{"a trailing slash", "nodes:\n  \"//home/\": {}\n", []string{ruleDocument}},
		{"a node twice", "nodes:\n  \"//a\": {}\n  \"//a\": {}\n", []string{ruleDuplicateKey}},
		{"an unknown node key", "nodes:\n  \"//a\": {inherit: false}\n", []string{ruleDocument}},
		{"an unknown user key", "users: {x: {groups: [users]}}\n", []string{ruleDocument}},
		{"a group with tags", "groups: {g: {tags: [a]}}\n", []string{ruleDocument}},
		{"syntax", "nodes: [\n", []string{ruleDocument}},
		{"built-in users can be extended", "users: {guest: {tags: [web]}}\ngroups: {g: {member_of: [users]}}\n", nil},
	} {
		_, rules, msgs := issuesOf(t, c.doc)
		if !reflect.DeepEqual(rules, c.rules) {
			t.Errorf("%s: %v, want %v (%v)", c.name, rules, c.rules, msgs)
		}
	}
}

func TestBuiltins(t *testing.T) {
	tr := load(t, "users: {alice: {}}\n")
	for user, groups := range map[string][]string{
		"alice":     {"everyone", "users"},
		"guest":     {"everyone"},
		"owner":     {"everyone", "users"},
		"root":      {"everyone", "superusers", "users"},
		"scheduler": {"everyone", "superusers", "users"},
	} {
		if got := tr.Dir.User(user).Closure(); !reflect.DeepEqual(got, groups) {
			t.Errorf("%s: %v, want %v", user, got, groups)
		}
	}
}

func TestDetect(t *testing.T) {
	for in, want := range map[string]bool{
		"users: {}\nnodes:\n  /: {}\n":                             true,
		`{"nodes": {"/": {}}}`:                                     true,
		`[{"action": "allow", "subjects": [], "permissions": []}]`: true,
		"partitions: []\n":                                         false,
		`{"permissive": false}`:                                    false,
		`[1, 2]`:                                                   false,
	} {
		if got := (Sys{}).Detect(&engine.Input{Data: []byte(in)}); got != want {
			t.Errorf("Detect(%q) = %v", in, got)
		}
	}
}

// TestDomainNamesRoundTrip holds decodeEnum's shortcut: a name of an enum's
// domain is taken as it is, which is right only because YTsaurus' case
// round trip (underscore to camel case and back) leaves each one unchanged.
func TestDomainNamesRoundTrip(t *testing.T) {
	domains := [][]string{permissionDomain, modeNames, {"undefined", "allow", "deny"}, {"fail", "ignore"}}
	for _, domain := range domains {
		for i, name := range domain {
			if back := camelToUnderscore(underscoreToCamel(name)); back != name {
				t.Errorf("%q reads back as %q: decodeEnum's shortcut would accept what YTsaurus refuses", name, back)
			}
			if got, err := decodeEnum("E", name, domain); err != nil || got != i {
				t.Errorf("decodeEnum(%q) = %d, %v; want %d", name, got, err, i)
			}
		}
	}
}

// TestNormalizePathSegments holds NormalizePath's test for empty segments
// to the split it replaced, on every path of up to six characters over
// "/", "a" and "b".
func TestNormalizePathSegments(t *testing.T) {
	split := func(p string) bool { // the old reading: some segment is empty
		for _, seg := range strings.Split(p[2:], "/") {
			if seg == "" {
				return true
			}
		}
		return false
	}
	var paths []string
	var grow func(p string)
	grow = func(p string) {
		paths = append(paths, p)
		if len(p) < 6 {
			for _, c := range []string{"/", "a", "b"} {
				grow(p + c)
			}
		}
	}
	grow("")
	for _, p := range paths {
		if !strings.HasPrefix(p, "//") || len(p) == 2 {
			continue
		}
		_, err := NormalizePath(p)
		if got, want := err != nil, split(p); got != want {
			t.Errorf("NormalizePath(%q) refuses=%v, the split says %v", p, got, want)
		}
	}
}
