package yunikorn

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"gopkg.in/yaml.v3"
)

func scalar(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n == nil || n.Kind != yaml.ScalarNode {
		return nil
	}
	return n
}

// normalizedACL rewrites an ACL the way validate-conf read it: one plain
// space between users and groups, a single leading space kept for a
// groups-only value.
func normalizedACL(raw string) string {
	f := strings.Fields(raw)
	switch {
	case len(f) == 0:
		return ""
	case len(f) == 1 && strings.IndexFunc(raw, unicode.IsSpace) == 0:
		return " " + f[0]
	}
	return strings.Join(f, " ")
}

// leadingSpaceReadings returns the two ways to read an ACL that starts with
// blanks and then has two lists (" a,b c"): the leading space makes every
// name a group (" a,b,c"), the space between makes the first list users and
// the second groups ("a,b c"). nil for any other ACL.
func leadingSpaceReadings(raw string) []string {
	f := strings.Fields(raw)
	if len(f) != 2 || strings.IndexFunc(raw, unicode.IsSpace) != 0 {
		return nil
	}
	return []string{" " + f[0] + "," + f[1], f[0] + " " + f[1]}
}

// dedupeACL drops names repeated within the user list or the group list.
func dedupeACL(raw string) string {
	parts := strings.Split(raw, " ")
	for i, part := range parts {
		var kept []string
		seen := map[string]bool{}
		for _, name := range strings.Split(part, ",") {
			if name != "" && seen[name] {
				continue
			}
			seen[name] = true
			kept = append(kept, name)
		}
		parts[i] = strings.Join(kept, ",")
	}
	return strings.Join(parts, " ")
}

// ruleACLTooManyParts is the rule acl-too-many-parts.
func ruleACLTooManyParts() *Rule {
	return &Rule{
		Name:     "acl-too-many-parts",
		Severity: Error,
		Summary:  "an ACL with more than two white-space separated parts",
		Doc: "An ACL is `users groups`: a comma-separated user list, one space, a comma-separated group list.\n" +
			"A third part (`sue dev ops`) is rejected by validate-conf with `multiple spaces found in ACL`, and\n" +
			"YuniKorn rejects the config. Names inside a list are separated by commas, not spaces.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "sue dev ops"
        queues:
          - name: default
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "sue dev,ops"
        queues:
          - name: default
`,
		check: func(p *pass) {
			p.aclFields(func(_ *config.Partition, q *config.Queue, field string, s config.Str, v *acl.Value) {
				if v.ValidatorErr == nil {
					return
				}
				// point at the third part
				trimmedStart := len(s.Value) - len(strings.TrimLeftFunc(s.Value, unicode.IsSpace))
				off, parts := trimmedStart, 0
				inField := false
				for i, r := range s.Value {
					if i < trimmedStart {
						continue
					}
					if unicode.IsSpace(r) {
						inField = false
						continue
					}
					if !inField {
						parts++
						inField = true
						if parts == 3 {
							off = i
							break
						}
					}
				}
				p.reportf(p.doc.ValuePos(s.Node, off),
					"separate names inside a list with commas; use one space only between the user list and the group list",
					"%s of %s has %d parts: an ACL is \"users groups\" with a single space between them, so YuniKorn rejects the config (%v)",
					field, q.Path(), v.ValidatorParts, v.ValidatorErr)
			})
		},
	}
}

// ruleACLStraySpace is the rule acl-stray-space.
func ruleACLStraySpace() *Rule {
	return &Rule{
		Name:           "acl-stray-space",
		PassesValidate: true,
		Fixes:          true,
		Severity:       Error,
		Summary:        "leading, trailing or doubled spaces: validate-conf accepts them, then the queues fail to load",
		Doc: "validate-conf trims an ACL and splits it on runs of white space, so `\"sue dev \"`, `\" sue dev\"` and\n" +
			"`\"sue  dev\"` pass validation (and the admission webhook). When the queues are built, YuniKorn\n" +
			"splits on every single space, finds three parts and fails with `multiple spaces found in ACL`:\n" +
			"the scheduler does not start, or on a reload keeps the old config. Only a single leading space\n" +
			"(a groups-only ACL like `\" dev\"`) and a single trailing space are harmless.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "sue dev "
        queues:
          - name: default
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "sue dev"
        queues:
          - name: default
`,
		check: func(p *pass) {
			p.aclFields(func(_ *config.Partition, q *config.Queue, field string, s config.Str, v *acl.Value) {
				if v.ValidatorErr != nil || v.RuntimeErr == nil {
					return
				}
				// the second space is the one too many
				first := strings.IndexByte(s.Value, ' ')
				off := first + 1 + strings.IndexByte(s.Value[first+1:], ' ')
				what := "a doubled space"
				switch {
				case strings.HasPrefix(s.Value, " ") && off == len(s.Value)-1 && strings.TrimSpace(s.Value) != "":
					what = "a leading and a trailing space"
				case strings.HasPrefix(s.Value, "  "):
					what = "leading spaces"
				case strings.HasPrefix(s.Value, " ") && !strings.Contains(s.Value, "  "):
					what = "a leading space before users and groups"
				case off == len(s.Value)-1 && !strings.Contains(s.Value, "  "):
					what = "a trailing space after users and groups"
				}
				msg := "%s of %s has %s: validate-conf accepts %s, but YuniKorn splits on every single space when it builds the queues and the config fails to load (%v)"
				if readings := leadingSpaceReadings(s.Value); readings != nil {
					// " a b": the leading space says groups only, the space
					// between says users then groups; no fix is plainly meant
					var alts []Alternative
					var says []string
					for _, r := range readings {
						if e := editOrNil(p.doc.ReplaceScalar(s.Node, r)); e != nil {
							alts = append(alts, Alternative{Edit: *e, Grants: describeGrants(acl.Parse(r))})
						}
						says = append(says, fmt.Sprintf("%s (%s)", quote(r), describeGrants(acl.Parse(r))))
					}
					p.report(Finding{Rule: p.rule.Name, Severity: p.rule.Severity, Pos: p.doc.ValuePos(s.Node, off),
						Message: fmt.Sprintf(msg, field, q.Path(), what, quote(s.Value), v.RuntimeErr), Alternatives: alts,
						Hint: "it reads two ways, so aclint fixes neither: write " + strings.Join(says, ", or ")})
					return
				}
				p.reportACLFix(p.doc.ValuePos(s.Node, off), editOrNil(p.doc.ReplaceScalar(s.Node, normalizedACL(s.Value))), s.Value, normalizedACL(s.Value),
					"write "+quote(normalizedACL(s.Value))+": one space, only between the user list and the group list",
					msg, field, q.Path(), what, quote(s.Value), v.RuntimeErr)
			})
		},
	}
}

// ruleLostLeadingSpace is the rule lost-leading-space.
func ruleLostLeadingSpace() *Rule {
	return &Rule{
		Name:     "lost-leading-space",
		Fixes:    true,
		Severity: Warning,
		Summary:  "an unquoted ACL written with extra blanks after the colon: YAML drops them, groups become users",
		Doc: "A groups-only ACL starts with a space: `\" dev,test\"`. Written without quotes as\n" +
			"`submitacl:  dev,test`, YAML drops the blanks before a plain value, YuniKorn sees `dev,test`, and\n" +
			"the intended groups are read as user names.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl:  dev,test
        queues:
          - name: default
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: " dev,test"
        queues:
          - name: default
`,
		check: func(p *pass) {
			p.aclFields(func(_ *config.Partition, q *config.Queue, field string, s config.Str, v *acl.Value) {
				n := s.Node
				if n == nil || n.Kind != yaml.ScalarNode || n.Style != 0 || s.Key.Line != n.Line || strings.Contains(s.Value, " ") || s.Value == "" {
					return
				}
				lines := p.doc.Text
				gap := n.Column - (s.Key.Column + utf8.RuneCountInString(s.Key.Value)) - 1
				if gap <= 1 || !onlyBlanksBetween(lines, n.Line, s.Key.Column+utf8.RuneCountInString(s.Key.Value)+1, n.Column) {
					return
				}
				p.reportACLFix(p.doc.NodePos(n), editOrNil(p.doc.QuoteAfterKey(s.Key, n, " "+s.Value)), s.Value, " "+s.Value,
					fmt.Sprintf("for a groups-only ACL quote the value with its leading space: %s: %s; if they are users, leave one blank after the colon", field, quote(" "+s.Value)),
					"%s of %s is written with %d blanks after the colon; YAML drops them, so %s is read as a user list, not as groups",
					field, q.Path(), gap, quote(s.Value))
			})
		},
	}
}

// onlyBlanksBetween reports whether line (1-based) of text has only a colon
// and blanks from column from to column to (exclusive).
func onlyBlanksBetween(text []byte, line, from, to int) bool {
	l := nthLine(text, line)
	col := 1
	for _, r := range l {
		if col >= from && col < to && r != ' ' && r != '\t' && r != ':' {
			return false
		}
		col++
	}
	return true
}

func nthLine(text []byte, line int) string {
	cur := 1
	start := 0
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			if cur == line {
				return string(text[start:i])
			}
			cur++
			start = i + 1
		}
	}
	if cur == line {
		return string(text[start:])
	}
	return ""
}

// repeats marks each entry that repeats an earlier entry of the same list.
// Most ACLs are short, and a pairwise scan beats a map there; a long one
// (an ACL of a million names is still an input) goes through a map, so the
// work stays linear.
// anyRepeat reports whether repeats would mark any entry, without
// allocating for the small lists nearly every ACL has.
func anyRepeat(entries []acl.Entry) bool {
	if len(entries) > 16 {
		return slices.Contains(repeats(entries), true)
	}
	for i := range entries {
		for _, e := range entries[:i] {
			if e.Kind == entries[i].Kind && e.Name == entries[i].Name {
				return true
			}
		}
	}
	return false
}

func repeats(entries []acl.Entry) []bool {
	out := make([]bool, len(entries))
	if len(entries) <= 16 {
		for i := range entries {
			for _, e := range entries[:i] {
				if e.Kind == entries[i].Kind && e.Name == entries[i].Name {
					out[i] = true
					break
				}
			}
		}
		return out
	}
	type key struct {
		kind acl.Kind
		name string
	}
	seen := make(map[key]bool, len(entries))
	for i, e := range entries {
		k := key{e.Kind, e.Name}
		out[i] = seen[k]
		seen[k] = true
	}
	return out
}

// kubernetesAdvice explains what to do about an identity that no ACL can name.
func kubernetesAdvice(e acl.Entry) string {
	switch {
	case strings.HasPrefix(e.Name, "system:serviceaccount:"):
		return "service account users can never be matched by a YuniKorn ACL; grant the queue to a group the workload's requests carry (set through the yunikorn.apache.org/user.info annotation by a trusted submitter) or to \"*\""
	case strings.HasPrefix(e.Name, "system:"):
		return "Kubernetes system groups (system:serviceaccounts, system:authenticated, ...) cannot be named in a YuniKorn ACL; use a group name without ':' that the requests carry, or \"*\""
	case e.Kind == acl.Group && strings.Contains(e.Name, ":"):
		return "groups with ':' (Kubernetes or OIDC style) cannot be named in a YuniKorn ACL; use a group name without ':' that the requests carry"
	case e.Kind == acl.Group && strings.Contains(e.Name, "."):
		return "'.' is allowed in ACL user names but not in group names; rename the group in the identity provider, or list its members as users"
	case strings.ContainsAny(e.Name, ":#/"):
		return "OIDC-style names with ':', '#' or '/' pass YuniKorn's user check but not its ACL parser; map them to plain names before they reach YuniKorn"
	case e.Name != "" && !unicode.IsLetter(rune(e.Name[0])) && e.Name[0] != '_':
		return "ACL names must start with a letter or '_'"
	case e.Kind == acl.Group && strings.ContainsAny(e.Name, "@$"):
		return "'@' and '$' are allowed in ACL user names but not in group names"
	}
	return "rename it to match the pattern, or remove it"
}

// badChar names the first character of name that breaks the pattern.
func badChar(name string, kind acl.Kind) string {
	for i, r := range name {
		ok := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if i > 0 {
			ok = ok || (r >= '0' && r <= '9') || r == '-' || (kind == acl.User && (r == '.' || r == '@' || (r == '$' && i == len(name)-1)))
		}
		if !ok {
			if i == 0 {
				return fmt.Sprintf("it starts with %q", r)
			}
			return fmt.Sprintf("%q is not allowed", r)
		}
	}
	return "it does not match"
}

// ruleIgnoredName is the rule ignored-name.
func ruleIgnoredName() *Rule {
	return &Rule{
		Name:     "ignored-name",
		Severity: Warning,
		Summary:  "an ACL entry YuniKorn's ACL parser silently drops",
		Doc: "When YuniKorn builds a queue it keeps only user names matching `^[_a-zA-Z][a-zA-Z0-9_.@-]*[$]?$`\n" +
			"and group names matching `^[_a-zA-Z][a-zA-Z0-9_-]*$`; anything else is dropped with a log line at\n" +
			"INFO. These patterns are stricter than the rest of YuniKorn: Kubernetes service accounts\n" +
			"(`system:serviceaccount:ns:sa`), system groups, OIDC names with `:`, `#` or `/`, and groups with a\n" +
			"dot are accepted as request identities but can never be matched by an ACL.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        adminacl: " admins"
        submitacl: "system:serviceaccount:etl:runner data.eng"
        queues:
          - name: default
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        adminacl: " admins"
        submitacl: " data-eng"
        queues:
          - name: default
`,
		check: func(p *pass) {
			p.aclFields(func(_ *config.Partition, q *config.Queue, field string, s config.Str, v *acl.Value) {
				if isCoerced(s.Node) {
					return // yaml-scalar-coercion reports the whole value
				}
				var rep []bool
				for i, e := range v.Entries {
					if (e.Drop != acl.BadUserName && e.Drop != acl.BadGroupName) || strings.IndexFunc(e.Name, unicode.IsSpace) >= 0 {
						continue
					}
					if rep == nil {
						rep = repeats(v.Entries)
					}
					if rep[i] {
						continue // duplicate-entry reports the repeat
					}
					pattern := acl.UserPattern
					if e.Kind == acl.Group {
						pattern = acl.GroupPattern
					}
					p.reportf(p.doc.ValuePos(s.Node, e.Offset), kubernetesAdvice(e),
						"%s of %s lists %s %q, which YuniKorn ignores: %s in %s (%s)",
						field, q.Path(), e.Kind, e.Name, badChar(e.Name, e.Kind), pattern, "the ACL parser drops it silently")
				}
			})
		},
	}
}

// ruleMisplacedWildcard is the rule misplaced-wildcard.
func ruleMisplacedWildcard() *Rule {
	return &Rule{
		Name:     "misplaced-wildcard",
		Severity: Warning,
		Summary:  "`*` inside a list (dropped) or beside names that it makes meaningless",
		Doc: "`*` means everyone only as a whole list. Inside a list (`sue,*`) YuniKorn drops it like any\n" +
			"invalid name, so it does not open the queue. As a whole list it makes the other list pointless:\n" +
			"in `* dev` the groups are never read, in `sue *` the users are discarded.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "sue,*"
        queues:
          - name: default
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: default
`,
		check: func(p *pass) {
			p.aclFields(func(_ *config.Partition, q *config.Queue, field string, s config.Str, v *acl.Value) {
				var beside []string
				for _, e := range v.Entries {
					switch e.Drop {
					case acl.WildcardInList:
						p.reportf(p.doc.ValuePos(s.Node, e.Offset),
							"write \"*\" alone as the user or group list to allow everyone, or remove it",
							"%s of %s has \"*\" inside the %s list %s: YuniKorn drops it, it does not allow everyone",
							field, q.Path(), e.Kind, quote(s.Value))
					case acl.AfterWildcard, acl.ClearedByWildcard:
						beside = append(beside, e.Name)
					}
				}
				if len(beside) > 0 {
					list := "group list"
					if v.Wildcard == acl.GroupListStar {
						list = "user list"
					}
					p.reportf(p.doc.ValuePos(s.Node, v.WildcardAt),
						"write \"*\" alone: the names beside it change nothing",
						"%s of %s allows everyone through \"*\", so the %s %s is ignored",
						field, q.Path(), list, strings.Join(beside, ","))
				}
			})
		},
	}
}

// ruleNonSpaceSeparator is the rule non-space-separator.
func ruleNonSpaceSeparator() *Rule {
	return &Rule{
		Name:     "non-space-separator",
		Fixes:    true,
		Severity: Warning,
		Summary:  "a tab or other blank instead of a single space: the ACL matches nobody",
		Doc: "validate-conf splits on any white space, so `\"sue\\tdev\"` passes. The runtime parser splits only\n" +
			"on the space character: it reads one user named `sue<tab>dev`, which is invalid and dropped.\n" +
			"The same happens with a non-breaking space pasted from a document.",
		Bad: "partitions:\n  - name: default\n    queues:\n      - name: root\n        adminacl: \" admins\"\n        submitacl: \"sue\\tdev\"\n",
		Good: `partitions:
  - name: default
    queues:
      - name: root
        adminacl: " admins"
        submitacl: "sue dev"
        queues:
          - name: default
`,
		check: func(p *pass) {
			p.aclFields(func(_ *config.Partition, q *config.Queue, field string, s config.Str, v *acl.Value) {
				if v.RuntimeErr != nil || v.ValidatorErr != nil {
					return
				}
				body := strings.TrimRight(s.Value, "\n")
				for i, r := range body {
					if unicode.IsSpace(r) && r != ' ' {
						var fix *config.Edit
						if !strings.HasSuffix(s.Value, "\n") {
							fix = editOrNil(p.doc.ReplaceScalar(s.Node, normalizedACL(s.Value)))
						}
						p.reportACLFix(p.doc.ValuePos(s.Node, i), fix, s.Value, normalizedACL(s.Value),
							"use a single plain space between the user list and the group list, and commas inside a list",
							"%s of %s contains %s: YuniKorn's ACL parser splits only on a plain space, so the names around it form one invalid name that is dropped (%s)",
							field, q.Path(), describeRune(r), quote(s.Value))
						return
					}
				}
			})
		},
	}
}

// ruleCommaSpace is the rule comma-space.
func ruleCommaSpace() *Rule {
	return &Rule{
		Name:     "comma-space",
		Fixes:    true,
		Severity: Warning,
		Summary:  "a blank next to a comma moves the names after it into the group list",
		Doc: "Inside a list names are separated by commas only; the one space separates the user list from\n" +
			"the group list. `\"alice, bob\"` reads as user `alice` and group `bob`, and `\"alice ,bob\"` as\n" +
			"user `alice` and group `bob` too: the names after the blank land in the other list. The fix joins\n" +
			"them into one user list; it changes who has access, so it is unsafe.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "alice, bob"
        queues:
          - name: default
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "alice,bob"
        queues:
          - name: default
`,
		check: func(p *pass) {
			p.aclFields(func(_ *config.Partition, q *config.Queue, field string, s config.Str, v *acl.Value) {
				if v.RuntimeErr != nil || v.ValidatorErr != nil {
					return
				}
				users, groups, ok := strings.Cut(s.Value, " ")
				if !ok || users == "" || groups == "" || strings.Contains(s.Value, "*") {
					return
				}
				var what string
				switch {
				case strings.HasSuffix(users, ","):
					what = "a space after the comma"
				case strings.HasPrefix(groups, ","):
					what = "a space before the comma"
				default:
					return
				}
				// which names cross into the group list
				var moved []string
				for _, g := range strings.Split(groups, ",") {
					if g != "" {
						moved = append(moved, g)
					}
				}
				if len(moved) == 0 {
					return
				}
				joined := strings.TrimSuffix(users, ",") + "," + strings.TrimPrefix(groups, ",")
				p.reportACLFix(p.doc.ValuePos(s.Node, len(users)), editOrNil(p.doc.ReplaceScalar(s.Node, joined)), s.Value, joined,
					fmt.Sprintf("if they are all users, write %s; if %s %s, write %s", quote(joined), strings.Join(moved, ", "), plural(len(moved), "is a group", "are groups"), quote(strings.TrimSuffix(users, ",")+" "+strings.TrimPrefix(groups, ","))),
					"%s of %s has %s (%s): the space ends the user list, so YuniKorn reads %s as %s",
					field, q.Path(), what, quote(s.Value), strings.Join(moved, ", "), plural(len(moved), "a group", "groups"))
			})
		},
	}
}

func describeRune(r rune) string {
	switch r {
	case '\t':
		return "a tab"
	case '\n':
		return "a line break"
	case '\r':
		return "a carriage return"
	case '\u00a0':
		return "a non-breaking space (U+00A0)"
	}
	return fmt.Sprintf("the blank U+%04X", r)
}

// ruleTrailingNewline is the rule trailing-newline.
func ruleTrailingNewline() *Rule {
	return &Rule{
		Name:     "trailing-newline",
		Fixes:    true,
		Severity: Warning,
		Summary:  "a block scalar leaves a newline inside the ACL value",
		Doc: "A `|` or `>` block scalar keeps its final line break. YuniKorn does not trim ACLs before\n" +
			"matching, so the last name becomes `dev\\n`, fails the name pattern and is dropped. (A value of\n" +
			"`*` followed by a newline still means everyone, because the wildcard test trims.)",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: |
          sue dev
        queues:
          - name: default
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "sue dev"
        queues:
          - name: default
`,
		check: func(p *pass) {
			p.aclFields(func(_ *config.Partition, q *config.Queue, field string, s config.Str, v *acl.Value) {
				if !strings.HasSuffix(s.Value, "\n") || v.RuntimeErr != nil || v.ValidatorErr != nil {
					return
				}
				effect := "the last name, " + quote(lastName(s.Value)) + ", is dropped"
				if v.Everyone {
					effect = "it still means everyone, but only because the wildcard test trims the value"
				}
				p.reportACLFix(p.doc.NodePos(s.Node), editOrNil(p.doc.ChompBlock(scalar(s.Node))), s.Value, strings.TrimRight(s.Value, "\n"),
					"use the strip indicator (|-) or write the ACL as a quoted string on one line",
					"%s of %s ends with a line break that YuniKorn keeps: %s", field, q.Path(), effect)
			})
		},
	}
}

func lastName(s string) string {
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' })
	if len(f) == 0 {
		return s
	}
	return f[len(f)-1]
}

// yaml11Bools are the YAML 1.1 booleans that yaml.v3 reads as strings.
var yaml11Bools = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "n": true, "N": true, "no": true, "No": true, "NO": true,
	"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true,
}

// isCoerced reports whether a plain ACL value is something YAML (or a reader
// of YAML) takes for a non-string.
func isCoerced(n *yaml.Node) bool {
	n = scalar(n)
	if n == nil || n.Style != 0 || n.Value == "" {
		return false
	}
	switch n.ShortTag() {
	case "!!bool", "!!int", "!!float", "!!null":
		return true
	}
	return yaml11Bools[n.Value]
}

// ruleYAMLScalarCoercion is the rule yaml-scalar-coercion.
func ruleYAMLScalarCoercion() *Rule {
	return &Rule{
		Name:     "yaml-scalar-coercion",
		Severity: Warning,
		Summary:  "`yes`, `true`, `on`, `null`, `~` or a number used as an ACL",
		Doc: "An ACL is a string, so YuniKorn keeps the text of a plain `yes`, `true` or `on` and reads it\n" +
			"as a user name; `null` and `~` become the empty ACL, which allows nobody; a number is kept as\n" +
			"written and, as a user name starting with a digit, dropped. Whatever was meant, it is not that.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: yes
        queues:
          - name: default
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: default
`,
		check: func(p *pass) {
			p.aclFields(func(_ *config.Partition, q *config.Queue, field string, s config.Str, v *acl.Value) {
				if !isCoerced(s.Node) {
					return
				}
				n := scalar(s.Node)
				var effect string
				switch tag := n.ShortTag(); {
				case tag == "!!null":
					effect = "it is YAML null, so the ACL is empty and allows nobody"
				case tag == "!!int" || tag == "!!float":
					effect = fmt.Sprintf("it is a YAML number; YuniKorn keeps the text %s as a user name", quote(n.Value))
					if v.MatchesNobody() {
						effect += ", which is not a valid ACL name and is dropped: the ACL allows nobody"
					}
				default:
					effect = fmt.Sprintf("it looks like a boolean, but YuniKorn reads it as the user name %s", quote(n.Value))
				}
				p.reportf(p.doc.NodePos(n),
					"quote the value if it is a name (\""+n.Value+"\"), write \"*\" for everyone, or \"\" to allow nobody",
					"%s of %s is %s: %s", field, q.Path(), n.Value, effect)
			})
		},
	}
}

// ruleDuplicateEntry is the rule duplicate-entry.
func ruleDuplicateEntry() *Rule {
	return &Rule{
		Name:     "duplicate-entry",
		Fixes:    true,
		Severity: Info,
		Summary:  "a name listed twice in one ACL",
		Doc:      "Listing a name twice changes nothing; it is usually a copy-paste slip hiding a missing name.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "sue,bob,sue"
        queues:
          - name: default
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "sue,bob"
        queues:
          - name: default
`,
		check: func(p *pass) {
			p.aclFields(func(_ *config.Partition, q *config.Queue, field string, s config.Str, v *acl.Value) {
				if !anyRepeat(v.Entries) {
					return // the usual ACL: nothing to mark, nothing allocated
				}
				rep := repeats(v.Entries)
				// the fix is the same for every repeat: built once per ACL
				var fix *config.Edit
				var unsafe string
				built := false
				for i, e := range v.Entries {
					if e.Name != "*" && rep[i] {
						if !built {
							deduped := dedupeACL(s.Value)
							if fix = editOrNil(p.doc.ReplaceScalar(s.Node, deduped)); fix != nil {
								unsafe = fixSafety(s.Value, deduped)
							}
							built = true
						}
						p.report(Finding{Rule: p.rule.Name, Severity: p.rule.Severity, Pos: p.doc.ValuePos(s.Node, e.Offset),
							Message: fmt.Sprintf("%s of %s lists %s %q more than once", field, q.Path(), e.Kind, e.Name),
							Hint:    "remove the repeated name", Fix: fix, Unsafe: unsafe})
					}
				}
			})
		},
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
