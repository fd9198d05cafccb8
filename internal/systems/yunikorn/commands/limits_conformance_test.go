package commands_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// limitVector is one line of testdata/conformance/limits: a config
// YuniKorn accepts, one application (partition, the queue it lands in, user,
// groups, tags) and what yunikorn-core's user and group manager and queues
// allow it: the applications CanRunApp lets run before it refuses, the
// component-wise minimum of Headroom and the queue's max, and the group
// the manager tracks it under (see DIFFERENTIAL.md). "why" says what made
// the case interesting: limits an earlier partition left behind, a
// partition that is not the last, the wildcard group, upper-case paths,
// dynamic queues with namespace tags, the order of the user's groups.
type limitVector struct {
	ID        string            `json:"id"`
	Why       string            `json:"why"`
	Config    string            `json:"config"`
	Partition string            `json:"partition"`
	Queue     string            `json:"queue"`
	User      string            `json:"user"`
	Groups    []string          `json:"groups"`
	Tags      map[string]string `json:"tags"`
	Expect    struct {
		MaxApplications *uint64          `json:"maxApplications"`
		MaxResources    map[string]int64 `json:"maxResources"`
		TrackedGroup    *string          `json:"trackedGroup"`
	} `json:"expect"`
}

// TestLimitsConformance holds aclint limits to yunikorn-core's answers.
func TestLimitsConformance(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	total := 0
	eachVector(t, "../../../../testdata/conformance/limits/*.jsonl", "ACLINT_LIMITS_CONFORMANCE", func(file string, n int, v *limitVector) {
		total++
		path := filepath.Join(dir, fmt.Sprintf("l%d.yaml", n))
		if err := os.WriteFile(path, []byte(v.Config), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"limits", "-o", "json", "-f", path, v.Partition, v.Queue, v.User, "--groups", strings.Join(v.Groups, ",")}
		code, out, errOut := run(append(args, tagArgs(v.Tags)...)...)
		if code != 0 {
			t.Errorf("%s (%s): exit %d: %s", v.ID, v.Why, code, errOut)
			return
		}
		var got struct {
			MaxApplications *uint64          `json:"maxApplications"`
			MaxResources    map[string]int64 `json:"maxResources"`
			TrackedGroup    *string          `json:"trackedGroup"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: %v", v.ID, err)
		}
		if !reflect.DeepEqual(got, v.Expect) {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(v.Expect)
			t.Errorf("%s (%s): aclint limits %s\n got  %s\n want %s (yunikorn-core)", v.ID, v.Why, strings.Join(args, " "), g, w)
		}
	})
	if total == 0 {
		t.Fatal("no limit vectors")
	}
}
