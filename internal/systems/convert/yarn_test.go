package convert

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yarn"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

var aclPool = []string{" ", "*", "alice", "alice,bob", " data", "alice data", "bob ops,data", "carol",
	" ops", "alice *", "*,dave", "\n  erin\n", "frank  data", "gina dev ops", "system:sa data.eng", "hank\tivy", "Alice", "1bad"}

// genCS writes a random capacity-scheduler.xml: a tree of up to depth 3,
// ACLs drawn from values with every trap, some unset.
func genCS(r *rand.Rand) string {
	var b strings.Builder
	prop := func(k, v string) {
		fmt.Fprintf(&b, "<property><name>yarn.scheduler.capacity.%s</name><value>%s</value></property>\n", k, v)
	}
	b.WriteString("<configuration>\n")
	var walk func(path string, depth int)
	walk = func(path string, depth int) {
		for _, a := range []string{"acl_submit_applications", "acl_administer_queue"} {
			if r.Intn(3) > 0 {
				prop(path+"."+a, aclPool[r.Intn(len(aclPool))])
			}
		}
		if depth >= 3 || r.Intn(3) == 0 {
			return
		}
		n := 1 + r.Intn(3)
		var names []string
		for i := 0; i < n; i++ {
			names = append(names, fmt.Sprintf("q%d", i))
		}
		prop(path+".queues", strings.Join(names, ","))
		for _, name := range names {
			walk(path+"."+name, depth+1)
		}
	}
	walk("root", 0)
	b.WriteString("</configuration>\n")
	return b.String()
}

// TestRoundTrip converts generated configs and checks what FromYARN says
// against an independent reading: every difference it reports involves a
// name YuniKorn's ACL parser cannot carry (or would refuse as a user), and
// none is missed (the YuniKorn config, asked again here, agrees with YARN
// everywhere else); the converted config is one YuniKorn accepts and lints
// without warnings but those saying no one may submit.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	n := 1500
	if testing.Short() {
		n = 300
	}
	withDiffs := 0
	for i := 0; i < n; i++ {
		text := genCS(r)
		s := aclsOnSetup(t, text)
		res, err := FromYARN(s, Options{})
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		if len(res.Differences) > 0 {
			withDiffs++
		}
		for _, d := range res.Differences {
			name := d.Principal[strings.IndexByte(d.Principal, ' ')+1:]
			name = strings.Trim(name, `"`)
			carried := (strings.HasPrefix(d.Principal, "user ") && acl.IsUserName(name) && acl.RequestUserPattern.MatchString(name)) ||
				(strings.HasPrefix(d.Principal, "group ") && acl.IsGroupName(name))
			if carried || d.Principal == "everyone else" {
				t.Errorf("a difference for a name YuniKorn can carry: %s\n%s\n%s", d, text, res.YAML)
			}
		}
		// the YuniKorn config accepted, and its lint clean but for no access at all
		cfg := config.Decode(config.Parse("converted.yaml", res.YAML))
		if errs := yunikorn.Errors(cfg); len(errs) > 0 {
			t.Fatalf("YuniKorn refuses the converted config: %s\n%s", errs[0].Message, res.YAML)
		}
		for _, f := range yunikorn.Lint(cfg) {
			if f.Severity >= engine.Warning && f.Rule != "no-submit-access" && f.Rule != "placement-nothing-placed" {
				t.Errorf("the converted config lints with %s: %s\n%s", f.Rule, f.Message, res.YAML)
			}
		}
	}
	t.Logf("%d generated configs converted; %d with differences, each a name YuniKorn cannot carry", n, withDiffs)
}

// TestCompareCatchesDifferences: the comparison is not vacuous. A YuniKorn
// config that grants one more user is caught.
func TestCompareCatchesDifferences(t *testing.T) {
	cs, _ := yarn.ReadConf("cs.xml", []byte(`<configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property>
<property><name>yarn.scheduler.capacity.root.acl_submit_applications</name><value> </value></property>
<property><name>yarn.scheduler.capacity.root.acl_administer_queue</name><value> </value></property>
<property><name>yarn.scheduler.capacity.root.a.acl_submit_applications</name><value>alice</value></property>
</configuration>`))
	site, _ := yarn.ReadConf("yarn-site.xml", []byte("<configuration><property><name>yarn.acl.enable</name><value>true</value></property></configuration>"))
	s := yarn.NewSetup([]*yarn.Conf{cs, site})
	wrong := []byte("partitions:\n  - name: default\n    queues:\n      - name: root\n        queues:\n          - name: a\n            submitacl: \"alice,bob\"\n")
	diffs, err := compare(s, decoded(wrong), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(diffs) == 0 {
		t.Fatal("a config that lets bob submit was not caught")
	}
	res, err := FromYARN(s, Options{})
	if err != nil || len(res.Differences) != 0 {
		t.Fatalf("the real conversion: %v %v", err, res.Differences)
	}
}

// genFS writes a random Fair Scheduler allocation file.
func genFS(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString("<allocations>\n")
	var walk func(depth int)
	walk = func(depth int) {
		for _, tag := range []string{"aclSubmitApps", "aclAdministerApps"} {
			if r.Intn(3) > 0 {
				v := aclPool[r.Intn(len(aclPool))]
				if v == "" {
					v = " "
				}
				fmt.Fprintf(&b, "<%s>%s</%s>\n", tag, v, tag)
			}
		}
		if depth >= 3 || r.Intn(3) == 0 {
			return
		}
		for i := 0; i < 1+r.Intn(3); i++ {
			n := i
			if r.Intn(6) == 0 {
				n = 0 // a queue defined again: the Fair Scheduler merges it into the first
			}
			fmt.Fprintf(&b, "<queue name=\"q%d\">\n", n)
			walk(depth + 1)
			b.WriteString("</queue>\n")
		}
	}
	b.WriteString("<queue name=\"root\">\n")
	walk(0)
	b.WriteString("</queue>\n</allocations>\n")
	return b.String()
}

// fsSite is a yarn-site.xml that runs the Fair Scheduler with its default
// placement policy (the allocation files generated here write none).
func fsSite(t *testing.T) *yarn.Conf {
	t.Helper()
	site, err := yarn.ReadConf("yarn-site.xml", []byte("<configuration><property><name>yarn.resourcemanager.scheduler.class</name><value>org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler</value></property></configuration>"))
	if err != nil {
		t.Fatal(err)
	}
	return site
}

func TestRoundTripFS(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	site := fsSite(t)
	for i := 0; i < 500; i++ {
		text := genFS(r)
		fs, err := yarn.ReadFS("fair-scheduler.xml", []byte(text))
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		res, err := FromYARN(yarn.NewFSSetup(fs, []*yarn.Conf{site}), Options{})
		if err != nil {
			t.Fatalf("%v\n%s", err, text)
		}
		for _, d := range res.Differences {
			if d.Principal == "everyone else" {
				t.Errorf("everyone else differs: %s\n%s\n%s", d, text, res.YAML)
			}
		}
		cfg := config.Decode(config.Parse("converted.yaml", res.YAML))
		if errs := yunikorn.Errors(cfg); len(errs) > 0 {
			t.Fatalf("YuniKorn refuses the converted config: %s\n%s", errs[0].Message, res.YAML)
		}
	}
}

func TestRootNamedOtherwise(t *testing.T) {
	fs, err := yarn.ReadFS("f.xml", []byte(`<allocations><queue name="ROOT"><queue name="a"/></queue></allocations>`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FromYARN(yarn.NewFSSetup(fs, nil), Options{}); err == nil || !strings.Contains(err.Error(), `named "ROOT"`) {
		t.Errorf("a root queue named ROOT: %v", err)
	}
}

// TestNotConvertedOrphan: an ACL of a queue the tree does not have is
// listed as not converted, not dropped silently.
func TestNotConvertedOrphan(t *testing.T) {
	cs, _ := yarn.ReadConf("cs.xml", []byte(`<configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property>
<property><name>yarn.scheduler.capacity.root.acl_submit_applications</name><value> </value></property>
<property><name>yarn.scheduler.capacity.root.acl_administer_queue</name><value> </value></property>
<property><name>yarn.scheduler.capacity.root.staging.acl_administer_queue</name><value>carol</value></property>
</configuration>`))
	site, _ := yarn.ReadConf("yarn-site.xml", []byte("<configuration><property><name>yarn.acl.enable</name><value>true</value></property></configuration>"))
	res, err := FromYARN(yarn.NewSetup([]*yarn.Conf{cs, site}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "acl_administer_queue of root.staging: no such queue in the tree, so YARN never reads it"
	for _, n := range res.NotConverted {
		if n == want {
			return
		}
	}
	t.Errorf("not converted: %q, want %q among them", res.NotConverted, want)
}
