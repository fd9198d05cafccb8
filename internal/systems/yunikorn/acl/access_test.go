package acl

import (
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

const accessConfig = `partitions:
  - name: ""
    usergroupresolver:
      type: ""
    queues:
      - name: prod
        submitacl: "deployer"
        parent: true
      - name: leaf
        adminacl: " ops"
  - name: gpu
    usergroupresolver:
      type: test
    queues:
      - name: root
        submitacl: " group1001"
        queues:
          - name: "@recovery@"
            submitacl: "*"
            queues:
              - name: below
                submitacl: testuser4
          - name: kube
            parent: true
`

func policy(t *testing.T) *Policy {
	t.Helper()
	cfg := config.Decode(config.Parse("q.yaml", []byte(accessConfig)))
	if len(cfg.Problems) > 0 {
		t.Fatal(cfg.Problems)
	}
	return NewPolicy(cfg)
}

func TestDecide(t *testing.T) {
	p := policy(t)
	for _, c := range []struct {
		q       Query
		allowed bool
		err     string
		reason  string
		note    string
	}{
		// a request's partition is looked up exactly: only "" means default
		{q: Query{Partition: "DEFAULT", Queue: "root.prod", User: "deployer", Action: Submit}, err: `partition "DEFAULT" not found`},
		{q: Query{Partition: "", Queue: "root.prod", User: "deployer", Action: Submit}, allowed: true},
		// the user is converted before the queue is looked at
		{q: Query{Partition: "default", Queue: "root..a", User: "1bad", Groups: []string{"x"}, Action: Submit}, reason: "invalid username"},
		{q: Query{Partition: "default", Queue: "root.leaf.x", User: "1bad", Groups: []string{"x"}, Action: Submit}, reason: "invalid username"},
		{q: Query{Partition: "gpu", Queue: "root.kube..x", User: "alice", Action: Submit, Resolver: resolve.Test{}}, reason: "user cannot be resolved"},
		// strings.ToLower, not EqualFold or ASCII folding: the Kelvin sign
		// finds kube, the long s finds nothing, and neither can be created
		{q: Query{Partition: "gpu", Queue: "root.\u212Aube", User: "group1001", Action: Submit}, allowed: true},
		{q: Query{Partition: "gpu", Queue: "root.kube.\u212A", User: "group1001", Action: Submit}, err: "not a valid queue name"},
		{q: Query{Partition: "gpu", Queue: "root.kube.\u017Fub", User: "group1001", Action: Submit}, err: "not a valid queue name"},
		// @recovery@ is no dynamic queue name at any depth
		{q: Query{Partition: "default", Queue: "root.prod.@recovery@", User: "deployer", Action: Submit}, err: "dynamic queue named @recovery@"},
		{q: Query{Partition: "default", Queue: "root.@recovery@.x", User: "deployer", Action: Submit}, err: "dynamic queue named @recovery@"},
		// not configured: root's ACLs answer, and a new scheduler creates it
		{q: Query{Partition: "default", Queue: "root.@recovery@", User: "deployer", Action: Submit}, note: "not configured"},
		{q: Query{Partition: "default", Queue: "root.@RECOVERY@", User: "ops", Action: Admin}, note: "not configured"},
		// configured: its submit check refuses everyone, below it too
		{q: Query{Partition: "gpu", Queue: "root.@recovery@.below", User: "testuser4", Action: Submit, Resolver: resolve.Test{}}, allowed: true},
		{q: Query{Partition: "gpu", Queue: "root.@recovery@.below", User: "group1001", Action: Submit}, note: "below YuniKorn's recovery queue"},
		{q: Query{Partition: "gpu", Queue: "root.@recovery@", User: "group1001", Action: Admin}},
		// without placement nothing creates queues: a missing queue is no queue
		{q: Query{Partition: "", Queue: "ROOT.PROD.new.deeper", User: "deployer", Action: Submit}, err: "no placement rule creates it"},
		{q: Query{Partition: "default", Queue: "root.leaf.x", User: "deployer", Action: Submit}, err: "leaf queue"},
		{q: Query{Partition: "default", Queue: "root.prod.x%y", User: "deployer", Action: Submit}, err: "not a valid queue name"},
		{q: Query{Partition: "default", Queue: "prod", User: "deployer", Action: Submit}, err: "start at root"},
		{q: Query{Partition: "GPU", Queue: "root", User: "testuser1", Action: Submit}, err: "partition \"GPU\" not found"},
		{q: Query{Partition: "default", Queue: "root.leaf", User: "x", Groups: []string{"ops"}, Action: Admin}, allowed: true},
		{q: Query{Partition: "default", Queue: "root.leaf", User: "ops", Action: Submit}, allowed: true}, // adminacl grants submit; no resolver: group "ops"
		{q: Query{Partition: "default", Queue: "root.prod", User: "ops", Action: Admin}},
		{q: Query{Partition: "default", Queue: "root.prod", User: "1bad", Groups: []string{"x"}, Action: Submit}, reason: "invalid username"},
		{q: Query{Partition: "default", Queue: "root.prod", User: "", Action: Submit}, reason: "empty user"},
		// the first partition's resolver (none) serves gpu too, whatever gpu says
		{q: Query{Partition: "gpu", Queue: "root", User: "group1001", Action: Submit}, allowed: true, note: "one user group resolver for all partitions"},
		{q: Query{Partition: "gpu", Queue: "root", User: "testuser3", Action: Submit}},
		// an explicit resolver: testuser3 is in group1001, testuser4 is not, testuser5's group lookup fails
		{q: Query{Partition: "gpu", Queue: "root", User: "testuser3", Action: Submit, Resolver: resolve.Test{}}, allowed: true},
		{q: Query{Partition: "gpu", Queue: "root", User: "testuser4", Action: Submit, Resolver: resolve.Test{}}},
		{q: Query{Partition: "gpu", Queue: "root", User: "testuser5", Action: Submit, Resolver: resolve.Test{}}, reason: "user cannot be resolved"},
		{q: Query{Partition: "gpu", Queue: "root", User: "alice", Action: Submit, Resolver: resolve.Test{}}, reason: "user cannot be resolved"},
		// the recovery queue never passes a submit check
		{q: Query{Partition: "gpu", Queue: "root.@recovery@", User: "group1001", Action: Submit}, reason: "recovery queue"},
	} {
		d, err := p.Decide(c.q)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%+v: error %v, want %q", c.q, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%+v: %v", c.q, err)
			continue
		}
		if d.Allowed != c.allowed || !strings.Contains(d.Reason, c.reason) {
			t.Errorf("%+v: allowed %v reason %q, want %v %q", c.q, d.Allowed, d.Reason, c.allowed, c.reason)
		}
		if d.Allowed && d.DecidedBy == nil {
			t.Errorf("%+v: allowed without a grant", c.q)
		}
		if c.note != "" && !strings.Contains(strings.Join(d.Notes, "\n"), c.note) {
			t.Errorf("%+v: notes %v, want %q", c.q, d.Notes, c.note)
		}
	}
}

func TestDecisionExplains(t *testing.T) {
	cfg := config.Decode(config.Parse("q.yaml", []byte(`partitions:
  - name: default
    queues:
      - name: root
        submitacl: "Sue system:serviceaccounts"
        queues:
          - name: a
            submitacl: "dev"
`)))
	d, err := NewPolicy(cfg).Decide(Query{Partition: "default", Queue: "root.a", User: "sue", Groups: []string{"dev", "system:serviceaccounts"}, Action: Submit})
	if err != nil {
		t.Fatal(err)
	}
	if d.Allowed || len(d.Consulted) != 4 {
		t.Fatalf("want a deny after 4 ACLs: %+v", d)
	}
	notes := strings.Join(d.Notes, "\n")
	for _, want := range []string{`lists "dev" as a user, but it is one of the groups`, `names group "system:serviceaccounts", but YuniKorn ignores it`, `lists user "Sue"; names are case-sensitive`} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes miss %q:\n%s", want, notes)
		}
	}
	if c := d.Consulted[0]; c.Queue != "root.a" || c.ACL != SubmitField || c.Pos.Line != 8 || c.Pos.Col != 24 {
		t.Errorf("first consulted ACL: %+v", c)
	}
}

type stubCreator struct{ queue, user string }

func (c stubCreator) Creates(_ *config.Partition, queue string, sub Subject, _ map[string]string) Creation {
	if strings.EqualFold(queue, c.queue) && sub.User == c.user {
		return Creation{By: "rule 1 (stub)"}
	}
	return Creation{Why: "the stub creates only " + c.queue + " for " + c.user}
}

func (c stubCreator) Ways(_ *config.Partition, queue string, _ map[string]string) Creation {
	return c.Creates(nil, queue, Subject{User: c.user}, nil)
}

func (c stubCreator) Lands(*config.Partition, Subject, map[string]string) (string, string, string) {
	return "", "", ""
}

// A missing queue is answered from its ancestors only when placement creates
// exactly it for this request; the rule is named.
func TestDecideCreatedQueue(t *testing.T) {
	p := policy(t)
	p.SetCreator(stubCreator{queue: "root.prod.new", user: "deployer"})
	d, err := p.Decide(Query{Queue: "ROOT.PROD.new", User: "deployer", Action: Submit})
	if err != nil || !d.Allowed || !d.Dynamic || !strings.Contains(strings.Join(d.Notes, " "), "rule 1 (stub) creates it under root.prod") {
		t.Fatalf("created queue: %+v %v", d, err)
	}
	if _, err := p.Decide(Query{Queue: "root.prod.new", User: "other", Groups: []string{"g"}, Action: Submit}); err == nil || !strings.Contains(err.Error(), "the stub creates only") {
		t.Fatalf("another user's request creates nothing: %v", err)
	}
	if _, err := p.Decide(Query{Queue: "root.prd", User: "deployer", Action: Submit}); err == nil || !strings.Contains(err.Error(), "did you mean root.prod?") {
		t.Fatalf("a typo names the nearest queue: %v", err)
	}
	r, err := p.WhoCan("", "root.prod.new", Submit)
	if err != nil || !r.Target.Dynamic {
		t.Fatalf("who-can follows the same rule: %+v %v", r, err)
	}
}

// FuzzValidQueueName keeps the hand-written queue name check equal to
// YuniKorn's pattern.
func FuzzValidQueueName(f *testing.F) {
	for _, s := range []string{"", "a", "root", "a.b", "ä", "x y", "@recovery@", strings.Repeat("a", 64), strings.Repeat("a", 65), "-_:#/@", "a\n", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := ValidQueueName(s), QueueNamePattern.MatchString(s); got != want {
			t.Fatalf("ValidQueueName(%q) = %v, the pattern says %v", s, got, want)
		}
	})
}
