package ytsaurus

import (
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/engine"
)

// The rules' names. Reading the tree reports the first group (as Issues);
// the checks report the rest.
const (
	ruleDocument          = "yt-document"
	ruleWrongType         = "yt-wrong-type"
	ruleDuplicateKey      = "yt-duplicate-key"
	ruleMissingField      = "yt-missing-field"
	ruleEnumValue         = "yt-enum-value"
	ruleUnknownPermission = "yt-unknown-permission"
	ruleAceIncorrect      = "yt-ace-incorrect"
	ruleTagFilter         = "yt-tag-filter"
	ruleUnknownSubject    = "yt-unknown-subject"
	ruleCycle             = "yt-membership-cycle"
	ruleNameConflict      = "yt-name-conflict"
	ruleSubjectInvalid    = "yt-subject-invalid"
	ruleUnknownKey        = "yt-unknown-key"
	ruleDenyACE           = "yt-deny-ace"
	ruleNoChildren        = "yt-descendants-without-children"
	ruleInheritEmpty      = "yt-inherit-empty"
	ruleColumnar          = "yt-columnar-ace"
	ruleGuest             = "yt-guest-not-in-users"
	ruleSingleUsers       = "yt-single-users"
)

// System is the system name YTsaurus' rules carry.
const System = "ytsaurus"

// sourceLoad says where the findings of rules without a check come from.
const sourceLoad = "Load: reading the tree and each ACE as the master does (TSerializableAccessControlEntry, CheckAceCorrect), before any check runs"

// Rules are YTsaurus' rules, in the order they are documented: one list,
// built for whoever asks, never kept in a package variable.
func Rules() *engine.RuleList {
	return engine.NewRuleList(
		ruleYtDocument(),
		ruleYtWrongType(),
		ruleYtDuplicateKey(),
		ruleYtMissingField(),
		ruleYtEnumValue(),
		ruleYtUnknownPermission(),
		ruleYtACEIncorrect(),
		ruleYtTagFilter(),
		ruleYtUnknownSubject(),
		ruleYtMembershipCycle(),
		ruleYtNameConflict(),
		ruleYtSubjectInvalid(),
		ruleYtUnknownKey(),
		ruleYtDenyACE(),
		ruleYtDescendantsWithoutChildren(),
		ruleYtInheritEmpty(),
		ruleYtColumnarACE(),
		ruleYtGuestNotInUsers(),
		ruleYtSingleUsers(),
	)
}

// register makes a rule of YTsaurus: its check runs over the loaded tree;
// without one, Load reports its findings.
func register(r *engine.Rule, check func(t *Tree, report func(Pos, string, string))) *engine.Rule {
	r.System = System
	if check == nil {
		r.Source = sourceLoad
	} else {
		r.Check = engine.Typed(func(t *Tree, report func(engine.Finding)) {
			if t.Doc.Root == nil {
				return
			}
			check(t, func(p Pos, msg, hint string) {
				report(engine.Finding{Rule: r.Name, Severity: r.Severity, Pos: t.Doc.Pos(p), Message: msg, Hint: hint})
			})
		})
	}
	return r
}

// Lint checks one tree document: everything YTsaurus refuses, and what it
// accepts but reads otherwise.
func Lint(d *Document, opts Options) []engine.Finding {
	out, _ := lint(d, opts)
	return out
}

// lint is Lint, and the tree it loaded (for the editor).
func lint(d *Document, opts Options) ([]engine.Finding, *Tree) {
	rules := Rules()
	t := Load(d, opts)
	var out []engine.Finding
	for _, is := range t.Issues {
		out = append(out, engine.Finding{Rule: is.Rule, Severity: rules.Lookup(is.Rule).Severity, Pos: d.Pos(is.At), Message: is.Msg, Hint: is.Hint})
	}
	return engine.Run(rules.All(), t, out...), t
}

// aces calls fn for every ACE YTsaurus accepts, node by node in document
// order.
func (t *Tree) aces(fn func(n *Node, a *ACE)) {
	for _, n := range t.Order {
		for _, a := range n.ACL {
			if !a.Refused {
				fn(n, a)
			}
		}
	}
}

// ruleYtDocument is the rule yt-document.
func ruleYtDocument() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleDocument,
		Severity: engine.Error,
		Summary:  "a tree document aclint cannot read: YAML or JSON syntax, an unknown key outside an ACE, a bad Cypress path",
		Doc: "The tree document describes what YTsaurus holds: `users` and `groups` (with `member_of`, `aliases`, " +
			"`tags`, `banned`) and `nodes` by Cypress path (with `acl`, `inherit_acl`, `owner`). A mistake here is not " +
			"something YTsaurus would see, but every answer would be wrong, so it is an error: nothing is checked " +
			"against a document that does not say what it means. Paths are `/` or start with `//`.",
		Bad:  "users:\n  alice: {member_of: [analysts]}\ngroups:\n  analysts: {}\nnodes:\n  \"//home/reports\":\n    inherit: false\n    acl: [{action: allow, subjects: [analysts], permissions: [read]}]\n",
		Good: "users:\n  alice: {member_of: [analysts]}\ngroups:\n  analysts: {}\nnodes:\n  \"//home/reports\":\n    inherit_acl: true\n    acl: [{action: allow, subjects: [analysts], permissions: [read]}]\n",
	}, nil)
}

// ruleYtWrongType is the rule yt-wrong-type.
func ruleYtWrongType() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleWrongType,
		Severity: engine.Error,
		Summary:  "a value of a type YTsaurus does not take: subjects that are not a list, an ACE that is not a map, a non-boolean vital",
		Doc: "YTsaurus deserializes every ACE field into a typed value and refuses `set @acl` when a value has the " +
			"wrong YSON type (`Cannot deserialize enum from \"list\" node`). `permissions` is the exception that " +
			"takes two forms: a list, or one string such as `\"read|write\"`.",
		Bad:  "nodes:\n  \"//home/reports\":\n    acl: [{action: allow, subjects: analysts, permissions: [read]}]\ngroups:\n  analysts: {}\n",
		Good: "nodes:\n  \"//home/reports\":\n    acl: [{action: allow, subjects: [analysts], permissions: [read]}]\ngroups:\n  analysts: {}\n",
	}, nil)
}

// ruleYtDuplicateKey is the rule yt-duplicate-key.
func ruleYtDuplicateKey() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleDuplicateKey,
		Severity: engine.Error,
		Summary:  "a key written twice in one map",
		Doc: "YSON maps cannot repeat a key: YTsaurus' tree builder refuses the value with `Duplicate key`. In the " +
			"document itself a repeated user, group or node would make the answer depend on which one was read.",
		Bad:  "nodes:\n  \"//home/reports\":\n    acl: [{action: allow, subjects: [users], permissions: [read], permissions: [write]}]\n",
		Good: "nodes:\n  \"//home/reports\":\n    acl: [{action: allow, subjects: [users], permissions: [read, write]}]\n",
	}, nil)
}

// ruleYtMissingField is the rule yt-missing-field.
func ruleYtMissingField() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleMissingField,
		Severity: engine.Error,
		Summary:  "an ACE without action, subjects or permissions",
		Doc: "The three are required: `Error parsing ACE: \"action\", \"subject\" and \"permissions\" fields are " +
			"required`. A misspelled key (`permission`, `subject`) is the usual cause; it is also reported by " +
			"[yt-unknown-key](#yt-unknown-key). The message quoted is the one of YTsaurus' streaming parser; reading a " +
			"`set @acl` value as a tree, the master words the same refusal as `Node has no child with key \"action\"`.",
		Bad:  "nodes:\n  \"//home/reports\":\n    acl: [{action: allow, subjects: [users], permission: [read]}]\n",
		Good: "nodes:\n  \"//home/reports\":\n    acl: [{action: allow, subjects: [users], permissions: [read]}]\n",
	}, nil)
}

// ruleYtEnumValue is the rule yt-enum-value.
func ruleYtEnumValue() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleEnumValue,
		Severity: engine.Error,
		Summary:  "an action, inheritance mode or permission not written in snake_case, or not a value the enum has",
		Doc: "Enum strings must be exactly snake_case: `Allow` is refused with `Enum value \"Allow\" is not in a " +
			"proper underscore case; did you mean \"allow\"?`, and a name the enum lacks with `Error parsing " +
			"EAceInheritanceMode value \"...\"`. YTsaurus' own suggestion can be odd (`ALLOW` becomes `a_l_l_o_w`), " +
			"so aclint gives the nearest valid value. Action and inheritance mode may also be given as their numbers.",
		Bad:  "nodes:\n  \"//home/reports\":\n    acl: [{action: Allow, subjects: [users], permissions: [read], inheritance_mode: objectOnly}]\n",
		Good: "nodes:\n  \"//home/reports\":\n    acl: [{action: allow, subjects: [users], permissions: [read], inheritance_mode: object_only}]\n",
	}, nil)
}

// ruleYtUnknownPermission is the rule yt-unknown-permission.
func ruleYtUnknownPermission() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleUnknownPermission,
		Severity: engine.Error,
		Summary:  "a permission YTsaurus does not have",
		Doc: "The permissions are " + strings.Join(PermissionNames(), ", ") + ". Anything else is refused (`Error " +
			"parsing EPermission value \"delete\"`). The documentation's table lists eight of them; the code has all " +
			"eleven.",
		Bad:  "nodes:\n  \"//home/reports\":\n    acl: [{action: allow, subjects: [users], permissions: [read, delete]}]\n",
		Good: "nodes:\n  \"//home/reports\":\n    acl: [{action: allow, subjects: [users], permissions: [read, remove]}]\n",
	}, nil)
}

// ruleYtACEIncorrect is the rule yt-ace-incorrect.
func ruleYtACEIncorrect() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleAceIncorrect,
		Severity: engine.Error,
		Summary:  "an ACE CheckAceCorrect refuses: columns with a permission other than read, full_read on a deny, a row predicate that is not an allow of exactly read, vital without register_queue_consumer, …",
		Doc: "YTsaurus validates every ACE as it is deserialized (`CheckAceCorrect`) and refuses the whole `set @acl` " +
			"for one bad ACE. The message quotes YTsaurus'. The conditions: no `undefined` action; a columnar ACE " +
			"grants only `read`; `full_read` only with `allow` and without `columns` or `row_access_predicate`; a " +
			"`row_access_predicate` only with `allow` and exactly `[read]`, and without `columns`; " +
			"`inapplicable_row_access_predicate_mode` only with a `row_access_predicate`; `register_queue_consumer` " +
			"needs `vital`, and `vital` needs `register_queue_consumer` alone.",
		Bad:  "nodes:\n  \"//home/reports/events\":\n    acl: [{action: allow, subjects: [users], permissions: [read, write], columns: [email]}]\n",
		Good: "nodes:\n  \"//home/reports/events\":\n    acl:\n      - {action: allow, subjects: [users], permissions: [write]}\n      - {action: allow, subjects: [users], permissions: [read]}\n",
	}, nil)
}

// ruleYtTagFilter is the rule yt-tag-filter.
func ruleYtTagFilter() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleTagFilter,
		Severity: engine.Error,
		Summary:  "a subject_tag_filter YTsaurus cannot parse, or longer than 1024 bytes",
		Doc: "A tag filter is a boolean formula over the user's `tags`: tag names (letters, digits, `_ / - . :`, not " +
			"starting with a digit), `!`, `&`, `|`, parentheses, `%true` and `%false`. `&&`, `||`, comparisons and " +
			"numbers are refused; the message is YTsaurus' own, with the position.",
		Bad:  "users:\n  alice: {tags: [drinks]}\nnodes:\n  \"//home/bar\":\n    acl: [{action: allow, subjects: [users], permissions: [read], subject_tag_filter: \"drinks && !smoothie\"}]\n",
		Good: "users:\n  alice: {tags: [drinks]}\nnodes:\n  \"//home/bar\":\n    acl: [{action: allow, subjects: [users], permissions: [read], subject_tag_filter: \"drinks & !smoothie\"}]\n",
	}, nil)
}

// ruleYtUnknownSubject is the rule yt-unknown-subject.
func ruleYtUnknownSubject() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleUnknownSubject,
		Severity: engine.Error,
		Summary:  "a subject, group, member_of entry or owner that exists neither in the document nor among the built-ins",
		Doc: "`set @acl` looks every subject up (a user, then a group, then an alias) and refuses the ACL when one is " +
			"missing: `Some subjects mentioned in ACL are missing: [...]`. The built-in users (root, guest, owner, " +
			"job, scheduler, replicator and the other system users) and groups (everyone, users, superusers) exist " +
			"without being listed.",
		Bad:  "groups:\n  analysts: {}\nnodes:\n  \"//home/reports\":\n    acl: [{action: allow, subjects: [analyst], permissions: [read]}]\n",
		Good: "groups:\n  analysts: {}\nnodes:\n  \"//home/reports\":\n    acl: [{action: allow, subjects: [analysts], permissions: [read]}]\n",
	}, nil)
}

// ruleYtMembershipCycle is the rule yt-membership-cycle.
func ruleYtMembershipCycle() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleCycle,
		Severity: engine.Error,
		Summary:  "groups that are members of each other",
		Doc: "Group membership is acyclic: YTsaurus refuses the membership that would close a cycle (`Adding group " +
			"\"a\" to group \"b\" would produce a cycle`). The built-in chain superusers ⊂ users ⊂ everyone counts.",
		Bad:  "groups:\n  eng: {member_of: [data]}\n  data: {member_of: [eng]}\n",
		Good: "groups:\n  eng: {member_of: [data]}\n  data: {}\n",
	}, nil)
}

// ruleYtNameConflict is the rule yt-name-conflict.
func ruleYtNameConflict() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleNameConflict,
		Severity: engine.Error,
		Summary:  "two subjects sharing a name or an alias",
		Doc:      "Users, groups and their aliases share one namespace in YTsaurus; a name can be only one of them.",
		Bad:      "users:\n  alice: {aliases: [data]}\ngroups:\n  data: {}\n",
		Good:     "users:\n  alice: {aliases: [a.smith]}\ngroups:\n  data: {}\n",
	}, nil)
}

// ruleYtSubjectInvalid is the rule yt-subject-invalid.
func ruleYtSubjectInvalid() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleSubjectInvalid,
		Severity: engine.Error,
		Summary:  "a subject YTsaurus refuses: root banned, an empty name, a user named as a group",
		Doc: "root cannot be banned (`User \"root\" cannot be banned`), names and aliases cannot be empty, and only " +
			"groups have members, so `member_of` must name groups.",
		Bad:  "users:\n  alice: {}\n  bob: {member_of: [alice]}\n",
		Good: "users:\n  alice: {}\n  bob: {}\n",
	}, nil)
}

// ruleYtUnknownKey is the rule yt-unknown-key.
func ruleYtUnknownKey() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleUnknownKey,
		Severity: engine.Warning,
		Summary:  "an ACE key YTsaurus skips silently, such as `inheritence_mode`",
		Doc: "Deserialization skips keys it does not know, without a word, so a typo falls back to the default: " +
			"`\"inheritence_mode\": \"object_only\"` leaves the ACE `object_and_descendants`, and it reaches every " +
			"node below. Case errors, by contrast, are refused (see [yt-enum-value](#yt-enum-value)).",
		Bad:  "nodes:\n  \"//home/reports\":\n    acl: [{action: allow, subjects: [users], permissions: [read], inheritence_mode: object_only}]\n",
		Good: "nodes:\n  \"//home/reports\":\n    acl: [{action: allow, subjects: [users], permissions: [read], inheritance_mode: object_only}]\n",
	}, nil)
}

// ruleYtDenyACE is the rule yt-deny-ace.
func ruleYtDenyACE() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleDenyACE,
		Severity: engine.Warning,
		Summary:  "a deny ACE: the documentation advises allow-only ACLs",
		Doc: "A deny wins over every allow, at its node and at every node it reaches below, and nothing below can " +
			"undo it: only `inherit_acl: false` cuts the chain. YTsaurus' documentation advises building ACLs from " +
			"allows only and using deny as a temporary measure; the web UI does not create deny entries at all.",
		Bad:  "nodes:\n  \"//home/reports\":\n    acl:\n      - {action: allow, subjects: [users], permissions: [read]}\n      - {action: deny, subjects: [guest], permissions: [read]}\n",
		Good: "nodes:\n  \"//home/reports\":\n    acl:\n      - {action: allow, subjects: [users], permissions: [read]}\n",
	}, func(t *Tree, report func(Pos, string, string)) {
		t.aces(func(n *Node, a *ACE) {
			if a.Action != Deny {
				return
			}
			report(a.At, fmt.Sprintf("ACE #%d at %s denies %s to %s: a deny wins over every allow here and below, and only inherit_acl: false undoes it", a.Index, n.Path, orNone(a.Permissions), strings.Join(a.Subjects, ", ")),
				"grant the access that is meant with allows instead; keep a deny only as a temporary block")
		})
	})
}

// ruleYtDescendantsWithoutChildren is the rule yt-descendants-without-children.
func ruleYtDescendantsWithoutChildren() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleNoChildren,
		Severity: engine.Warning,
		Summary:  "a descendants_only or immediate_descendants_only ACE on a node without children in the document",
		Doc: "These modes never apply to the node that holds the ACE, only to nodes below it (immediate: exactly one " +
			"level below). On a table or file, which has no children, the ACE is dead; in the document the node has " +
			"no child listed, so nothing it reaches is described.",
		Bad:  "nodes:\n  \"//home/reports/daily\":\n    acl: [{action: allow, subjects: [users], permissions: [read], inheritance_mode: descendants_only}]\n",
		Good: "nodes:\n  \"//home/reports/daily\":\n    acl: [{action: allow, subjects: [users], permissions: [read], inheritance_mode: object_only}]\n",
	}, func(t *Tree, report func(Pos, string, string)) {
		if t.Bare {
			return
		}
		t.aces(func(n *Node, a *ACE) {
			if (a.Mode == DescendantsOnly || a.Mode == ImmediateDescendantsOnly) && !n.HasChildren() {
				report(a.At, fmt.Sprintf("ACE #%d at %s is %s: it never applies to %s itself, and the document lists nothing below it", a.Index, n.Path, a.Mode, n.Path),
					"use object_only or object_and_descendants for the node itself, or list the children it is meant for")
			}
		})
	})
}

// ruleYtInheritEmpty is the rule yt-inherit-empty.
func ruleYtInheritEmpty() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleInheritEmpty,
		Severity: engine.Warning,
		Summary:  "inherit_acl false with an empty ACL: only superusers get in",
		Doc: "`inherit_acl: false` drops every ACE above the node, including `everyone: read` at the root. With no " +
			"ACE of its own, the node and everything below that inherits are reachable by superusers only.",
		Bad:  "nodes:\n  \"//home/secret\":\n    inherit_acl: false\n",
		Good: "groups:\n  secret-readers: {}\nnodes:\n  \"//home/secret\":\n    inherit_acl: false\n    acl: [{action: allow, subjects: [secret-readers], permissions: [read]}]\n",
	}, func(t *Tree, report func(Pos, string, string)) {
		for _, n := range t.Order {
			if !n.Inherit && len(n.ACL) == 0 {
				report(n.InheritAt, fmt.Sprintf("%s does not inherit and has no ACE: only root and superusers can access it, and the nodes below it that inherit", n.Path),
					"add the ACEs meant for this node, or set inherit_acl back to true")
			}
		}
	})
}

// ruleYtColumnarACE is the rule yt-columnar-ace.
func ruleYtColumnarACE() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleColumnar,
		Severity: engine.Warning,
		Summary:  "a columnar ACE: it hides the columns from everyone it does not name",
		Doc: "Once any columnar ACE on the way names a column, reading that column needs an explicit matching allow " +
			"for it. Users the ACE does not mention lose read on the column, even those with read on the table, " +
			"and the columnar ACE restricts the column whatever its subject, tag filter aside, and even where its " +
			"inheritance mode does not reach.",
		Bad:  "groups:\n  pii-readers: {}\nnodes:\n  \"//home/reports/users\":\n    acl:\n      - {action: allow, subjects: [users], permissions: [read]}\n      - {action: allow, subjects: [pii-readers], permissions: [read], columns: [email]}\n",
		Good: "groups:\n  pii-readers: {}\nnodes:\n  \"//home/reports/users\":\n    acl:\n      - {action: allow, subjects: [users], permissions: [read]}\n",
	}, func(t *Tree, report func(Pos, string, string)) {
		t.aces(func(n *Node, a *ACE) {
			if a.HasColumns && len(a.Columns) > 0 {
				report(a.At, fmt.Sprintf("ACE #%d at %s restricts columns %s: everyone not given read on them by a columnar allow loses read on them, here and below", a.Index, n.Path, strings.Join(a.Columns, ", ")),
					"make sure every reader of these columns is named in a columnar allow; aclint yt check --columns shows who keeps them")
			}
		})
	})
}

// ruleYtGuestNotInUsers is the rule yt-guest-not-in-users.
func ruleYtGuestNotInUsers() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleGuest,
		Severity: engine.Warning,
		Summary:  "users where guest is meant too: guest is not a member of users",
		Doc: "Unauthenticated requests run as `guest`, which is in `everyone` but not in `users`. A deny for `users` " +
			"does not stop them, and replacing the root's `everyone: read` with `users: read` shuts them out.",
		Bad:  "nodes:\n  \"//home/reports\":\n    acl:\n      - {action: allow, subjects: [everyone], permissions: [read]}\n      - {action: deny, subjects: [users], permissions: [write]}\n",
		Good: "nodes:\n  \"//home/reports\":\n    acl:\n      - {action: allow, subjects: [everyone], permissions: [read]}\n",
	}, func(t *Tree, report func(Pos, string, string)) {
		names := func(a *ACE, n string) bool {
			for _, s := range a.Subjects {
				if s == n {
					return true
				}
			}
			return false
		}
		t.aces(func(n *Node, a *ACE) {
			if !names(a, Users) || names(a, Everyone) || names(a, Guest) {
				return
			}
			switch {
			case a.Action == Deny:
				report(a.At, fmt.Sprintf("ACE #%d at %s denies users, but guest (every unauthenticated request) is not in users: the deny does not apply to it", a.Index, n.Path),
					"deny everyone to stop guest too, or add guest to the subjects")
			case n.Path == "/" && (!t.Bare || t.BarePath) && a.Permissions&Read != 0:
				for _, b := range n.ACL {
					if !b.Refused && b.Action == Allow && b.Permissions&Read != 0 && (names(b, Everyone) || names(b, Guest)) {
						return
					}
				}
				report(a.At, fmt.Sprintf("ACE #%d gives read at the root to users, and nothing gives it to everyone: guest (unauthenticated requests) is not in users and cannot read anything that inherits", a.Index),
					"grant everyone read at / if anonymous reads are meant (the built-in root ACL does)")
			}
		})
	})
}

// ruleYtSingleUsers is the rule yt-single-users.
func ruleYtSingleUsers() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleSingleUsers,
		Severity: engine.Info,
		Summary:  "an ACE naming single users where a group would serve",
		Doc: "ACEs that list people one by one drift: someone joins the team and is forgotten in one of them. When " +
			"the users of an ACE are exactly the members of a group, aclint names the group; an ACE naming four or " +
			"more single users is worth a group of its own.",
		Bad:  "users:\n  alice: {member_of: [analysts]}\n  bob: {member_of: [analysts]}\ngroups:\n  analysts: {}\nnodes:\n  \"//home/reports\":\n    acl: [{action: allow, subjects: [alice, bob], permissions: [read]}]\n",
		Good: "users:\n  alice: {member_of: [analysts]}\n  bob: {member_of: [analysts]}\ngroups:\n  analysts: {}\nnodes:\n  \"//home/reports\":\n    acl: [{action: allow, subjects: [analysts], permissions: [read]}]\n",
	}, func(t *Tree, report func(Pos, string, string)) {
		members := map[string][]string{} // group -> its direct user members
		for _, s := range t.Dir.Subjects() {
			if s.Group || s.Builtin {
				continue
			}
			for _, g := range s.MemberOf {
				if gs := t.Dir.byName[g]; gs != nil && !gs.Builtin {
					members[g] = append(members[g], s.Name)
				}
			}
		}
		t.aces(func(n *Node, a *ACE) {
			var single []string
			for _, name := range a.Subjects {
				if s := t.Dir.byName[name]; s != nil && !s.Group && !s.Builtin {
					single = append(single, name)
				}
			}
			if len(single) < 2 {
				return
			}
			set := map[string]bool{}
			for _, u := range single {
				set[u] = true
			}
			for _, s := range t.Dir.Subjects() {
				m := members[s.Name]
				if !s.Group || len(m) < 2 || len(m) != len(set) {
					continue
				}
				all := true
				for _, u := range m {
					all = all && set[u]
				}
				if all {
					report(a.At, fmt.Sprintf("ACE #%d at %s names %s one by one: they are exactly the members of group %s", a.Index, n.Path, strings.Join(single, ", "), s.Name),
						"name the group "+s.Name+" instead, so that the ACE follows the team")
					return
				}
			}
			if len(single) >= 4 {
				report(a.At, fmt.Sprintf("ACE #%d at %s names %d users one by one", a.Index, n.Path, len(single)), "create a group for them and name it instead")
			}
		})
	})
}
