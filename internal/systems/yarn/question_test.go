package yarn

import (
	"strings"
	"testing"
)

func readConf(t *testing.T, name, body string) *Conf {
	t.Helper()
	c, err := ReadConf(name, []byte("<configuration>\n"+body+"</configuration>\n"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const closedCS = `<property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property>
<property><name>yarn.scheduler.capacity.root.acl_submit_applications</name><value> </value></property>
<property><name>yarn.scheduler.capacity.root.acl_administer_queue</name><value> </value></property>
<property><name>yarn.scheduler.capacity.root.a.acl_submit_applications</name><value>alice</value></property>
<property><name>yarn.scheduler.capacity.root.a.capacity</name><value>100</value></property>
`

// TestSetupACLEnable: yarn.acl.enable as Configuration.getBoolean reads it
// (trimmed, either case; anything else is the default, false), unknown
// without a yarn-site.xml.
func TestSetupACLEnable(t *testing.T) {
	cs := readConf(t, "cs.xml", closedCS)
	for value, want := range map[string]bool{"true": true, " TRUE ": true, "True": true, "false": false, "yes": false, "1": false} {
		site := readConf(t, "yarn-site.xml", "<property><name>yarn.acl.enable</name><value>"+value+"</value></property>\n")
		s := NewSetup([]*Conf{cs, site})
		if !s.Known || s.ACLEnable != want {
			t.Errorf("yarn.acl.enable %q: known=%v enabled=%v, want %v", value, s.Known, s.ACLEnable, want)
		}
	}
	// a yarn-site.xml without it: the default, false
	site := readConf(t, "yarn-site.xml", "<property><name>yarn.resourcemanager.hostname</name><value>rm</value></property>\n")
	if s := NewSetup([]*Conf{cs, site}); !s.Known || s.ACLEnable {
		t.Errorf("unset in yarn-site.xml: known=%v enabled=%v, want the default false", s.Known, s.ACLEnable)
	}
	if s := NewSetup([]*Conf{cs}); s.Known {
		t.Error("without yarn-site.xml yarn.acl.enable is not known")
	}
}

func TestSetupCheck(t *testing.T) {
	cs := readConf(t, "cs.xml", closedCS)
	on := readConf(t, "yarn-site.xml", "<property><name>yarn.acl.enable</name><value>true</value></property>\n")
	off := readConf(t, "yarn-site.xml", "<property><name>yarn.acl.enable</name><value>false</value></property>\n")
	sOn, sOff, sNone := NewSetup([]*Conf{cs, on}), NewSetup([]*Conf{cs, off}), NewSetup([]*Conf{cs})
	q, err := sOn.FindQueue("a")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		s            *Setup
		user         string
		allowed, kno bool
	}{
		{sOn, "alice", true, true}, {sOn, "bob", false, true},
		{sOff, "bob", true, true},
		{sNone, "alice", true, true}, {sNone, "bob", false, false},
	} {
		a := c.s.Check(q, c.user, nil, Submit)
		if a.Allowed != c.allowed || a.Known != c.kno {
			t.Errorf("%s: allowed=%v known=%v, want %v %v (%s)", c.user, a.Allowed, a.Known, c.allowed, c.kno, a.Why)
		}
	}
}

// TestSetupOrder: the Capacity Scheduler's file is loaded after the
// ResourceManager's, whatever the order on the command line; a final
// property in yarn-site.xml keeps its value.
func TestSetupOrder(t *testing.T) {
	cs := readConf(t, "cs.xml", closedCS)
	site := readConf(t, "yarn-site.xml", "<property><name>yarn.acl.enable</name><value>true</value></property>\n"+
		"<property><name>yarn.scheduler.capacity.root.a.acl_submit_applications</name><value>bob</value><final>true</final></property>\n")
	s := NewSetup([]*Conf{cs, site})
	if a := s.Check(s.CS.ByPath["root.a"], "bob", nil, Submit); !a.Allowed {
		t.Error("a final ACL in yarn-site.xml should stand against capacity-scheduler.xml's")
	}
	site2 := readConf(t, "yarn-site.xml", "<property><name>yarn.acl.enable</name><value>true</value></property>\n"+
		"<property><name>yarn.scheduler.capacity.root.a.acl_submit_applications</name><value>bob</value></property>\n")
	s2 := NewSetup([]*Conf{site2, cs})
	if a := s2.Check(s2.CS.ByPath["root.a"], "alice", nil, Submit); !a.Allowed {
		t.Error("capacity-scheduler.xml is loaded after yarn-site.xml and wins")
	}
}

// TestSetupACLEnableIsTheResourceManagers: yarn.acl.enable counts in
// yarn-site.xml only. The ResourceManager's QueueACLsManager and
// RMAppManager read their own configuration, which never loads
// capacity-scheduler.xml (the Capacity Scheduler reads that into a copy).
// A file's part goes by its name, as Hadoop's; another name by content.
func TestSetupACLEnableIsTheResourceManagers(t *testing.T) {
	cs := readConf(t, "conf/capacity-scheduler.xml", "<property><name>yarn.acl.enable</name><value>true</value></property>\n"+closedCS)
	if SiteFile(cs) {
		t.Fatal("capacity-scheduler.xml is never the ResourceManager's configuration")
	}
	if s := NewSetup([]*Conf{cs}); s.Known {
		t.Error("yarn.acl.enable in capacity-scheduler.xml alone: not known, the ResourceManager does not read it")
	}
	unset := readConf(t, "conf/yarn-site.xml", "<property><name>yarn.resourcemanager.hostname</name><value>rm</value></property>\n")
	s := NewSetup([]*Conf{cs, unset})
	if !s.Known || s.ACLEnable {
		t.Fatalf("yarn-site.xml without it: off (the default) whatever capacity-scheduler.xml says; known=%v enabled=%v", s.Known, s.ACLEnable)
	}
	if a := s.Check(s.CS.ByPath["root.a"], "bob", nil, Submit); !a.Allowed || !a.ACLsOff {
		t.Errorf("ACLs off: bob is let in; got %+v", a)
	}
	off := readConf(t, "conf/yarn-site.xml", "<property><name>yarn.acl.enable</name><value>true</value></property>\n")
	csOff := readConf(t, "conf/capacity-scheduler.xml", "<property><name>yarn.acl.enable</name><value>false</value></property>\n"+closedCS)
	if s := NewSetup([]*Conf{csOff, off}); !s.ACLEnable {
		t.Error("false in capacity-scheduler.xml does not turn off what yarn-site.xml turns on")
	}
	// a file named otherwise that sets the ResourceManager's keys is its configuration
	other := readConf(t, "rm.xml", "<property><name>yarn.acl.enable</name><value>true</value></property>\n"+closedCS)
	if !SiteFile(other) {
		t.Error("rm.xml with yarn.acl.enable is read as a yarn-site.xml")
	}
	if s := NewSetup([]*Conf{other}); !s.Known || !s.ACLEnable {
		t.Error("rm.xml's own yarn.acl.enable counts")
	}
	// and yarn-site.xml by name, even with queue keys only
	if !SiteFile(readConf(t, "x/yarn-site.xml", closedCS)) {
		t.Error("yarn-site.xml is the ResourceManager's by its name")
	}
}

// TestSetupUnknownAnswersNothing: what aclint does not read as Hadoop does
// (an XInclude, which may override the very ACL that allows; a ${...} in a
// queue list) leaves every answer unknown, allowed ones too, and says
// where, in the file it is in.
func TestSetupUnknownAnswersNothing(t *testing.T) {
	site := readConf(t, "yarn-site.xml", "<property><name>yarn.acl.enable</name><value>true</value></property>\n")
	include := readConf(t, "cs.xml", closedCS+`<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="more.xml"/>`+"\n")
	s := NewSetup([]*Conf{site, include})
	if a := s.Check(s.CS.ByPath["root.a"], "alice", nil, Submit); a.Known || !strings.HasPrefix(a.Why, "cs.xml:7:") {
		t.Errorf("alice is allowed by the file, but the XInclude may take it back: %+v", a)
	}
	if why := s.Refused(); !strings.HasPrefix(why, "cs.xml:7:") {
		t.Errorf("refused: %q", why)
	}
	subst := readConf(t, "cs.xml", strings.Replace(closedCS, "<value>a</value>", "<value>${queues}</value>", 1))
	s = NewSetup([]*Conf{site, subst})
	if why := s.Refused(); !strings.Contains(why, "yarn.scheduler.capacity.root.queues uses ${...}") || !strings.HasPrefix(why, "cs.xml:2:66: ") {
		t.Errorf("a substituted queue list: %q", why)
	}
	if len(s.CS.Root.Children) != 0 {
		t.Errorf("no queue is made of ${queues}: %v", s.CS.Root.Children)
	}
	if NewSetup([]*Conf{site, readConf(t, "cs.xml", closedCS)}).Refused() != "" {
		t.Error("a plain file is answered")
	}
}

// TestSetupSubstitutedEnable: a yarn-site.xml whose yarn.acl.enable uses
// ${...} does not tell, and the answer says so rather than asking for the
// file that was given.
func TestSetupSubstitutedEnable(t *testing.T) {
	site := readConf(t, "yarn-site.xml", "<property><name>yarn.acl.enable</name><value>${acls}</value></property>\n")
	s := NewSetup([]*Conf{site, readConf(t, "cs.xml", closedCS)})
	if s.Known {
		t.Fatal("${acls} is not known")
	}
	a := s.Check(s.CS.ByPath["root.a"], "bob", nil, Submit)
	if a.Known || !strings.Contains(a.Why, "yarn.acl.enable in yarn-site.xml uses ${...}") {
		t.Errorf("%+v", a)
	}
	if a := s.Check(s.CS.ByPath["root.a"], "alice", nil, Submit); !a.Known || !a.Allowed {
		t.Errorf("allowed whether ACLs are on or off: %+v", a)
	}
}
