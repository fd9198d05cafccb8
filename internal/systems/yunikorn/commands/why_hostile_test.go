package commands_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// hostileScheduler serves the recorded users-groups-queue scheduler with
// the answers of change put in place of the recorded ones (by route below
// /ws/v1/, "/" as "_"), counting requests and connections.
type hostileScheduler struct {
	srv      *httptest.Server
	requests atomic.Int64
	conns    atomic.Int64
}

func newHostile(t *testing.T, delay time.Duration, change map[string]string) *hostileScheduler {
	t.Helper()
	dir := filepath.Join(whyFixtures, "users-groups-queue", "rest", "1")
	h := &hostileScheduler{}
	h.srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.requests.Add(1)
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
		}
		name := strings.ReplaceAll(strings.TrimPrefix(r.URL.Path, "/ws/v1/"), "/", "_")
		if r.URL.RawQuery != "" {
			name += "@" + r.URL.RawQuery
		}
		body, ok := change[name]
		if !ok {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				w.WriteHeader(http.StatusNotFound)
				w.Write([]byte(`{"status_code":404,"message":"not found","description":"not found"}`))
				return
			}
			body = string(b)
			if st, err := os.ReadFile(filepath.Join(dir, name+".status")); err == nil && strings.TrimSpace(string(st)) == "404" {
				w.WriteHeader(http.StatusNotFound)
			}
		}
		if name == "config" {
			w.Header().Set("Content-Type", "application/x-yaml")
		}
		w.Write([]byte(body))
	}))
	h.srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			h.conns.Add(1)
		}
	}
	h.srv.Start()
	t.Cleanup(h.srv.Close)
	return h
}

// TestServerURLUserPartNeverPrinted: a token passed as the URL's user part
// alone, as a user and password, or percent-encoded, is sent to the
// scheduler and printed nowhere: text, JSON and Markdown answers, errors,
// source references.
func TestServerURLUserPartNeverPrinted(t *testing.T) {
	h := newHostile(t, 0, nil)
	host := strings.TrimPrefix(h.srv.URL, "http://")
	for _, user := range []string{"T0K3NUSER@", "T0K3NUSER:s3cr3t@", "T0K%33NUSER:s%33cr3t@", "T0K3NUSER:@"} {
		server := "http://" + user + host
		for _, args := range [][]string{
			{"why", "alice-3", "--server", server},
			{"why", "alice-3", "--server", server, "-o", "json"},
			{"why", "alice-3", "--server", server, "-o", "markdown"},
			{"why", "nosuch-app", "--server", server},
			{"check", "--server", server, "default", "root.analytics", "alice"},
			{"check", "--server", server, "default", "root.analytics", "alice", "-o", "json"},
			{"limits", "--server", server, "default", "root.analytics", "alice", "-o", "json"},
			{"check", "--server", server + "/nothing", "default", "root", "alice"},
		} {
			_, out, errOut := run(args...)
			for _, secret := range []string{"T0K3NUSER", "T0K%33NUSER", "s3cr3t", "s%33cr3t"} {
				if strings.Contains(out+errOut, secret) {
					t.Errorf("%v: %s is printed:\n%s%s", args, secret, out, errOut)
				}
			}
			if !strings.Contains(out+errOut, "http://"+host) {
				t.Errorf("%v: the scheduler's address is not named:\n%s%s", args, out, errOut)
			}
		}
	}
}

// TestWhyQueueTreeInOneRequest: why reads the queues of the application's
// path in one request, over one connection with the rest of its requests.
func TestWhyQueueTreeInOneRequest(t *testing.T) {
	h := newHostile(t, 0, nil)
	code, out, errOut := run("why", "alice-3", "--server", h.srv.URL)
	if code != 1 || !strings.Contains(out, "held by user alice's maxapplications in root.analytics") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if n := h.requests.Load(); n > 8 {
		t.Errorf("%d requests for a two-level queue", n)
	}
	if n := h.conns.Load(); n != 1 {
		t.Errorf("%d connections for %d requests: one is reused", n, h.requests.Load())
	}
}

// deepApp is alice-3's recorded answer, in a queue levels deep.
func deepApp(t *testing.T, levels int) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(whyFixtures, "users-groups-queue", "rest", "1", "partition_default_application_alice-3"))
	if err != nil {
		t.Fatal(err)
	}
	queue := "root" + strings.Repeat(".q", levels-1)
	return strings.Replace(string(b), `"queueName":"root.analytics"`, `"queueName":"`+queue+`"`, 1)
}

// TestWhyDeepQueueBounded: a scheduler that names a queue 3,000 and
// 30,000 levels deep, answering each request slowly, cannot hold why: it
// asks no level, says how deep aclint follows, exits 2, and prints the name
// shortened.
func TestWhyDeepQueueBounded(t *testing.T) {
	for _, levels := range []int{3000, 30000} {
		h := newHostile(t, 50*time.Millisecond, map[string]string{"partition_default_application_alice-3": deepApp(t, levels)})
		code, out, errOut := run("why", "alice-3", "--server", h.srv.URL)
		if code != 2 || !strings.Contains(errOut, fmt.Sprintf("is %d levels deep: aclint follows at most 100", levels)) {
			t.Errorf("%d levels: exit %d\n%s%s", levels, code, out, errOut)
		}
		if len(errOut) > 1000 {
			t.Errorf("%d levels: a %d-byte error", levels, len(errOut))
		}
		if n := h.requests.Load(); n > 3 {
			t.Errorf("%d levels: %d requests", levels, n)
		}
	}
}

// TestServerDeadline: a scheduler that answers every request just within
// --server-timeout cannot hold a run past --server-deadline.
func TestServerDeadline(t *testing.T) {
	h := newHostile(t, 400*time.Millisecond, nil)
	for _, args := range [][]string{
		{"why", "alice-3", "--server", h.srv.URL, "--server-deadline", "1s"},
		{"limits", "default", "root.analytics", "alice", "--server", h.srv.URL, "--server-deadline", "1s"},
	} {
		code, out, errOut := run(args...)
		if code != 2 || !strings.Contains(errOut, "within 1s, the limit of the whole run (--server-deadline)") {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errOut)
		}
	}
	if code, _, errOut := run("why", "alice-3", "--server", h.srv.URL, "--server-deadline", "0s"); code != 2 || !strings.Contains(errOut, "--server-deadline 0s: give a positive time limit") {
		t.Errorf("a zero deadline: exit %d\n%s", code, errOut)
	}
}

// TestWhyLongNamesShortInText: names past a line's length are shortened in
// text and errors, and whole in JSON.
func TestWhyLongNamesShortInText(t *testing.T) {
	long := strings.Repeat("a", 100000)
	app := strings.Replace(deepApp(t, 2), `"queueName":"root.q"`, `"queueName":"root.`+long+`"`, 1)
	h := newHostile(t, 0, map[string]string{"partition_default_application_alice-3": app})
	code, out, errOut := run("why", "alice-3", "--server", h.srv.URL)
	if code != 2 || len(out+errOut) > 2000 || !strings.Contains(errOut, "more bytes)") {
		t.Errorf("a 100 KB queue name: exit %d, %d bytes printed\n%.3000s", code, len(out+errOut), errOut)
	}
	tree := `{"queuename":"root","children":[{"queuename":"root.` + long + `","parent":"root","isLeaf":true}]}`
	active, err := os.ReadFile(filepath.Join(whyFixtures, "users-groups-queue", "rest", "1", "partition_default_applications_active"))
	if err != nil {
		t.Fatal(err)
	}
	h = newHostile(t, 0, map[string]string{"partition_default_application_alice-3": app, "partition_default_queues": tree,
		"partition_default_applications_active": strings.ReplaceAll(string(active), `"queueName":"root.analytics"`, `"queueName":"root.`+long+`"`)})
	code, out, errOut = run("why", "alice-3", "--server", h.srv.URL, "-o", "json")
	var v struct {
		Application struct{ Queue string }
	}
	if json.Unmarshal([]byte(out), &v); code == 2 || v.Application.Queue != "root."+long {
		t.Errorf("JSON: exit %d, the queue is not whole\n%.300s%.300s", code, out, errOut)
	}
	code, out, _ = run("why", "alice-3", "--server", h.srv.URL)
	if code == 2 || len(out) > 3000 {
		t.Errorf("text: exit %d, %d bytes", code, len(out))
	}
}

// TestWhyRefusesInconsistentAnswers: an answer about another application,
// user, group or queue, an application in two queues, a tree that lacks a
// level or holds one twice, and numbers out of range are exit 2, never an
// answer.
func TestWhyRefusesInconsistentAnswers(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(whyFixtures, "users-groups-queue", "rest", "1", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	app, user, active, tree := read("partition_default_application_alice-3"), read("partition_default_usage_user_alice"), read("partition_default_applications_active"), read("partition_default_queues")
	for name, tc := range map[string]struct {
		change map[string]string
		want   string
	}{
		"another application": {map[string]string{"partition_default_application_alice-3": strings.Replace(app, `"applicationID":"alice-3"`, `"applicationID":"alice-9"`, 1)}, "asked for application alice-3, it answered about alice-9"},
		"another partition":   {map[string]string{"partition_default_application_alice-3": strings.Replace(app, `"partition":"default"`, `"partition":"gpu"`, 1)}, "it answered with one in partition gpu"},
		"another user":        {map[string]string{"partition_default_usage_user_alice": strings.Replace(user, `"userName":"alice"`, `"userName":"bob"`, 1)}, "asked for the usage of user alice, it answered with bob's"},
		"two queues": {map[string]string{"partition_default_applications_active": strings.Replace(active, `"queueName":"root.analytics"`, `"queueName":"root.batch"`, -1)},
			"lists it active in root.batch: an application is in one queue"},
		"listed twice": {map[string]string{"partition_default_applications_active": strings.Replace(active, "[", `[{"applicationID":"alice-1","queueName":"root.open"},`, 1)}, "lists application alice-1 twice"},
		"no such level": {map[string]string{"partition_default_queues": strings.Replace(tree, `"queuename":"root.analytics"`, `"queuename":"root.analysis"`, 1)},
			"has no queue root.analytics under root"},
		"a level twice": {map[string]string{"partition_default_queues": strings.Replace(strings.Replace(tree, `"queuename":"root.open"`, `"queuename":"root.analytics"`, 1), `"queuename":"root.batch"`, `"queuename":"root.batch"`, 1)},
			"has root.analytics twice under root"},
		"another parent":    {map[string]string{"partition_default_queues": strings.Replace(tree, `"isManaged":true,"parent":"root","absUsedCapacity":{"memory":3,`, `"isManaged":true,"parent":"root.batch","absUsedCapacity":{"memory":3,`, 1)}, "says its parent is root.batch"},
		"a count too large": {map[string]string{"partition_default_queues": strings.Replace(tree, `"maxRunningApps":4`, `"maxRunningApps":18446744073709551615`, 1)}, "a count out of range"},
		"a negative amount": {map[string]string{"partition_default_usage_user_alice": strings.Replace(user, `"resourceUsage":{"memory":2000`, `"resourceUsage":{"memory":-9223372036854775000`, 1)}, "an amount out of range"},
		"a negative ask":    {map[string]string{"partition_default_application_alice-3": strings.Replace(app, `"resource":{"memory":1000`, `"resource":{"memory":-1`, 1)}, "an amount out of range"},
		"a user limit too large": {map[string]string{"partition_default_usage_user_alice": strings.Replace(user, `"maxApplications":2`, `"maxApplications":18446744073709551615`, 1)},
			"a count out of range"},
	} {
		for k, v := range tc.change {
			if v == read(k) {
				t.Fatalf("%s: the change changes nothing", name)
			}
		}
		h := newHostile(t, 0, tc.change)
		code, out, errOut := run("why", "alice-3", "--server", h.srv.URL)
		if code != 2 || !strings.Contains(errOut, tc.want) || strings.Contains(out, "-1 of") || strings.Contains(out, "-92233") {
			t.Errorf("%s: exit %d, want 2 with %q\n%s%s", name, code, tc.want, out, errOut)
		}
	}
}

// TestServerSnippetHidesEchoedSecrets: an error quoting the start of an
// answer that echoes the request's headers, or the URL's credentials,
// shows none of them.
func TestServerSnippetHidesEchoedSecrets(t *testing.T) {
	var mu sync.Mutex
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		w.WriteHeader(http.StatusBadGateway)
		for k, v := range r.Header {
			fmt.Fprintf(w, "%s: %s\n", k, strings.Join(v, ","))
		}
		fmt.Fprintf(w, "query=%s\n", r.URL.RawQuery)
	}))
	defer echo.Close()
	u, _ := url.Parse(echo.URL)
	u.User = url.UserPassword("tokuser", "tokpass")
	u.RawQuery = "token=querysecret"
	for _, args := range [][]string{
		{"check", "--server", echo.URL, "--server-header", "Authorization: Bearer hdrsecret99", "default", "root", "alice"},
		{"check", "--server", echo.URL, "--server-header", "X-Api-Key: keysecret77", "default", "root", "alice"},
		{"check", "--server", u.String(), "default", "root", "alice"},
		{"why", "x", "--server", u.String(), "--server-header", "Cookie: session=cookiesecret"},
	} {
		code, out, errOut := run(args...)
		if code != 2 || !strings.Contains(errOut, "answered 502") {
			t.Errorf("%v: exit %d\n%s", args, code, errOut)
		}
		for _, secret := range []string{"hdrsecret99", "keysecret77", "tokuser", "tokpass", "querysecret", "cookiesecret", "dG9rdXNlcjp0b2twYXNz"} {
			if strings.Contains(out+errOut, secret) {
				t.Errorf("%v: %s is printed:\n%s", args, secret, errOut)
			}
		}
	}
}
