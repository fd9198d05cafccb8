package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestZZWhyDiff(t *testing.T) {
	root := os.Getenv("WHY_DIFF")
	if root == "" {
		t.Skip()
	}
	scs, _ := filepath.Glob(filepath.Join(root, "s*"))
	agree, total := 0, 0
	kinds := map[string]int{}
	for _, sc := range scs {
		files, _ := filepath.Glob(filepath.Join(sc, "rest", "1", "partition_default_application_app-*"))
		if len(files) == 0 {
			t.Logf("%s: nothing recorded", sc)
			continue
		}
		srv := recordedAt(t, filepath.Join(sc, "rest", "1"))
		for _, f := range files {
			if strings.HasSuffix(f, ".status") {
				continue
			}
			b, _ := os.ReadFile(f)
			var app struct {
				ID    string `json:"applicationID"`
				State string `json:"applicationState"`
			}
			json.Unmarshal(b, &app)
			total++
			code, out, errOut := run("why", app.ID, "--server", srv.URL, "-o", "json")
			var v struct {
				Answer string
				Holds  []struct{ Who, Limit string }
				Event  *struct{ Detail int }
			}
			json.Unmarshal([]byte(out), &v)
			ok := true
			switch app.State {
			case "Running":
				ok = v.Answer == "running" && code == 0
			case "Accepted":
				ok = v.Answer == "waiting" && code == 1 && len(v.Holds) > 0
				if ok && v.Event != nil {
					q, u := false, false
					for _, h := range v.Holds {
						if h.Limit == "maxapplications" {
							if h.Who == "queue" {
								q = true
							} else {
								u = true
							}
						}
					}
					switch v.Event.Detail {
					case 213:
						ok = q
					case 215:
						ok = u
					}
				}
			default:
				ok = false
			}
			for _, h := range v.Holds {
				kinds[h.Who+" "+h.Limit]++
			}
			if ok {
				agree++
			} else {
				t.Errorf("%s %s: core %s, aclint exit %d\n%s%s", sc, app.ID, app.State, code, out, errOut)
			}
		}
	}
	fmt.Printf("agree %d of %d; holds %v\n", agree, total, kinds)
}
