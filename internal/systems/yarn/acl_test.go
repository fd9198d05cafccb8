package yarn

import (
	"bufio"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

type aclVector struct {
	ACL     string   `json:"acl"`
	All     bool     `json:"all"`
	Users   []string `json:"users"`
	Groups  []string `json:"groups"`
	Allowed []struct {
		User   string   `json:"user"`
		Groups []string `json:"groups"`
	} `json:"allowed"`
	Denied []struct {
		User   string   `json:"user"`
		Groups []string `json:"groups"`
	} `json:"denied"`
	Source string `json:"source"`
}

// TestACLVectors runs testdata/acl.jsonl: the ACLs of Hadoop's own
// TestAccessControlList (each vector names its test) and cases derived
// from AccessControlList.buildACL, checked against Java's String
// semantics.
func TestACLVectors(t *testing.T) {
	f, err := os.Open("testdata/acl.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var v aclVector
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		n++
		a := ParseACL(v.ACL)
		if a.All != v.All || !reflect.DeepEqual(a.UserNames(), nonNil(v.Users)) || !reflect.DeepEqual(a.GroupNames(), nonNil(v.Groups)) {
			t.Errorf("%q (%s): all=%v users=%q groups=%q, want all=%v users=%q groups=%q", v.ACL, v.Source, a.All, a.UserNames(), a.GroupNames(), v.All, v.Users, v.Groups)
		}
		for _, c := range v.Allowed {
			if !a.Allows(c.User, c.Groups) {
				t.Errorf("%q (%s): %s %v denied, Hadoop allows", v.ACL, v.Source, c.User, c.Groups)
			}
		}
		for _, c := range v.Denied {
			if a.Allows(c.User, c.Groups) {
				t.Errorf("%q (%s): %s %v allowed, Hadoop denies", v.ACL, v.Source, c.User, c.Groups)
			}
		}
	}
	if n < 30 {
		t.Fatalf("only %d vectors read", n)
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// TestACLString is getAclString, as testAclString and testAddRemoveAPI
// show it: the rebuilt ACL reads the same.
func TestACLString(t *testing.T) {
	for in, want := range map[string]string{
		"*": "*", " ": " ", "drwho tardis": "drwho tardis", "drwho ": "drwho ",
		"drwho,joe tardis,users": "drwho,joe tardis,users", "joe,drwho users,tardis": "drwho,joe tardis,users",
	} {
		if got := ParseACL(in).String(); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// TestACLOffsets: every entry's offset points at its text.
func TestACLOffsets(t *testing.T) {
	a := ParseACL(" x,  alice ,bob  dev, ops")
	for _, e := range append(a.Users, a.Groups...) {
		if !strings.HasPrefix(strings.TrimLeft(a.Value[e.Offset:], " "), e.Name) {
			t.Errorf("%q at %d: %q", e.Name, e.Offset, a.Value[e.Offset:])
		}
	}
}

// FuzzParseACL: any string; the parse never panics, offsets point at the
// entries, and Allows agrees with the sets.
func FuzzParseACL(f *testing.F) {
	for _, s := range []string{"*", " ", "a b", "a  b", "a b c", "\n a\n", "*,a", "a *,", "\x00,a", "a\u3000 b"} {
		f.Add(s, "a", "b")
	}
	f.Fuzz(func(t *testing.T, value, user, group string) {
		a := ParseACL(value)
		for _, e := range append(append([]Entry(nil), a.Users...), a.Groups...) {
			if e.Offset < 0 || e.Offset > len(value) || !strings.Contains(value[e.Offset:], e.Name) {
				t.Fatalf("%q: entry %q at %d", value, e.Name, e.Offset)
			}
		}
		in := func(list []string, s string) bool {
			for _, x := range list {
				if x == s {
					return true
				}
			}
			return false
		}
		want := a.All || in(a.UserNames(), user) || in(a.GroupNames(), group)
		if a.Allows(user, []string{group}) != want {
			t.Fatalf("%q: Allows(%q, %q) disagrees with the sets", value, user, group)
		}
	})
}

// TestGrant: the entry that lets a user in, in isUserInList's order.
func TestGrant(t *testing.T) {
	for _, c := range []struct {
		acl, user  string
		groups     []string
		kind, name string
		ok         bool
	}{
		{"*", "bob", nil, "everyone", "*", true},
		{"alice,bob dev", "bob", []string{"dev"}, "user", "bob", true},
		{"alice ops,dev", "bob", []string{"web", "dev", "ops"}, "group", "dev", true},
		{"alice ops", "bob", []string{"web"}, "", "", false},
	} {
		kind, name, ok := ParseACL(c.acl).Grant(c.user, c.groups)
		if kind != c.kind || name != c.name || ok != c.ok {
			t.Errorf("%q %s %v: %s %s %v", c.acl, c.user, c.groups, kind, name, ok)
		}
	}
}
