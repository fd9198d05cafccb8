package commands_test

import (
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeLDAP listens on loopback and handles each connection with serve.
func fakeLDAP(t *testing.T, serve func(net.Conn)) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go serve(c)
		}
	}()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

func ldapSettings(t *testing.T, port string, extra map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{"Host": "127.0.0.1", "Port": port, "BaseDN": "dc=example,dc=com", "Filter": "(&(sAMAccountName=%s))",
		"GroupAttr": "memberOf", "ReturnAttr": "memberOf", "BindUser": "cn=admin,dc=example,dc=com", "BindPassword": "s3cret-Pa55"}
	for k, v := range extra {
		files[k] = v
	}
	for k, v := range files {
		os.WriteFile(filepath.Join(dir, k), []byte(v+"\n"), 0o600)
	}
	return dir
}

// TestLDAPFailuresHaveNoAnswer: a server that never answers, one that
// closes the connection, and one that rejects the bind give exit 2 with the
// address and the cause, never "denied"; the password is never printed.
func TestLDAPFailuresHaveNoAnswer(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "queues.yaml")
	os.WriteFile(cfg, []byte("partitions:\n  - name: default\n    usergroupresolver:\n      type: ldap\n    queues:\n      - name: root\n        submitacl: \" dev\"\n"), 0o644)
	silent := fakeLDAP(t, func(c net.Conn) { time.Sleep(5 * time.Second); c.Close() })
	closing := fakeLDAP(t, func(c net.Conn) { c.Close() })
	rejecting := fakeLDAP(t, func(c net.Conn) {
		defer c.Close()
		buf := make([]byte, 4096)
		if _, err := c.Read(buf); err != nil {
			return
		}
		// LDAPMessage{id 1, BindResponse{invalidCredentials (49), "", "bad password"}}
		c.Write([]byte{0x30, 0x18, 0x02, 0x01, 0x01, 0x61, 0x13, 0x0a, 0x01, 0x31, 0x04, 0x00, 0x04, 0x0c, 'b', 'a', 'd', ' ', 'p', 'a', 's', 's', 'w', 'o', 'r', 'd'})
		io.Copy(io.Discard, c)
	})
	// only the silent server is timed out: the others answer at once, and a
	// short limit would turn their answer into "timed out" on a busy machine
	for _, tc := range []struct{ name, port, want, timeout string }{
		{"never answers", silent, "timed out", "500ms"},
		{"closes", closing, "failed", "1m"},
		{"rejects the bind", rejecting, "Invalid Credentials", "1m"},
	} {
		for _, cmd := range [][]string{
			{"check", "-f", cfg, "default", "root", "alice"},
			{"place", "-f", cfg, "default", "alice"},
		} {
			args := append(cmd, "--ldap-config", ldapSettings(t, tc.port, nil), "--ldap-timeout", tc.timeout)
			code, out, errOut := run(args...)
			if code != 2 || !strings.Contains(errOut, "LDAP server ldap://127.0.0.1:"+tc.port) || !strings.Contains(errOut, tc.want) {
				t.Errorf("%s, %s: exit %d, want 2 naming the address and %q\n%s%s", tc.name, cmd[0], code, tc.want, out, errOut)
			}
			if strings.Contains(out+errOut, "s3cret-Pa55") {
				t.Errorf("%s: the bind password was printed", tc.name)
			}
		}
	}
	// no time limit is refused; Insecure=true is said on stderr
	if code, _, errOut := run("check", "-f", cfg, "default", "root", "alice", "--groups", "dev", "--ldap-timeout", "0"); code != 2 || !strings.Contains(errOut, "--ldap-timeout 0s: give a positive time limit") {
		t.Errorf("--ldap-timeout 0: exit %d\n%s", code, errOut)
	}
	code, _, errOut := run("check", "-f", cfg, "default", "root", "alice", "--ldap-config", ldapSettings(t, closing, map[string]string{"Insecure": "true"}), "--ldap-timeout", "1m")
	if code != 2 || !strings.Contains(errOut, "LDAP Insecure=true: the certificate of ldap://127.0.0.1:"+closing+" is not verified") {
		t.Errorf("Insecure: exit %d\n%s", code, errOut)
	}
}

// TestLDAPSettingsNeverQuoted: lint --ldap-config shows no line of any file
// in the settings directory, and -o sarif carries no fingerprint of one.
func TestLDAPSettingsNeverQuoted(t *testing.T) {
	dir := ldapSettings(t, "389", map[string]string{"BindPassword": "", "bindpassword": "hunter2-misnamed", "Port": "x-hunter2"})
	code, out, errOut := run("lint", "--ldap-config", dir, "-o", "text", "-o", "sarif="+filepath.Join(t.TempDir(), "o.sarif"))
	if code != 1 {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	if strings.Contains(out+errOut, "hunter2-misnamed") {
		t.Errorf("a settings file that may be the password was quoted:\n%s%s", out, errOut)
	}
	_, out, _ = run("lint", "--ldap-config", dir, "-o", "sarif")
	if strings.Contains(out, "hunter2-misnamed") {
		t.Errorf("SARIF carries the content:\n%s", out)
	}
	// the fingerprints hash rule, file and message only: another content of
	// the misnamed file gives the same ones
	os.WriteFile(filepath.Join(dir, "bindpassword"), []byte("another-secret\n"), 0o600)
	_, out2, _ := run("lint", "--ldap-config", dir, "-o", "sarif")
	fps := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, `"primaryLocationLineHash"`) {
				out = append(out, strings.TrimSpace(l))
			}
		}
		return out
	}
	if len(fps(out)) == 0 || strings.Join(fps(out), ",") != strings.Join(fps(out2), ",") {
		t.Errorf("fingerprints depend on the file content:\n%v\n%v", fps(out), fps(out2))
	}
}
