package acl

import (
	"strings"
	"testing"
)

// FuzzParse checks that any ACL string parses without panicking and that the
// parse keeps its promises: offsets point at the names, the runtime error is
// exactly YuniKorn's "more than two single-space parts", and matching agrees
// with a straightforward reimplementation of security.ACL.CheckAccess.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", " ", "*", " *", "* ", "*\n", "sue dev", "sue  dev", " dev,ops", "a,b c,d",
		"sue,* dev", "* dev", "sue *", "sue\tdev", "system:serviceaccount:ns:sa", "x$,a@b.com g.dot", "\u00a0", ",,, ,,"} {
		f.Add(s, "sue", "dev")
	}
	f.Fuzz(func(t *testing.T, raw, user, group string) {
		if IsUserName(user) != UserPattern.MatchString(user) || IsGroupName(group) != GroupPattern.MatchString(group) {
			t.Fatalf("hand-written name check disagrees with the pattern for %q / %q", user, group)
		}
		v := Parse(raw)
		if (v.RuntimeErr != nil) != (raw != "" && len(strings.Split(raw, " ")) > 2) {
			t.Fatalf("runtime error %v for %q", v.RuntimeErr, raw)
		}
		if (v.ValidatorErr != nil) != (len(strings.Fields(raw)) > 2) {
			t.Fatalf("validator error %v for %q", v.ValidatorErr, raw)
		}
		for _, e := range v.Entries {
			if e.Offset < 0 || e.Offset+len(e.Name) > len(raw) || raw[e.Offset:e.Offset+len(e.Name)] != e.Name {
				t.Fatalf("entry %+v does not sit at its offset in %q", e, raw)
			}
		}
		if v.Everyone && (v.WildcardAt < 0 || v.WildcardAt >= len(raw) || raw[v.WildcardAt] != '*') {
			t.Fatalf("wildcard offset %d wrong in %q", v.WildcardAt, raw)
		}
		_, got := v.Check(user, []string{group})
		if want := reference(raw, user, group); got != want {
			t.Fatalf("Check(%q, %q, %q) = %v, YuniKorn's logic says %v", raw, user, group, got, want)
		}
		everyone, users, groups := v.Grants()
		inSet := everyone
		for _, e := range users {
			inSet = inSet || e.Name == user
		}
		for _, e := range groups {
			inSet = inSet || e.Name == group
		}
		if inSet != got {
			t.Fatalf("Grants and Check disagree on %q for %q/%q", raw, user, group)
		}
	})
}

// reference is security.NewACL + CheckAccess written out plainly.
func reference(raw, user, group string) bool {
	if raw == "" {
		return false
	}
	fields := strings.Split(raw, " ")
	if len(fields) > 2 {
		return false
	}
	all := strings.TrimSpace(raw) == "*"
	users, groups := map[string]bool{}, map[string]bool{}
	ul := strings.Split(fields[0], ",")
	if len(ul) == 1 && ul[0] == "*" {
		all = true
	} else {
		for _, u := range ul {
			if u != "" && UserPattern.MatchString(u) {
				users[u] = true
			}
		}
	}
	if len(fields) == 2 && !all {
		gl := strings.Split(fields[1], ",")
		if len(gl) == 1 && gl[0] == "*" {
			users = map[string]bool{}
			all = true
		} else {
			for _, g := range gl {
				if g != "" && GroupPattern.MatchString(g) {
					groups[g] = true
				}
			}
		}
	}
	return all || users[user] || groups[group]
}
