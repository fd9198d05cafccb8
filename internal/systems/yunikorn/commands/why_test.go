package commands_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/replay"
)

// whyFixtures are what a real yunikorn-core answered in each scenario of
// testdata/yunikorn-rest/why (tools/record-why.sh), step by step.
const whyFixtures = "../../../../testdata/yunikorn-rest/why"

// recorded serves one recorded step as yunikorn-core's REST server
// answered: each route from the file named by its path, with the status
// recorded beside it. A route that was not recorded fails the test: the
// command asked something the recorder never asked the real scheduler.
func recorded(t *testing.T, scenario string, step int) *httptest.Server {
	t.Helper()
	return recordedAt(t, filepath.Join(whyFixtures, scenario, "rest", strconv.Itoa(step)))
}

// recordedAt serves the recorded answers in dir, as the walk-through of
// docs/live.md does (internal/replay); a request not recorded fails the
// test.
func recordedAt(t *testing.T, dir string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(replay.Handler(dir, func(r *http.Request) {
		t.Errorf("%s %s was not recorded in %s", r.Method, r.URL, dir)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestWhyOnRecordedSchedulers: aclint why over what a real yunikorn-core
// answered: the limit that holds each waiting application (a user's, a
// group's, the wildcard group's, a queue's, a parent queue's, a user's
// maxresources, a queue's resources.max), the applications holding it, the
// entry of the running config that sets it, and the exit code; running,
// rejected and unknown applications.
func TestWhyOnRecordedSchedulers(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		step     int
		app      string
		code     int
		want     []string
	}{
		{"users-groups-queue", 1, "alice-3", 1, []string{"waiting: alice-3 (user alice, groups [analysts]) in root.analytics, partition default is Accepted, held by 1 limit",
			"held by user alice's maxapplications in root.analytics: 2 of 2 running (alice-1, alice-2), no more may start",
			`set by limit "alice" for user alice on root.analytics (`, "/ws/v1/config:18:36) in the config it runs",
			"frees when: one of alice-1, alice-2 ending, or the limit raised above 2", "APP_CANNOTRUN_QUOTA (215", "; it agrees"}},
		{"users-groups-queue", 1, "bob-2", 1, []string{"tracked under group data-eng", "held by group data-eng's maxapplications in root.analytics: 1 of 1 running (bob-1)",
			`limit "data engineers" for group data-eng on root.analytics`, "frees when: bob-1 ending"}},
		{"users-groups-queue", 1, "dave-1", 1, []string{"held by queue root.batch's maxapplications: 1 of 1 running (carol-1)", "queue root.batch's maxapplications (", "APP_CANNOTRUN_QUEUE (213"}},
		{"users-groups-queue", 1, "alice-1", 0, []string{"running: alice-1"}},
		{"users-groups-queue", 1, "mallory-1", 0, []string{"running: mallory-1"}},
		{"users-groups-queue", 2, "alice-3", 0, []string{"running: alice-3", "APP_RUNNABLE_QUOTA (216"}},
		{"parent-limit", 1, "a-2", 1, []string{"in root.org.a", "held by queue root.org's maxapplications: 2 of 2 running (a-1, b-1)", "queue root.org's maxapplications ("}},
		{"parent-limit", 1, "a-1", 0, []string{"running: a-1"}},
		{"maxresources", 1, "c-3", 1, []string{"held by user carol's maxresources memory in root.team: 2000 used of 2500, the ask needs 1000 (500 left) (c-1, c-2)",
			`limit "carol's memory" for user carol on root.team`, "frees when: 500 of memory freed by carol's applications in root.team", "raised to at least 3000"}},
		{"maxresources", 1, "s-2", 1, []string{"held by queue root.small's resources.max memory: 1000 used of 1500, the ask needs 1000 (500 left) (s-1)", "queue root.small's resources.max ("}},
		{"wildcard-group", 1, "e-2", 1, []string{"tracked under the wildcard group *", "held by the wildcard group's maxapplications in root.shared: 1 of 1 running (e-1)", `limit "one per group" for groups * on root.shared`}},
		{"wildcard-group", 1, "f-1", 1, []string{"user frank, groups [y]", "held by the wildcard group's maxapplications in root.shared: 1 of 1 running (e-1)"}},
		{"rejected", 1, "n-1", 1, []string{`rejected: n-1 (user nick, groups [nick]) in no queue, partition default: the scheduler said "failed to place application n-1: application rejected: no placement rule matched"`}},
		{"rejected", 1, "k-1", 0, []string{"running: k-1"}},
	} {
		srv := recorded(t, tc.scenario, tc.step)
		code, out, errOut := run("why", tc.app, "--server", srv.URL)
		if code != tc.code {
			t.Errorf("%s %s: exit %d, want %d\n%s%s", tc.scenario, tc.app, code, tc.code, out, errOut)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s %s: no %q in\n%s", tc.scenario, tc.app, w, out)
			}
		}
		jcode, js, _ := run("why", tc.app, "--server", srv.URL, "-o", "json")
		var v struct {
			Answer string
			Holds  []struct {
				Who, Limit, Queue string
				Used, Max, Need   int64
				SetBy             *struct{ Position string }
			}
		}
		if err := json.Unmarshal([]byte(js), &v); err != nil || jcode != code {
			t.Errorf("%s %s: JSON exit %d: %v\n%s", tc.scenario, tc.app, jcode, err, js)
		}
		for _, h := range v.Holds {
			if h.SetBy == nil || !strings.Contains(h.SetBy.Position, "/ws/v1/config:") || h.Used+h.Need <= h.Max {
				t.Errorf("%s %s: a hold without its entry, or one that does not hold: %+v", tc.scenario, tc.app, h)
			}
		}
		if md, _ := runOut("why", tc.app, "--server", srv.URL, "-o", "markdown"); !strings.HasPrefix(md, "**") {
			t.Errorf("%s %s: markdown\n%s", tc.scenario, tc.app, md)
		}
	}
	srv := recorded(t, "users-groups-queue", 1)
	if code, out, errOut := run("why", "nosuch-app", "--server", srv.URL); code != 2 || out != "" || !strings.Contains(errOut, `has no application "nosuch-app" in partition default`) {
		t.Errorf("an unknown application: exit %d\n%s%s", code, out, errOut)
	}
}

// runOut is run's standard output and exit code.
func runOut(args ...string) (string, int) {
	code, out, _ := run(args...)
	return out, code
}

// TestWhyWithTheFile: with -f, each limit is also found in the file in
// git, and a file that sets another figure than the scheduler applies is
// said to be not what runs.
func TestWhyWithTheFile(t *testing.T) {
	srv := recorded(t, "users-groups-queue", 1)
	cfg := filepath.Join(whyFixtures, "users-groups-queue", "config.yaml")
	code, out, errOut := run("why", "alice-3", "--server", srv.URL, "-f", cfg)
	if code != 1 || !strings.Contains(out, `in your file: limit "alice" for user alice on root.analytics (`+cfg+":16:34)") {
		t.Errorf("the file's position: exit %d\n%s%s", code, out, errOut)
	}
	text, _ := os.ReadFile(cfg)
	changed := filepath.Join(t.TempDir(), "queues.yaml")
	os.WriteFile(changed, []byte(strings.Replace(string(text), "users: [alice]\n                maxapplications: 2", "users: [alice]\n                maxapplications: 3", 1)), 0o644)
	if _, out, _ := run("why", "alice-3", "--server", srv.URL, "-f", changed); !strings.Contains(out, "which sets 3 where the scheduler applies 2: the file is not what runs") {
		t.Errorf("a file with another figure:\n%s", out)
	}
}

// TestWhyFailures: no answer is ever made up: a scheduler that cannot be
// reached, an answer that is not YuniKorn's, an unknown partition, and a
// missing --server are exit 2 with nothing on standard output.
func TestWhyFailures(t *testing.T) {
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("<html>login</html>"))
	}))
	defer html.Close()
	notFound := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"status_code":404,"message":"Partition not found","description":"Partition not found"}`))
	}))
	defer notFound.Close()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"why", "a"}, "give its address with --server URL"},
		{[]string{"why", "a", "--server", "http://127.0.0.1:1"}, "cannot reach the scheduler"},
		{[]string{"why", "a", "--server", html.URL}, "not yunikorn-core's application"},
		{[]string{"why", "a", "--server", notFound.URL, "--partition", "gpu"}, `has no partition "gpu"`},
		{[]string{"why", "a", "b", "--server", notFound.URL}, "why needs the APP_ID"},
	} {
		code, out, errOut := run(tc.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, want 2 and %q\n%s%s", tc.args, code, tc.want, out, errOut)
		}
	}
}
