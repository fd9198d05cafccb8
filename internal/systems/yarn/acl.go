// Package yarn reads Apache Hadoop YARN's queue access control lists
// exactly as YARN does. This file is Hadoop's ACL string grammar: the
// AccessControlList constructor of hadoop-common
// (org.apache.hadoop.security.authorize.AccessControlList, buildACL and
// isUserInList), whose Java string semantics (split, trim, isBlank) decide
// what a value means.
package yarn

import (
	"sort"
	"strings"
)

// ACL is an AccessControlList as `new AccessControlList(value)` builds it.
type ACL struct {
	// Value is the string as YARN received it.
	Value string
	// All is isAllAllowed: the users part or the groups part, trimmed, is
	// exactly "*". The other part is then not read at all.
	All bool
	// Users and Groups are the entries in the order written, each once
	// (Hadoop keeps them in a TreeSet: sorted, without repeats), with
	// where each was written.
	Users, Groups []Entry
	// Split is the byte offset of the space that separates users from
	// groups, or -1 when there is none (then every entry is a user).
	Split int
}

// Entry is one user or group of an ACL.
type Entry struct {
	Name string
	// Offset is where the entry's text (before trimming) starts in Value.
	Offset int
	// Repeat is set on an entry whose name came earlier in the same list:
	// Hadoop's set holds it once.
	Repeat bool
}

// ParseACL reads an ACL string as AccessControlList(String) does:
// aclString.split(" ", 2) splits at the first space only; a part that is
// "*" once trimmed makes the ACL allow everyone; otherwise each part is
// split at commas, blank entries are skipped and the others trimmed.
// A tab or a newline is not a separator: "alice\tbob" is one user.
func ParseACL(value string) ACL {
	a := ACL{Value: value, Split: strings.IndexByte(value, ' ')}
	users, groups := value, ""
	if a.Split >= 0 {
		users, groups = value[:a.Split], value[a.Split+1:]
	}
	// buildACL looks for the wildcard in every part before reading any
	if javaTrim(users) == "*" || (a.Split >= 0 && javaTrim(groups) == "*") {
		a.All = true
		return a
	}
	a.Users = entries(users, 0)
	if a.Split >= 0 {
		a.Groups = entries(groups, a.Split+1)
	}
	return a
}

// entries splits a part as StringUtils.getTrimmedStringCollection does
// (Hadoop 3.4.1): the part trimmed (String.trim), then split at every
// comma or line feed with the whitespace around it (the regular expression
// \s*[,\n]\s*, Java's \s being space, tab, LF, VT, FF and CR), empty
// names dropped, a repeat kept once (a LinkedHashSet). So "alice\nbob" is
// two users, as "alice,bob" is; a tab or a carriage return alone separates
// nothing ("alice\tbob" is one user).
func entries(part string, base int) []Entry {
	lo, hi := 0, len(part)
	for lo < hi && part[lo] <= ' ' {
		lo++
	}
	for hi > lo && part[hi-1] <= ' ' {
		hi--
	}
	if lo == hi {
		return nil
	}
	var out []Entry
	var seen map[string]bool // for long lists; short ones are searched
	add := func(name string, off int) {
		if name == "" {
			return
		}
		repeat := false
		if len(out) < 16 {
			for _, e := range out {
				if e.Name == name {
					repeat = true
					break
				}
			}
		} else {
			if seen == nil {
				seen = make(map[string]bool, 2*len(out))
				for _, e := range out {
					seen[e.Name] = true
				}
			}
			repeat = seen[name]
			seen[name] = true
		}
		out = append(out, Entry{Name: name, Offset: base + off, Repeat: repeat})
	}
	start := lo
	for i := lo; i < hi; i++ {
		if part[i] != ',' && part[i] != '\n' {
			continue
		}
		// the separator with the whitespace around it
		end := i
		for end > start && javaRegexSpace(part[end-1]) {
			end--
		}
		add(part[start:end], start)
		j := i + 1
		for j < hi && javaRegexSpace(part[j]) && part[j] != '\n' {
			j++
		}
		start, i = j, j-1
	}
	add(part[start:hi], start)
	return out
}

// javaRegexSpace is Java's regular-expression \s: space, tab, LF, VT, FF
// and CR (fewer characters than String.trim removes).
func javaRegexSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		return true
	}
	return false
}

// javaTrim is String.trim(): it removes every character up to U+0020
// (spaces and all control characters) from both ends, and nothing else.
func javaTrim(s string) string {
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	return s[i:j]
}

// UserNames are the distinct users, sorted as Hadoop's TreeSet holds them.
func (a ACL) UserNames() []string { return names(a.Users) }

// GroupNames are the distinct groups, sorted.
func (a ACL) GroupNames() []string { return names(a.Groups) }

// EachUser calls fn with each distinct user, in the order written: for
// callers that only collect them (no sort, no slice).
func (a ACL) EachUser(fn func(string)) { each(a.Users, fn) }

// EachGroup calls fn with each distinct group, in the order written.
func (a ACL) EachGroup(fn func(string)) { each(a.Groups, fn) }

func each(es []Entry, fn func(string)) {
	for _, e := range es {
		if !e.Repeat {
			fn(e.Name)
		}
	}
}

func names(es []Entry) []string {
	out := make([]string, 0, len(es))
	for _, e := range es {
		if !e.Repeat {
			out = append(out, e.Name)
		}
	}
	sort.Strings(out)
	return out
}

// Allows is isUserInList: everyone when the ACL allows all, else the user's
// short name among the users or any of the user's groups among the
// groups. Names match exactly, case and all.
func (a ACL) Allows(user string, groups []string) bool {
	_, _, ok := a.Grant(user, groups)
	return ok
}

// Grant says which entry of the ACL lets the user in, in isUserInList's
// order: everyone ("everyone", "*"), the user ("user", name), or the first
// of the user's groups, in the user's order, that the ACL names ("group",
// name).
func (a ACL) Grant(user string, groups []string) (kind, name string, ok bool) {
	if a.All {
		return "everyone", "*", true
	}
	for _, u := range a.Users {
		if u.Name == user {
			return "user", user, true
		}
	}
	for _, g := range groups {
		for _, e := range a.Groups {
			if e.Name == g {
				return "group", g, true
			}
		}
	}
	return "", "", false
}

// String is AccessControlList.getAclString: "*", or the sorted users and
// groups joined by commas with one space between.
func (a ACL) String() string {
	if a.All {
		return "*"
	}
	return strings.Join(a.UserNames(), ",") + " " + strings.Join(a.GroupNames(), ",")
}
