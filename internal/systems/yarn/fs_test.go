package yarn

import (
	"errors"
	"strings"
	"testing"
)

func fsOf(t *testing.T, body string) *CS {
	t.Helper()
	fs, err := ReadFS("fair-scheduler.xml", []byte("<?xml version=\"1.0\"?>\n<allocations>\n"+body+"</allocations>\n"))
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// TestReadFS: AllocationFileLoaderService and AllocationFileQueueParser,
// case by case.
func TestReadFS(t *testing.T) {
	fs := fsOf(t, `<queue name=" prod ">
  <aclSubmitApps>alice data</aclSubmitApps>
  <queue name="etl"><aclAdministerApps> ops</aclAdministerApps></queue>
  <pool name="legacy"/>
  <ue name="quirk"/>
</queue>
<queue name="dev"/>
`)
	for _, p := range []string{"root", "root.prod", "root.prod.etl", "root.prod.legacy", "root.prod.quirk", "root.dev"} {
		if fs.ByPath[p] == nil {
			t.Errorf("no queue %s", p)
		}
	}
	if !fs.Root.ACL[Submit].All || !fs.Root.ACL[Administer].All {
		t.Error("root's ACLs default to *")
	}
	if dev := fs.ByPath["root.dev"]; dev.ACL[Submit].All || len(dev.ACL[Submit].Users)+len(dev.ACL[Submit].Groups) != 0 {
		t.Error("a queue's ACLs default to ' '")
	}
	if got := fs.ByPath["root.prod"].ACL[Submit]; got.UserNames()[0] != "alice" || got.GroupNames()[0] != "data" {
		t.Errorf("prod's submit ACL: %+v", got)
	}
	// the first child's text, untrimmed: a value over lines has only groups
	over := fsOf(t, "<queue name=\"a\"><aclSubmitApps>\n    alice\n  </aclSubmitApps></queue>\n")
	if acl := over.ByPath["root.a"].ACL[Submit]; len(acl.Users) != 0 || acl.GroupNames()[0] != "alice" {
		t.Errorf("a value over lines: %+v", acl)
	}
	// comments are ignored and the text around them is one node; a CDATA
	// section first is read; text before a CDATA section is all that is read
	for body, want := range map[string]string{
		"<queue name=\"a\"><aclSubmitApps>al<!-- x -->ice</aclSubmitApps></queue>":   "alice",
		"<queue name=\"a\"><aclSubmitApps><![CDATA[alice]]></aclSubmitApps></queue>": "alice",
		"<queue name=\"a\"><aclSubmitApps>al<![CDATA[ice]]></aclSubmitApps></queue>": "al",
		"<queue name=\"a\"><aclSubmitApps>a&amp;b</aclSubmitApps></queue>":           "a&b",
	} {
		if got := fsOf(t, body).ByPath["root.a"].From[Submit].Value; got != want {
			t.Errorf("%s: %q, want %q", body, got, want)
		}
	}
	// a root queue written out is the tree's root
	explicit := fsOf(t, "<queue name=\"root\"><aclSubmitApps> </aclSubmitApps><queue name=\"a\"/></queue>\n")
	if explicit.Root.From[Submit] == nil || explicit.ByPath["root.a"] == nil {
		t.Error("an explicit root queue")
	}
}

// TestReadFSRefused: what the Fair Scheduler refuses to load.
func TestReadFSRefused(t *testing.T) {
	for body, want := range map[string]string{
		"<queue name=\"a\"><aclSubmitApps></aclSubmitApps></queue>":     "NullPointerException",
		"<queue name=\"a\"><aclSubmitApps/></queue>":                    "NullPointerException",
		"<queue name=\"a\"><aclSubmitApps><x/></aclSubmitApps></queue>": "ClassCastException",
		"<queue name=\"a.b\"/>":                                         "period",
		"<queue name=\"  \"/>":                                          "empty",
		"<queue name=\"root\"/><queue name=\"a\"/>":                     "beside it",
	} {
		_, err := ReadFS("f.xml", []byte("<allocations>"+body+"</allocations>"))
		var fe *FSError
		if !errors.As(err, &fe) || !strings.Contains(fe.Msg, want) {
			t.Errorf("%s: %v, want %s", body, err, want)
		}
	}
	var fe *FSError
	if _, err := ReadFS("f.xml", []byte("<configuration/>")); !errors.As(err, &fe) {
		t.Errorf("a root element other than <allocations>: %v", err)
	}
}

func TestFSDecide(t *testing.T) {
	fs := fsOf(t, `<queue name="root">
  <aclSubmitApps> </aclSubmitApps>
  <aclAdministerApps> admins</aclAdministerApps>
  <queue name="prod">
    <aclSubmitApps>alice</aclSubmitApps>
    <queue name="etl"/>
  </queue>
</queue>
`)
	if d := fs.Decide("root.prod.etl", "alice", nil, Submit); !d.Allowed || d.Queue.Path != "root.prod" {
		t.Errorf("alice: %+v", d)
	}
	if d := fs.Decide("root.prod.etl", "bob", []string{"admins"}, Submit); !d.Allowed || d.Action != Administer {
		t.Errorf("an administrator may submit: %+v", d)
	}
	if d := fs.Decide("root.prod.etl", "bob", nil, Submit); d.Allowed {
		t.Errorf("bob: %+v", d)
	}
}

// FuzzReadFS: any bytes as an allocation file. The reader never panics,
// and a tree it builds answers any question.
func FuzzReadFS(f *testing.F) {
	f.Add([]byte("<allocations><queue name=\"a\"><aclSubmitApps>\n x\n</aclSubmitApps><ue name=\"b\"/></queue></allocations>"))
	f.Add([]byte("<allocations><queue name=\"root\"><aclSubmitApps>a<!--c-->b<![CDATA[c]]></aclSubmitApps></queue></allocations>"))
	f.Add([]byte(`<allocations><queue name="u" type="parent"><schedulingPolicy>drf</schedulingPolicy></queue><queuePlacementPolicy><rule name="specified" create="false"/><rule name="nestedUserQueue"><rule name="secondaryGroupExistingQueue"/></rule><rule name="default" queue="u.x"/></queuePlacementPolicy></allocations>`))
	f.Add([]byte(`<allocations><queue name="a"><reservation/></queue><defaultQueueSchedulingPolicy>drf</defaultQueueSchedulingPolicy><queuePlacementPolicy><rule name="primaryGroup" create="false"/><rule name="user"/></queuePlacementPolicy></allocations>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		fs, err := ReadFS("f.xml", data)
		if err != nil {
			return
		}
		for path := range fs.ByPath {
			fs.Decide(path, "u", []string{"g"}, Submit)
		}
		lintTree(fs.Conf, fs, siteInfo{}, nil, nil)
		// and its placement: a rooted queue, a rejection with a reason,
		// or not known
		s := NewFSSetup(fs, nil)
		s.Scheduler.Given = true // the policy from the defaults when the file has none
		s.site = &Conf{set: map[string]*Property{}, final: map[string]bool{}}
		for _, q := range []string{"", "default", "a", "root.u.x", "a..b", "u"} {
			p := s.PlaceFS(PlaceRequest{User: "d.ot", Groups: []string{"u", "a"}, Queue: q})
			switch {
			case p.Unknown != "":
			case p.Placed && !strings.HasPrefix(p.Queue, "root."):
				t.Fatalf("placed in %q", p.Queue)
			case !p.Placed && p.Reason == "":
				t.Fatalf("rejected without a reason: %+v", p)
			}
		}
	})
}
