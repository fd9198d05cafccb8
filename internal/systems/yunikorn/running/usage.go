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

// Find returns the node of queue path, or nil.
func (n *UsageNode) Find(path string) *UsageNode {
	for n != nil {
		if strings.EqualFold(n.Queue, path) {
			return n
		}
		var next *UsageNode
		for _, c := range n.Children {
			if c != nil && (strings.EqualFold(c.Queue, path) || strings.HasPrefix(strings.ToLower(path), strings.ToLower(c.Queue)+".")) {
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

// Client asks one scheduler's REST API.
type Client struct {
	Server  string
	Options Options
}

// NotFound is a 404: the scheduler has no such object (an application, a
// user or a group without tracked usage, a queue).
type NotFound struct{ What, Message string }

func (e *NotFound) Error() string { return e.What + ": " + e.Message }

// get asks route (below /ws/v1) and decodes its JSON answer into v.
func (c Client) get(ctx context.Context, what, route string, v any) error {
	target, label, err := endpoint(c.Server, route)
	if err != nil {
		return err
	}
	resp, data, err := c.Options.do(ctx, http.MethodGet, target, nil, "application/json")
	if err != nil {
		return &Error{label, err}
	}
	if resp.StatusCode == http.StatusNotFound {
		var e struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(data, &e) != nil || e.Message == "" {
			return &Error{label, fmt.Errorf("answered 404 without yunikorn-core's error body%s: is this a YuniKorn scheduler's REST address (port 9080)?", short(data))}
		}
		return &NotFound{What: what, Message: e.Message}
	}
	if resp.StatusCode != http.StatusOK {
		return &Error{label, fmt.Errorf("answered %s%s", resp.Status, short(data))}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return &Error{label, fmt.Errorf("answered something that is not yunikorn-core's %s (%v)%s", what, err, short(data))}
	}
	return nil
}

func seg(s string) string { return url.PathEscape(s) }

// Application is GET /ws/v1/partition/P/application/ID: the application
// while the partition holds it (neither rejected nor completed).
func (c Client) Application(ctx context.Context, partition, id string) (*Application, error) {
	var a Application
	if err := c.get(ctx, "application "+id, "/ws/v1/partition/"+seg(partition)+"/application/"+seg(id), &a); err != nil {
		return nil, err
	}
	if a.ID == "" {
		return nil, fmt.Errorf("%s: the answer names no application", Label(c.Server))
	}
	return &a, nil
}

// Applications is GET /ws/v1/partition/P/applications/STATE (active,
// rejected or completed).
func (c Client) Applications(ctx context.Context, partition, state string) ([]*Application, error) {
	var l []*Application
	err := c.get(ctx, state+" applications", "/ws/v1/partition/"+seg(partition)+"/applications/"+state, &l)
	return l, err
}

// User is GET /ws/v1/partition/P/usage/user/U; nil without an error when
// the user has no tracked usage (404).
func (c Client) User(ctx context.Context, partition, user string) (*UserUsage, error) {
	var u UserUsage
	err := c.get(ctx, "user "+user, "/ws/v1/partition/"+seg(partition)+"/usage/user/"+seg(user), &u)
	var nf *NotFound
	if errors.As(err, &nf) {
		return nil, nil
	}
	return &u, err
}

// Group is the tracked usage of group, nil without an error when it has
// none: GET /ws/v1/partition/P/usage/group/G, or, for the wildcard group
// "*", which that route refuses as a name, its entry of
// /ws/v1/partition/P/usage/groups.
func (c Client) Group(ctx context.Context, partition, group string) (*GroupUsage, error) {
	if group == "*" {
		var all []*GroupUsage
		if err := c.get(ctx, "groups", "/ws/v1/partition/"+seg(partition)+"/usage/groups", &all); err != nil {
			var nf *NotFound
			if errors.As(err, &nf) {
				return nil, nil
			}
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
	var nf *NotFound
	if errors.As(err, &nf) {
		return nil, nil
	}
	return &g, err
}

// Queue is GET /ws/v1/partition/P/queue/Q.
func (c Client) Queue(ctx context.Context, partition, queue string) (*Queue, error) {
	var q Queue
	if err := c.get(ctx, "queue "+queue, "/ws/v1/partition/"+seg(partition)+"/queue/"+seg(queue), &q); err != nil {
		return nil, err
	}
	return &q, nil
}

// Events is GET /ws/v1/events/batch: the scheduler's event buffer, which
// forgets. Nil without an error where the scheduler keeps no events.
func (c Client) Events(ctx context.Context) ([]Event, error) {
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
