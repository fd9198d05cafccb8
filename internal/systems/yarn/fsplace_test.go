package yarn

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
)

// TestFSPlacementVectors holds the Fair Scheduler's placement to Hadoop
// 3.4.1's own code (testdata/harness/fsplace341.jsonl.gz, from the
// harness's YarnFSPlace341): the files Hadoop refuses for their placement
// policy or queues, and for every application of the others the queue,
// whether it is created, and the stage that rejects it.
func TestFSPlacementVectors(t *testing.T) {
	sc := vectorLines(t, "fsplace341.jsonl.gz")
	n, refused, placed, created, bad := 0, 0, 0, 0, 0
	unknown := map[string]int{}
	violating := 0 // answers in trees whose policies keep Hadoop from creating queues
	stages := map[string]int{}
	fail := func(format string, args ...any) {
		bad++
		if bad <= 15 {
			t.Errorf(format, args...)
		}
	}
	for sc.Scan() {
		var c struct {
			ID        string            `json:"id"`
			Files     map[string]string `json:"files"`
			Questions []struct {
				User   string   `json:"user"`
				Groups []string `json:"groups"`
				Queue  *string  `json:"queue"`
			} `json:"questions"`
			Hadoop struct {
				Refused *struct {
					Message string `json:"message"`
				} `json:"refused"`
				PolicyViolation bool `json:"policyViolation"`
				Answers         []struct {
					Verdict, Queue, Stage, Message string
					Created                        bool
				} `json:"answers"`
			} `json:"hadoop"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		n++
		var ins []*engine.Input
		for _, name := range []string{"fair-scheduler.xml", "yarn-site.xml"} {
			if d, ok := c.Files[name]; ok {
				ins = append(ins, &engine.Input{Path: name, Data: []byte(d)})
			}
		}
		s, err := LoadSetup(ins)
		if c.Hadoop.Refused != nil {
			refused++
			if err == nil {
				fail("case %s: Hadoop refuses (%s), aclint loads it", c.ID, c.Hadoop.Refused.Message)
				continue
			}
			// aclint's reason for the file it refuses: the FSError lint reports
			_, ferr := ReadFS("fair-scheduler.xml", []byte(c.Files["fair-scheduler.xml"]))
			if ferr == nil || !strings.Contains(ferr.Error(), c.Hadoop.Refused.Message) {
				fail("case %s: Hadoop refuses with %q, aclint: %v", c.ID, c.Hadoop.Refused.Message, ferr)
			}
			continue
		}
		if err != nil {
			fail("case %s: Hadoop starts, aclint refuses: %v", c.ID, err)
			continue
		}
		for i, q := range c.Questions {
			req := PlaceRequest{User: q.User, Groups: q.Groups}
			if q.Queue != nil {
				req.Queue = *q.Queue
			}
			got := s.PlaceFS(req)
			if d := placeAgrees(t, s, req, got); d != "" {
				fail("case %s question %d: %s", c.ID, i, d)
			}
			want := c.Hadoop.Answers[i]
			_, site := c.Files["yarn-site.xml"]
			switch {
			case !site && s.CS.Placement == nil || !site && len(s.CS.Placement.Rules) == 0:
				if got.Unknown == "" {
					fail("case %s: the policy comes from yarn-site.xml, which is not given; aclint answers %+v", c.ID, got)
				}
				unknown["no yarn-site.xml"]++
				continue
			case want.Stage == "throws":
				if !strings.Contains(got.Unknown, "InvalidQueueNameException") {
					fail("case %s question %d: Hadoop throws %q, aclint %+v", c.ID, i, want.Message, got)
				}
				unknown["throws"]++
				continue
			}
			if c.Hadoop.PolicyViolation {
				violating++
			}
			gv := "rejected"
			if got.Placed {
				gv, placed = "placed", placed+1
			}
			if got.Created {
				created++
			}
			stages[want.Stage]++
			if got.Unknown != "" || gv != want.Verdict || got.Stage != want.Stage || got.Queue != want.Queue || got.Created != want.Created {
				fail("case %s question %d (%s %v queue %v): Hadoop %s %s %q created=%v (%s); aclint %s %s %q created=%v unknown=%q reason=%q steps=%+v",
					c.ID, i, q.User, q.Groups, req.Queue, want.Verdict, want.Stage, want.Queue, want.Created, want.Message, gv, got.Stage, got.Queue, got.Created, got.Unknown, got.Reason, got.Steps)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d cases, %d refused, %d placed (%d created), rejections by stage %v, not known %v, %d in trees whose scheduling policies keep queues from being created, %d disagreements", n, refused, placed, created, stages, unknown, violating, bad)
	if n < 2500 || refused < 500 || placed < 3000 || created < 1500 || stages["acl"] < 500 || violating < 1000 {
		t.Errorf("the vectors shrank: %d cases, %d refused, %d placed, %d created, stages %v", n, refused, placed, created, stages)
	}
}

// placeAgrees asks the same question through the capability the command
// line uses (audit.Placer): the neutral answer must say what the model
// said, and building it must not fail.
func placeAgrees(t *testing.T, s *Setup, req PlaceRequest, got *Placement) string {
	t.Helper()
	s.appName, s.appNameGiven = req.App, true
	q := audit.Question{Words: []string{req.User}, Groups: req.Groups, Queue: req.Queue}
	if q.Groups == nil {
		q.Groups = []string{}
	}
	a, err := Sys{}.Place(s, q)
	switch {
	case err != nil:
		return err.Error()
	case a.Placed != got.Placed || a.Queue != got.Queue || a.Created != got.Created || a.Unknown != got.Unknown:
		return fmt.Sprintf("place answers %s %q created=%v unknown=%q", a.Answer, a.Queue, a.Created, a.Unknown)
	case a.Placed && a.Submit == nil && got.ACL != nil:
		return "placed without the submit check it made"
	case !a.Placed && a.Unknown == "" && a.Reason == "":
		return "rejected without a reason"
	}
	return ""
}
