package commands_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/slapdtest"
)

// TestCheckWithLDAP asks check questions whose groups come from a real
// OpenLDAP server, as the partition's ldap resolver would get them.
func TestCheckWithLDAP(t *testing.T) {
	srv := slapdtest.Start(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "queues.yaml")
	os.WriteFile(cfg, []byte("partitions:\n  - name: default\n    usergroupresolver:\n      type: ldap\n    queues:\n      - name: root\n        submitacl: \" dev\"\n"), 0o644)
	settings := srv.WriteSettings(t, nil)

	// alice is in dev: allowed, and --explain shows the filter and the memberOf values
	code, out, errOut := run("check", "-f", cfg, "default", "root", "alice", "--ldap-config", settings, "--explain")
	if code != 0 || !strings.Contains(out, "filter sent: (&(sAMAccountName=alice))") || !strings.Contains(out, `memberOf "CN=dev,OU=groups,DC=example,DC=com" -> group "dev"`) {
		t.Errorf("alice: exit %d\n%s%s", code, out, errOut)
	}
	if strings.Contains(out+errOut, srv.Password) {
		t.Error("the bind password was printed")
	}
	// dave has no groups: denied
	if code, out, _ := run("check", "-f", cfg, "default", "root", "dave", "--ldap-config", settings); code != 1 {
		t.Errorf("dave: exit %d\n%s", code, out)
	}
	// bob's memberOf has a lower-case cn=: YuniKorn would crash, so no answer
	code, _, errOut = run("check", "-f", cfg, "default", "root", "bob", "--ldap-config", settings)
	if code != 2 || !strings.Contains(errOut, "crashes on memberOf value \"cn=dev,ou=groups,dc=example,dc=com\"") {
		t.Errorf("bob: exit %d\n%s", code, errOut)
	}
	// the password from ACLINT_LDAP_PASSWORD when the Secret has none
	noPassword := srv.WriteSettings(t, map[string]string{"BindPassword": ""})
	t.Setenv("ACLINT_LDAP_PASSWORD", srv.Password)
	if code, out, errOut := run("check", "-f", cfg, "default", "root", "alice", "--ldap-config", noPassword); code != 0 {
		t.Errorf("password from the environment: exit %d\n%s%s", code, out, errOut)
	}
	t.Setenv("ACLINT_LDAP_PASSWORD", "")
	// a server that cannot be reached: exit 2 with the address and the cause
	code, _, errOut = run("check", "-f", cfg, "default", "root", "alice", "--ldap-config", settings, "--ldap-port", "1", "--ldap-timeout", "2s")
	if code != 2 || !strings.Contains(errOut, "LDAP server ldap://127.0.0.1:1") || !strings.Contains(errOut, "connection refused") {
		t.Errorf("unreachable: exit %d\n%s", code, errOut)
	}
	// the settings lint clean
	if code, out, errOut := run("lint", "--ldap-config", settings, "--fail-on", "info"); code != 0 {
		t.Errorf("lint --ldap-config: exit %d\n%s%s", code, out, errOut)
	}
}
