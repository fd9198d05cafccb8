package convert

import (
	"fmt"
	"math/rand"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aclint/aclint/internal/budget"
	"github.com/aclint/aclint/internal/systems/yarn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// everyQuestion asks every subject on every queue, for both actions: the
// exhaustive proof that candidates must agree with.
func everyQuestion(s *yarn.Setup, cfg *config.Config, users, groups, bare, lost map[string]bool, _ func(string, bool, yarn.Action) bool) []candidate {
	var paths []string
	for p := range s.CS.ByPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var out []candidate
	for i, p := range paths {
		conv := inConverted(cfg, p)
		if !conv && !lost[p] {
			continue
		}
		for _, a := range []yarn.Action{yarn.Submit, yarn.Administer} {
			c := candidate{path: p, order: i, action: a, converted: conv}
			for _, cat := range []struct {
				cat   int
				names map[string]bool
			}{{catUser, users}, {catGroup, groups}, {catBare, bare}} {
				var names []string
				for n := range cat.names {
					names = append(names, n)
				}
				sort.Strings(names)
				for _, n := range names {
					if cat.cat == catBare && !acl.IsUserName(n) {
						continue
					}
					c.who = subject{cat.cat, n}
					out = append(out, c)
				}
			}
			c.who = subject{catEveryone, ""}
			out = append(out, c)
		}
	}
	return out
}

// TestCandidatesAgreeWithEveryQuestion: asking only where a subject can
// answer otherwise than everyone else finds exactly the differences that
// asking everyone everywhere finds, in the same order: on generated YARN
// trees, converted as they are and with the converted ACLs changed at
// random (names added, removed, swapped for names YuniKorn drops, queues
// opened to everyone or closed), so that there are differences to find.
func TestCandidatesAgreeWithEveryQuestion(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	n := 1500
	if testing.Short() {
		n = 400
	}
	names := []string{"alice", "bob", "dev", "ops", "sys:acct", "data.eng", "*", "carol", "admins"}
	found := 0
	for i := 0; i < n; i++ {
		text := genCS(r)
		s := aclsOnSetup(t, text)
		res, err := FromYARN(s, Options{})
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		yaml := string(res.YAML)
		// change some converted ACL values
		lines := strings.Split(yaml, "\n")
		for j, l := range lines {
			k := strings.Index(l, "acl: ")
			if k < 0 || r.Intn(3) != 0 {
				continue
			}
			v := names[r.Intn(len(names))]
			if r.Intn(2) == 0 {
				v += "," + names[r.Intn(len(names))]
			}
			if r.Intn(2) == 0 {
				v += " " + names[r.Intn(len(names))]
			}
			lines[j] = l[:k+5] + "\"" + v + "\""
		}
		changed := []byte(strings.Join(lines, "\n"))
		fast, err1 := compareWith(s, decoded(changed), res.dropped, nil, candidates)
		all, err2 := compareWith(s, decoded(changed), res.dropped, nil, everyQuestion)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("errors differ: %v, %v", err1, err2)
		}
		if err1 != nil {
			continue // the changed config is one YuniKorn refuses
		}
		found += len(all)
		if !reflect.DeepEqual(fast, all) {
			got := map[string]bool{}
			for _, d := range fast {
				got[d.String()] = true
			}
			for _, d := range all {
				if !got[d.String()] {
					t.Errorf("missed: %s", d)
				}
			}
			t.Fatalf("candidates found %d differences, every question %d:\n%v\n%v\nYARN:\n%s\nYuniKorn:\n%s", len(fast), len(all), fast, all, text, changed)
		}
	}
	if found < n {
		t.Errorf("only %d differences in %d configs: the test finds too little to compare", found, n)
	}
	t.Logf("%d configs, %d differences, the same both ways", n, found)
}

// aclsOnSetup is a generated capacity-scheduler.xml with a yarn-site.xml
// that turns ACLs on.
func aclsOnSetup(t *testing.T, text string) *yarn.Setup {
	t.Helper()
	cs, err := yarn.ReadConf("cs.xml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	site, _ := yarn.ReadConf("yarn-site.xml", []byte("<configuration><property><name>yarn.acl.enable</name><value>true</value></property></configuration>"))
	return yarn.NewSetup([]*yarn.Conf{cs, site})
}

// TestConvertLinear: the proof's work grows with queues plus names, not
// with their product (asking every name on every queue took 40 s for 400
// queues of 300 names). Four times the queues and four times the names
// cost at most 4.5 times the CPU (budget.Limit: twice that in make test,
// 4.5 with ACLINT_STRICT_BUDGET=1): on a flat tree of leaves, and on the
// setup of issue 54 (finals in core-site.xml and yarn-site.xml,
// yarn.acl.enable written ' true ', percentages under one parent and
// weights under another).
func TestConvertLinear(t *testing.T) {
	flat := func(queues, names int) *yarn.Setup {
		b, prop := csWithAdmins()
		var leaves []string
		for i := 0; i < queues; i++ {
			leaves = append(leaves, "q"+strconv.Itoa(i))
		}
		prop("root.queues", strings.Join(leaves, ","))
		r := rand.New(rand.NewSource(int64(queues)))
		for _, l := range leaves {
			var us []string
			for k := 0; k < 25; k++ { // each ACL the same size: the input grows with the queues
				us = append(us, "u"+strconv.Itoa(r.Intn(names)))
			}
			prop("root."+l+".acl_submit_applications", strings.Join(us, ",")+" g"+strconv.Itoa(r.Intn(names)))
		}
		b.WriteString("</configuration>\n")
		return aclsOnSetup(t, b.String())
	}
	for _, tc := range []struct {
		name string
		gen  func(queues, names int) *yarn.Setup
	}{{"flat", flat}, {"finals, ' true ', mixed capacities", func(q, n int) *yarn.Setup { return finalsSetup(t, q, n) }}} {
		small, large := tc.gen(100, 400), tc.gen(400, 1600)
		cost := func(s *yarn.Setup) time.Duration {
			return budget.Best(3, func() {
				if _, err := FromYARN(s, Options{}); err != nil {
					t.Fatal(err)
				}
			})
		}
		a, b := cost(small), cost(large)
		ratio := float64(b) / float64(max(a, time.Millisecond))
		t.Logf("%s: %v for 100 queues and 400 names, %v for 400 and 1,600: %.1fx", tc.name, a, b, ratio)
		if ratio > budget.Limit(4.5) && b > 300*time.Millisecond {
			t.Errorf("%s: four times the queues and names cost %.1f times the CPU (%v, %v): every name asked on every queue again?", tc.name, ratio, a, b)
		}
	}
}

// finalsSetup is issue 54's slow setup: a core-site.xml and a yarn-site.xml
// with final properties (yarn.acl.enable written ' true ', final in both),
// and a tree whose first half of parents give their leaves percentages and
// the other half weights, each leaf's ACL naming 25 of names users.
func finalsSetup(t *testing.T, queues, names int) *yarn.Setup {
	t.Helper()
	b, prop := csWithAdmins()
	parents := max(queues/10, 2)
	var ps []string
	for p := 0; p < parents; p++ {
		ps = append(ps, "p"+strconv.Itoa(p))
	}
	prop("root.queues", strings.Join(ps, ","))
	r := rand.New(rand.NewSource(int64(queues)))
	for i, p := range ps {
		prop("root."+p+".capacity", "1w")
		var leaves []string
		for j := 0; j < queues/parents; j++ {
			leaves = append(leaves, "q"+strconv.Itoa(j))
		}
		prop("root."+p+".queues", strings.Join(leaves, ","))
		for _, l := range leaves {
			if i%2 == 0 {
				prop("root."+p+"."+l+".capacity", strconv.FormatFloat(100/float64(len(leaves)), 'f', 4, 64))
			} else {
				prop("root."+p+"."+l+".capacity", "2w")
			}
			var us []string
			for k := 0; k < 25; k++ {
				us = append(us, "u"+strconv.Itoa(r.Intn(names)))
			}
			prop("root."+p+"."+l+".acl_submit_applications", strings.Join(us, ",")+" g"+strconv.Itoa(r.Intn(names)))
		}
	}
	b.WriteString("</configuration>\n")
	final := func(name, text string) *yarn.Conf {
		c, err := yarn.ReadConf(name, []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	core := final("core-site.xml", "<configuration><property><name>hadoop.security.authorization</name><value>true</value><final>true</final></property><property><name>yarn.acl.enable</name><value> true </value><final>true</final></property></configuration>")
	site := final("yarn-site.xml", "<configuration><property><name>yarn.acl.enable</name><value> true </value><final>true</final></property><property><name>yarn.admin.acl</name><value>admins</value><final>true</final></property></configuration>")
	cs := final("capacity-scheduler.xml", b.String())
	s := yarn.NewSetup([]*yarn.Conf{cs, site, core})
	if why := s.Refused(); why != "" || !s.ACLEnable {
		t.Fatalf("the setup does not start with ACLs on: %q (yarn.acl.enable %v)", why, s.ACLEnable)
	}
	return s
}

// TestPlacementProofScalesWithoutRules: with no rule that reacts to who
// asks, the placement proof asks one subject per way the ACLs on a
// request's path name it, not every named subject on every queue below
// its ACLs: 200 leaves whose ACLs name 400 of 4,000 users each (each user
// on some 20 leaves: 670,000 applications the other way, past the proof's
// bound) convert, proven, asking far fewer.
func TestPlacementProofScalesWithoutRules(t *testing.T) {
	b, prop := csWithAdmins()
	r := rand.New(rand.NewSource(3))
	var depts []string
	for d := 0; d < 20; d++ {
		depts = append(depts, "d"+strconv.Itoa(d))
	}
	prop("root.queues", strings.Join(depts, ","))
	for _, d := range depts {
		var leaves []string
		for l := 0; l < 10; l++ {
			leaves = append(leaves, "q"+strconv.Itoa(l))
		}
		prop("root."+d+".queues", strings.Join(leaves, ","))
		for _, l := range leaves {
			var us []string
			for k := 0; k < 400; k++ {
				us = append(us, "u"+strconv.Itoa(r.Intn(4000)))
			}
			prop("root."+d+"."+l+".acl_submit_applications", strings.Join(us, ",")+" g"+strconv.Itoa(r.Intn(400)))
		}
	}
	b.WriteString("</configuration>\n")
	res, err := FromYARN(aclsOnSetup(t, b.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d applications asked, %d placed differently", res.PlaceAsked, len(res.Placement))
	if res.PlaceAsked > maxPlaceQuestions/4 {
		t.Errorf("%d applications asked: every named subject on every queue below its ACLs?", res.PlaceAsked)
	}
}

// csWithAdmins starts a capacity-scheduler.xml whose root lets no one
// submit and the admins group administer; prop adds a property.
func csWithAdmins() (b *strings.Builder, prop func(k, v string)) {
	b = &strings.Builder{}
	b.WriteString("<configuration>\n")
	prop = func(k, v string) {
		b.WriteString("<property><name>yarn.scheduler.capacity." + k + "</name><value>" + v + "</value></property>\n")
	}
	prop("root.acl_submit_applications", " ")
	prop("root.acl_administer_queue", " admins")
	return b, prop
}

// TestProofScalesWithMappingsAndQueues: the placement proof's cost grows
// with the product of the questions and the rules a question passes, no
// more: YuniKorn's rules are built once per config (not per question: with
// N u: mappings that was N³, 216 mappings 82.6 s), a queue is found among
// its siblings by name, and the queues a short name may mean are indexed
// (with Q queues and no rules that was Q²: 16,000 queues 173 s).
func TestProofScalesWithMappingsAndQueues(t *testing.T) {
	gen := func(leaves, mappings int) *yarn.Setup {
		var b strings.Builder
		prop := func(n, v string) { fmt.Fprintf(&b, "<property><name>%s</name><value>%s</value></property>\n", n, v) }
		b.WriteString("<configuration>\n")
		var qs, ms []string
		for i := 0; i < leaves; i++ {
			qs = append(qs, "q"+strconv.Itoa(i))
			prop("yarn.scheduler.capacity.root.q"+strconv.Itoa(i)+".capacity", "1w")
		}
		prop("yarn.scheduler.capacity.root.queues", strings.Join(qs, ","))
		for i := 0; i < mappings; i++ {
			ms = append(ms, fmt.Sprintf("u:user%d:q%d", i, i%leaves))
		}
		if len(ms) > 0 {
			prop("yarn.scheduler.capacity.queue-mappings", strings.Join(ms, ","))
		}
		b.WriteString("</configuration>\n")
		return aclsOnSetup(t, b.String())
	}
	cost := func(s *yarn.Setup) time.Duration {
		return budget.Best(1, func() {
			if _, err := FromYARN(s, Options{}); err != nil {
				t.Fatal(err)
			}
		})
	}
	for _, tc := range []struct {
		what         string
		small, large *yarn.Setup
		bound        float64 // make bench's budget; make test allows twice it
	}{
		// linear: measured 4.6x (12.8x when every short name scanned every queue)
		{"queues, no rules: 2,000 and 8,000", gen(2000, 0), gen(8000, 0), 6},
		// each of N users passes up to N rules: measured 8.4x (13x when the rules were built for every question)
		{"u: mappings: 40 and 160", gen(20, 40), gen(20, 160), 6},
	} {
		a, b := cost(tc.small), cost(tc.large)
		ratio := float64(b) / float64(max(a, time.Millisecond))
		t.Logf("%s: %v, %v: %.1fx", tc.what, a, b, ratio)
		if ratio > budget.Limit(tc.bound) && b > 300*time.Millisecond {
			t.Errorf("%s: four times the input cost %.1f times the CPU (%v, %v)", tc.what, ratio, a, b)
		}
	}
}

// decoded is a converted config's text as convert reads it.
func decoded(text []byte) *config.Config {
	return config.Decode(config.Parse("converted.yaml", text))
}
