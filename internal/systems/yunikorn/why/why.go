// Package why answers "my application is accepted but not running: why?"
// from what a running scheduler says (the application, its user's and its
// group's tracked usage, every queue from the application's up to root)
// and the config it runs: every limit that holds the application, the
// count or amount used against it, the applications that hold the slots,
// the config entry that sets it, and what would free it.
//
// The scheduler's numbers decide; the config only says where a limit is
// written. A user or group limit holds an application that is not running
// when its running applications at some queue already reach maxapplications
// (ugm's canRunApp), or when no ask of it fits maxresources less what its
// applications use there (the headroom the allocator asks); a queue's own
// maxapplications (runningApps against maxRunningApps) and resources.max
// (allocated against max) hold it the same way, at every level up to
// root. Events (213, 215, 216) may confirm, never decide: the buffer
// forgets.
package why

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aclint/aclint/internal/systems/yunikorn/running"
)

// Live is what the scheduler said, read by the caller.
type Live struct {
	App *running.Application
	// User is the user's tracked usage; nil when the scheduler tracks
	// none (404).
	User *running.UserUsage
	// Group is the tracked group's usage; nil when none.
	Group *running.GroupUsage
	// TrackedGroup is the group the application is tracked under (the
	// user's usage says), "" when none.
	TrackedGroup string
	// Queues are the application's queue and its parents, root first.
	Queues []*running.Queue
	// Active are the partition's active applications (the holders of a
	// queue's slots).
	Active []*running.Application
	// Events are the scheduler's event records, nil when it keeps none.
	Events []running.Event
}

// Answer is what holds an application, or that nothing does.
type Answer struct {
	App *running.Application
	// State is the answer in one word: running, runnable, waiting,
	// rejected, completed, failed, new
	State string
	Holds []*Hold
	// Event is the scheduler's last event on whether the application may
	// run (213, 215, 216), nil when the buffer has none.
	Event *running.Event
	Notes []string
}

// Waiting reports whether the answer is exit 1: the application is held,
// refused or failed.
func (a *Answer) Waiting() bool {
	switch a.State {
	case "waiting", "rejected", "failed", "new":
		return true
	}
	return false
}

// Hold is one limit that holds the application.
type Hold struct {
	// Who is "user", "group" or "queue"; Name the user or the group (the
	// queue's path for a queue).
	Who, Name string
	// Queue is the level the limit is on.
	Queue string
	// Limit is "maxapplications", "maxresources" (a user or group limit)
	// or "resources.max" (the queue's own).
	Limit string
	// Resource is the resource of a resource limit.
	Resource string
	// Used, Max and Need: the running count or the amount used, the
	// limit, and what the application asks (1 for an application).
	Used, Max, Need int64
	// Holders are the applications holding the slots (sorted).
	Holders []string
	// Cluster marks root's resources.max: what the nodes offer, not a
	// limit anyone wrote.
	Cluster bool
}

// Decide reads the answer from what the scheduler said.
func Decide(l Live) *Answer {
	a := &Answer{App: l.App, Event: lastEvent(l.Events, l.App.ID)}
	switch strings.ToLower(l.App.State) {
	case "running", "completing":
		a.State = "running"
	case "completed":
		a.State = "completed"
	case "rejected":
		a.State = "rejected"
		return a
	case "failing", "failed", "expired":
		a.State = "failed"
		return a
	case "new":
		a.State = "new"
		if len(l.App.Requests) == 0 {
			a.Notes = append(a.Notes, "the scheduler has no request of it yet: it is accepted with its first ask (the shim sends one per pod)")
		}
	default:
		a.State = "waiting"
	}
	if a.State == "completed" {
		return a
	}
	if a.State != "running" {
		a.Holds = append(a.Holds, appHolds(l)...)
	}
	a.Holds = append(a.Holds, resourceHolds(l, a)...)
	if a.State == "waiting" && len(a.Holds) == 0 {
		a.State = "runnable"
	}
	return a
}

// appHolds are the maxapplications limits that hold an application that
// does not run yet.
func appHolds(l Live) []*Hold {
	var out []*Hold
	for _, q := range l.Queues {
		if l.User != nil {
			out = append(out, countHold("user", l.User.User, q.Name, l.User.Queues.Find(q.Name), l.App.ID)...)
		}
		if l.Group != nil {
			out = append(out, countHold("group", l.TrackedGroup, q.Name, l.Group.Queues.Find(q.Name), l.App.ID)...)
		}
		if q.MaxRunningApps > 0 && q.RunningApps >= q.MaxRunningApps {
			out = append(out, &Hold{Who: "queue", Name: q.Name, Queue: q.Name, Limit: "maxapplications",
				Used: int64(q.RunningApps), Max: int64(q.MaxRunningApps), Need: 1, Holders: runningIn(l.Active, q.Name)})
		}
	}
	return out
}

func countHold(who, name, queue string, n *running.UsageNode, app string) []*Hold {
	if n == nil || n.MaxApplications == 0 || uint64(len(n.Running)) < n.MaxApplications || slices.Contains(n.Running, app) {
		return nil
	}
	return []*Hold{{Who: who, Name: name, Queue: queue, Limit: "maxapplications", Used: int64(len(n.Running)),
		Max: int64(n.MaxApplications), Need: 1, Holders: slices.Sorted(slices.Values(n.Running))}}
}

// resourceHolds are the resource limits that no pending ask of the
// application fits: those of its first ask when every ask is held
// (allocation tries each; one that fits is enough).
func resourceHolds(l Live, a *Answer) []*Hold {
	var first []*Hold
	asks := 0
	for _, r := range l.App.Requests {
		if len(r.Resource) == 0 {
			continue
		}
		asks++
		h := askHolds(l, r.Resource)
		if len(h) == 0 {
			return nil
		}
		if first == nil {
			first = h
		}
	}
	if asks > 1 && first != nil {
		a.Notes = append(a.Notes, fmt.Sprintf("none of its %d pending asks fits; the limits shown hold its first", asks))
	}
	return first
}

func askHolds(l Live, ask map[string]int64) []*Hold {
	var out []*Hold
	for _, q := range l.Queues {
		if l.User != nil {
			out = append(out, amountHolds("user", l.User.User, q.Name, l.User.Queues.Find(q.Name), ask)...)
		}
		if l.Group != nil {
			out = append(out, amountHolds("group", l.TrackedGroup, q.Name, l.Group.Queues.Find(q.Name), ask)...)
		}
		for _, r := range slices.Sorted(maps.Keys(q.Max)) {
			need, ok := ask[r]
			if !ok || need <= 0 {
				continue
			}
			if used := q.Allocated[r]; need > q.Max[r]-used {
				out = append(out, &Hold{Who: "queue", Name: q.Name, Queue: q.Name, Limit: "resources.max", Resource: r,
					Used: used, Max: q.Max[r], Need: need, Holders: runningIn(l.Active, q.Name), Cluster: q.Parent == "" && strings.EqualFold(q.Name, "root")})
			}
		}
	}
	return out
}

func amountHolds(who, name, queue string, n *running.UsageNode, ask map[string]int64) []*Hold {
	if n == nil {
		return nil
	}
	var out []*Hold
	for _, r := range slices.Sorted(maps.Keys(n.MaxResources)) {
		need, ok := ask[r]
		if !ok || need <= 0 {
			continue
		}
		if used := n.Usage[r]; need > n.MaxResources[r]-used {
			out = append(out, &Hold{Who: who, Name: name, Queue: queue, Limit: "maxresources", Resource: r,
				Used: used, Max: n.MaxResources[r], Need: need, Holders: slices.Sorted(slices.Values(n.Running))})
		}
	}
	return out
}

// runningIn lists the applications that run in queue or below it.
func runningIn(active []*running.Application, queue string) []string {
	var out []string
	prefix := strings.ToLower(queue) + "."
	for _, a := range active {
		q := strings.ToLower(a.Queue)
		s := strings.ToLower(a.State)
		if (q == strings.ToLower(queue) || strings.HasPrefix(q, prefix)) && (s == "running" || s == "completing") {
			out = append(out, a.ID)
		}
	}
	slices.Sort(out)
	return out
}

// lastEvent is the application's latest event on whether it may run.
func lastEvent(events []running.Event, app string) *running.Event {
	var last *running.Event
	for i := range events {
		e := &events[i]
		if e.Object != app {
			continue
		}
		switch e.Detail {
		case running.EventCannotRunQueue, running.EventCannotRunQuota, running.EventRunnableQuota:
			if last == nil || e.Time >= last.Time {
				last = e
			}
		}
	}
	return last
}

// EventName names an event's detail as yunikorn's si does.
func EventName(detail int) string {
	switch detail {
	case running.EventCannotRunQueue:
		return "APP_CANNOTRUN_QUEUE (213: a queue's maxapplications)"
	case running.EventCannotRunQuota:
		return "APP_CANNOTRUN_QUOTA (215: a user's or a group's limit; the event does not say which)"
	case running.EventRunnableQuota:
		return "APP_RUNNABLE_QUOTA (216: no longer held by a user or group limit)"
	}
	return fmt.Sprint(detail)
}

// Agrees says whether the event agrees with the holds found: nil when
// there is no event to hold them to.
func (a *Answer) Agrees() *bool {
	if a.Event == nil {
		return nil
	}
	var queue, quota bool
	for _, h := range a.Holds {
		if h.Limit != "maxapplications" {
			continue
		}
		if h.Who == "queue" {
			queue = true
		} else {
			quota = true
		}
	}
	var ok bool
	switch a.Event.Detail {
	case running.EventCannotRunQueue:
		ok = queue
	case running.EventCannotRunQuota:
		ok = quota
	case running.EventRunnableQuota:
		ok = !quota
	}
	return &ok
}

// Quantity writes an amount of a resource in the scheduler's units, with
// vcore as cores too.
func Quantity(resource string, v int64) string {
	switch resource {
	case "vcore":
		if v%1000 == 0 {
			return fmt.Sprintf("%dm (%d cores)", v, v/1000)
		}
		return fmt.Sprintf("%dm", v)
	case "memory", "ephemeral-storage":
		return bytes(v)
	}
	return fmt.Sprint(v)
}

func bytes(v int64) string {
	for _, u := range []struct {
		n    int64
		name string
	}{{1 << 40, "Ti"}, {1 << 30, "Gi"}, {1 << 20, "Mi"}, {1 << 10, "Ki"}} {
		if v >= u.n && v%u.n == 0 {
			return fmt.Sprintf("%d (%d%s)", v, v/u.n, u.name)
		}
	}
	return fmt.Sprint(v)
}
