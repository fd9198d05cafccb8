package running

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// What a running scheduler says of its applications, users, groups and
// queues: yunikorn-core's webservice DAOs (dao.ApplicationDAOInfo,
// dao.UserResourceUsageDAOInfo, dao.GroupResourceUsageDAOInfo,
// dao.ResourceUsageDAOInfo, dao.PartitionQueueDAOInfo, dao.EventRecordDAO),
// with the fields aclint why reads. Quantities are the scheduler's own
// (vcore in millicores, memory in bytes, pods, any custom resource), and
// lists come in the core's map order: nothing here depends on it.

// Application is one application as the scheduler has it.
type Application struct {
	ID              string           `json:"applicationID"`
	Partition       string           `json:"partition"`
	Queue           string           `json:"queueName"`
	State           string           `json:"applicationState"`
	User            string           `json:"user"`
	Groups          []string         `json:"groups"`
	Pending         map[string]int64 `json:"pendingResource"`
	Used            map[string]int64 `json:"usedResource"`
	Requests        []Request        `json:"requests"`
	Allocations     []Request        `json:"allocations"`
	RejectedMessage string           `json:"rejectedMessage"`
	SubmissionTime  int64            `json:"submissionTime"`
	StateLog        []struct {
		Time  int64  `json:"time"`
		State string `json:"applicationState"`
	} `json:"stateLog"`
}

// Request is one ask (or allocation) of an application.
type Request struct {
	Key      string           `json:"allocationKey"`
	Resource map[string]int64 `json:"resource"`
}

// UsageNode is one queue of a user's or a group's tracked usage: what its
// applications use there, which of them run, and the limits the user and
// group manager applies there (zero and nil: none).
type UsageNode struct {
	Queue           string           `json:"queuePath"`
	Usage           map[string]int64 `json:"resourceUsage"`
	Running         []string         `json:"runningApplications"`
	MaxResources    map[string]int64 `json:"maxResources"`
	MaxApplications uint64           `json:"maxApplications"`
	Children        []*UsageNode     `json:"children"`
}

// Find returns the node of queue path, or nil. A child is matched by
// comparing its name with the path's start in place (no copy of the path
// per child: a node may have tens of thousands).
func (n *UsageNode) Find(path string) *UsageNode {
	for depth := 0; n != nil && depth <= MaxDepth; depth++ {
		if strings.EqualFold(n.Queue, path) {
			return n
		}
		var next *UsageNode
		for _, c := range n.Children {
			if c != nil && (strings.EqualFold(c.Queue, path) || len(c.Queue) < len(path) && path[len(c.Queue)] == '.' && strings.EqualFold(c.Queue, path[:len(c.Queue)])) {
				next = c
				break
			}
		}
		n = next
	}
	return nil
}

// UserUsage is a user's tracked usage; Groups maps each of the user's
// applications to the group it is tracked under.
type UserUsage struct {
	User   string            `json:"userName"`
	Groups map[string]string `json:"groups"`
	Queues *UsageNode        `json:"queues"`
}

// GroupUsage is a group's tracked usage.
type GroupUsage struct {
	Group        string     `json:"groupName"`
	Applications []string   `json:"applications"`
	Queues       *UsageNode `json:"queues"`
}

// Queue is one queue as the scheduler runs it.
type Queue struct {
	Name           string           `json:"queuename"`
	Max            map[string]int64 `json:"maxResource"`
	Allocated      map[string]int64 `json:"allocatedResource"`
	Pending        map[string]int64 `json:"pendingResource"`
	Headroom       map[string]int64 `json:"headroom"`
	MaxRunningApps uint64           `json:"maxRunningApps"`
	RunningApps    uint64           `json:"runningApps"`
	IsLeaf         bool             `json:"isLeaf"`
	Parent         string           `json:"parent"`
}

// Event is one record of the scheduler's event buffer.
type Event struct {
	Type      int    `json:"type"`
	Object    string `json:"objectID"`
	Time      int64  `json:"timestampNano"`
	Detail    int    `json:"eventChangeDetail"`
	Message   string `json:"message"`
	Reference string `json:"referenceID"`
}

// The application event details that say whether it may run (si.pb.go
// EventRecord_ChangeDetail).
const (
	EventCannotRunQueue = 213 // APP_CANNOTRUN_QUEUE: a queue's maxapplications
	EventCannotRunQuota = 215 // APP_CANNOTRUN_QUOTA: a user's or a group's limit
	EventRunnableQuota  = 216 // APP_RUNNABLE_QUOTA: no longer held by a user or group limit
)

// Client asks one scheduler's REST API, every request over one pool of
// connections (a run asks several, and a new transport for each would
// open a connection each).
type Client struct {
	Server  string
	Options Options
	http    *http.Client
}

// NewClient is a client of the scheduler at server.
func NewClient(server string, o Options) (*Client, error) {
	hc, err := o.client()
	if err != nil {
		return nil, err
	}
	return &Client{Server: server, Options: o, http: hc}, nil
}

// NotFound is a 404: the scheduler has no such object (an application, a
// user or a group without tracked usage, a queue).
type NotFound struct{ What, Message string }

func (e *NotFound) Error() string { return e.What + ": " + e.Message }

// get asks route (below /ws/v1) and decodes its JSON answer into v.
func (c *Client) get(ctx context.Context, what, route string, v any) error {
	target, label, err := endpoint(c.Server, route)
	if err != nil {
		return err
	}
	resp, data, err := c.Options.do(ctx, c.http, http.MethodGet, target, nil, "application/json")
	if err != nil {
		return &Error{label, err}
	}
	if resp.StatusCode == http.StatusNotFound {
		var e struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(data, &e) != nil || e.Message == "" {
			return &Error{label, fmt.Errorf("answered 404 without yunikorn-core's error body%s: is this a YuniKorn scheduler's REST address (port 9080)?", c.Options.snippet(data, target))}
		}
		return &NotFound{What: Short(what), Message: Short(e.Message)}
	}
	if resp.StatusCode != http.StatusOK {
		return &Error{label, fmt.Errorf("answered %s%s", resp.Status, c.Options.snippet(data, target))}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return &Error{label, fmt.Errorf("answered something that is not yunikorn-core's %s (%v)%s", Short(what), err, c.Options.snippet(data, target))}
	}
	return nil
}

func seg(s string) string { return url.PathEscape(s) }

// Application is GET /ws/v1/partition/P/application/ID: the application
// while the partition holds it (neither rejected nor completed). An
// answer about another application, or in another partition, is not
// taken for this one.
func (c *Client) Application(ctx context.Context, partition, id string) (*Application, error) {
	var a Application
	if err := c.get(ctx, "application "+id, "/ws/v1/partition/"+seg(partition)+"/application/"+seg(id), &a); err != nil {
		return nil, err
	}
	switch {
	case a.ID == "":
		return nil, c.odd("the answer names no application")
	case a.ID != id:
		return nil, c.odd("asked for application %s, it answered about %s", Short(id), Short(a.ID))
	case a.Partition != "" && !strings.EqualFold(a.Partition, partition):
		return nil, c.odd("asked for %s in partition %s, it answered with one in partition %s", Short(id), Short(partition), Short(a.Partition))
	}
	if err := a.check(); err != nil {
		return nil, c.odd("%w", err)
	}
	return &a, nil
}

// odd is an answer that contradicts what was asked, or itself.
func (c *Client) odd(format string, args ...any) error {
	return &Error{Label(c.Server), fmt.Errorf(format, args...)}
}

// Applications is GET /ws/v1/partition/P/applications/STATE (active,
// rejected or completed).
func (c *Client) Applications(ctx context.Context, partition, state string) ([]*Application, error) {
	var l []*Application
	if err := c.get(ctx, state+" applications", "/ws/v1/partition/"+seg(partition)+"/applications/"+state, &l); err != nil {
		return nil, err
	}
	queueOf := make(map[string]string, len(l))
	for _, a := range l {
		if a == nil {
			continue
		}
		if q, twice := queueOf[a.ID]; twice {
			return nil, c.odd("lists application %s twice among the %s applications (in %s and in %s)", Short(a.ID), state, Short(q), Short(a.Queue))
		}
		queueOf[a.ID] = a.Queue
		if err := a.check(); err != nil {
			return nil, c.odd("%w", err)
		}
	}
	return l, nil
}

// User is GET /ws/v1/partition/P/usage/user/U; nil without an error when
// the user has no tracked usage (404).
func (c *Client) User(ctx context.Context, partition, user string) (*UserUsage, error) {
	var u UserUsage
	err := c.get(ctx, "user "+user, "/ws/v1/partition/"+seg(partition)+"/usage/user/"+seg(user), &u)
	var nf *NotFound
	if errors.As(err, &nf) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if u.User != user {
		return nil, c.odd("asked for the usage of user %s, it answered with %s's", Short(user), Short(u.User))
	}
	if err := u.Queues.check(0); err != nil {
		return nil, c.odd("user %s's usage %w", Short(user), err)
	}
	return &u, nil
}

// Group is the tracked usage of group, nil without an error when it has
// none: GET /ws/v1/partition/P/usage/group/G, or, for the wildcard group
// "*", which that route refuses as a name, its entry of
// /ws/v1/partition/P/usage/groups.
func (c *Client) Group(ctx context.Context, partition, group string) (*GroupUsage, error) {
	g, err := c.group(ctx, partition, group)
	if g == nil || err != nil {
		return nil, err
	}
	if g.Group != group {
		return nil, c.odd("asked for the usage of group %s, it answered with %s's", Short(group), Short(g.Group))
	}
	if err := g.Queues.check(0); err != nil {
		return nil, c.odd("group %s's usage %w", Short(group), err)
	}
	return g, nil
}

func (c *Client) group(ctx context.Context, partition, group string) (*GroupUsage, error) {
	var nf *NotFound
	if group == "*" {
		var all []*GroupUsage
		err := c.get(ctx, "groups", "/ws/v1/partition/"+seg(partition)+"/usage/groups", &all)
		if errors.As(err, &nf) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		for _, g := range all {
			if g != nil && g.Group == "*" {
				return g, nil
			}
		}
		return nil, nil
	}
	var g GroupUsage
	err := c.get(ctx, "group "+group, "/ws/v1/partition/"+seg(partition)+"/usage/group/"+seg(group), &g)
	if errors.As(err, &nf) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &g, nil
}

// Events is GET /ws/v1/events/batch: the scheduler's event buffer, which
// forgets. Nil without an error where the scheduler keeps no events.
func (c *Client) Events(ctx context.Context) ([]Event, error) {
	var b struct {
		Records []Event `json:"EventRecords"`
	}
	err := c.get(ctx, "events", "/ws/v1/events/batch?count=10000", &b)
	var nf *NotFound
	if errors.As(err, &nf) {
		return nil, nil
	}
	return b.Records, err
}
