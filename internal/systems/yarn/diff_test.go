package yarn

import "testing"

// TestDiff: a change's gains and losses are what the check answers on each
// side, queues added and removed are listed, and ACLs off count as
// everyone.
func TestDiff(t *testing.T) {
	site := readConf(t, "yarn-site.xml", "<property><name>yarn.acl.enable</name><value>true</value></property>\n")
	off := readConf(t, "yarn-site.xml", "<property><name>yarn.acl.enable</name><value>false</value></property>\n")
	old := NewSetup([]*Conf{readConf(t, "old.xml", closedCS), site})
	changed := closedCS + `<property><name>yarn.scheduler.capacity.root.a.acl_submit_applications</name><value>bob</value></property>
<property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>
`
	new := NewSetup([]*Conf{readConf(t, "new.xml", changed), site})
	r := Diff(old, new)
	gained, lost := map[string]bool{}, map[string]bool{}
	for _, c := range r.Changes {
		if c.Gained {
			gained[c.Queue+" "+c.Kind+" "+c.Name+" "+c.Action.String()] = true
		} else {
			lost[c.Queue+" "+c.Kind+" "+c.Name+" "+c.Action.String()] = true
		}
	}
	if !gained["root.a user bob submit"] || !lost["root.a user alice submit"] || len(r.Added) != 1 || r.Added[0] != "root.b" {
		t.Errorf("gained %v lost %v added %v", gained, lost, r.Added)
	}
	// turning ACLs off grants everyone everything
	r = Diff(NewSetup([]*Conf{readConf(t, "old.xml", closedCS), site}), NewSetup([]*Conf{readConf(t, "new.xml", closedCS), off}))
	found := false
	for _, c := range r.Changes {
		if c.Gained && c.Kind == "wildcard" && c.Queue == "root.a" && c.Action == Administer {
			found = true
		}
	}
	if !found {
		t.Errorf("ACLs off: %+v", r.Changes)
	}
}

// TestCellAgreesWithDecide: a matrix cell is the check's two answers.
func TestCellAgreesWithDecide(t *testing.T) {
	site := readConf(t, "yarn-site.xml", "<property><name>yarn.acl.enable</name><value>true</value></property>\n")
	s := NewSetup([]*Conf{readConf(t, "cs.xml", closedCS+"<property><name>yarn.scheduler.capacity.root.a.acl_administer_queue</name><value> ops</value></property>\n"), site})
	for _, q := range s.Queues() {
		for _, x := range s.Subjects([]Subject{{"user", "zed"}}) {
			user, groups := diffProbe, []string{diffProbe}
			if x.Kind == "user" {
				user = x.Name
			} else if x.Kind == "group" {
				groups = []string{x.Name}
			}
			want := "-"
			if s.CS.Decide(q.Path, user, groups, Administer).Allowed {
				want = "admin"
			} else if s.CS.Decide(q.Path, user, groups, Submit).Allowed {
				want = "submit"
			}
			if got := s.Cell(q, x); got != want {
				t.Errorf("%s %s:%s: %s, check says %s", q.Path, x.Kind, x.Name, got, want)
			}
		}
	}
}
