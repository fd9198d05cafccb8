package convert

import (
	"encoding/json"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/systems/yarn"
)

func realisticSetup(t *testing.T) *yarn.Setup {
	t.Helper()
	b, err := os.ReadFile("testdata/realistic/capacity-scheduler.xml")
	if err != nil {
		t.Fatal(err)
	}
	return aclsOnSetup(t, string(b))
}

// TestCausesOfARealisticMigration: issue 55's setup converts with tens of
// thousands of differences, all of them by design; each comes back with
// the cause that explains it, and each cause's example shows that cause.
func TestCausesOfARealisticMigration(t *testing.T) {
	res, err := FromYARN(realisticSetup(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, d := range res.Differences {
		if d.Cause != causeNoGroups || !strings.HasSuffix(d.Principal, "with no groups") {
			t.Errorf("access difference %s: cause %s", d, d.Cause)
		}
		seen[d.Cause]++
	}
	holds := map[string]func(PlaceDifference) bool{
		causeNoGroups:     func(d PlaceDifference) bool { return d.Groups == nil },
		causeDefaultQueue: func(d PlaceDifference) bool { return d.Requested == "default" },
		causeUnknownQueue: func(d PlaceDifference) bool { return strings.Contains(d.YARN, "submitted to unknown queue") },
		causeParentQueue:  func(d PlaceDifference) bool { return strings.Contains(d.YARN, "non-leaf queue") },
		causeACLRejects:   func(d PlaceDifference) bool { return strings.Contains(d.YARN, "does not have permission") },
		causeFallsBack:    func(d PlaceDifference) bool { return d.YARN == "places it in root.default" },
		causeShortName:    func(d PlaceDifference) bool { return !strings.HasPrefix(d.Requested, "root.") && d.Requested != "" },
		causeCreatesAsked: func(d PlaceDifference) bool {
			return d.Requested != "" && strings.HasPrefix(d.YARN, "places it in "+d.Requested)
		},
		causeGroupFilter:   func(d PlaceDifference) bool { return len(d.Groups) > 1 },
		causePlacedOtherly: func(PlaceDifference) bool { return false },
	}
	apps := 0
	for _, d := range res.Placement {
		if ok := holds[d.Cause]; ok == nil || !ok(d) {
			t.Errorf("placed differently: %s: cause %s does not fit", d, d.Cause)
		}
		seen[d.Cause] += d.Like
		apps += d.Like
	}
	var got []string
	for c := range seen {
		got = append(got, c)
	}
	sort.Strings(got)
	want := []string{causeDefaultQueue, causeFallsBack, causeCreatesAsked, causeNoGroups, causeShortName, causeACLRejects, causeParentQueue, causeUnknownQueue}
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("causes %v, want %v", got, want)
	}
	if apps != 63315 || len(res.Differences) != 24 {
		t.Errorf("%d applications and %d access answers differ, want 63315 and 24 (the causes group them, they do not drop any)", apps, len(res.Differences))
	}
}

// TestAcceptingEveryCause: with each cause accepted the conversion is
// accepted; without one, it is not, and only that cause is unaccepted.
func TestAcceptingEveryCause(t *testing.T) {
	file := "accepted:\n"
	for _, c := range []string{causeNoGroups, causeDefaultQueue, causeUnknownQueue, causeParentQueue, causeACLRejects, causeFallsBack, causeCreatesAsked, causeShortName} {
		file += "  - cause: " + c + "\n    reason: by design\n"
	}
	a, err := ParseAccepted("accepted.yaml", []byte(file))
	if err != nil {
		t.Fatal(err)
	}
	res, err := FromYARN(realisticSetup(t), Options{Accepted: a})
	if err != nil {
		t.Fatal(err)
	}
	if !res.AllAccepted() || len(a.Unused()) != 0 {
		t.Errorf("all accepted %v, unused %d", res.AllAccepted(), len(a.Unused()))
	}
	a.Entries = slices.DeleteFunc(a.Entries, func(e *AcceptEntry) bool { return e.Cause == causeShortName })
	res, err = FromYARN(realisticSetup(t), Options{Accepted: a})
	if err != nil {
		t.Fatal(err)
	}
	if res.AllAccepted() {
		t.Fatal("short-queue-name is not accepted, yet everything is")
	}
	for _, d := range res.Placement {
		if (d.Accepted == nil) != (d.Cause == causeShortName) {
			t.Errorf("%s (cause %s): accepted %v", d, d.Cause, d.Accepted != nil)
		}
	}
}

// TestCauseIDsInSchema: the JSON schema lists the causes convert gives.
func TestCauseIDsInSchema(t *testing.T) {
	b, err := os.ReadFile("../../../schema/convert.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		Properties struct {
			Access struct {
				Items struct {
					Properties struct {
						Cause struct {
							Enum []string `json:"enum"`
						} `json:"cause"`
					} `json:"properties"`
				} `json:"items"`
			} `json:"access"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if got := s.Properties.Access.Items.Properties.Cause.Enum; !slices.Equal(got, causeIDs()) {
		t.Errorf("schema causes %v, convert's %v", got, causeIDs())
	}
}

// TestCausesDocumented: docs/migration.md's table of causes is the causes'
// own metadata, one row each, in order.
func TestCausesDocumented(t *testing.T) {
	b, err := os.ReadFile("../../../docs/migration.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, c := range Causes() {
		row := "| `" + c.ID + "` | " + c.Summary
		if c.Fix != "" {
			row += "; to change it: " + c.Fix
		}
		rows = append(rows, row+" |")
	}
	want := "| cause | what each system does |\n|---|---|\n" + strings.Join(rows, "\n") + "\n"
	if !strings.Contains(string(b), want) {
		t.Errorf("docs/migration.md's table of causes is not Causes(); write:\n%s", want)
	}
}
