package yarn

import (
	"fmt"
	"strings"
	"testing"
)

func csOf(t *testing.T, kv ...string) *CS {
	t.Helper()
	var b strings.Builder
	for i := 0; i+1 < len(kv); i += 2 {
		fmt.Fprintf(&b, "<property><name>%s</name><value>%s</value></property>\n", kv[i], kv[i+1])
	}
	return ReadCS(conf(t, b.String()))
}

func TestReadCSTree(t *testing.T) {
	cs := csOf(t,
		"yarn.scheduler.capacity.root.queues", " prod , dev,,",
		"yarn.scheduler.capacity.root.prod.queues", "etl",
	)
	var paths []string
	for p := range cs.ByPath {
		paths = append(paths, p)
	}
	for _, want := range []string{"root", "root.prod", "root.dev", "root.prod.etl"} {
		if cs.ByPath[want] == nil {
			t.Errorf("no queue %s (have %v)", want, paths)
		}
	}
	if len(cs.ByPath) != 4 {
		t.Errorf("queues %v: getQueues splits at commas, drops empty pieces and trims names", paths)
	}
	// defaults: root allows everyone, other queues nobody
	if !cs.Root.ACL[Submit].All || !cs.Root.ACL[Administer].All || cs.Root.From[Submit] != nil {
		t.Error("root's default ACL is *")
	}
	if etl := cs.ByPath["root.prod.etl"]; etl.ACL[Submit].All || len(etl.ACL[Submit].Users)+len(etl.ACL[Submit].Groups) != 0 {
		t.Error("a queue's default ACL is ' ' (nobody)")
	}
}

// TestCSDecide: the authorizer's walk up the path, no deny, and
// administer implying submit.
func TestCSDecide(t *testing.T) {
	open := csOf(t,
		"yarn.scheduler.capacity.root.queues", "prod",
		"yarn.scheduler.capacity.root.prod.acl_submit_applications", "alice",
	)
	// root's default * makes the narrower child ACL meaningless
	if d := open.Decide("root.prod", "mallory", nil, Submit); !d.Allowed || d.Queue != open.Root {
		t.Errorf("root's default * should let mallory submit: %+v", d)
	}
	closed := csOf(t,
		"yarn.scheduler.capacity.root.queues", "prod",
		"yarn.scheduler.capacity.root.acl_submit_applications", " ",
		"yarn.scheduler.capacity.root.acl_administer_queue", " ops",
		"yarn.scheduler.capacity.root.prod.queues", "etl",
		"yarn.scheduler.capacity.root.prod.acl_submit_applications", "alice data",
		"yarn.scheduler.capacity.root.prod.etl.acl_administer_queue", "bob",
	)
	cases := []struct {
		path, user string
		groups     []string
		action     Action
		allowed    bool
		by         string
	}{
		{"root.prod.etl", "alice", nil, Submit, true, "root.prod"},
		{"root.prod.etl", "carol", []string{"data"}, Submit, true, "root.prod"},
		{"root.prod.etl", "bob", nil, Submit, true, "root.prod.etl"}, // administer implies submit
		{"root.prod.etl", "bob", nil, Administer, true, "root.prod.etl"},
		{"root.prod", "bob", nil, Submit, false, ""},
		{"root.prod.etl", "alice", nil, Administer, false, ""},
		{"root.prod.etl", "opsuser", []string{"ops"}, Administer, true, "root"},
		{"root.prod.etl", "mallory", nil, Submit, false, ""},
		// a path with no queue has no ACLs; the walk goes on to its parents
		{"root.prod.etl.x", "alice", nil, Submit, true, "root.prod"},
	}
	for _, c := range cases {
		d := closed.Decide(c.path, c.user, c.groups, c.action)
		by := ""
		if d.Queue != nil {
			by = d.Queue.Path
		}
		if d.Allowed != c.allowed || by != c.by || d.Unknown {
			t.Errorf("%s %s on %s: allowed=%v by %q unknown=%v, want %v by %q", c.user, c.action, c.path, d.Allowed, by, d.Unknown, c.allowed, c.by)
		}
	}
}

func TestCSUnknown(t *testing.T) {
	cs := csOf(t,
		"yarn.scheduler.capacity.root.queues", "a",
		"yarn.scheduler.capacity.root.acl_submit_applications", " ",
		"yarn.scheduler.capacity.root.acl_administer_queue", " ",
		"yarn.scheduler.capacity.root.a.acl_submit_applications", "${user.name}",
		"yarn.scheduler.capacity.root.a.acl_administer_queue", "bob",
	)
	if d := cs.Decide("root.a", "alice", nil, Submit); d.Allowed || !d.Unknown {
		t.Errorf("a ${...} ACL on the way leaves a denial unknown: %+v", d)
	}
	if d := cs.Decide("root.a", "bob", nil, Submit); !d.Allowed || d.Unknown {
		t.Errorf("a grant further on is certain: %+v", d)
	}
}

func TestReadCSBounded(t *testing.T) {
	var kv []string
	path := "root"
	for i := 0; i < maxDepth+10; i++ {
		kv = append(kv, "yarn.scheduler.capacity."+path+".queues", "q")
		path += ".q"
	}
	cs := csOf(t, kv...)
	if !cs.Truncated || len(cs.ByPath) > maxDepth+1 {
		t.Errorf("a chain deeper than %d levels: truncated=%v, %d queues", maxDepth, cs.Truncated, len(cs.ByPath))
	}
}

// TestOrphanHintIsStable: with two queues equally near the misspelt path,
// the hint must name the same one on every run (the queue paths come from
// a map, so they are sorted before the nearest is chosen).
func TestOrphanHintIsStable(t *testing.T) {
	src := csExample(
		CSPrefix+"root.queues", "ab1,ab2,ab3,ab4,ab5,ab6,ab7,ab8",
		CSPrefix+"root.ab9.acl_submit_applications", "etl")
	for i := 0; i < 30; i++ {
		c, err := ReadConf("capacity-scheduler.xml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		var hint string
		for _, f := range Lint(c, "capacity-scheduler.xml") {
			if f.Rule == ruleOrphan {
				hint = f.Hint
			}
		}
		if hint != "did you mean root.ab1?" {
			t.Fatalf("run %d: hint %q, want the first of the equally near queues in order, root.ab1", i, hint)
		}
	}
}
