package yarn

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestWhoCanAgreesWithDecide: on generated trees, who-can lists exactly
// the users and groups the check lets in (or everyone), for every queue
// and both actions.
func TestWhoCanAgreesWithDecide(t *testing.T) {
	values := []string{" ", "*", "alice", "alice,bob", " data", "alice data", "bob ops", "carol", "\n erin\n", "dev ops x"}
	r := rand.New(rand.NewSource(3))
	for n := 0; n < 300; n++ {
		var kv []string
		var walk func(path string, depth int)
		walk = func(path string, depth int) {
			for _, a := range []string{"acl_submit_applications", "acl_administer_queue"} {
				if r.Intn(2) == 0 {
					kv = append(kv, CSPrefix+path+"."+a, values[r.Intn(len(values))])
				}
			}
			if depth < 3 && r.Intn(2) == 0 {
				kv = append(kv, CSPrefix+path+".queues", "a,b")
				walk(path+".a", depth+1)
				walk(path+".b", depth+1)
			}
		}
		walk("root", 0)
		var b strings.Builder
		for i := 0; i < len(kv); i += 2 {
			fmt.Fprintf(&b, "<property><name>%s</name><value>%s</value></property>\n", kv[i], kv[i+1])
		}
		c := readConf(t, "cs.xml", b.String())
		site := readConf(t, "yarn-site.xml", "<property><name>yarn.acl.enable</name><value>true</value></property>\n")
		s := NewSetup([]*Conf{c, site})
		names := []string{"alice", "bob", "carol", "erin", "nobody", "data", "ops", "dev ops x"}
		for path, q := range s.CS.ByPath {
			for _, a := range []Action{Submit, Administer} {
				w := s.WhoCan(q, a)
				listed := func(hs []Holder, name string) bool {
					for _, h := range hs {
						if h.Name == name {
							return true
						}
					}
					return false
				}
				for _, name := range names {
					asUser := s.CS.Decide(path, name, []string{"probe-group"}, a).Allowed
					if want := len(w.Everyone) > 0 || listed(w.Users, name); asUser != want {
						t.Fatalf("%s %s user %s: check %v, who-can %v\n%s", path, a, name, asUser, want, b.String())
					}
					asGroup := s.CS.Decide(path, "probe-user", []string{name}, a).Allowed
					if want := len(w.Everyone) > 0 || listed(w.Groups, name); asGroup != want {
						t.Fatalf("%s %s group %s: check %v, who-can %v\n%s", path, a, name, asGroup, want, b.String())
					}
				}
			}
		}
	}
}

// TestAccessAgreesWithDecide: the access listing's grants are the check's
// answers, and each names an entry of the ACL that decided.
func TestAccessAgreesWithDecide(t *testing.T) {
	c := readConf(t, "cs.xml", closedCS+"<property><name>yarn.scheduler.capacity.root.a.acl_administer_queue</name><value> ops</value></property>\n")
	site := readConf(t, "yarn-site.xml", "<property><name>yarn.acl.enable</name><value>true</value></property>\n")
	s := NewSetup([]*Conf{c, site})
	for _, who := range []struct {
		user   string
		groups []string
	}{{"alice", nil}, {"bob", []string{"ops"}}, {"carol", nil}} {
		for _, r := range s.Access(who.user, who.groups) {
			for _, a := range []Action{Submit, Administer} {
				h := r.Submit
				if a == Administer {
					h = r.Admin
				}
				d := s.CS.Decide(r.Queue.Path, who.user, who.groups, a)
				if (h != nil) != d.Allowed {
					t.Errorf("%s %s on %s: listing %v, check %v", who.user, a, r.Queue.Path, h != nil, d.Allowed)
				}
				if h != nil && h.Kind == "user" && h.Name != who.user {
					t.Errorf("%s: granted as user %s", who.user, h.Name)
				}
			}
		}
	}
}
