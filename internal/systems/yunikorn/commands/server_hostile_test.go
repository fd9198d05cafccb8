package commands_test

import (
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestServerSecretsStayHidden: a password in --server's URL and the
// values of its query reach the scheduler but never aclint's output:
// errors, JSON's source, markdown for pull requests, the HTML report. A
// --server-header without a colon (a token pasted alone) is not echoed.
// The query goes with every request.
func TestServerSecretsStayHidden(t *testing.T) {
	var gotUser, gotPass, gotToken atomic.Value
	fixture := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(restFixtures, "basic", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, p, _ := r.BasicAuth()
		gotUser.Store(u)
		gotPass.Store(p)
		gotToken.Store(r.URL.Query().Get("token"))
		switch r.URL.Path {
		case "/ws/v1/config":
			w.Write(fixture("ws-v1-config.yaml"))
		case "/ws/v1/validate-conf":
			w.Write([]byte(`{"allowed":true}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	withSecret := strings.Replace(srv.URL, "http://", "http://admin:s3cr3tpw@", 1) + "/?token=t0kenvalue"
	cfg := filepath.Join(restFixtures, "basic", "config.yaml")
	changed := filepath.Join(t.TempDir(), "q.yaml")
	text, _ := os.ReadFile(cfg)
	os.WriteFile(changed, []byte(strings.Replace(string(text), "deployer prod-team", "deployer prod-team,contractors", 1)), 0o644)
	runs := [][]string{
		{"check", "--server", withSecret, "default", "root.prod.etl", "deployer"},
		{"check", "--server", withSecret, "default", "root.prod.etl", "deployer", "-o", "json"},
		{"drift", changed, "--server", withSecret, "-o", "json"},
		{"drift", changed, "--server", withSecret, "-o", "markdown"},
		{"drift", changed, "--server", withSecret},
		{"report", "-o", "html", "--server", withSecret},
		{"lint", cfg, "--server", withSecret},
		{"who-can", "--server", withSecret, "default", "root.prod"},
		{"check", "--server", strings.Replace(withSecret, "/?token", "/nothing/?token", 1), "default", "root", "alice"},
	}
	for _, args := range runs {
		code, out, errOut := run(args...)
		if code == 2 && args[0] != "check" || code == 2 && !strings.Contains(args[2], "nothing") {
			t.Errorf("%v: exit 2\n%s", args, errOut)
		}
		for _, secret := range []string{"s3cr3tpw", "t0kenvalue"} {
			if strings.Contains(out+errOut, secret) {
				t.Errorf("%v: the secret %s is printed:\n%s%s", args, secret, out, errOut)
			}
		}
	}
	if gotUser.Load() != "admin" || gotPass.Load() != "s3cr3tpw" || gotToken.Load() != "t0kenvalue" {
		t.Errorf("the scheduler was not sent the URL's credentials and query: %v %v %v", gotUser.Load(), gotPass.Load(), gotToken.Load())
	}
	code, out, errOut := run("check", "--server", srv.URL, "--server-header", "Bearer abcdef123456", "default", "root", "alice")
	if code != 2 || strings.Contains(out+errOut, "abcdef123456") || !strings.Contains(errOut, "write it as 'Name: value'") {
		t.Errorf("a header without a colon: exit %d\n%s%s", code, out, errOut)
	}
}

// TestServerRedirects: an https scheduler that redirects to http is not
// followed (its Authorization header would go out in clear text), nor is
// another host; a loop on the same host is called a loop.
func TestServerRedirects(t *testing.T) {
	var plainHits atomic.Int32
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		plainHits.Add(1)
		if r.Header.Get("Authorization") != "" {
			t.Errorf("the token went out over http")
		}
	}))
	defer plain.Close()
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// the same host, another scheme
		http.Redirect(w, r, plain.URL+r.URL.Path, http.StatusFound)
	}))
	defer secure.Close()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: secure.Certificate().Raw}), 0o644)
	code, _, errOut := run("check", "--server", secure.URL, "--server-ca-file", ca, "--server-header", "Authorization: Bearer xyz", "default", "root", "alice")
	if code != 2 || !strings.Contains(errOut, "redirected from https to http: not followed") || plainHits.Load() != 0 {
		t.Errorf("https to http: exit %d, %d requests over http\n%s", code, plainHits.Load(), errOut)
	}
	var loop *httptest.Server
	loop = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, loop.URL+"/ws/v1/config", http.StatusFound)
	}))
	defer loop.Close()
	if code, _, errOut := run("check", "--server", loop.URL, "default", "root", "alice"); code != 2 || !strings.Contains(errOut, "a redirect loop") {
		t.Errorf("a loop: exit %d\n%s", code, errOut)
	}
	away := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://localhost:1/ws/v1/config", http.StatusFound)
	}))
	defer away.Close()
	if code, _, errOut := run("check", "--server", away.URL, "default", "root", "alice"); code != 2 || !strings.Contains(errOut, "redirected to another host") {
		t.Errorf("another host: exit %d\n%s", code, errOut)
	}
}

// TestServerAnswersThatConfirmNothing: validate-conf answers that bend its
// form confirm nothing (exit 2); an answer larger than the input limit is
// refused from its Content-Length, before its body is read; a scheduler
// that runs no config yet says so.
func TestServerAnswersThatConfirmNothing(t *testing.T) {
	cfg := filepath.Join(restFixtures, "basic", "config.yaml")
	for _, body := range []string{`{"allowed":null}`, `{"allowed":false,"allowed":true}`, `{"allowed":"true"}`, `{"allowed":true} {"allowed":false}`, `{"allowed":true,"reason":["x"]}`, `[{"allowed":true}]`, `{}`} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) }))
		code, _, errOut := run("lint", cfg, "--server", srv.URL)
		srv.Close()
		if code != 2 || !strings.Contains(errOut, "confirms nothing") {
			t.Errorf("validate-conf answering %s: exit %d\n%s", body, code, errOut)
		}
	}
	var sent atomic.Int64
	big := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(8<<20))
		w.WriteHeader(http.StatusOK)
		chunk := make([]byte, 64<<10)
		for i := 0; i < 128; i++ {
			n, err := w.Write(chunk)
			sent.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	defer big.Close()
	code, _, errOut := run("check", "--max-input-size", "1MiB", "--server", big.URL, "default", "root", "alice")
	if code != 2 || !strings.Contains(errOut, "the answer is 8388608 bytes, larger than 1048576") {
		t.Errorf("a body over the limit: exit %d\n%s", code, errOut)
	}
	empty := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("deadlockdetectionenabled: false\ndeadlocktimeoutseconds: 60\n"))
	}))
	defer empty.Close()
	if code, _, errOut := run("check", "--server", empty.URL, "default", "root", "alice"); code != 2 || !strings.Contains(errOut, "the scheduler runs no config yet") {
		t.Errorf("a scheduler without a config: exit %d\n%s", code, errOut)
	}
}

// TestLintServerStages: validate-conf accepts configs the scheduler then
// refuses to load (" * ", "a  b", a root named ROOT). aclint's errors for
// them are not a disagreement: it says that validate-conf's yes does not
// mean the scheduler loads them, and lint fails as for any error.
func TestLintServerStages(t *testing.T) {
	lenient := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"allowed":true}`))
	}))
	defer lenient.Close()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"star":  "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: ' * '\n",
		"space": "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: 'a  b'\n",
		"ROOT":  "partitions:\n  - name: default\n    queues:\n      - name: ROOT\n        submitacl: '*'\n",
	} {
		p := filepath.Join(dir, name+".yaml")
		os.WriteFile(p, []byte(text), 0o644)
		code, _, errOut := run("lint", p, "--server", lenient.URL)
		if code != 1 || !strings.Contains(errOut, "validate-conf's yes does not mean the scheduler loads it") || strings.Contains(errOut, "aclint is wrong") {
			t.Errorf("%s: exit %d\n%s", name, code, errOut)
		}
	}
}
