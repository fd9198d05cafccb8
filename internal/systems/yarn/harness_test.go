package yarn

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// harnessCase is one case of testdata/yarn/harness/hadoop341.jsonl: the
// files (given to aclint in "order"), the questions, and what Hadoop
// 3.4.1's own Configuration, AccessControlList and ConfiguredYarnAuthorizer
// answered, with the Capacity Scheduler's loading transcribed (the harness
// in ../shared/hadoop-yarn; testdata/yarn/harness/README.md).
type harnessCase struct {
	ID        string            `json:"id"`
	Files     map[string]string `json:"files"`
	Order     []string          `json:"order"`
	Questions []struct {
		Queue, User, Kind string
		Groups            []string
	} `json:"questions"`
	Hadoop struct {
		Refused *struct {
			Message string `json:"message"`
		} `json:"refused"`
		ACLEnable bool `json:"aclEnable"`
		Answers   []struct {
			Verdict string `json:"verdict"`
		} `json:"answers"`
	} `json:"hadoop"`
}

// TestHarnessVectors holds aclint to Hadoop on generated configurations:
// the same refusals with Hadoop's message (capacities that do not add up,
// out of range, unreadable), yarn.acl.enable read in the ResourceManager's
// order whatever order the files are given in, and the same verdicts.
func TestHarnessVectors(t *testing.T) {
	f, err := os.Open("../../../testdata/yarn/harness/hadoop341.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	n, refused, questions, bad := 0, 0, 0, 0
	fail := func(format string, args ...any) {
		if bad++; bad <= 10 {
			t.Errorf(format, args...)
		}
	}
	for sc.Scan() {
		var c harnessCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		n++
		var confs []*Conf
		for _, name := range c.Order {
			conf, err := ReadConf(name, []byte(c.Files[name]))
			if err != nil {
				t.Fatalf("case %s: %s: %v", c.ID, name, err)
			}
			confs = append(confs, conf)
		}
		s := NewSetup(confs)
		why := s.Refused()
		if c.Hadoop.Refused != nil {
			refused++
			want := c.Hadoop.Refused.Message
			if want == "Queue configuration missing child queue names for root" {
				if why != NoQueuesReason {
					fail("case %s: Hadoop refuses (%s), aclint: %q", c.ID, want, why)
				}
				continue
			}
			if !strings.HasPrefix(why, CapacityPrefix+"\""+want+"\"") {
				fail("case %s: Hadoop refuses with %q, aclint says %q", c.ID, want, why)
			}
			// and lint says so, with Hadoop's message
			cs, _ := ReadConf("capacity-scheduler.xml", []byte(c.Files["capacity-scheduler.xml"]))
			linted := false
			for _, f := range Lint(cs, "") {
				linted = linted || f.Rule == ruleCapacityRefused && strings.Contains(f.Message, fmt.Sprintf("%q", want))
			}
			if !linted {
				fail("case %s: Hadoop refuses with %q, lint does not say so", c.ID, want)
			}
			continue
		}
		if why != "" {
			fail("case %s: Hadoop starts, aclint refuses: %s", c.ID, why)
			continue
		}
		if s.ACLEnable != c.Hadoop.ACLEnable {
			fail("case %s (files in the order %v): yarn.acl.enable is %v for Hadoop, %v for aclint", c.ID, c.Order, c.Hadoop.ACLEnable, s.ACLEnable)
		}
		for i, q := range c.Questions {
			questions++
			queue, err := s.FindQueue(q.Queue)
			if err != nil {
				fail("case %s: %s: %v", c.ID, q.Queue, err)
				continue
			}
			a := Submit
			if q.Kind == "admin" {
				a = Administer
			}
			ans := s.Check(queue, q.User, q.Groups, a)
			got := "denied"
			if ans.Allowed {
				got = "allowed"
			}
			if _, site := c.Files["yarn-site.xml"]; !ans.Known && !site {
				continue // without yarn-site.xml aclint does not know yarn.acl.enable, and says so
			}
			if want := c.Hadoop.Answers[i].Verdict; !ans.Known || got != want {
				fail("case %s: %s %s %s %v: Hadoop %s, aclint %s (known %v: %s)", c.ID, q.Kind, q.Queue, q.User, q.Groups, want, got, ans.Known, ans.Why)
			}
		}
	}
	t.Logf("%d configurations (%d refused by Hadoop), %d questions", n, refused, questions)
	if n < 1000 || refused < 300 || questions < 500 {
		t.Errorf("too few vectors: %d cases, %d refused, %d questions", n, refused, questions)
	}
	if bad > 0 {
		t.Errorf("%d disagreements", bad)
	}
}
