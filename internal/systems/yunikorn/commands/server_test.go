package commands_test

import (
	"crypto/tls"
	"encoding/pem"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// restFixtures is what a real yunikorn-core answered (recorded in
// ../shared/yunikorn-rest, copied into testdata).
const restFixtures = "../../../../testdata/yunikorn-rest"

// scheduler serves a fixture folder as yunikorn-core's REST server does:
// GET /ws/v1/config in YAML, or JSON for Accept: application/json;
// POST /ws/v1/validate-conf answering with the recorded verdict of the
// body it is sent (config.yaml's, or update.yaml's).
func scheduler(t *testing.T, dir string, seen *http.Header) *httptest.Server {
	t.Helper()
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(restFixtures, dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ws/v1/config", func(w http.ResponseWriter, r *http.Request) {
		if seen != nil {
			*seen = r.Header.Clone()
		}
		if r.Header.Get("Accept") == "application/json" {
			w.Header().Set("Content-Type", "application/json; charset=UTF-8")
			w.Write(read("ws-v1-config.json"))
			return
		}
		w.Header().Set("Content-Type", "application/x-yaml; charset=UTF-8")
		w.Write(read("ws-v1-config.yaml"))
	})
	mux.HandleFunc("POST /ws/v1/validate-conf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=UTF-8")
		body := make([]byte, 1<<20)
		n, _ := r.Body.Read(body)
		if update, err := os.ReadFile(filepath.Join(restFixtures, dir, "update.yaml")); err == nil && string(body[:n]) == string(update) {
			w.Write(read("ws-v1-validate-conf-update.json"))
			return
		}
		w.Write(read("ws-v1-validate-conf.json"))
	})
	// the recorded scheduler ran no application: no user or group has
	// tracked usage, and each queue is its node of the recorded tree
	mux.HandleFunc("GET /ws/v1/partition/default/usage/", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"status_code":404,"message":"User not found","description":"User not found"}`))
	})
	mux.HandleFunc("GET /ws/v1/partition/default/queues", func(w http.ResponseWriter, r *http.Request) {
		w.Write(read("ws-v1-partition-default-queues.json"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestServerAnswersAsTheFile: check, who-can, limits and place over
// --server answer what they answer over the config the scheduler was
// given, and say where the config came from.
func TestServerAnswersAsTheFile(t *testing.T) {
	for _, tc := range []struct {
		dir  string
		args []string
	}{
		{"basic", []string{"check", "default", "root.prod.etl", "deployer"}},
		{"basic", []string{"check", "default", "root.dev.sandbox", "carol", "--groups", "dev-team"}},
		{"basic", []string{"who-can", "default", "root.prod"}},
		{"limits", []string{"limits", "default", "root.prod.etl", "etl-bot"}},
		{"placement", []string{"place", "default", "alice", "--tag", "namespace=team-a"}},
		{"with-extra-config", []string{"access", "alice", "--groups", "analysts"}},
	} {
		srv := scheduler(t, tc.dir, nil)
		cfg := filepath.Join(restFixtures, tc.dir, "config.yaml")
		wantCode, want, _ := run(append(tc.args, "-f", cfg)...)
		code, got, errOut := run(append(tc.args, "--server", srv.URL)...)
		// limits over --server adds the live counts after the answer
		got, live, _ := strings.Cut(got, "\nlive, from the scheduler at "+srv.URL+":\n")
		if tc.args[0] == "limits" && !strings.Contains(live, "etl-bot: 0 of 15 running in root.prod, 15 more") {
			t.Errorf("limits over --server: no live count in\n%s", live)
		}
		if code != wantCode || strings.ReplaceAll(got, srv.URL+"/ws/v1/config", "X") != strings.ReplaceAll(want, cfg, "X") && !sameVerdict(got, want) {
			t.Errorf("%s %v: over --server exit %d\n%s\nover the file exit %d\n%s", tc.dir, tc.args, code, got, wantCode, want)
		}
		if !strings.Contains(errOut, "aclint: read the config the scheduler runs from "+srv.URL+"/ws/v1/config") {
			t.Errorf("%s: where the config came from is not said: %q", tc.dir, errOut)
		}
	}
}

// sameVerdict compares the first line (the verdict) of two answers.
func sameVerdict(a, b string) bool {
	first := func(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }
	return first(a) == first(b)
}

// TestServerFailuresAreNoAnswer: a scheduler that cannot be reached, that
// answers 404, too slowly, too much, HTML, or JSON that is not its config,
// is exit 2 with the reason, never an answer.
func TestServerFailuresAreNoAnswer(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	refused := "http://" + ln.Addr().String()
	ln.Close()
	handler := func(f http.HandlerFunc) string {
		srv := httptest.NewServer(f)
		t.Cleanup(srv.Close)
		return srv.URL
	}
	release := make(chan struct{})
	slow := handler(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-time.After(time.Minute):
		}
	})
	t.Cleanup(func() { close(release) }) // before the server's Close, which waits for the handler
	for _, tc := range []struct {
		name, url, want string
		extra           []string
	}{
		{"refused", refused, "cannot reach the scheduler", nil},
		{"404", handler(func(w http.ResponseWriter, r *http.Request) { http.NotFound(w, r) }), "answered 404 Not Found", nil},
		{"slow", slow, "no answer within 300ms (--server-timeout)", []string{"--server-timeout", "300ms"}},
		{"huge", handler(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/x-yaml")
			w.Write([]byte("partitions:\n" + strings.Repeat("#", 3<<20)))
		}), "larger than 2097152 bytes", []string{"--max-input-size", "2MiB"}},
		{"html", handler(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html>login</html>"))
		}), "answered text/html, not YAML or JSON", nil},
		{"other JSON", handler(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"status":"ok"}`))
		}), "not a YuniKorn scheduler's config", nil},
		{"not a URL", "yunikorn:9080", "give the scheduler's address", nil},
	} {
		args := append([]string{"check", "--server", tc.url, "default", "root", "alice"}, tc.extra...)
		code, out, errOut := run(args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want 2 and %q", tc.name, code, out, errOut, tc.want)
		}
	}
}

// TestServerTLSAndHeaders: an https scheduler (or proxy) is reached with
// --server-ca-file, and --server-header is sent with the request.
func TestServerTLSAndHeaders(t *testing.T) {
	var seen http.Header
	plain := scheduler(t, "basic", &seen)
	srv := httptest.NewUnstartedServer(plain.Config.Handler)
	srv.TLS = &tls.Config{MinVersion: tls.VersionTLS12}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644)
	if code, _, errOut := run("check", "--server", srv.URL, "default", "root", "alice"); code != 2 || !strings.Contains(errOut, "certificate") {
		t.Errorf("https without its CA: exit %d %s", code, errOut)
	}
	code, out, errOut := run("check", "--server", srv.URL, "--server-ca-file", ca, "--server-header", "Authorization: Bearer t0ken", "default", "root.prod.etl", "deployer")
	if code != 0 || !strings.HasPrefix(out, "allowed") {
		t.Fatalf("https with its CA: exit %d\n%s%s", code, out, errOut)
	}
	if seen.Get("Authorization") != "Bearer t0ken" {
		t.Errorf("the header was not sent: %v", seen)
	}
}

// TestDrift: drift says "running" (exit 0) when the scheduler runs exactly
// the file (raw, or the ConfigMap the shim reads), and otherwise what
// applying it would change (exit 1), in every format; a file YuniKorn
// rejects is said to leave the running config in place; no running config
// is exit 2.
func TestDrift(t *testing.T) {
	basic := scheduler(t, "basic", nil)
	rejected := scheduler(t, "rejected-update", nil)
	withExtra := scheduler(t, "with-extra-config", nil)
	cfg := filepath.Join(restFixtures, "basic", "config.yaml")
	text, _ := os.ReadFile(cfg)
	dir := t.TempDir()
	configMap := func(name, settings string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\ndata:\n"+settings+"  queues.yaml: |\n    "+strings.ReplaceAll(strings.TrimSuffix(string(text), "\n"), "\n", "\n    ")+"\n"), 0o644)
		return p
	}
	// the three settings the with-extra-config scheduler runs with
	running := "  admissionController.accessControl.bypassAuth: \"false\"\n  log.level: info\n  service.schedulingInterval: 2s\n"
	cm := configMap("cm.yaml", running)
	cmBypass := configMap("cm-bypass.yaml", strings.Replace(running, `"false"`, `"true"`, 1))
	cmNone := configMap("cm-none.yaml", "")
	changed := filepath.Join(dir, "queues.yaml")
	os.WriteFile(changed, []byte(strings.Replace(string(text), "deployer prod-team", "deployer prod-team,contractors", 1)), 0o644)
	bom := filepath.Join(dir, "bom.yaml")
	os.WriteFile(bom, append([]byte{0xEF, 0xBB, 0xBF}, text...), 0o644)
	comment := filepath.Join(dir, "comment.yaml")
	os.WriteFile(comment, append([]byte("# the same queues\n"), text...), 0o644)
	// a dump carrying the file's checksum beside partitions that grant
	// everyone everything
	dump, _ := os.ReadFile(filepath.Join(restFixtures, "basic", "ws-v1-config.yaml"))
	forgedDump := strings.Replace(string(dump), "submitacl: deployer prod-team", "submitacl: '*'", 1)
	if forgedDump == string(dump) {
		t.Fatal("the basic dump has no submitacl: deployer prod-team to change")
	}
	forged := filepath.Join(dir, "forged.yaml")
	os.WriteFile(forged, []byte(forgedDump), 0o644)
	emptyDump := filepath.Join(dir, "empty.yaml")
	os.WriteFile(emptyDump, []byte("partitions: []\nchecksum: BA281D594B9A74471EE5D0CD212BF342C6E44DB27A8214BA18DEB909DB9189D3\nextra: {}\n"), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"the file runs", []string{cfg, "--server", basic.URL}, 0, []string{"running: the scheduler (" + basic.URL + "/ws/v1/config) runs this config: checksum BA281D59"}},
		{"a saved JSON dump", []string{cfg, "--running", filepath.Join(restFixtures, "basic", "ws-v1-config.json")}, 0, []string{"running: "}},
		{"the ConfigMap runs", []string{cm, "--server", withExtra.URL}, 0, []string{"running: "}},
		{"an admission setting differs", []string{cmBypass, "--server", withExtra.URL}, 1, []string{"with other settings", `admissionController.accessControl.bypassAuth: ` + cmBypass + `:6:`, `sets "true", the scheduler runs with "false" (the admission controller`}},
		{"settings the file lacks", []string{cmNone, "--server", withExtra.URL, "-o", "json"}, 1, []string{`"answer": "drift"`, `"key": "log.level"`, `"inFile": false`}},
		{"a byte order mark", []string{bom, "--server", basic.URL}, 1, []string{"its checksum is BA281D59", "this file's 110D85B6", "the two configure the same queues"}},
		{"a comment", []string{comment, "--server", basic.URL}, 1, []string{"the two configure the same queues (the texts differ in comments, order or layout)"}},
		{"a forged checksum", []string{cfg, "--running", forged}, 2, []string{"not known: the scheduler", `root.prod submitacl: this file has "deployer prod-team", the scheduler "*"`}},
		{"a forged checksum, json", []string{cfg, "--running", forged, "-o", "json"}, 2, []string{`"answer": "unknown"`, `"running": false`}},
		{"an empty dump with the checksum", []string{cfg, "--running", emptyDump}, 2, []string{"not known: ", "partition default: this file has it, the scheduler does not set it"}},
		{"another config runs", []string{changed, "--server", basic.URL}, 1, []string{"drift: the scheduler", "its checksum is BA281D59", "group contractors gains submit"}},
		{"json", []string{changed, "--server", basic.URL, "-o", "json"}, 1, []string{`"running": false`, `"runningChecksum": "BA281D59`, `"fileAccepted": true`, `"contractors"`}},
		{"markdown", []string{changed, "--server", basic.URL, "-o", "markdown"}, 1, []string{"**drift: the scheduler", "contractors"}},
		{"a rejected file", []string{filepath.Join(restFixtures, "rejected-update", "update.yaml"), "--server", rejected.URL}, 1, []string{"YuniKorn rejects", "a reload with it is refused and the scheduler goes on with the config it runs"}},
	} {
		code, out, errOut := run(append([]string{"drift"}, tc.args...)...)
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d\n%s%s", tc.name, code, tc.code, out, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %q in\n%s", tc.name, w, out)
			}
		}
	}
	for _, args := range [][]string{
		{cfg},
		{cfg, "--server", basic.URL, "--running", cfg},
		{cfg, "--running", cfg},
		{cfg, "--server", basic.URL + "/nothing-here/"},
	} {
		if code, out, _ := run(append([]string{"drift"}, args...)...); code != 2 || out != "" {
			t.Errorf("drift %v: exit %d, stdout %q; want 2 and nothing", args, code, out)
		}
	}
}

// TestLintServer: lint --server holds each YuniKorn config to the
// scheduler's validate-conf and says so; a disagreement is exit 2.
func TestLintServer(t *testing.T) {
	rejected := scheduler(t, "rejected-update", nil)
	cfg := filepath.Join(restFixtures, "rejected-update", "config.yaml")
	update := filepath.Join(restFixtures, "rejected-update", "update.yaml")
	code, _, errOut := run("lint", cfg, "--server", rejected.URL)
	if code == 2 || !strings.Contains(errOut, "would load it, as aclint says") {
		t.Errorf("an accepted config: exit %d\n%s", code, errOut)
	}
	code, _, errOut = run("lint", update, "--server", rejected.URL)
	if code != 1 || !strings.Contains(errOut, "refuses it too: yaml: line 5: did not find expected alphabetic or numeric character") {
		t.Errorf("a rejected config: exit %d\n%s", code, errOut)
	}
	lenient := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"allowed":true}`))
	}))
	defer lenient.Close()
	code, _, errOut = run("lint", update, "--server", lenient.URL)
	if code != 2 || !strings.Contains(errOut, "but the scheduler at "+lenient.URL+" accepts it: aclint is wrong here") {
		t.Errorf("a disagreement: exit %d\n%s", code, errOut)
	}
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`ok`)) }))
	defer broken.Close()
	if code, _, errOut = run("lint", cfg, "--server", broken.URL); code != 2 || !strings.Contains(errOut, "not validate-conf's") {
		t.Errorf("an answer that is not validate-conf's: exit %d\n%s", code, errOut)
	}
}
