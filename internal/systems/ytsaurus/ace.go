package ytsaurus

import (
	"fmt"
	"slices"
	"strings"
)

// Permission is YTsaurus' EPermission bit enum.
type Permission uint32

// The permissions, with their bits in permission.h.
const (
	Read                  Permission = 0x0001
	Write                 Permission = 0x0002
	Use                   Permission = 0x0004
	Administer            Permission = 0x0008
	RegisterQueueConsumer Permission = 0x0010
	Create                Permission = 0x0100
	Remove                Permission = 0x0200
	Mount                 Permission = 0x0400
	Manage                Permission = 0x0800
	ModifyChildren        Permission = 0x1000
	FullRead              Permission = 0x2000
)

// permissionNames in the enum's domain order, which is the order YTsaurus
// lists a set in.
var permissionNames = []struct {
	P    Permission
	Name string
}{
	{Read, "read"}, {Write, "write"}, {Use, "use"}, {Administer, "administer"},
	{RegisterQueueConsumer, "register_queue_consumer"}, {Create, "create"}, {Remove, "remove"},
	{Mount, "mount"}, {Manage, "manage"}, {ModifyChildren, "modify_children"}, {FullRead, "full_read"},
}

// PermissionNames are every permission's name, in domain order.
func PermissionNames() []string { return slices.Clone(permissionDomain) }

// permissionDomain is PermissionNames for the reader of every ACE, which
// only reads it.
var permissionDomain = func() []string {
	out := make([]string, len(permissionNames))
	for i, p := range permissionNames {
		out[i] = p.Name
	}
	return out
}()

// ParsePermission reads a single permission name.
func ParsePermission(s string) (Permission, bool) {
	for _, p := range permissionNames {
		if p.Name == s {
			return p.P, true
		}
	}
	return 0, false
}

// List returns the names of the permissions in the set, in domain order.
func (p Permission) List() []string {
	var out []string
	for _, x := range permissionNames {
		if p&x.P != 0 {
			out = append(out, x.Name)
		}
	}
	return out
}

// String formats a set as YTsaurus does in messages: "read | write".
func (p Permission) String() string {
	if p == 0 {
		return ""
	}
	return strings.Join(p.List(), " | ")
}

// Describe lists the set for messages: [read, write].
func (p Permission) Describe() string { return "[" + strings.Join(p.List(), ", ") + "]" }

// Action is an ACE's action.
type Action int

// The actions, numbered as ESecurityAction.
const (
	Undefined Action = iota
	Allow
	Deny
)

func (a Action) String() string { return [...]string{"undefined", "allow", "deny"}[a] }

// Mode is an ACE's inheritance mode, numbered as EAceInheritanceMode.
type Mode int

// The inheritance modes.
const (
	ObjectAndDescendants Mode = iota
	ObjectOnly
	DescendantsOnly
	ImmediateDescendantsOnly
)

var modeNames = []string{"object_and_descendants", "object_only", "descendants_only", "immediate_descendants_only"}

func (m Mode) String() string { return modeNames[m] }

// Inherited is GetInheritedInheritanceMode: how an ACE with mode m applies
// to an object depth steps below the node that holds it (0 is the node
// itself), or false when it does not apply there.
func (m Mode) Inherited(depth int) (Mode, bool) {
	switch m {
	case ObjectAndDescendants:
		return ObjectAndDescendants, true
	case ObjectOnly:
		return ObjectOnly, depth == 0
	case DescendantsOnly:
		return ObjectAndDescendants, depth > 0
	case ImmediateDescendantsOnly:
		return ObjectOnly, depth == 1
	}
	return 0, false
}

// ACE is one access control entry as YTsaurus holds it after `set @acl`.
type ACE struct {
	Index        int
	At           Pos
	Action       Action
	Subjects     []string
	SubjectsAt   []Pos
	Permissions  Permission
	Mode         Mode
	Columns      []string // nil: not a columnar ACE
	HasColumns   bool
	Vital        *bool
	TagFilter    *Formula
	RowPredicate *string
	RowMode      string // "" when not given
	// Refused is set when YTsaurus refuses this ACE (or its ACL) on
	// `set @acl`; the tree then answers no question.
	Refused bool
}

// underscoreToCamel and camelToUnderscore are YTsaurus' enum name
// conversions (UnderscoreCaseToCamelCase, CamelCaseToUnderscoreCase); an
// enum string is accepted only when it survives the round trip.
func underscoreToCamel(s string) string {
	var b strings.Builder
	first, upper := true, true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			upper = true
		} else {
			if upper {
				if !isAlpha(c) && !first {
					b.WriteByte('_')
				}
				if c >= 'a' && c <= 'z' {
					c -= 'a' - 'A'
				}
			}
			b.WriteByte(c)
			upper = false
		}
		first = false
	}
	return b.String()
}

func camelToUnderscore(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// enumError is why an enum string is refused, with YTsaurus' message.
type enumError struct {
	Msg     string
	Unknown bool // a snake_case name that is not in the enum
}

// decodeEnum is DecodeEnumValue followed by the lookup of the name among
// domain (snake_case names).
func decodeEnum(typeName, value string, domain []string) (int, *enumError) {
	// a name of the domain reads as itself through YTsaurus' case round
	// trip (TestDomainNamesRoundTrip), so the usual value needs neither
	for i, d := range domain {
		if d == value {
			return i, nil
		}
	}
	under := camelToUnderscore(underscoreToCamel(value))
	if under != value {
		return 0, &enumError{Msg: fmt.Sprintf("Enum value %s is not in a proper underscore case; did you mean %s?", yq(value), yq(under))}
	}
	for i, d := range domain {
		if d == value {
			return i, nil
		}
	}
	return 0, &enumError{Msg: fmt.Sprintf("Error parsing %s value %s", typeName, yq(value)), Unknown: true}
}

// yq quotes a string as YTsaurus' %Qv does.
func yq(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\x%02X`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// checkCorrect is CheckAceCorrect: the conditions under which YTsaurus
// refuses an ACE, in its order, with its messages; "" when correct.
func (a *ACE) checkCorrect() string {
	if a.Action == Undefined {
		return `"undefined" action is not allowed`
	}
	if a.HasColumns && a.Permissions&^Read != 0 {
		return fmt.Sprintf(`ACE specifying columns may contain only "read" permission; found %s`, yq(a.Permissions.String()))
	}
	if a.Permissions&FullRead != 0 && a.Action != Allow {
		return fmt.Sprintf(`ACE with "full_read" permission may have only "allow" action; found %s`, yq(a.Action.String()))
	}
	if a.Permissions&FullRead != 0 && (a.RowPredicate != nil || a.HasColumns) {
		return `ACE with "full_read" permission may not specify "row_access_predicate" or "columns"`
	}
	if a.RowPredicate != nil && a.Action != Allow {
		return fmt.Sprintf(`ACE specifying "row_access_predicate" may have only "allow" action; found %s`, yq(a.Action.String()))
	}
	if a.RowPredicate != nil && a.Permissions != Read {
		return fmt.Sprintf(`ACE specifying "row_access_predicate" may contain only "read" permission; found %s`, yq(a.Permissions.String()))
	}
	if a.RowMode != "" && a.RowPredicate == nil {
		return `"inapplicable_row_access_predicate_mode" can only be specified if "row_access_predicate" is specified`
	}
	if a.RowPredicate != nil && a.HasColumns {
		return `Single ACE must not contain both "columns" and "row_access_predicate"`
	}
	if a.Permissions&RegisterQueueConsumer != 0 && a.Vital == nil {
		return `Permission "register_queue_consumer" requires vitality to be specified`
	}
	if a.Vital != nil && a.Permissions != RegisterQueueConsumer {
		return fmt.Sprintf(`ACE specifying vitality must contain a single "register_queue_consumer" permission; found %s`, yq(a.Permissions.String()))
	}
	return ""
}
