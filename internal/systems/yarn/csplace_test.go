package yarn

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/engine"
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
	sc := vectorLines(t, "place341.jsonl.gz")
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
		s := caseSetup(t, c.ID, c.Order, c.Files)
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
			if ref != nil && ref.Message == why {
				// and lint says so, with Hadoop's message
				linted := false
				for _, f := range lintBeside(t, c.Files) {
					linted = linted || f.Rule == rulePlacementRefused && strings.Contains(f.Message, fmt.Sprintf("%q", want))
				}
				if !linted {
					fail("case %s: Hadoop refuses with %q, lint does not say so", c.ID, want)
				}
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
			if d := placeAgrees(t, s, req, got); d != "" {
				fail("case %s question %d: %s", c.ID, i, d)
			}
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

// FuzzPlacement feeds the placement rules' readers (legacy queue-mappings,
// the JSON rules) and the placement itself arbitrary values over a tree with
// every kind of queue: no panic, and an application is either placed in a
// full path or rejected with a stage, or not known.
func FuzzPlacement(f *testing.F) {
	f.Add("u:%user:root.users.%user,g:eng:etl", "", "alice", "eng,ops", "")
	f.Add("", `{"rules":[{"type":"user","matches":"*","policy":"secondaryGroupUser","parentQueue":"root.users","fallbackResult":"placeDefault"}]}`, "e.f", "a.b,dev", "")
	f.Add("u:alice:a.", "", "alice", "", "root.eng")
	f.Add("", `{"rules":[{"type":"group","matches":"dev","policy":"custom","customPlacement":"%primary_group.%user","create":false}]}`, "bob", "dev", "etl")
	f.Fuzz(func(t *testing.T, mappings, rules, user, groups, queue string) {
		props := []string{
			CSPrefix + "root.queues", "users,eng,default,dyn",
			CSPrefix + "root.users.capacity", "25", CSPrefix + "root.eng.capacity", "25",
			CSPrefix + "root.default.capacity", "25", CSPrefix + "root.dyn.capacity", "25",
			CSPrefix + "root.users.auto-create-child-queue.enabled", "true",
			CSPrefix + "root.eng.queues", "etl", CSPrefix + "root.eng.etl.capacity", "100",
			CSPrefix + "root.dyn.auto-queue-creation-v2.enabled", "true",
			QueueMappingKey, mappings,
		}
		if rules != "" {
			props = append(props, ruleFormatKey, "json", ruleJSONKey, rules)
		}
		conf, err := ReadConf("capacity-scheduler.xml", []byte(csExample(props...)))
		if err != nil {
			return // a value XML cannot carry
		}
		site, _ := ReadConf("yarn-site.xml", []byte(`<configuration><property><name>yarn.acl.enable</name><value>true</value></property></configuration>`))
		s := NewSetup([]*Conf{site, conf})
		pl, ref := s.StartPlacement()
		if ref != nil || pl.Unknown != "" {
			return
		}
		got := s.PlaceCS(pl, PlaceRequest{User: user, Groups: strings.Split(groups, ","), Queue: queue, App: "app"})
		switch {
		case got.Unknown != "":
		case got.Placed && (got.Stage != "" || !strings.HasPrefix(got.Queue, "root.")):
			t.Fatalf("placed in %q with stage %q", got.Queue, got.Stage)
		case !got.Placed && got.Stage == "":
			t.Fatalf("rejected without a stage: %+v", got)
		}
	})
}

// TestPlacementNotKnown: where the answer rests on a value aclint cannot
// read as Hadoop does, placement says so instead of answering.
func TestPlacementNotKnown(t *testing.T) {
	base := []string{
		CSPrefix + "root.queues", "dyn,default",
		CSPrefix + "root.dyn.capacity", "50", CSPrefix + "root.default.capacity", "50",
	}
	for _, tc := range []struct {
		name  string
		props []string
		queue string
		want  string
	}{
		{"a ${...} in the auto creation flag", []string{CSPrefix + "root.dyn.auto-queue-creation-v2.enabled", "${auto.flag}"}, "root.dyn.new", "uses ${...}"},
		{"a depth getInt throws on", []string{CSPrefix + "root.dyn.auto-queue-creation-v2.enabled", "true", CSPrefix + "auto-queue-creation-v2.maximum-queue-depth", "two"}, "root.dyn.new", "Configuration.getInt"},
		{"rules in a JSON file", []string{ruleFormatKey, "json", ruleJSONFileKey, "/etc/hadoop/rules.json"}, "", "give it with -f"},
		{"an override flag with ${...}", []string{mappingOverrideKey, "${override}"}, "root.default", "uses ${...}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conf, err := ReadConf("capacity-scheduler.xml", []byte(csExample(append(append([]string{}, base...), tc.props...)...)))
			if err != nil {
				t.Fatal(err)
			}
			site, _ := ReadConf("yarn-site.xml", []byte(`<configuration><property><name>yarn.acl.enable</name><value>false</value></property></configuration>`))
			s := NewSetup([]*Conf{site, conf})
			pl, ref := s.StartPlacement()
			if ref != nil {
				t.Fatalf("refused: %s", ref.Message)
			}
			got := s.PlaceCS(pl, PlaceRequest{User: "alice", Queue: tc.queue})
			if got.Placed || got.Stage != "" || !strings.Contains(got.Unknown, tc.want) {
				t.Errorf("placed %v in %q, stage %q, unknown %q; want not known (%s)", got.Placed, got.Queue, got.Stage, got.Unknown, tc.want)
			}
		})
	}
}

// TestPlacementLintEveryTime: the rules run at once on one lint's state;
// the placement rules they share are read once for all of them, and every
// lint of a file whose rules the Capacity Scheduler refuses says so (a
// cache filled without a lock let a rule see it empty, now and then).
func TestPlacementLintEveryTime(t *testing.T) {
	cs := csExample(
		CSPrefix+"root.queues", "eng,default",
		CSPrefix+"root.eng.queues", "etl",
		QueueMappingKey, "u:%user:root.default,u:bob:root,g:eng:root.eng.etl")
	for i := 0; i < 300; i++ {
		rep, err := Sys{}.Lint(&engine.Input{Path: "capacity-scheduler.xml", Data: []byte(cs), Explicit: true}, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		refused, unreachable := false, false
		for _, f := range rep.Findings {
			refused = refused || f.Rule == rulePlacementRefused
			unreachable = unreachable || f.Rule == rulePlacementUnreachable
		}
		if !refused {
			t.Fatalf("lint %d: no %s in %v", i, rulePlacementRefused, rep.Findings)
		}
		if unreachable {
			t.Fatalf("lint %d: %s on rules the Capacity Scheduler refuses", i, rulePlacementUnreachable)
		}
	}
}
