// Package acl models YuniKorn's queue ACL grammar and decides access the way
// the scheduler does.
//
// YuniKorn reads an ACL string with two different pieces of code. The config
// validator (validate-conf, the admission webhook) trims the value and splits
// it on runs of white space; the runtime parser that builds the queues splits
// on a single space, silently drops names that fail its patterns and honours
// the wildcard only as a whole list. A Value records both readings, so a
// linter can tell where they disagree and a checker can answer exactly as the
// scheduler will.
package acl

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// Name patterns of YuniKorn's runtime ACL parser (security.NewACL). They are
// stricter than the patterns used elsewhere in the config.
var (
	UserPattern  = regexp.MustCompile(`^[_a-zA-Z][a-zA-Z0-9_.@-]*[$]?$`)
	GroupPattern = regexp.MustCompile(`^[_a-zA-Z][a-zA-Z0-9_-]*$`)
)

// IsUserName reports whether UserPattern matches name; it is the same test
// without the regexp engine, as this runs for every name in every ACL.
func IsUserName(name string) bool {
	n := len(name)
	if n > 1 && name[n-1] == '$' {
		n--
	}
	if n == 0 || !nameStart(name[0]) {
		return false
	}
	for i := 1; i < n; i++ {
		c := name[i]
		if !nameStart(c) && !(c >= '0' && c <= '9') && c != '.' && c != '@' && c != '-' {
			return false
		}
	}
	return true
}

// IsGroupName reports whether GroupPattern matches name.
func IsGroupName(name string) bool {
	if name == "" || !nameStart(name[0]) {
		return false
	}
	for i := 1; i < len(name); i++ {
		c := name[i]
		if !nameStart(c) && !(c >= '0' && c <= '9') && c != '-' {
			return false
		}
	}
	return true
}

func nameStart(c byte) bool { return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }

// RequestUserPattern is the pattern YuniKorn applies to the user name of an
// application that carries its own groups (configs.UserRegExp).
var RequestUserPattern = regexp.MustCompile(`^[_a-zA-Z][a-zA-Z0-9:#/_.@-]*[$]?$`)

// ConfigGroupPattern is YuniKorn's configs.GroupRegExp, which limits and
// placement filters use (more lenient than the ACL parser's GroupPattern).
var ConfigGroupPattern = regexp.MustCompile(`^[_a-zA-Z][a-zA-Z0-9:_.-]*$`)

// SpecialPattern is YuniKorn's configs.SpecialRegExp: a placement filter's
// single entry holding one of these characters is a regular expression.
var SpecialPattern = regexp.MustCompile(`[\^$*+?()\[{}|]`)

// Kind tells whether an entry sits in the user list or the group list.
type Kind uint8

const (
	User Kind = iota
	Group
)

func (k Kind) String() string {
	if k == Group {
		return "group"
	}
	return "user"
}

// Drop says why the runtime parser ignores an entry. The zero value means the
// entry is effective.
type Drop uint8

const (
	Kept              Drop = iota
	BadUserName            // fails the runtime user pattern
	BadGroupName           // fails the runtime group pattern
	WildcardInList         // "*" beside other names in one list
	AfterWildcard          // a group list ignored because the user list is "*"
	ClearedByWildcard      // a user list emptied because the group list is "*"
)

// Entry is one name of an ACL's user or group list.
type Entry struct {
	Name   string
	Offset int // byte offset of the name in the ACL value
	Kind   Kind
	Drop   Drop
}

// Effective reports whether YuniKorn keeps the entry.
func (e Entry) Effective() bool { return e.Drop == Kept }

// DropReason explains, in a sentence fragment, why the entry is ignored.
func (e Entry) DropReason() string {
	switch e.Drop {
	case BadUserName:
		return fmt.Sprintf("user name %q does not match YuniKorn's ACL user pattern %s", e.Name, UserPattern)
	case BadGroupName:
		return fmt.Sprintf("group name %q does not match YuniKorn's ACL group pattern %s", e.Name, GroupPattern)
	case WildcardInList:
		return "\"*\" only means everyone as the whole user or group list; inside a list it is dropped"
	case AfterWildcard:
		return "the user list is \"*\", so the group list is ignored"
	case ClearedByWildcard:
		return "the group list is \"*\", so the user list is ignored"
	}
	return ""
}

// WildcardSource says what made an ACL allow everyone.
type WildcardSource uint8

const (
	NoWildcard    WildcardSource = iota
	WholeValue                   // the trimmed value is "*"
	UserListStar                 // the user list is exactly "*"
	GroupListStar                // the group list is exactly "*"
)

// Value is an ACL string as both of YuniKorn's parsers read it.
//
// A config's index holds one per distinct ACL string, and a large config
// has tens of thousands: the fields are ordered so that the small ones
// share a word (96 bytes), and the enums are bytes.
type Value struct {
	Raw string

	// Validator view.
	ValidatorErr   error // non-nil: validate-conf rejects the config
	ValidatorParts int   // number of white-space separated parts after trimming

	// Runtime view.
	RuntimeErr error // non-nil: the queues cannot be built, the config fails to load
	Entries    []Entry
	WildcardAt int  // byte offset of the "*" that made it everyone
	Everyone   bool // allAllowed
	Wildcard   WildcardSource
}

// Validate is the part of Parse that says whether YuniKorn takes the ACL
// at all: Raw, ValidatorParts, ValidatorErr and RuntimeErr, without the
// entries. The error rules read only this, so that a question (check)
// need not parse every ACL of a large config into entries; Parse starts
// with it, so the two never disagree.
func Validate(raw string) Value {
	v := Value{Raw: raw}

	// Validator: checkACL in configvalidator.go.
	trimmed := strings.TrimSpace(raw)
	if trimmed != "" && trimmed != "*" {
		v.ValidatorParts = countFields(trimmed)
		if v.ValidatorParts > 2 {
			v.ValidatorErr = fmt.Errorf("multiple spaces found in ACL: '%s'", trimmed)
		}
	} else if trimmed == "*" {
		v.ValidatorParts = 1
	}

	// Runtime: security.NewACL.
	if raw == "" {
		return v
	}
	first := strings.IndexByte(raw, ' ')
	if first >= 0 && strings.IndexByte(raw[first+1:], ' ') >= 0 {
		v.RuntimeErr = fmt.Errorf("multiple spaces found in ACL: '%s'", raw)
	}
	return v
}

// Parse reads an ACL string the way both YuniKorn parsers do.
func Parse(raw string) Value { return parse(raw, nil) }

// parse is Parse with the room for the entries from entries (nil: a slice
// of their own): a config's index parses thousands of ACLs into one chunk.
func parse(raw string, entries func(n int) []Entry) Value {
	v := Validate(raw)
	if raw == "" || v.RuntimeErr != nil {
		return v
	}
	trimmed := strings.TrimSpace(raw)
	first := strings.IndexByte(raw, ' ')
	userList, groupList, hasGroups := raw, "", first >= 0
	if hasGroups {
		userList, groupList = raw[:first], raw[first+1:]
	}
	// one allocation for every entry: at most a name per comma, plus one
	// per list
	n := strings.Count(raw, ",") + 1
	if hasGroups {
		n++
	}
	if entries != nil {
		v.Entries = entries(n)
	} else {
		v.Entries = make([]Entry, 0, n)
	}
	if trimmed == "*" {
		v.Everyone, v.Wildcard, v.WildcardAt = true, WholeValue, strings.Index(raw, "*")
	}
	if userList == "*" {
		v.Everyone, v.Wildcard, v.WildcardAt = true, UserListStar, 0
	} else {
		v.Entries = appendEntries(v.Entries, userList, 0, User)
	}
	if !hasGroups {
		return v
	}
	groupOff := first + 1
	switch {
	case v.Everyone:
		// setGroups returns early: the group list is never read.
		if groupList == "*" {
			break // " *": the trimmed value already made it everyone
		}
		n := len(v.Entries)
		v.Entries = appendEntries(v.Entries, groupList, groupOff, Group)
		for i := n; i < len(v.Entries); i++ {
			if v.Entries[i].Drop == Kept {
				v.Entries[i].Drop = AfterWildcard
			}
		}
	case groupList == "*":
		v.Everyone, v.Wildcard, v.WildcardAt = true, GroupListStar, groupOff
		for i := range v.Entries {
			if v.Entries[i].Drop == Kept {
				v.Entries[i].Drop = ClearedByWildcard
			}
		}
	default:
		v.Entries = appendEntries(v.Entries, groupList, groupOff, Group)
	}
	return v
}

// countFields is len(strings.Fields(s)) without building the fields.
func countFields(s string) int {
	n, in := 0, false
	for _, r := range s {
		space := unicode.IsSpace(r)
		if !space && !in {
			n++
		}
		in = !space
	}
	return n
}

// appendEntries adds the comma-separated names of list, which starts at
// byte off of the value, skipping empty names as YuniKorn does.
func appendEntries(out []Entry, list string, off int, kind Kind) []Entry {
	for {
		end := strings.IndexByte(list, ',')
		n := list
		if end >= 0 {
			n = list[:end]
		}
		if n != "" {
			e := Entry{Name: n, Kind: kind, Offset: off}
			switch {
			case n == "*":
				e.Drop = WildcardInList
			case kind == User && !IsUserName(n):
				e.Drop = BadUserName
			case kind == Group && !IsGroupName(n):
				e.Drop = BadGroupName
			}
			out = append(out, e)
		}
		if end < 0 {
			return out
		}
		off += end + 1
		list = list[end+1:]
	}
}

// Valid reports whether YuniKorn accepts the value: the validator passes it and
// the runtime parser can build the queue with it.
func (v Value) Valid() bool { return v.ValidatorErr == nil && v.RuntimeErr == nil }

// Err returns the error YuniKorn reports for the value, validator first.
func (v Value) Err() error {
	if v.ValidatorErr != nil {
		return v.ValidatorErr
	}
	return v.RuntimeErr
}

// MatchesNobody reports whether the runtime ACL grants nothing at all.
func (v Value) MatchesNobody() bool {
	if v.Everyone {
		return false
	}
	for _, e := range v.Entries {
		if e.Effective() {
			return false
		}
	}
	return true
}

// Match is what made an ACL grant access.
type Match struct {
	Wildcard bool
	Entry    Entry // the user or group entry, when not Wildcard
}

// Check answers ACL.CheckAccess: everyone, then the user, then the user's
// groups in the order given. The first group that matches decides.
func (v Value) Check(user string, groups []string) (Match, bool) {
	if v.RuntimeErr != nil {
		return Match{}, false
	}
	if v.Everyone {
		return Match{Wildcard: true}, true
	}
	for _, e := range v.Entries {
		if e.Effective() && e.Kind == User && e.Name == user {
			return Match{Entry: e}, true
		}
	}
	for _, g := range groups {
		for _, e := range v.Entries {
			if e.Effective() && e.Kind == Group && e.Name == g {
				return Match{Entry: e}, true
			}
		}
	}
	return Match{}, false
}

// Grants is the set view of Check: the subjects the ACL lets in. Check
// allows a request exactly when Everyone is set, the user is in Users, or
// one of its groups is in Groups (FuzzParse holds the two views equal).
func (v Value) Grants() (everyone bool, users, groups []Entry) {
	everyone = v.EachGrant(func(e Entry) {
		if e.Kind == User {
			users = append(users, e)
		} else {
			groups = append(groups, e)
		}
	})
	return everyone, users, groups
}

// EachGrant is Grants without building lists, for the audits that read
// every queue: it reports whether the ACL lets in everyone, and otherwise
// calls fn for each entry that lets someone in. An ACL that fails to build
// lets in no one.
func (v *Value) EachGrant(fn func(Entry)) (everyone bool) {
	if v.RuntimeErr != nil {
		return false
	}
	if v.Everyone {
		return true
	}
	for _, e := range v.Entries {
		if e.Effective() {
			fn(e)
		}
	}
	return false
}
