package commands_test

import (
	"encoding/json"
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
