package yarn

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"
)

// placeCase is one case of testdata/harness/place341.jsonl.gz: files,
// questions, and what Hadoop 3.4.1's CSMappingPlacementRule (compiled from
// source) and the transcribed submission path answered.
type placeCase struct {
	ID        string            `json:"id"`
	Files     map[string]string `json:"files"`
	Order     []string          `json:"order"`
	Questions []struct {
		User   string   `json:"user"`
		Groups []string `json:"groups"`
		Queue  *string  `json:"queue"`
	} `json:"questions"`
	Hadoop struct {
		Refused *struct {
			Message string `json:"message"`
		} `json:"refused"`
		Answers []struct {
			Verdict string `json:"verdict"`
			Stage   string `json:"stage"`
			Queue   string `json:"queue"`
			Created bool   `json:"created"`
		} `json:"answers"`
	} `json:"hadoop"`
}

// TestPlacementVectors holds aclint's Capacity Scheduler placement to
// Hadoop's own: the same refusals at start (Hadoop's message), and for each
// application the same queue, creation and stage that rejects it.
func TestPlacementVectors(t *testing.T) {
	f, err := os.Open("testdata/harness/place341.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r io.Reader
	if r, err = gzip.NewReader(f); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	n, refused, placed, bad, unknown := 0, 0, 0, 0, 0
	stages := map[string]int{}
	fail := func(format string, args ...any) {
		if bad++; bad <= 15 {
			t.Errorf(format, args...)
		}
	}
	for sc.Scan() {
		var c placeCase
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
		if why == "" {
			if cr := s.CapacityRefused(); cr != nil {
				why = cr.String()
			}
		}
		pl, ref := s.StartPlacement()
		if why == "" && ref != nil {
			why = ref.Message
		}
		if c.Hadoop.Refused != nil {
			refused++
			want := strings.TrimPrefix(c.Hadoop.Refused.Message, "org.apache.hadoop.yarn.exceptions.YarnException: ")
			if !strings.Contains(why, want) {
				fail("case %s: Hadoop refuses with %q, aclint: %q", c.ID, want, why)
			}
			continue
		}
		if why != "" {
			fail("case %s: Hadoop starts, aclint refuses: %s", c.ID, why)
			continue
		}
		for i, q := range c.Questions {
			req := PlaceRequest{User: q.User, Groups: q.Groups, App: "app"}
			if q.Queue != nil {
				req.Queue = *q.Queue
			}
			got := s.PlaceCS(pl, req)
			want := c.Hadoop.Answers[i]
			if _, site := c.Files["yarn-site.xml"]; got.Unknown != "" && !site {
				unknown++ // without yarn-site.xml aclint does not know yarn.acl.enable, and says so
				continue
			}
			gv := "rejected"
			if got.Placed {
				gv = "placed"
				placed++
			}
			stages[want.Stage]++
			if got.Unknown != "" || gv != want.Verdict || got.Stage != want.Stage || got.Queue != want.Queue || got.Created != want.Created {
				fail("case %s question %d (%s %v queue %v): Hadoop %s %s %q created=%v; aclint %s %s %q created=%v unknown=%q steps=%+v", c.ID, i, q.User, q.Groups, req.Queue, want.Verdict, want.Stage, want.Queue, want.Created, gv, got.Stage, got.Queue, got.Created, got.Unknown, got.Steps)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d cases, %d refused at start, %d placements, stages %v, %d not known without yarn-site.xml, %d disagreements", n, refused, placed, stages, unknown, bad)
	if n < 2500 || refused < 500 || placed < 2000 {
		t.Errorf("the vectors shrank: %d cases, %d refused, %d placed", n, refused, placed)
	}
}
