package acl

import "testing"

// The table of ../shared/reference/yunikorn.md: what the validator and the
// runtime parser make of each ACL value.
func TestParseSpecTable(t *testing.T) {
	for _, c := range []struct {
		raw           string
		validatorOK   bool
		runtimeOK     bool
		everyone      bool
		users, groups []string // effective entries
		nobody        bool
	}{
		{raw: "sue  dev", validatorOK: true},
		{raw: "sue dev ", validatorOK: true},
		{raw: " sue dev", validatorOK: true},
		{raw: "  dev", validatorOK: true},
		{raw: "  ", validatorOK: true},
		{raw: "sue dev ops"},
		{raw: "alice, bob", validatorOK: true, runtimeOK: true, users: []string{"alice"}, groups: []string{"bob"}},
		{raw: "sue\tdev", validatorOK: true, runtimeOK: true, nobody: true},
		{raw: "sue\u00a0dev", validatorOK: true, runtimeOK: true, nobody: true},
		{raw: "*,alice", validatorOK: true, runtimeOK: true, users: []string{"alice"}},
		{raw: "alice dev,*", validatorOK: true, runtimeOK: true, users: []string{"alice"}, groups: []string{"dev"}},
		{raw: "alice *", validatorOK: true, runtimeOK: true, everyone: true},
		{raw: "* dev", validatorOK: true, runtimeOK: true, everyone: true},
		{raw: " ", validatorOK: true, runtimeOK: true, nobody: true},
		{raw: "", validatorOK: true, runtimeOK: true, nobody: true},
		{raw: "*", validatorOK: true, runtimeOK: true, everyone: true},
		{raw: " *", validatorOK: true, runtimeOK: true, everyone: true},
		{raw: "* ", validatorOK: true, runtimeOK: true, everyone: true},
		{raw: "*\n", validatorOK: true, runtimeOK: true, everyone: true}, // setAllAllowed trims
		{raw: " dev,ops", validatorOK: true, runtimeOK: true, groups: []string{"dev", "ops"}},
		{raw: "system:serviceaccount:ns:sa,sue system:authenticated,data.eng,ops", validatorOK: true, runtimeOK: true, users: []string{"sue"}, groups: []string{"ops"}},
		{raw: "x$,a@b.com,1bad _grp,g-1", validatorOK: true, runtimeOK: true, users: []string{"x$", "a@b.com"}, groups: []string{"_grp", "g-1"}},
		{raw: "sue\n", validatorOK: true, runtimeOK: true, nobody: true},
	} {
		v := Parse(c.raw)
		if (v.ValidatorErr == nil) != c.validatorOK || (v.RuntimeErr == nil) != c.runtimeOK {
			t.Errorf("%q: validator err %v, runtime err %v; want validator ok %v, runtime ok %v", c.raw, v.ValidatorErr, v.RuntimeErr, c.validatorOK, c.runtimeOK)
			continue
		}
		if !c.runtimeOK {
			if _, ok := v.Check("sue", []string{"dev"}); ok {
				t.Errorf("%q: an ACL that fails to load must grant nothing", c.raw)
			}
			continue
		}
		if v.Everyone != c.everyone || v.MatchesNobody() != c.nobody {
			t.Errorf("%q: everyone %v nobody %v, want %v %v", c.raw, v.Everyone, v.MatchesNobody(), c.everyone, c.nobody)
		}
		var users, groups []string
		for _, e := range v.Entries {
			if e.Effective() && e.Kind == User {
				users = append(users, e.Name)
			} else if e.Effective() {
				groups = append(groups, e.Name)
			}
		}
		if !v.Everyone && (join(users) != join(c.users) || join(groups) != join(c.groups)) {
			t.Errorf("%q: users %v groups %v, want %v %v", c.raw, users, groups, c.users, c.groups)
		}
	}
}

func join(s []string) string {
	out := ""
	for _, x := range s {
		out += x + ";"
	}
	return out
}

func TestDropReasons(t *testing.T) {
	v := Parse("sue,* dev")
	if v.Entries[1].Drop != WildcardInList || v.Entries[1].Offset != 4 {
		t.Errorf("wildcard in list: %+v", v.Entries[1])
	}
	v = Parse("* dev,ops")
	for _, e := range v.Entries {
		if e.Kind != Group || e.Drop != AfterWildcard {
			t.Errorf("groups beside a user wildcard must be ignored: %+v", e)
		}
	}
	v = Parse("sue,bob *")
	if v.Wildcard != GroupListStar || v.WildcardAt != 8 {
		t.Errorf("group wildcard at %d (%v)", v.WildcardAt, v.Wildcard)
	}
	for _, e := range v.Entries {
		if e.Drop != ClearedByWildcard {
			t.Errorf("users beside a group wildcard must be cleared: %+v", e)
		}
	}
	v = Parse("g.dot 1g")
	if v.Entries[0].Drop != Kept || v.Entries[1].Drop != BadGroupName {
		t.Errorf("g.dot is a valid user, 1g an invalid group: %+v", v.Entries)
	}
}

// Check looks at the user first, then the groups in the request's order.
func TestCheckOrder(t *testing.T) {
	v := Parse("alice ops,dev")
	m, ok := v.Check("bob", []string{"dev", "ops"})
	if !ok || m.Entry.Name != "dev" || m.Entry.Kind != Group {
		t.Errorf("first of the request's groups decides: %+v %v", m, ok)
	}
	m, ok = v.Check("alice", []string{"ops"})
	if !ok || m.Entry.Kind != User {
		t.Errorf("the user entry decides before groups: %+v", m)
	}
	if _, ok := v.Check("Alice", nil); ok {
		t.Error("matching is case-sensitive")
	}
}

func TestNamePatterns(t *testing.T) {
	for name, want := range map[string]bool{"sue": true, "_svc": true, "x$": true, "a@b.com": true, "user.name": true,
		"$": false, "1bad": false, "a$b": false, "a:b": false, "": false, "é": false, "a b": false} {
		if IsUserName(name) != want || UserPattern.MatchString(name) != want {
			t.Errorf("user %q: want %v", name, want)
		}
	}
	for name, want := range map[string]bool{"dev": true, "_grp": true, "g-1": true, "g.dot": false, "g:colon": false, "a@b": false, "x$": false} {
		if IsGroupName(name) != want || GroupPattern.MatchString(name) != want {
			t.Errorf("group %q: want %v", name, want)
		}
	}
}
