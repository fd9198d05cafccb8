package yarn

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/engine"
)

// harnessCase is one case of testdata/harness/hadoop341.jsonl: the
// files (given to aclint in "order"), the questions, and what Hadoop
// 3.4.1's own Configuration, AccessControlList and ConfiguredYarnAuthorizer
// answered, with the Capacity Scheduler's loading transcribed (the harness
// in ../shared/hadoop-yarn; testdata/harness/README.md).
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
	for _, tc := range []struct {
		file                      string
		cases, refused, questions int
	}{
		{"hadoop341.jsonl", 1000, 300, 500},
		// round five: queues listed twice, ${...} chains, deep trees, queue states
		{"hadoop341-round5.jsonl.gz", 1200, 500, 1500},
	} {
		t.Run(tc.file, func(t *testing.T) { harnessVectors(t, tc.file, tc.cases, tc.refused, tc.questions) })
	}
}

func harnessVectors(t *testing.T, file string, minCases, minRefused, minQuestions int) {
	sc := vectorLines(t, file)
	n, refused, questions, bad, unknown := 0, 0, 0, 0, 0
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
		s := caseSetup(t, c.ID, c.Order, c.Files)
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
			subst := strings.HasPrefix(want, "Variable substitution depth too large")
			switch {
			case subst && !strings.HasPrefix(why, SubstitutionPrefix+fmt.Sprintf("Configuration.get throws %q", want)):
				fail("case %s: Hadoop refuses with %q, aclint says %q", c.ID, want, why)
			case !subst && !strings.HasPrefix(why, CapacityPrefix+"\""+want+"\""):
				fail("case %s: Hadoop refuses with %q, aclint says %q", c.ID, want, why)
			}
			// and lint says so, with Hadoop's message, in the file that
			// holds the value (a chain may start in yarn-site.xml)
			linted := false
			for _, f := range lintBeside(t, c.Files) {
				linted = linted || (f.Rule == ruleCapacityRefused || f.Rule == ruleSubstitutionTooDeep) && strings.Contains(f.Message, fmt.Sprintf("%q", want))
			}
			if !linted {
				fail("case %s: Hadoop refuses with %q, lint does not say so", c.ID, want)
			}
			continue
		}
		if strings.Contains(why, "past what aclint reads") {
			unknown++ // a tree deeper than aclint reads: no answer, and it says so
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
			switch {
			case ans.Allowed:
				got = "allowed"
			case ans.Stopped != "":
				got = "stopped" // the ACLs let it through, the STOPPED queue refuses it
			}
			if _, site := c.Files["yarn-site.xml"]; !ans.Known && !site {
				continue // without yarn-site.xml aclint does not know yarn.acl.enable, and says so
			}
			if want := c.Hadoop.Answers[i].Verdict; !ans.Known || got != want {
				fail("case %s: %s %s %s %v: Hadoop %s, aclint %s (known %v: %s)", c.ID, q.Kind, q.Queue, q.User, q.Groups, want, got, ans.Known, ans.Why)
			}
		}
	}
	t.Logf("%d configurations (%d refused by Hadoop, %d too deep for aclint to answer), %d questions", n, refused, unknown, questions)
	if unknown*20 > n {
		t.Errorf("%d of %d cases unanswered", unknown, n)
	}
	if n < minCases || refused < minRefused || questions < minQuestions {
		t.Errorf("too few vectors: %d cases, %d refused, %d questions", n, refused, questions)
	}
	if bad > 0 {
		t.Errorf("%d disagreements", bad)
	}
}

// lintBeside lints capacity-scheduler.xml as aclint lint does, with the
// case's other files beside it on disk (the yarn-site.xml it reads).
func lintBeside(t *testing.T, files map[string]string) []engine.Finding {
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "capacity-scheduler.xml")
	conf, err := ReadConf(path, []byte(files["capacity-scheduler.xml"]))
	if err != nil {
		t.Fatal(err)
	}
	return Lint(conf, path)
}

// vectorLines reads a file of testdata/harness, gzipped or not, a JSON
// case a line; the file is closed when the test ends.
func vectorLines(t *testing.T, file string) *bufio.Scanner {
	f, err := os.Open("testdata/harness/" + file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	var r io.Reader = f
	if strings.HasSuffix(file, ".gz") {
		if r, err = gzip.NewReader(f); err != nil {
			t.Fatal(err)
		}
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	return sc
}

// caseSetup reads a case's files in the order given and merges them as the
// ResourceManager does.
func caseSetup(t *testing.T, id string, order []string, files map[string]string) *Setup {
	var confs []*Conf
	for _, name := range order {
		conf, err := ReadConf(name, []byte(files[name]))
		if err != nil {
			t.Fatalf("case %s: %s: %v", id, name, err)
		}
		confs = append(confs, conf)
	}
	return NewSetup(confs)
}
