package commands_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestLimitsLive: limits --server counts each figure against what runs
// now, from the scheduler's own usage.
func TestLimitsLive(t *testing.T) {
	srv := recorded(t, "users-groups-queue", 1)
	code, out, errOut := run("limits", "--server", srv.URL, "default", "root.analytics", "alice", "--groups", "analysts")
	for _, w := range []string{"live, from the scheduler at " + srv.URL + ":", "alice: 2 of 2 running in root.analytics (alice-1, alice-2), 0 more",
		"queue root.analytics: 3 of 4 running, 1 more", "queue root.analytics: memory 3000 allocated of 100000, 97000 more"} {
		if code != 0 || !strings.Contains(out, w) {
			t.Errorf("no %q (exit %d) in\n%s%s", w, code, out, errOut)
		}
	}
	code, out, errOut = run("limits", "--server", srv.URL, "default", "root.analytics", "bob", "--groups", "data-eng,analysts")
	for _, w := range []string{"bob: 1 of 3 running in root.analytics (bob-1), 2 more", "group data-eng: 1 of 1 running in root.analytics (bob-1), 0 more",
		"group data-eng: memory 1000 used of 4000 in root.analytics, 3000 more"} {
		if code != 0 || !strings.Contains(out, w) {
			t.Errorf("no %q (exit %d) in\n%s%s", w, code, out, errOut)
		}
	}
	_, js, _ := run("limits", "--server", srv.URL, "default", "root.analytics", "alice", "--groups", "analysts", "-o", "json")
	var v struct {
		Live []struct {
			Who, Limit string
			Used, Max  int64
			Running    []string
		}
		Source string
	}
	if err := json.Unmarshal([]byte(js), &v); err != nil || len(v.Live) == 0 || v.Source != srv.URL {
		t.Fatalf("%v\n%s", err, js)
	}
	if l := v.Live[0]; l.Who != "user" || l.Used != 2 || l.Max != 2 || len(l.Running) != 2 {
		t.Errorf("%+v", l)
	}
}

// TestLimitsLiveListsRunningOnce: a user's running applications are listed
// once, under the maxapplications count, not again under each of the
// level's resource limits: 400 limits and 40,000 running applications stay
// a few megabytes of JSON (332 MB before).
func TestLimitsLiveListsRunningOnce(t *testing.T) {
	var res, usage strings.Builder
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&res, "r%d: 1000000, ", i)
		fmt.Fprintf(&usage, `"r%d":1,`, i)
	}
	cfg := "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n        queues:\n          - name: q\n            limits:\n" +
		"              - limit: big\n                users: [alice]\n                maxapplications: 50000\n                maxresources: {" + strings.TrimSuffix(res.String(), ", ") + "}\n" +
		"checksum: " + strings.Repeat("AB", 32) + "\ndeadlockdetectionenabled: false\ndeadlocktimeoutseconds: 60\n"
	apps := make([]string, 40000)
	for i := range apps {
		apps[i] = fmt.Sprintf("%q", fmt.Sprintf("app-%05d", i))
	}
	list := "[" + strings.Join(apps, ",") + "]"
	user := `{"userName":"alice","queues":{"queuePath":"root","resourceUsage":{` + strings.TrimSuffix(usage.String(), ",") + `},"runningApplications":` + list +
		`,"children":[{"queuePath":"root.q","resourceUsage":{` + strings.TrimSuffix(usage.String(), ",") + `},"runningApplications":` + list + `,"maxApplications":50000}]}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ws/v1/config":
			w.Header().Set("Content-Type", "application/x-yaml")
			w.Write([]byte(cfg))
		case "/ws/v1/partition/default/usage/user/alice":
			w.Write([]byte(user))
		case "/ws/v1/partition/default/queues":
			w.Write([]byte(`{"queuename":"root","children":[{"queuename":"root.q","parent":"root"}]}`))
		default:
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"status_code":404,"message":"not found"}`))
		}
	}))
	defer srv.Close()
	code, out, errOut := run("limits", "--server", srv.URL, "default", "root.q", "alice", "-o", "json")
	if code != 0 || !strings.Contains(out, `"app-39999"`) {
		t.Fatalf("exit %d\n%.2000s%s", code, out, errOut)
	}
	if n := strings.Count(out, `"app-12345"`); n != 1 || len(out) > 4<<20 {
		t.Errorf("app-12345 listed %d times in %d bytes", n, len(out))
	}
}
