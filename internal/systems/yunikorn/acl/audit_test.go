package acl

import (
	"github.com/aclint/aclint/internal/vectors"
	"testing"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

// acceptedConfigs returns the configs of the conformance vectors that
// YuniKorn accepts: real-world-shaped trees full of ACL pitfalls.
func acceptedConfigs(t *testing.T) []*config.Config {
	t.Helper()
	var out []*config.Config
	vectors.Each(t, []string{"../../../../testdata/conformance/*.jsonl"}, func(_ string, _ int, v *vectors.Config) {
		if v.Valid {
			out = append(out, config.Decode(config.Parse("q.yaml", []byte(v.Config))))
		}
	})
	if len(out) < 100 {
		t.Fatalf("only %d accepted configs", len(out))
	}
	return out
}

var askers = []Query{
	{User: "sue"}, {User: "alice", Groups: []string{"dev"}}, {User: "bob", Groups: []string{"ops", "test"}},
	{User: "x$"}, {User: "testuser1", Groups: []string{"_grp", "g.dot"}}, {User: "nobody", Groups: []string{"prod"}},
}

// TestAccessAgreesWithCheck: every row of an access listing is the answer
// check gives for that queue.
func TestAccessAgreesWithCheck(t *testing.T) {
	for ci, cfg := range acceptedConfigs(t) {
		p := NewPolicy(cfg)
		for _, q := range askers {
			q.Resolver = resolve.None{}
			err := p.Access(q, Scope{}, func(AccessResult) error { return nil }, func(row AccessRow) error {
				for _, action := range []Action{Submit, Admin} {
					qq := q
					qq.Partition, qq.Queue, qq.Action = row.Partition, row.Queue, action
					d, err := p.Decide(qq)
					if err != nil {
						t.Fatalf("config %d: %v", ci, err)
					}
					got := row.Submit != nil
					if action == Admin {
						got = row.Admin != nil
					}
					if got != d.Allowed {
						t.Errorf("config %d %s %s %s %v: access says %v, check says %v", ci, row.Partition, row.Queue, action, q.User, got, d.Allowed)
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestWhoCanAgreesWithCheck: a named user or group is listed by who-can
// exactly when check allows it (a user alone, a group alone).
func TestWhoCanAgreesWithCheck(t *testing.T) {
	for ci, cfg := range acceptedConfigs(t) {
		p := NewPolicy(cfg)
		principals := p.NamedPrincipals()
		for _, part := range cfg.Partitions {
			part.Root.Walk(func(q *config.Queue) {
				for _, action := range []Action{Submit, Admin} {
					w, err := p.WhoCan(part.CanonicalName(), q.Path(), action)
					if err != nil {
						t.Fatal(err)
					}
					listed := map[string]bool{}
					for _, h := range append(w.Users, w.Groups...) {
						listed[h.Kind+":"+h.Name] = true
					}
					for _, pr := range principals {
						qq := Query{Partition: part.CanonicalName(), Queue: q.Path(), Action: action, User: pr.Name, Resolver: resolve.None{}}
						if pr.Kind == "group" {
							qq.User, qq.Groups = "zz-no-such-user", []string{pr.Name}
						} else {
							qq.Groups = []string{"zz-no-such-group"}
						}
						d, err := p.Decide(qq)
						if err != nil || d.Reason != "" {
							continue // a name check would reject the request itself
						}
						if want := d.Allowed; (listed[pr.String()] || len(w.Everyone) > 0) != want {
							t.Errorf("config %d %s %s %s: who-can lists it %v (everyone %d), check says %v", ci, q.Path(), action, pr, listed[pr.String()], len(w.Everyone), want)
						}
					}
				}
			})
		}
	}
}

// TestDiffAgreesWithCheck: comparing each config with the next, a principal
// gains or loses access exactly where check's answers differ.
func TestDiffAgreesWithCheck(t *testing.T) {
	cfgs := acceptedConfigs(t)
	for i := 0; i+1 < len(cfgs) && i < 120; i++ {
		po, pn := NewPolicy(cfgs[i]), NewPolicy(cfgs[i+1])
		res := Diff(po, pn)
		changed := map[string]bool{}
		for _, c := range res.Changes {
			changed[c.Partition+"|"+c.Queue+"|"+string(c.Action)+"|"+c.Principal] = c.Gained
		}
		principals := mergePrincipals(po.NamedPrincipals(), pn.NamedPrincipals())
		for _, part := range cfgs[i].Partitions {
			if cfgs[i+1].Partition(part.CanonicalName()) == nil {
				continue
			}
			part.Root.Walk(func(q *config.Queue) {
				for _, action := range []Action{Submit, Admin} {
					for _, pr := range principals {
						qq := Query{Partition: part.CanonicalName(), Queue: q.Path(), Action: action, User: pr.Name, Groups: []string{"zz-no-such-group"}, Resolver: resolve.None{}}
						if pr.Kind == "group" {
							qq.User, qq.Groups = "zz-no-such-user", []string{pr.Name}
						}
						a, errA := po.Decide(qq)
						b, errB := pn.Decide(qq)
						if errA != nil || errB != nil || a.Reason != "" || b.Reason != "" {
							continue // the queue is not in the new config, or the name is rejected
						}
						if _, missing, _ := FindQueue(pn.cfg.Partition(part.CanonicalName()).Root, q.Path()); len(missing) > 0 {
							continue // removed queues are reported as removed
						}
						key := part.CanonicalName() + "|" + q.Path() + "|" + string(action) + "|" + pr.String()
						gained, ok := changed[key]
						switch {
						case a.Allowed == b.Allowed && ok:
							t.Errorf("pair %d %s: diff reports a change, check answers %v both times", i, key, a.Allowed)
						case a.Allowed != b.Allowed && (!ok || gained != b.Allowed):
							t.Errorf("pair %d %s: check goes %v -> %v, diff says %v (reported %v)", i, key, a.Allowed, b.Allowed, gained, ok)
						}
					}
				}
			})
		}
	}
}

func TestMatrixAgreesWithCheck(t *testing.T) {
	for ci, cfg := range acceptedConfigs(t)[:60] {
		p := NewPolicy(cfg)
		principals := p.NamedPrincipals()
		err := p.Matrix(principals, Scope{}, func(partition, queue string, cells []Cell) error {
			for i, pr := range principals {
				qq := Query{Partition: partition, Queue: queue, User: pr.Name, Groups: []string{"zz-no-such-group"}, Resolver: resolve.None{}}
				if pr.Kind == "group" {
					qq.User, qq.Groups = "zz-no-such-user", []string{pr.Name}
				}
				qq.Action = Submit
				s, _ := p.Decide(qq)
				qq.Action = Admin
				a, _ := p.Decide(qq)
				if s.Reason != "" {
					continue
				}
				want := NoAccess
				if a.Allowed {
					want = SubmitAdmin
				} else if s.Allowed {
					want = SubmitOnly
				}
				if cells[i] != want {
					t.Errorf("config %d %s %s: matrix %v, check %v", ci, queue, pr, cells[i], want)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
