package commands

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/limits"
	"github.com/aclint/aclint/internal/systems/yunikorn/running"
	"github.com/aclint/aclint/internal/systems/yunikorn/why"
)

// liveCount is one limit's live count on a running scheduler: what the
// user, the group or the queue has running (or uses) against it, and how
// many more (or how much more) it may start. Running lists the
// applications a maxapplications count counts, once per level: a resource
// limit's count is an amount, and repeating the list under each of a
// level's resources made 40,000 applications under 400 limits 332 MB.
type liveCount struct {
	Who      string   `json:"who"`
	Name     string   `json:"name"`
	Queue    string   `json:"queue"`
	Limit    string   `json:"limit"`
	Resource string   `json:"resource,omitempty"`
	Used     int64    `json:"used"`
	Max      int64    `json:"max"`
	More     int64    `json:"more"`
	Running  []string `json:"running,omitempty"`
}

// liveServer is the --server among a command's config paths, "" when none.
func liveServer(files []string) string {
	for _, f := range files {
		if u, ok := strings.CutPrefix(f, serverMark); ok {
			return u
		}
	}
	return ""
}

// liveLimits asks the scheduler for the user's and the tracked group's
// usage and for each queue of the answer's path, and counts them against
// the limits the scheduler applies there (its usage says which). A user
// or group without tracked usage has nothing running.
func (s *streams) liveLimits(server string, a *limits.Answer) ([]liveCount, error) {
	ctx := s.serverContext()
	c, err := s.client(server)
	if err != nil {
		return nil, err
	}
	var out []liveCount
	user, err := c.User(ctx, a.Partition, a.User)
	if err != nil {
		return nil, clikit.Usage("%w", err)
	}
	var group *running.GroupUsage
	if a.Tracked {
		if group, err = c.Group(ctx, a.Partition, a.TrackedGroup); err != nil {
			return nil, clikit.Usage("%w", err)
		}
	}
	queues, err := s.liveQueues(ctx, c, a)
	if err != nil {
		return nil, err
	}
	for _, lv := range a.Levels {
		if lv.User != nil {
			out = append(out, usageCounts("user", a.User, lv.Queue, lv.User, userNode(user, lv.Queue))...)
		}
		if lv.Group != nil && a.Tracked {
			out = append(out, usageCounts("group", a.TrackedGroup, lv.Queue, lv.Group, groupNode(group, lv.Queue))...)
		}
		if lv.QueueOwn == nil || lv.Dynamic {
			continue
		}
		q := queues[strings.ToLower(lv.Queue)]
		if q == nil {
			return nil, clikit.Usage("%s: the scheduler's queue tree has no %s, where the config it runs has a limit", running.Label(server), running.Short(lv.Queue))
		}
		if q.MaxRunningApps > 0 {
			out = append(out, liveCount{Who: "queue", Name: lv.Queue, Queue: lv.Queue, Limit: "maxapplications", Used: int64(q.RunningApps),
				Max: int64(q.MaxRunningApps), More: more(int64(q.MaxRunningApps), int64(q.RunningApps))})
		}
		for _, r := range slices.Sorted(maps.Keys(q.Max)) {
			if lv.QueueOwn.MaxResources == nil {
				break
			}
			if _, ok := lv.QueueOwn.MaxResources[r]; !ok {
				continue
			}
			out = append(out, liveCount{Who: "queue", Name: lv.Queue, Queue: lv.Queue, Limit: "resources.max", Resource: r,
				Used: q.Allocated[r], Max: q.Max[r], More: more(q.Max[r], q.Allocated[r])})
		}
	}
	return out, nil
}

// liveQueues reads, in one request, the queues of the answer's path that
// have limits of their own, by lower-cased name.
func (s *streams) liveQueues(ctx context.Context, c *running.Client, a *limits.Answer) (map[string]*running.Queue, error) {
	deepest := ""
	for _, lv := range a.Levels {
		if lv.QueueOwn != nil && !lv.Dynamic && len(lv.Queue) > len(deepest) {
			deepest = lv.Queue
		}
	}
	out := map[string]*running.Queue{}
	if deepest == "" {
		return out, nil
	}
	path, err := c.QueuePath(ctx, a.Partition, deepest)
	if err != nil {
		return nil, clikit.Usage("%w", err)
	}
	for _, q := range path {
		out[strings.ToLower(q.Name)] = q
	}
	return out, nil
}

func userNode(u *running.UserUsage, q string) *running.UsageNode {
	if u == nil {
		return nil
	}
	return u.Queues.Find(q)
}

func groupNode(g *running.GroupUsage, q string) *running.UsageNode {
	if g == nil {
		return nil
	}
	return g.Queues.Find(q)
}

// usageCounts counts a user's or a group's usage at one level against the
// figure the config sets there; the scheduler's own figure wins when its
// usage names one.
func usageCounts(who, name, queue string, f *limits.Figure, n *running.UsageNode) []liveCount {
	var out []liveCount
	running := []string{}
	if n != nil {
		running = append(running, n.Running...)
		slices.Sort(running)
	}
	if f.MaxApplications > 0 {
		max := int64(f.MaxApplications)
		if n != nil && n.MaxApplications > 0 {
			max = int64(n.MaxApplications)
		}
		out = append(out, liveCount{Who: who, Name: name, Queue: queue, Limit: "maxapplications", Used: int64(len(running)), Max: max,
			More: more(max, int64(len(running))), Running: running})
	}
	for _, r := range f.MaxResources.Names() {
		max := f.MaxResources[r]
		var used int64
		if n != nil {
			used = n.Usage[r]
			if v, ok := n.MaxResources[r]; ok {
				max = v
			}
		}
		out = append(out, liveCount{Who: who, Name: name, Queue: queue, Limit: "maxresources", Resource: r, Used: used, Max: max,
			More: more(max, used)})
	}
	return out
}

func more(max, used int64) int64 {
	if used >= max {
		return 0
	}
	return max - used
}

// writeLive writes the live counts under limits' text answer.
func writeLive(w io.Writer, source string, counts []liveCount) error {
	if _, err := engine.Fprintf(w, "\nlive, from the scheduler at %s:\n", source); err != nil {
		return err
	}
	if len(counts) == 0 {
		_, err := io.WriteString(w, "  no limit applies, so nothing is counted\n")
		return err
	}
	for _, c := range counts {
		who := c.Name
		if c.Who == "group" {
			who = "group " + c.Name
		}
		var line string
		switch {
		case c.Who == "queue" && c.Limit == "maxapplications":
			line = fmt.Sprintf("queue %s: %d of %d running, %d more", c.Queue, c.Used, c.Max, c.More)
		case c.Who == "queue":
			line = fmt.Sprintf("queue %s: %s %s allocated of %s, %s more", c.Queue, c.Resource, why.Quantity(c.Resource, c.Used), why.Quantity(c.Resource, c.Max), why.Quantity(c.Resource, c.More))
		case c.Limit == "maxapplications":
			line = fmt.Sprintf("%s: %d of %d running in %s%s, %d more", who, c.Used, c.Max, c.Queue, holders(c.Running), c.More)
		default:
			line = fmt.Sprintf("%s: %s %s used of %s in %s, %s more", who, c.Resource, why.Quantity(c.Resource, c.Used), why.Quantity(c.Resource, c.Max), c.Queue, why.Quantity(c.Resource, c.More))
		}
		if _, err := engine.Fprintf(w, "  %s\n", line); err != nil {
			return err
		}
	}
	return nil
}
