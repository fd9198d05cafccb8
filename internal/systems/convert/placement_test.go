package convert

import (
	"fmt"
	"math/rand"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/systems/yarn"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/placement"
)

// genPlaceFS is a small allocation file with a placement policy Hadoop
// starts with, ACLs and queues named like users and groups.
func genPlaceFS(r *rand.Rand) string {
	names := []string{"alice", "etl", "dev", "users", "default", "b"}
	acls := []string{"*", " ", "alice", " etl", "bob dev"}
	var b strings.Builder
	b.WriteString("<allocations>\n<queue name=\"root\">\n")
	if r.Intn(2) == 0 {
		fmt.Fprintf(&b, "<aclSubmitApps>%s</aclSubmitApps>\n", acls[r.Intn(len(acls))])
	}
	for _, n := range names[:2+r.Intn(4)] {
		fmt.Fprintf(&b, "<queue name=%q", n)
		if r.Intn(3) == 0 {
			b.WriteString(` type="parent"`)
		}
		b.WriteString(">")
		if r.Intn(2) == 0 {
			fmt.Fprintf(&b, "<aclSubmitApps>%s</aclSubmitApps>", acls[r.Intn(len(acls))])
		}
		if r.Intn(3) == 0 {
			fmt.Fprintf(&b, "<queue name=%q/>", names[r.Intn(len(names))])
		}
		b.WriteString("</queue>\n")
	}
	b.WriteString("</queue>\n<queuePlacementPolicy>\n")
	middle := []string{`<rule name="specified" create="false"/>`, `<rule name="specified"/>`, `<rule name="user" create="false"/>`,
		`<rule name="primaryGroup" create="false"/>`, `<rule name="secondaryGroupExistingQueue"/>`,
		`<rule name="nestedUserQueue" create="false"><rule name="default" queue="users"/></rule>`,
		`<rule name="nestedUserQueue" create="false"><rule name="secondaryGroupExistingQueue"/></rule>`, `<rule name="default" queue="b" create="false"/>`}
	for i := r.Intn(3); i > 0; i-- {
		b.WriteString(middle[r.Intn(len(middle))] + "\n")
	}
	last := []string{`<rule name="default"/>`, `<rule name="reject"/>`, `<rule name="user"/>`, `<rule name="default" queue="etl"/>`,
		`<rule name="nestedUserQueue"><rule name="default" queue="users"/></rule>`}
	b.WriteString(last[r.Intn(len(last))] + "\n</queuePlacementPolicy>\n</allocations>\n")
	return b.String()
}

// everyPlacement asks every user, every group list of up to two groups and
// every queue name the proof draws from, and returns the kinds of
// differences it finds.
func everyPlacement(t *testing.T, s *yarn.Setup, cfg *config.Config) map[string]bool {
	place := s.PlaceFS
	if !s.FS {
		pl, _ := s.StartPlacement()
		place = func(req yarn.PlaceRequest) *yarn.Placement { return s.PlaceCS(pl, req) }
	}
	users := map[string]bool{probeUser: true, "aclint.probe": true}
	groups := map[string]bool{probeGroup: true}
	queues := map[string]bool{"": true, "default": true, "aclint-probe-queue": true}
	for _, q := range s.CS.ByPath {
		users[q.Name], groups[q.Name] = true, true
		queues[q.Path], queues[strings.TrimPrefix(q.Path, "root.")], queues[q.Name] = true, true, true
		queues[q.Path+".x"], queues[q.Path+".x.y"] = true, true
		for _, a := range []yarn.Action{yarn.Submit, yarn.Administer} {
			for _, n := range q.ACL[a].UserNames() {
				users[n] = true
			}
			for _, n := range q.ACL[a].GroupNames() {
				groups[n] = true
			}
		}
	}
	delete(users, "*")
	delete(groups, "*")
	gs := sorted(groups)
	lists := [][]string{nil}
	for _, a := range gs {
		lists = append(lists, []string{a})
		for _, b := range gs {
			if a != b {
				lists = append(lists, []string{a, b})
			}
		}
	}
	placer := placement.New(cfg, acl.NewPolicy(cfg))
	kinds := map[string]bool{}
	for _, u := range sorted(users) {
		for _, q := range sorted(queues) {
			for _, l := range lists {
				y := place(yarn.PlaceRequest{User: u, Groups: l, Queue: q, App: "app"})
				k, err := placer.Place(placement.App{Partition: "default", User: u, Groups: l, Queue: q, Tags: map[string]string{}})
				if !samePlace(y, k, err) {
					kinds[differenceKind(y, k, err, l)] = true
				}
			}
		}
	}
	return kinds
}

// proofAgrees converts a setup and checks the placement proof against
// asking everyone everywhere (everyPlacement): YuniKorn accepts the
// converted config, and every kind of difference is found. It reports
// whether the two placed every application alike.
func proofAgrees(t *testing.T, s *yarn.Setup, text string) bool {
	t.Helper()
	res, err := FromYARN(s, Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	cfg := config.Decode(config.Parse("converted.yaml", res.YAML))
	if errs := yunikorn.Errors(cfg); len(errs) > 0 {
		t.Fatalf("YuniKorn refuses the converted config: %s\n%s\n%s", errs[0].Message, text, res.YAML)
	}
	found := map[string]bool{}
	for _, d := range res.Placement {
		found[d.kind] = true
	}
	var missed []string
	for k := range everyPlacement(t, s, cfg) {
		if !found[k] {
			missed = append(missed, k)
		}
	}
	sort.Strings(missed)
	if len(missed) > 0 {
		t.Errorf("the proof misses %v\n%s\n%s", missed, text, res.YAML)
	}
	return len(res.Placement) == 0
}

// TestPlacementProofMissesNothing: the proof's questions find every kind of
// difference that asking every user, every list of up to two groups and
// every queue name finds, on 60 generated Fair Scheduler policies; and
// YuniKorn accepts every converted config.
func TestPlacementProofMissesNothing(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewSource(7))
	site := fsSite(t)
	n, exact := 0, 0
	for i := 0; i < 60; i++ {
		text := genPlaceFS(r)
		fs, err := yarn.ReadFS("fair-scheduler.xml", []byte(text))
		if err != nil {
			continue // a policy Hadoop refuses: not converted
		}
		s := yarn.NewFSSetup(fs, []*yarn.Conf{site})
		n++
		if proofAgrees(t, s, text) {
			exact++
		}
	}
	t.Logf("%d policies converted, %d placed exactly alike", n, exact)
	if n < 40 {
		t.Errorf("only %d of the generated policies start", n)
	}
}

// genPlaceCS is a small capacity-scheduler.xml with legacy queue mappings
// of every kind, the override flag, flexible auto creation under some
// parents, and ACLs.
func genPlaceCS(r *rand.Rand) string {
	var b strings.Builder
	prop := func(k, v string) {
		fmt.Fprintf(&b, "<property><name>yarn.scheduler.capacity.%s</name><value>%s</value></property>\n", k, v)
	}
	b.WriteString("<configuration>\n")
	names := []string{"alice", "etl", "dev", "users", "default", "b"}
	top := names[:2+r.Intn(4)]
	prop("root.queues", strings.Join(top, ","))
	acls := []string{"*", " ", "alice", " etl", "bob dev"}
	prop("root.acl_submit_applications", acls[r.Intn(len(acls))])
	prop("root.acl_administer_queue", " ")
	for _, n := range top {
		if r.Intn(2) == 0 {
			prop("root."+n+".acl_submit_applications", acls[r.Intn(len(acls))])
		}
		switch r.Intn(3) {
		case 0:
			c := names[r.Intn(len(names))]
			prop("root."+n+".queues", c)
		case 1:
			prop("root."+n+".auto-queue-creation-v2.enabled", "true")
		}
	}
	maps := []string{"u:%user:%user", "u:%user:root.users.%user", "u:alice:root.default", "g:etl:root.etl", "u:%user:%primary_group",
		"u:%user:%primary_group.%user", "g:dev:dev", "u:bob:b", "u:%user:root.default"}
	var ms []string
	for i := r.Intn(4); i > 0; i-- {
		ms = append(ms, maps[r.Intn(len(maps))])
	}
	if len(ms) > 0 {
		prop("queue-mappings", strings.Join(ms, ","))
	}
	if r.Intn(2) == 0 {
		prop("queue-mappings-override.enable", "true")
	}
	b.WriteString("</configuration>\n")
	return b.String()
}

// TestPlacementProofMissesNothingCS is TestPlacementProofMissesNothing for
// the Capacity Scheduler's legacy mappings.
func TestPlacementProofMissesNothingCS(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewSource(11))
	n, exact := 0, 0
	for i := 0; i < 150; i++ {
		text := genPlaceCS(r)
		s := aclsOnSetup(t, text)
		if _, ref := s.StartPlacement(); ref != nil {
			continue // rules the Capacity Scheduler refuses: not converted
		}
		n++
		if proofAgrees(t, s, text) {
			exact++
		}
	}
	t.Logf("%d mappings converted, %d placed exactly alike", n, exact)
	if n < 60 {
		t.Errorf("only %d of the generated mappings start", n)
	}
}

// TestMigrationExample: examples/yarn-migrated/queues.yaml is what convert
// writes for the YARN files beside it (docs/migration.md shows both), and
// what still differs is only what a request without groups gets from
// YuniKorn's default resolver.
func TestMigrationExample(t *testing.T) {
	dir := "../../../examples/yarn-migrated/"
	read := func(name string) []byte {
		b, err := os.ReadFile(dir + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	cs, err := yarn.ReadConf(dir+"capacity-scheduler.xml", read("capacity-scheduler.xml"))
	if err != nil {
		t.Fatal(err)
	}
	site, err := yarn.ReadConf(dir+"yarn-site.xml", read("yarn-site.xml"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := FromYARN(yarn.NewSetup([]*yarn.Conf{cs, site}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(res.YAML), string(read("queues.yaml")); got != want {
		t.Errorf("examples/yarn-migrated/queues.yaml is not what convert writes now: run aclint convert yarn examples/yarn-migrated/capacity-scheduler.xml examples/yarn-migrated/yarn-site.xml -o examples/yarn-migrated/queues.yaml\n%s", got)
	}
	for _, d := range res.Placement {
		if len(d.Groups) > 0 {
			t.Errorf("placed differently with groups: %s", d)
		}
	}
	for _, d := range res.Differences {
		if !strings.Contains(d.Why, "default resolver") {
			t.Errorf("an access difference besides requests without groups: %s", d)
		}
	}
	if len(res.Placement) == 0 {
		t.Error("the example's one placement difference (a user named like a group, without groups) is gone: update docs/migration.md")
	}
	// the team's accepted file takes every difference: convert exits 0 on it
	a, err := ParseAccepted(dir+"convert-accepted.yaml", read("convert-accepted.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	res, err = FromYARN(yarn.NewSetup([]*yarn.Conf{cs, site}), Options{Accepted: a})
	if err != nil {
		t.Fatal(err)
	}
	if !res.AllAccepted() || len(a.Unused()) > 0 || res.Same() {
		t.Errorf("examples/yarn-migrated/convert-accepted.yaml: all accepted %v, unused %d", res.AllAccepted(), len(a.Unused()))
	}
}

// TestPlacementNotProvenPastTheBound: a tree too large to ask every
// application that can tell the two placements apart is not converted:
// the error says the placement is not proven and what to do instead.
func TestPlacementNotProvenPastTheBound(t *testing.T) {
	var b strings.Builder
	b.WriteString("<allocations><queue name=\"root\"><aclSubmitApps> </aclSubmitApps>\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "<queue name=\"p%d\"><aclSubmitApps>u%d g%d</aclSubmitApps>", i, i, i)
		for j := 0; j < 8; j++ {
			fmt.Fprintf(&b, "<queue name=\"q%d\"><aclSubmitApps>u%d g%d</aclSubmitApps></queue>", j, (i*8+j)%200, (i*3+j)%200)
		}
		b.WriteString("</queue>\n")
	}
	b.WriteString(`<queue name="users" type="parent"/></queue><queuePlacementPolicy><rule name="specified" create="false"/><rule name="nestedUserQueue"><rule name="default" queue="users"/></rule></queuePlacementPolicy></allocations>`)
	fs, err := yarn.ReadFS("fair-scheduler.xml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	_, err = FromYARN(yarn.NewFSSetup(fs, []*yarn.Conf{fsSite(t)}), Options{})
	if err == nil || !strings.Contains(err.Error(), "placement is not proven") || !strings.Contains(err.Error(), "aclint place") {
		t.Errorf("a tree past the bound: %v", err)
	}
}

// TestPlacementProofPrimaryGroupThenACLGroup: with %primary_group.%user, a
// user the rules react to whose first group names a queue of theirs and
// whose second group the ACLs let in (alice with groups root,dev lands in
// root.alice in YARN, and YuniKorn rejects her) is a kind of difference the
// proof finds, as asking everyone does.
func TestPlacementProofPrimaryGroupThenACLGroup(t *testing.T) {
	text := `<configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>alice,etl</value></property>
<property><name>yarn.scheduler.capacity.root.acl_submit_applications</name><value>bob dev</value></property>
<property><name>yarn.scheduler.capacity.root.acl_administer_queue</name><value> </value></property>
<property><name>yarn.scheduler.capacity.root.etl.acl_submit_applications</name><value> etl</value></property>
<property><name>yarn.scheduler.capacity.root.etl.queues</name><value>default</value></property>
<property><name>yarn.scheduler.capacity.queue-mappings</name><value>u:%user:%primary_group.%user</value></property>
<property><name>yarn.scheduler.capacity.queue-mappings-override.enable</name><value>true</value></property>
</configuration>
`
	proofAgrees(t, aclsOnSetup(t, text), text)
}

// TestMappingToStoppedQueue: a rule that places in a STOPPED queue, or
// creates one under a STOPPED parent (which takes its state), is left out
// with the queue, and a note says what became of it; YuniKorn loads what
// convert writes, and the proof agrees with asking everyone.
func TestMappingToStoppedQueue(t *testing.T) {
	head := `<configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>a,default,p</value></property>
<property><name>yarn.scheduler.capacity.root.a.capacity</name><value>40</value></property>
<property><name>yarn.scheduler.capacity.root.default.capacity</name><value>40</value></property>
<property><name>yarn.scheduler.capacity.root.p.capacity</name><value>20</value></property>
<property><name>yarn.scheduler.capacity.root.p.auto-create-child-queue.enabled</name><value>true</value></property>
<property><name>yarn.scheduler.capacity.root.acl_submit_applications</name><value> </value></property>
<property><name>yarn.scheduler.capacity.root.acl_administer_queue</name><value>*</value></property>
`
	for _, tc := range []struct{ state, mappings, note string }{
		{"root.a", "u:judy:root.a", "placement rule u:judy:root.a: root.a is STOPPED in YARN"},
		{"root.a", "u:judy:root.a,u:%user:root.default", "placement rule u:judy:root.a: root.a is STOPPED in YARN"},
		{"root.p", "u:%user:root.p.%user", "root.p.%user would be created under root.p, which is STOPPED in YARN"},
		{"root.p", "u:%user:p.%user,u:bob:root.default", "root.p.%user would be created under root.p, which is STOPPED in YARN"},
	} {
		text := head + `<property><name>yarn.scheduler.capacity.` + tc.state + `.state</name><value>STOPPED</value></property>
<property><name>yarn.scheduler.capacity.queue-mappings</name><value>` + tc.mappings + `</value></property>
</configuration>
`
		s := aclsOnSetup(t, text)
		res, err := FromYARN(s, Options{})
		if err != nil {
			t.Errorf("%s: %v", tc.mappings, err)
			continue
		}
		if !strings.Contains(strings.Join(res.Notes, "\n"), tc.note) {
			t.Errorf("%s: the notes do not say what became of the rule:\n%s", tc.mappings, strings.Join(res.Notes, "\n"))
		}
		proofAgrees(t, s, text)
	}
}

// TestPlacementProofSmallGroupPolicy: a small allocation file (16 queues
// whose ACLs name 15 users and groups, some queues named like groups) with
// the policy primaryGroup create="false" then default root.default
// create="true" is proven, not given up on (it asked 833,612 applications
// before: every user named like a group with every list of two groups on
// every queue name, though no rule reads the queue asked for), and the
// proof finds every kind of difference asking everyone finds.
func TestPlacementProofSmallGroupPolicy(t *testing.T) {
	t.Parallel()
	for _, policy := range []string{
		`<rule name="primaryGroup" create="false"/><rule name="default" queue="root.default" create="true"/>`,
		`<rule name="specified" create="false"/><rule name="primaryGroup" create="false"/><rule name="default" queue="root.default" create="true"/>`,
	} {
		var b strings.Builder
		b.WriteString(`<allocations><queue name="root"><aclSubmitApps> </aclSubmitApps><aclAdministerApps> </aclAdministerApps>` + "\n")
		for i := 0; i < 4; i++ {
			fmt.Fprintf(&b, `<queue name="d%d"><aclSubmitApps>u%d,u%d g%d</aclSubmitApps>`, i, i, i+4, i)
			for j := 0; j < 3; j++ {
				name := fmt.Sprintf("q%d%d", i, j)
				if j == 0 {
					name = fmt.Sprintf("g%d", (i+1)%7)
				}
				fmt.Fprintf(&b, `<queue name="%s"><aclSubmitApps>u%d g%d</aclSubmitApps></queue>`, name, (i*3+j)%8, (i+j)%7)
			}
			b.WriteString("</queue>\n")
		}
		b.WriteString(`<queue name="default"/><queue name="g5"/><queue name="g6"/></queue><queuePlacementPolicy>` + policy + `</queuePlacementPolicy></allocations>`)
		text := b.String()
		fs, err := yarn.ReadFS("fair-scheduler.xml", []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		s := yarn.NewFSSetup(fs, []*yarn.Conf{fsSite(t)})
		proofAgrees(t, s, text) // fails the test when convert gives up
	}
}

// TestPlacementProofGroupPolicyAtScale: a primaryGroup-first policy over
// 1,040 queues (a third of them named like groups) whose ACLs name 1,000
// users and groups is proven, not given up on: a named subject is asked
// only with the group lists that may place it under the ACLs naming it
// (every list asked with every rule group passed 400,000 applications at
// 220 queues).
func TestPlacementProofGroupPolicyAtScale(t *testing.T) {
	t.Parallel()
	const depts, leaves, names = 40, 25, 1000
	r := rand.New(rand.NewSource(names))
	var b strings.Builder
	b.WriteString(`<allocations><queue name="root"><aclSubmitApps> </aclSubmitApps><aclAdministerApps> </aclAdministerApps>` + "\n")
	for i := 0; i < depts; i++ {
		fmt.Fprintf(&b, `<queue name="d%d"><aclSubmitApps>u%d g%d</aclSubmitApps>`, i, r.Intn(names/2), r.Intn(names/2))
		for j := 0; j < leaves; j++ {
			name := fmt.Sprintf("q%d_%d", i, j)
			if j%3 == 0 {
				name = fmt.Sprintf("g%d", r.Intn(names/2))
			}
			fmt.Fprintf(&b, `<queue name="%s"><aclSubmitApps>u%d,u%d g%d,g%d</aclSubmitApps></queue>`, name, r.Intn(names/2), r.Intn(names/2), r.Intn(names/2), r.Intn(names/2))
		}
		b.WriteString("</queue>\n")
	}
	b.WriteString(`<queue name="default"/></queue><queuePlacementPolicy><rule name="primaryGroup" create="false"/><rule name="default" queue="root.default" create="true"/></queuePlacementPolicy></allocations>`)
	fs, err := yarn.ReadFS("fair-scheduler.xml", []byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	res, err := FromYARN(yarn.NewFSSetup(fs, []*yarn.Conf{fsSite(t)}), Options{})
	if err != nil {
		t.Fatalf("1,040 queues and 1,000 names: %v", err)
	}
	if res.PlaceAsked == 0 || res.PlaceAsked > maxPlaceQuestions/2 {
		t.Errorf("the proof asked %d applications: every list with every group again?", res.PlaceAsked)
	}
	t.Logf("%d applications asked", res.PlaceAsked)
}
