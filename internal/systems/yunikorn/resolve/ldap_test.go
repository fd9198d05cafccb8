package resolve

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/slapdtest"
)

// TestLDAPAgainstSlapd resolves groups against a real OpenLDAP server.
func TestLDAPAgainstSlapd(t *testing.T) {
	srv := slapdtest.Start(t)
	s, issues, err := ReadLDAPDir(srv.WriteSettings(t, nil), nil)
	if err != nil || len(issues) != 0 {
		t.Fatalf("settings: %v %v", err, issues)
	}
	for _, is := range s.Check() {
		if is.Fatal {
			t.Fatalf("settings check: %v", is)
		}
	}
	r := &LDAP{Settings: s}
	for user, want := range map[string][]string{
		"alice":  {"alice", "dev", "ops"},
		"dave":   {"dave"},
		"nobody": {"nobody"},
		"erin":   {"erin", "data.eng", `Team\`}, // YuniKorn splits on the escaped comma
	} {
		res, err := r.Resolve(user)
		if err != nil || !reflect.DeepEqual(res.Groups, want) {
			t.Errorf("%s: %v %v, want %v", user, res.Groups, err, want)
		}
		if !strings.Contains(strings.Join(res.Details, "\n"), "filter sent: (&(sAMAccountName="+user+"))") {
			t.Errorf("%s: details %v", user, res.Details)
		}
	}
	// YuniKorn's extraction would panic on these values: an error says so
	for _, user := range []string{"bob", "carol"} {
		_, err := r.Resolve(user)
		var crash *CrashError
		if !errors.As(err, &crash) {
			t.Errorf("%s: want a CrashError, got %v", user, err)
		}
	}
	// a user name with a filter metacharacter: aclint escapes it and warns
	res, err := r.Resolve("eve*")
	if err != nil || !reflect.DeepEqual(res.Groups, []string{"eve*", "sneaky"}) {
		t.Errorf("eve*: %v %v", res.Groups, err)
	}
	if d := strings.Join(res.Details, "\n"); !strings.Contains(d, `filter sent: (&(sAMAccountName=eve\2a))`) {
		t.Errorf("eve*: details %v", res.Details)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "would send (&(sAMAccountName=eve*))") {
		t.Errorf("eve*: warnings %v", res.Warnings)
	}
	// a wrong password: the lookup failed, which aclint cannot answer for
	// (the scheduler's own bind may work): an UnreachableError, exit 2
	bad := s
	bad.BindPassword = "wrong"
	var failed *UnreachableError
	if _, err := (&LDAP{Settings: bad}).Resolve("alice"); !errors.As(err, &failed) || !strings.Contains(err.Error(), "bind as") {
		t.Errorf("wrong password: %v", err)
	}
	// nothing listening: UnreachableError with the address
	gone := s
	gone.Port = 1
	if _, err := (&LDAP{Settings: gone}).Resolve("alice"); err == nil || !strings.Contains(err.Error(), "ldap://127.0.0.1:1") {
		t.Errorf("unreachable: %v", err)
	}
}

func TestExtractGroup(t *testing.T) {
	for v, want := range map[string]string{
		"CN=dev,OU=x":    "dev",
		"CN=dev":         "dev",
		"OU=a CN=b,DC=x": "b",
		`CN=a\,b,OU=x`:   `a\`,
		"CN=x CN=y,OU=z": "x ",
	} {
		if got, err := ExtractGroup(v); err != nil || got != want {
			t.Errorf("ExtractGroup(%q) = %q %v, want %q", v, got, err, want)
		}
	}
	for _, v := range []string{"cn=dev,ou=x", "OU=x,CN=dev", ""} {
		if _, err := ExtractGroup(v); err == nil {
			t.Errorf("ExtractGroup(%q): YuniKorn panics here, want an error", v)
		}
	}
}

func TestLDAPSettings(t *testing.T) {
	s := DefaultLDAPSettings()
	for name, v := range map[string]string{"Port": "70000", "Filter": "(uid=x)", "SSL": "yes", "Basedn": "dc=x"} {
		msg, fatal := s.Set(name, v)
		if msg == "" {
			t.Errorf("%s=%q accepted", name, v)
		}
		if (name == "Port" || name == "Filter") != fatal {
			t.Errorf("%s=%q: fatal %v", name, v, fatal)
		}
	}
	if msg, _ := s.Set("Basedn", "x"); !strings.Contains(msg, "did you mean BaseDN") {
		t.Errorf("unknown setting: %q", msg)
	}
	if msg, _ := s.Set("Filter", "((uid=%s)"); !strings.Contains(msg, "unbalanced") {
		t.Errorf("unbalanced filter: %q", msg)
	}
	missing := 0
	for _, is := range s.Check() {
		if is.Fatal {
			missing++
		}
	}
	if missing != 6 { // Port and Filter were written, with values YuniKorn rejects
		t.Errorf("%d settings reported missing, want the 6 required ones never written", missing)
	}
	if missing := DefaultLDAPSettings(); len(missing.Check()) < 8 {
		t.Errorf("nothing written: want the 8 required settings missing, got %v", missing.Check())
	}
}
