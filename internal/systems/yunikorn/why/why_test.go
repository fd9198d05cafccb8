package why

import (
	"math/rand"
	"reflect"
	"testing"

	"github.com/aclint/aclint/internal/systems/yunikorn/running"
)

// live is an application of alice waiting in root.a.b, with a user limit,
// a group limit, a parent queue's maxapplications, a custom resource
// limit and a vcore limit all holding it at once.
func live() Live {
	app := &running.Application{ID: "x", Queue: "root.a.b", State: "Accepted", User: "alice", Groups: []string{"g"},
		Requests: []running.Request{{Key: "x-1", Resource: map[string]int64{"vcore": 1500, "nvidia.com/gpu": 1, "pods": 1}}}}
	return Live{
		App: app,
		User: &running.UserUsage{User: "alice", Groups: map[string]string{"x": "g"}, Queues: &running.UsageNode{Queue: "root",
			Children: []*running.UsageNode{{Queue: "root.a", Running: []string{"r2", "r1"}, MaxApplications: 2,
				Usage: map[string]int64{"vcore": 3000}, MaxResources: map[string]int64{"vcore": 4000}}}}},
		TrackedGroup: "g",
		Group: &running.GroupUsage{Group: "g", Queues: &running.UsageNode{Queue: "root", Children: []*running.UsageNode{{Queue: "root.a",
			Children: []*running.UsageNode{{Queue: "root.a.b", Running: []string{"r3"}, MaxResources: map[string]int64{"nvidia.com/gpu": 2}, Usage: map[string]int64{"nvidia.com/gpu": 2}}}}}}},
		Queues: []*running.Queue{{Name: "root", Max: map[string]int64{"vcore": 100000}, Allocated: map[string]int64{"vcore": 5000}},
			{Name: "root.a", Parent: "root", MaxRunningApps: 3, RunningApps: 3},
			{Name: "root.a.b", Parent: "root.a"}},
		Active: []*running.Application{{ID: "r2", Queue: "root.a.b", State: "Running"}, {ID: "r1", Queue: "root.a", State: "Running"},
			{ID: "r3", Queue: "root.a.c", State: "Running"}, {ID: "w", Queue: "root.a.b", State: "Accepted"}, {ID: "o", Queue: "root.ab", State: "Running"}},
	}
}

// TestDecideEveryHold: every limit that holds the application is named,
// each with its count, amount and holders.
func TestDecideEveryHold(t *testing.T) {
	a := Decide(live())
	if a.State != "waiting" || !a.Waiting() {
		t.Fatalf("state %s", a.State)
	}
	want := []Hold{
		{Who: "user", Name: "alice", Queue: "root.a", Limit: "maxapplications", Used: 2, Max: 2, Need: 1, Holders: []string{"r1", "r2"}},
		{Who: "queue", Name: "root.a", Queue: "root.a", Limit: "maxapplications", Used: 3, Max: 3, Need: 1, Holders: []string{"r1", "r2", "r3"}},
		{Who: "user", Name: "alice", Queue: "root.a", Limit: "maxresources", Resource: "vcore", Used: 3000, Max: 4000, Need: 1500, Holders: []string{"r1", "r2"}},
		{Who: "group", Name: "g", Queue: "root.a.b", Limit: "maxresources", Resource: "nvidia.com/gpu", Used: 2, Max: 2, Need: 1, Holders: []string{"r3"}},
	}
	if len(a.Holds) != len(want) {
		t.Fatalf("%d holds, want %d: %+v", len(a.Holds), len(want), a.Holds)
	}
	for i := range want {
		if !reflect.DeepEqual(*a.Holds[i], want[i]) {
			t.Errorf("hold %d:\n got %+v\nwant %+v", i, *a.Holds[i], want[i])
		}
	}
}

// TestDecideIgnoresMapOrder: the scheduler lists running applications
// and children in map order; the answer is the same in any order.
func TestDecideIgnoresMapOrder(t *testing.T) {
	first := Decide(live())
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 50; i++ {
		l := live()
		n := l.User.Queues.Children[0]
		r.Shuffle(len(n.Running), func(i, j int) { n.Running[i], n.Running[j] = n.Running[j], n.Running[i] })
		r.Shuffle(len(l.Active), func(i, j int) { l.Active[i], l.Active[j] = l.Active[j], l.Active[i] })
		if got := Decide(l); !reflect.DeepEqual(got.Holds, first.Holds) {
			t.Fatalf("another order, another answer:\n%+v\n%+v", got.Holds, first.Holds)
		}
	}
}

// TestDecideStates: running, runnable (nothing holds it), an ask that
// fits among several, a running application's held asks, rejected.
func TestDecideStates(t *testing.T) {
	l := live()
	l.User, l.Group, l.Queues[1].MaxRunningApps = nil, nil, 0
	if a := Decide(l); a.State != "runnable" || a.Waiting() {
		t.Errorf("nothing holds it: %s %+v", a.State, a.Holds)
	}
	l = live()
	l.App.Requests = append(l.App.Requests, running.Request{Key: "small", Resource: map[string]int64{"vcore": 100}})
	for _, h := range Decide(l).Holds {
		if h.Limit != "maxapplications" {
			t.Errorf("an ask fits, yet a resource hold: %+v", h)
		}
	}
	l = live()
	l.App.State = "Running"
	a := Decide(l)
	if a.State != "running" || a.Waiting() || len(a.Holds) != 2 || a.Holds[0].Limit != "maxresources" {
		t.Errorf("running with a held ask: %s %+v", a.State, a.Holds)
	}
	l = live()
	l.App.State, l.App.RejectedMessage = "Rejected", "no"
	if a := Decide(l); a.State != "rejected" || !a.Waiting() || len(a.Holds) != 0 {
		t.Errorf("rejected: %+v", a)
	}
}

// TestEventsOnlyConfirm: an event never adds or removes a hold; one that
// says otherwise than the numbers is said to disagree.
func TestEventsOnlyConfirm(t *testing.T) {
	l := live()
	l.User, l.Group, l.Queues[1].MaxRunningApps = nil, nil, 0
	l.Events = []running.Event{{Object: "x", Detail: running.EventCannotRunQuota, Time: 2}, {Object: "x", Detail: running.EventCannotRunQueue, Time: 1}, {Object: "y", Detail: running.EventRunnableQuota, Time: 3}}
	a := Decide(l)
	if a.State != "runnable" || a.Event == nil || a.Event.Detail != running.EventCannotRunQuota {
		t.Fatalf("%s %+v", a.State, a.Event)
	}
	if ok := a.Agrees(); ok == nil || *ok {
		t.Errorf("a quota event with no quota hold agrees")
	}
	if a := Decide(live()); a.Event != nil || a.Agrees() != nil {
		t.Errorf("no event, yet %+v", a.Event)
	}
}

func TestQuantity(t *testing.T) {
	for _, c := range []struct {
		r    string
		v    int64
		want string
	}{{"vcore", 4000000, "4000000m (4000 cores)"}, {"vcore", 1500, "1500m"}, {"memory", 2 << 30, "2147483648 (2Gi)"}, {"memory", 1000, "1000"}, {"nvidia.com/gpu", 2, "2"}} {
		if got := Quantity(c.r, c.v); got != c.want {
			t.Errorf("Quantity(%s, %d) = %q, want %q", c.r, c.v, got, c.want)
		}
	}
}
