package resolve

import (
	"errors"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// YuniKorn's test resolver table, group for group and in order.
func TestTestResolver(t *testing.T) {
	for u, want := range map[string][]string{
		"testuser1": {"group1000", "group1001"},
		"testuser2": {"100", "group1001", "group1002"},
		"testuser3": {"group1001", "group1002", "group1003", "group1004"},
		"testuser4": {"901", "902"},
	} {
		got, err := Test{}.Resolve(u)
		if err != nil || !reflect.DeepEqual(got.Groups, want) {
			t.Errorf("%s: %v %v, want %v", u, got.Groups, err, want)
		}
	}
	for _, u := range []string{"testuser5", "invalid-gid-user", "alice", "testuser"} {
		if _, err := (Test{}).Resolve(u); !errors.Is(err, ErrUnresolvable) {
			t.Errorf("%s: want a resolution failure, got %v", u, err)
		}
	}
}

func TestNone(t *testing.T) {
	got, err := None{}.Resolve("alice")
	if err != nil || !reflect.DeepEqual(got.Groups, []string{"alice"}) {
		t.Errorf("no resolver: %v %v", got, err)
	}
}

func TestForType(t *testing.T) {
	for typ, want := range map[string]string{"": "", "os": "os", "test": "test", "OS": "", "Test": "", "ldapx": ""} {
		r, err := ForType(typ, Options{})
		if err != nil || r.Name() != want {
			t.Errorf("ForType(%q) = %v %v, want resolver %q", typ, r, err, want)
		}
	}
	if _, err := ForType("ldap", Options{}); err == nil {
		t.Error("ldap needs its settings")
	}
}

func TestOS(t *testing.T) {
	me, err := user.Current()
	if err != nil {
		t.Skip("no current user:", err)
	}
	got, err := OS{}.Resolve(me.Username)
	if err != nil {
		t.Fatal(err)
	}
	primary := me.Gid
	if g, err := user.LookupGroupId(me.Gid); err == nil {
		primary = g.Name
	}
	if len(got.Groups) == 0 || got.Groups[0] != primary {
		t.Errorf("primary group first: %v, want %s first", got.Groups, primary)
	}
	if _, err := (OS{}).Resolve("no-such-user-aclint"); !errors.Is(err, ErrUnresolvable) {
		t.Errorf("unknown user: %v", err)
	}
}

func writeFile(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "groups.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFileResolver(t *testing.T) {
	simple, err := LoadFile(writeFile(t, "carol: [eng, qa]\ndave: []\n"), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := simple.Resolve("carol"); !reflect.DeepEqual(r.Groups, []string{"eng", "qa"}) {
		t.Errorf("simple form: %v", r.Groups)
	}
	if r, _ := simple.Resolve("erin"); len(r.Groups) != 0 || !strings.Contains(r.Source, "no entry for erin") {
		t.Errorf("unknown user: %+v", r)
	}
	full, err := LoadFile(writeFile(t, `{"users": {"carol": ["eng", "qa"]}, "groups": {"eng": ["staff", "all"], "qa": ["staff"], "staff": ["all"]}}`), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := full.Resolve("carol"); !reflect.DeepEqual(r.Groups, []string{"eng", "staff", "all", "qa"}) {
		t.Errorf("full form, flattened depth first without repeats: %v", r.Groups)
	}
	for text, want := range map[string]string{
		"users: {a: [x]}\ngroups:\n  x: [y]\n  y: [x]\n":    ":3: groups form a cycle: x -> y -> x",
		"groups:\n  w: [x]\n  x: [y]\n  y: [z]\n  z: [x]\n": ":3: groups form a cycle: x -> y -> z -> x",
		"groups:\n  s: [s]\n":                               ":2: groups form a cycle: s -> s",
		"carol: eng\n":                                      ":1: groups of user \"carol\" must be a list",
		"carol: [a]\ncarol: [b]\n":                          ":2: user \"carol\" is listed twice",
		"users: {a: [x]}\nteams: {}\n":                      ":2: unknown section \"teams\"",
		"- a\n":                                             ":1: expected a mapping",
		"a: [\n":                                            ":1: not valid YAML or JSON",
	} {
		_, err := LoadFile(writeFile(t, text), 0, nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", text, err, want)
		}
	}
}

// TestFileResolverDiamonds guards against expanding shared ancestry once per
// path: 60 levels of diamonds have 2^60 paths but only 121 groups.
func TestFileResolverDiamonds(t *testing.T) {
	var b strings.Builder
	b.WriteString("users: {u: [a0]}\ngroups:\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "  a%d: [l%d, r%d]\n  l%d: [a%d]\n  r%d: [a%d]\n", i, i, i, i, i+1, i, i+1)
	}
	b.WriteString("  a60: []\n")
	done := make(chan struct{})
	go func() {
		defer close(done)
		f, err := LoadFile(writeFile(t, b.String()), 0, nil)
		if err != nil {
			t.Error(err)
			return
		}
		r, _ := f.Resolve("u")
		if len(r.Groups) != 181 || r.Groups[0] != "a0" || r.Groups[1] != "l0" || r.Groups[2] != "a1" {
			t.Errorf("got %d groups starting %v", len(r.Groups), r.Groups[:3])
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("resolving a diamond hierarchy did not finish in 10s")
	}
}
