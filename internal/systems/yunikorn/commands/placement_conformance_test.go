package commands_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// placementVector is one line of a placement conformance file: a config and
// applications with YuniKorn's placement of each on a fresh scheduler.
type placementVector struct {
	Config string `json:"config"`
	Valid  bool   `json:"valid"`
	Apps   []struct {
		Partition     string            `json:"partition"`
		User          string            `json:"user"`
		Groups        []string          `json:"groups"`
		Queue         string            `json:"queue"`
		Tags          map[string]string `json:"tags"`
		Expect        string            `json:"expect"`
		ExpectQueue   *string           `json:"expect_queue"`
		ExpectCreated bool              `json:"expect_created"`
	} `json:"apps"`
}

// TestPlacementConformance runs every placement vector through aclint place
// as testdata/conformance/README.md prescribes: exit 0 placed (in the
// expected queue, created or not as expected), 1 rejected, 2 error.
// ACLINT_PLACEMENT_CONFORMANCE adds more files (a glob).
func TestPlacementConformance(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	total := 0
	eachVector(t, "../../../../testdata/conformance/placement/*.jsonl", "ACLINT_PLACEMENT_CONFORMANCE", func(file string, n int, v *placementVector) {
		path := filepath.Join(dir, fmt.Sprintf("p%d.yaml", n))
		if err := os.WriteFile(path, []byte(v.Config), 0o644); err != nil {
			t.Fatal(err)
		}
		for i, a := range v.Apps {
			args := []string{"place", "-f", path, a.Partition, a.User, "-o", "json"}
			if len(a.Groups) > 0 {
				args = append(args, "--groups", strings.Join(a.Groups, ","))
			}
			if a.Queue != "" {
				args = append(args, "--queue", a.Queue)
			}
			var keys []string
			for k := range a.Tags {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				args = append(args, "--tag", k+"="+a.Tags[k])
			}
			want := map[string]int{"placed": 0, "rejected": 1, "error": 2}[a.Expect]
			code, out, errOut := run(args...)
			total++
			name := fmt.Sprintf("%s#%d app %d", filepath.Base(file), n, i)
			if code != want {
				t.Errorf("%s: %v: exit %d, want %d (%s)\n%s%s\nconfig:\n%s", name, args[3:], code, want, a.Expect, out, errOut, v.Config)
				continue
			}
			if a.Expect != "placed" {
				continue
			}
			var got struct {
				Queue   *string `json:"queue"`
				Created bool    `json:"created"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil || got.Queue == nil || a.ExpectQueue == nil {
				t.Errorf("%s: no queue in %s (%v)", name, out, err)
				continue
			}
			if *got.Queue != *a.ExpectQueue || got.Created != a.ExpectCreated {
				t.Errorf("%s: %v: placed in %s created=%v, want %s created=%v\n%s\nconfig:\n%s", name, args[3:], *got.Queue, got.Created, *a.ExpectQueue, a.ExpectCreated, out, v.Config)
			}
		}
	})
	t.Logf("%d placement verdicts checked", total)
}
