package running

import (
	"context"
	"fmt"
	"strings"
)

// MaxDepth is how many levels of a queue path aclint follows. YuniKorn
// sets no depth, but no tree a person writes comes near it, and a
// scheduler that names a deeper queue must not set how long aclint runs
// or how much it prints.
const MaxDepth = 100

// Largest is the largest count or quantity aclint takes from a scheduler:
// what is used and what is asked add up without wrapping, and no cluster
// has more (2^62 bytes is four exbibytes). A number past it, or below
// zero where yunikorn-core counts or measures, is an answer aclint cannot
// read, never a figure to print.
const Largest = 1 << 62

// TooDeep is a queue path past MaxDepth levels.
type TooDeep struct {
	Queue  string
	Levels int
}

func (e *TooDeep) Error() string {
	return fmt.Sprintf("queue %s is %d levels deep: aclint follows at most %d (a scheduler's answer that deep is not a queue tree anyone wrote)", Short(e.Queue), e.Levels, MaxDepth)
}

// Short is a name as messages print it: one past a line's length is cut,
// saying how much is left out (JSON carries it whole).
func Short(name string) string {
	const most = 200
	if len(name) <= most {
		return name
	}
	cut := most
	for cut > 0 && name[cut]&0xc0 == 0x80 {
		cut-- // not inside a rune
	}
	return fmt.Sprintf("%s... (%d more bytes)", name[:cut], len(name)-cut)
}

// QueueNode is one queue of a partition's tree, with its children
// (dao.PartitionQueueDAOInfo as GET /ws/v1/partition/P/queues nests it).
type QueueNode struct {
	Queue
	Children []*QueueNode `json:"children"`
}

// QueuePath is every queue from root down to path, as the scheduler runs
// them, read in one request: GET /ws/v1/partition/P/queues, the whole
// tree. A path deeper than MaxDepth is not asked; a tree that lacks a
// level, holds one twice, or names another parent is an answer aclint
// cannot read.
func (c *Client) QueuePath(ctx context.Context, partition, path string) ([]*Queue, error) {
	levels := strings.Count(path, ".") + 1
	if levels > MaxDepth {
		return nil, &TooDeep{Queue: path, Levels: levels}
	}
	var root QueueNode
	if err := c.get(ctx, "queues", "/ws/v1/partition/"+seg(partition)+"/queues", &root); err != nil {
		return nil, err
	}
	out, err := root.walk(path)
	if err != nil {
		return nil, fmt.Errorf("%s: the scheduler's queue tree of partition %s %w", Label(c.Server), Short(partition), err)
	}
	return out, nil
}

// walk follows path down from n, checking each level.
func (n *QueueNode) walk(path string) ([]*Queue, error) {
	first, _, _ := strings.Cut(path, ".")
	if !strings.EqualFold(n.Name, first) {
		return nil, fmt.Errorf("starts at %q, not at %s", Short(n.Name), Short(first))
	}
	out := []*Queue{&n.Queue}
	for end := len(first); end < len(path); {
		next := strings.IndexByte(path[end+1:], '.')
		if next < 0 {
			end = len(path)
		} else {
			end += 1 + next
		}
		want := path[:end]
		var child *QueueNode
		for _, c := range n.Children {
			if c == nil || !strings.EqualFold(c.Name, want) {
				continue
			}
			if child != nil {
				return nil, fmt.Errorf("has %s twice under %s: not a tree", Short(want), Short(n.Name))
			}
			child = c
		}
		if child == nil {
			return nil, fmt.Errorf("has no queue %s under %s, where the application is", Short(want), Short(n.Name))
		}
		if child.Parent != "" && !strings.EqualFold(child.Parent, n.Name) {
			return nil, fmt.Errorf("has %s under %s, but says its parent is %s", Short(want), Short(n.Name), Short(child.Parent))
		}
		if err := child.Queue.check(); err != nil {
			return nil, err
		}
		out = append(out, &child.Queue)
		n = child
	}
	if err := out[0].check(); err != nil {
		return nil, err
	}
	return out, nil
}

// check refuses a queue's numbers aclint cannot take as figures.
func (q *Queue) check() error {
	if q.MaxRunningApps > Largest || q.RunningApps > Largest {
		return fmt.Errorf("says queue %s runs %d of %d applications: a count out of range", Short(q.Name), q.RunningApps, q.MaxRunningApps)
	}
	for _, m := range []map[string]int64{q.Max, q.Allocated, q.Pending} {
		if err := quantities("queue "+q.Name, m); err != nil {
			return err
		}
	}
	return nil
}

// quantities refuses a resource amount below zero or past Largest.
func quantities(of string, m map[string]int64) error {
	for r, v := range m {
		if v < 0 || v > Largest {
			return fmt.Errorf("gives %s %d of %s: an amount out of range", Short(of), v, Short(r))
		}
	}
	return nil
}

// check refuses an application's numbers aclint cannot take as figures.
func (a *Application) check() error {
	for _, r := range a.Requests {
		if err := quantities("application "+a.ID+"'s ask", r.Resource); err != nil {
			return err
		}
	}
	return nil
}

// check refuses a usage tree's numbers aclint cannot take as figures, to
// the depth aclint follows.
func (n *UsageNode) check(depth int) error {
	if n == nil {
		return nil
	}
	if depth > MaxDepth {
		return fmt.Errorf("has tracked usage more than %d levels deep", MaxDepth)
	}
	if n.MaxApplications > Largest {
		return fmt.Errorf("gives %s a maxapplications of %d: a count out of range", Short(n.Queue), n.MaxApplications)
	}
	for _, m := range []map[string]int64{n.Usage, n.MaxResources} {
		if err := quantities("queue "+n.Queue, m); err != nil {
			return err
		}
	}
	for _, c := range n.Children {
		if err := c.check(depth + 1); err != nil {
			return err
		}
	}
	return nil
}
