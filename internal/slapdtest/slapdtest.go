// Package slapdtest runs a private OpenLDAP server (Debian's slapd) on a
// loopback port for tests, with a generated config and a few users and
// groups, including memberOf values that YuniKorn's group extraction
// misreads.
package slapdtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Server is a running slapd.
type Server struct {
	Host     string
	Port     int
	BaseDN   string
	BindDN   string
	Password string
	cmd      *exec.Cmd
}

// Slapd is where Debian installs the server.
const Slapd = "/usr/sbin/slapd"

// Users in the directory, by sAMAccountName, with their memberOf values.
var Users = map[string][]string{
	"alice": {"CN=dev,OU=groups,DC=example,DC=com", "CN=ops,OU=groups,DC=example,DC=com"},
	"bob":   {"cn=dev,ou=groups,dc=example,dc=com"}, // lower-case cn=: YuniKorn's extraction panics
	"carol": {"OU=contractors,DC=example,DC=com"},   // no CN= at all: the same
	"dave":  nil,                                    // no groups
	"erin":  {"CN=data.eng,OU=groups,DC=example,DC=com", "CN=Team\\, Blue,OU=groups,DC=example,DC=com"},
	"eve*":  {"CN=sneaky,OU=groups,DC=example,DC=com"}, // a name with a filter metacharacter
}

const schema = `attributetype ( 1.2.840.113556.1.2.102 NAME 'memberOf'
  DESC 'group membership as Active Directory writes it'
  EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch
  SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 )
attributetype ( 1.2.840.113556.1.4.221 NAME 'sAMAccountName'
  EQUALITY caseIgnoreMatch SUBSTR caseIgnoreSubstringsMatch
  SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
objectclass ( 1.3.6.1.4.1.4203.666.100.1 NAME 'aclintTestUser' SUP top AUXILIARY
  MAY ( memberOf $ sAMAccountName ) )
`

// Start runs slapd for the test and stops it when the test ends. Without
// slapd the test is skipped, except in CI (CI set), where it fails: CI
// installs slapd, so the LDAP tests always run there.
func Start(t testing.TB) *Server {
	t.Helper()
	if _, err := os.Stat(Slapd); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("slapd is not installed (%v); .ci/run installs it with apt-get install slapd", err)
		}
		t.Skip("slapd is not installed: apt-get install slapd to run the LDAP tests")
	}
	dir := t.TempDir()
	s := &Server{Host: "127.0.0.1", BaseDN: "dc=example,dc=com", BindDN: "cn=admin,dc=example,dc=com", Password: "s3cret-pw"}
	must := func(err error) {
		if err != nil {
			t.Helper()
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "aclint.schema"), []byte(schema), 0o644))
	must(os.MkdirAll(filepath.Join(dir, "db"), 0o755))
	conf := fmt.Sprintf(`include /etc/ldap/schema/core.schema
include %s/aclint.schema
pidfile %s/slapd.pid
modulepath /usr/lib/ldap
moduleload back_mdb
database mdb
maxsize 10485760
suffix "%s"
rootdn "%s"
rootpw %s
directory %s/db
`, dir, dir, s.BaseDN, s.BindDN, s.Password, dir)
	must(os.WriteFile(filepath.Join(dir, "slapd.conf"), []byte(conf), 0o644))
	var ldif strings.Builder
	fmt.Fprintf(&ldif, "dn: %s\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: example\n\n", s.BaseDN)
	fmt.Fprintf(&ldif, "dn: ou=people,%s\nobjectClass: organizationalUnit\nou: people\n\n", s.BaseDN)
	for name, groups := range Users {
		cn := strings.TrimSuffix(name, "*") + "-user"
		fmt.Fprintf(&ldif, "dn: cn=%s,ou=people,%s\nobjectClass: person\nobjectClass: aclintTestUser\ncn: %s\nsn: %s\nsAMAccountName: %s\n", cn, s.BaseDN, cn, cn, name)
		for _, g := range groups {
			fmt.Fprintf(&ldif, "memberOf: %s\n", g)
		}
		ldif.WriteString("\n")
	}
	must(os.WriteFile(filepath.Join(dir, "data.ldif"), []byte(ldif.String()), 0o644))
	if out, err := exec.Command("/usr/sbin/slapadd", "-f", filepath.Join(dir, "slapd.conf"), "-l", filepath.Join(dir, "data.ldif")).CombinedOutput(); err != nil {
		t.Fatalf("slapadd: %v\n%s", err, out)
	}
	s.Port = freePort(t)
	s.cmd = exec.Command(Slapd, "-f", filepath.Join(dir, "slapd.conf"), "-h", fmt.Sprintf("ldap://%s:%d/", s.Host, s.Port), "-d", "0")
	var logs strings.Builder
	s.cmd.Stdout, s.cmd.Stderr = &logs, &logs
	must(s.cmd.Start())
	t.Cleanup(func() {
		_ = s.cmd.Process.Kill()
		_ = s.cmd.Wait()
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", net.JoinHostPort(s.Host, fmt.Sprint(s.Port)), 200*time.Millisecond)
		if err == nil {
			c.Close()
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("slapd did not listen on %s:%d: %v\n%s", s.Host, s.Port, err, logs.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// WriteSettings writes a YuniKorn LDAP settings directory for the server,
// one file per setting, and returns it. extra overrides or adds files.
func (s *Server) WriteSettings(t testing.TB, extra map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"Host": s.Host, "Port": fmt.Sprint(s.Port), "BaseDN": s.BaseDN, "Filter": "(&(sAMAccountName=%s))",
		"GroupAttr": "memberOf", "ReturnAttr": "memberOf", "BindUser": s.BindDN, "BindPassword": s.Password,
	}
	for k, v := range extra {
		files[k] = v
	}
	for k, v := range files {
		if v == "" {
			continue
		}
		if err := os.WriteFile(filepath.Join(dir, k), []byte(v+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
