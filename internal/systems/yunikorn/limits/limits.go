// Package limits answers "how many applications, and how many resources,
// may this user run in this queue" as yunikorn-core decides it: the user
// and group limits of its user and group manager (pkg/scheduler/ugm) and the
// queues' own maxapplications and resources.max (objects/queue.go), for an
// existing queue or one placement creates.
package limits

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/resources"
)

// Kind says what sets a figure.
type Kind string

// The kinds of figure.
const (
	KindUser          Kind = "user"          // a named user's limit
	KindUserWildcard  Kind = "user *"        // the wildcard user limit
	KindGroup         Kind = "group"         // a named group's limit
	KindGroupWildcard Kind = "group *"       // the wildcard group limit
	KindQueue         Kind = "queue"         // the queue's own maxapplications or resources.max
	KindTemplate      Kind = "childtemplate" // a dynamic queue's childtemplate
	KindTag           Kind = "tag"           // a namespace quota tag on a dynamic queue
)

// Source is the config entry that sets a figure.
type Source struct {
	Kind      Kind
	Partition string // the partition it was written in
	Queue     string // the queue path as written (limits), or the queue's path
	Limit     string // the limit's name
	Name      string // the user, the group or "*"; the tag's name
	At        engine.Position
	// AppsAt and ResAt point at the maxapplications value and at each
	// resource's value; unset when the entry does not write them.
	AppsAt *engine.Position
	ResAt  map[string]engine.Position
}

// Figure is what one entry allows at one level.
type Figure struct {
	MaxApplications uint64             // 0: no limit
	MaxResources    resources.Resource // nil: no limit
	Source          *Source
	// ResSource, when set, sets MaxResources instead of Source: a
	// dynamic queue's tags override its childtemplate one figure at a time.
	ResSource *Source
}

// ResourcesFrom is the entry that sets MaxResources.
func (f *Figure) ResourcesFrom() *Source {
	if f.ResSource != nil {
		return f.ResSource
	}
	return f.Source
}

// Level is one queue of the path, root first.
type Level struct {
	Queue string // as the scheduler names it (lower case)
	// User and Group are the user's and the tracked group's limits here,
	// QueueOwn the queue's own; nil where none applies.
	User, Group, QueueOwn *Figure
	Dynamic               bool // the queue does not exist until placement creates it
}

// Bound says which figure binds an effective value.
type Bound struct {
	Level  string
	Who    string // "user", "group" or "queue"
	Figure *Figure
}

// Answer is the limits on one application of User in Queue.
type Answer struct {
	Partition, Queue, User string
	Groups                 []string
	GroupsSource           string // where the groups came from, as check says
	// TrackedGroup is the one group the application is tracked under; ""
	// with Tracked false when none. TrackedAt is the level that decided.
	TrackedGroup, TrackedAt string
	Tracked                 bool
	MaxApplications         uint64 // 0: no limit
	AppsBound               *Bound
	MaxResources            resources.Resource // nil: no limit
	ResBound                map[string]*Bound
	Levels                  []Level
	Notes                   []string
	// SubmitAllowed is whether the user may submit to the queue at all
	// (check's verdict): nil when not asked (Answer alone); false means
	// YuniKorn rejects the application and no figure here ever applies
	SubmitAllowed *bool
}

// Dynamic reports whether the queue does not exist until placement
// creates it: the request's namespace tags then take part in its limits.
func (a *Answer) Dynamic() bool {
	return len(a.Levels) > 0 && a.Levels[len(a.Levels)-1].Dynamic
}

// Model is the user and group manager a freshly started scheduler builds
// from one accepted config.
type Model struct {
	cfg *config.Config
	m   *manager
	// last is the partition whose limits are in force; "" when no
	// partition writes any.
	last *config.Partition
}

// New replays UpdateConfig for every partition, in config order.
func New(cfg *config.Config) *Model {
	md := &Model{cfg: cfg, m: newManager()}
	for _, p := range cfg.Partitions {
		if p.Root == nil {
			continue
		}
		has := p.HasLimits()
		if !has && md.m.empty() {
			continue // UpdateConfig of no limits on an empty manager changes nothing
		}
		md.m.update(p, cfg.Doc)
		if has {
			md.last = p
		}
	}
	return md
}

// Request is one application: its partition, its queue (lower case; it
// exists or placement creates it), the user and groups as converted, and
// the request's tags.
type Request struct {
	Partition *config.Partition
	Queue     string
	User      string
	Groups    []string
	Tags      map[string]string
}

// Answer works out the limits on req.
func (md *Model) Answer(req Request) (*Answer, error) {
	part := req.Partition
	h := strings.Split(req.Queue, ".")
	if h[0] != "root" {
		return nil, fmt.Errorf("queue %s is not under root", req.Queue)
	}
	a := &Answer{Partition: part.CanonicalName(), Queue: req.Queue, User: req.User, Groups: req.Groups, ResBound: map[string]*Bound{}}
	// the configured queues of the path; nil from the first that does not exist
	queues := make([]*config.Queue, len(h))
	queues[0] = part.Root
	for i := 1; i < len(h) && queues[i-1] != nil; i++ {
		queues[i] = queues[i-1].Child(h[i])
	}
	users := md.m.walkTracker(md.m.users[req.User], h, true)
	group, at := md.m.trackedGroup(req.Groups, req.Queue)
	a.TrackedGroup, a.TrackedAt, a.Tracked = group, at, group != ""
	var groups []*node
	if a.Tracked {
		groups = md.m.walkTracker(md.m.groups[group], h, false)
	}
	for i := range h {
		lv := Level{Queue: strings.Join(h[:i+1], "."), Dynamic: queues[i] == nil}
		lv.User = figure(users[i])
		if groups != nil {
			lv.Group = figure(groups[i])
		}
		if queues[i] != nil {
			lv.QueueOwn = md.queueFigure(part, queues[i])
		} else if i == len(h)-1 {
			f, notes := md.dynamicFigure(part, queues, req.Tags)
			lv.QueueOwn = f
			a.Notes = append(a.Notes, notes...)
		}
		a.Levels = append(a.Levels, lv)
	}
	a.combine()
	a.Notes = append(a.Notes, md.notes(req, a, queues)...)
	return a, nil
}

func figure(n *node) *Figure {
	if n == nil || (n.apps == 0 && n.res.IsZero()) {
		return nil
	}
	f := &Figure{MaxApplications: n.apps, Source: n.src}
	if !n.res.IsZero() {
		f.MaxResources = n.res
	}
	return f
}

// combine takes the smallest figure of every level: canRunApp needs every
// level of the user's, the group's and the queues' to allow one more, and
// the headroom is the component-wise minimum of all of them.
func (a *Answer) combine() {
	consider := func(lv string, who string, f *Figure) {
		if f == nil {
			return
		}
		if f.MaxApplications != 0 && (a.MaxApplications == 0 || f.MaxApplications < a.MaxApplications) {
			a.MaxApplications = f.MaxApplications
			a.AppsBound = &Bound{Level: lv, Who: who, Figure: f}
		}
		for k, v := range f.MaxResources {
			if cur, ok := a.MaxResources[k]; !ok || v < cur {
				if a.MaxResources == nil {
					a.MaxResources = resources.Resource{}
				}
				a.MaxResources[k] = v
				a.ResBound[k] = &Bound{Level: lv, Who: who, Figure: f}
			}
		}
	}
	for i := len(a.Levels) - 1; i >= 0; i-- {
		lv := a.Levels[i]
		consider(lv.Queue, "user", lv.User)
		consider(lv.Queue, "group", lv.Group)
		consider(lv.Queue, "queue", lv.QueueOwn)
	}
}

// queueFigure is a configured queue's own maxapplications and max
// resources (NewConfiguredQueue, applyConf): root keeps its
// maxapplications but never its max resources, which are the cluster's
// size; a max that is not above zero is not set.
func (md *Model) queueFigure(part *config.Partition, q *config.Queue) *Figure {
	doc := md.cfg.Doc
	f := &Figure{MaxApplications: q.MaxApplications, Source: &Source{Kind: KindQueue, Partition: part.CanonicalName(), Queue: q.Path(), At: doc.NodePos(q.Node)}}
	if q.MaxApplications != 0 {
		p := doc.NodePos(q.MaxAppsNode)
		f.Source.AppsAt = &p
	}
	if q.Parent != nil {
		if res, _ := resources.FromConf(q.Max.Entries); res.StrictlyPositive() {
			f.MaxResources = res
			f.Source.ResAt = positions(doc, q.Max)
		}
	}
	if f.MaxApplications == 0 && f.MaxResources == nil {
		return nil
	}
	return f
}

// dynamicFigure is what a new leaf queue gets: its parent's child
// template (the nearest configured ancestor's non-empty childtemplate;
// addChildQueue hands it down), then the namespace tags, which
// AddApplication applies to any unmanaged leaf.
func (md *Model) dynamicFigure(part *config.Partition, queues []*config.Queue, tags map[string]string) (*Figure, []string) {
	doc := md.cfg.Doc
	var notes []string
	var f *Figure
	var deepest *config.Queue
	for _, q := range queues {
		if q != nil {
			deepest = q
		}
	}
	for q := deepest; q != nil; q = q.Parent {
		if q.IsLeaf() || q.TemplateEmpty() {
			continue
		}
		f = &Figure{MaxApplications: q.TemplateMaxApps, Source: &Source{Kind: KindTemplate, Partition: part.CanonicalName(), Queue: q.Path(), At: doc.NodePos(q.ChildTemplate)}}
		if res, _ := resources.FromConf(q.TemplateMax.Entries); res.StrictlyPositive() {
			f.MaxResources = res
			f.Source.ResAt = positions(doc, q.TemplateMax)
		}
		notes = append(notes, fmt.Sprintf("the new queue takes the childtemplate of %s", q.Path()))
		break
	}
	apps := tagApps(tags)
	quota := tagResource(tags, "namespace.resourcequota")
	guar := tagResource(tags, "namespace.resourceguaranteed")
	if apps != 0 || quota != nil || guar != nil {
		// AddApplication: SetMaxRunningApps for a non-zero maxapps tag, and
		// SetResources when either resource tag is set, which replaces the
		// max with the quota tag's, even with none
		g := &Figure{}
		if f != nil {
			*g = *f
		}
		if apps != 0 {
			g.MaxApplications = apps
			g.Source = &Source{Kind: KindTag, Partition: part.CanonicalName(), Name: "namespace.resourcemaxapps"}
			if f != nil && f.MaxResources != nil {
				g.ResSource = f.Source // until a resource tag replaces them
			}
		}
		if quota != nil || guar != nil {
			if f != nil && f.MaxResources != nil && quota == nil {
				notes = append(notes, "the request carries namespace.resourceguaranteed but no namespace.resourcequota: YuniKorn then clears the max resources the childtemplate gave the queue")
			}
			g.MaxResources = quota
			name := "namespace.resourcequota"
			if quota == nil {
				name = "namespace.resourceguaranteed"
			}
			g.ResSource = &Source{Kind: KindTag, Partition: part.CanonicalName(), Name: name}
		}
		if g.Source == nil {
			g.Source, g.ResSource = g.ResSource, nil
		}
		f = g
	}
	if f != nil && f.MaxApplications == 0 && f.MaxResources == nil {
		f = nil
	}
	return f, notes
}

// tagApps reads namespace.resourcemaxapps as getUint64Tag does: anything
// ParseUint refuses is no limit.
func tagApps(tags map[string]string) uint64 {
	n, _ := strconv.ParseUint(tags["namespace.resourcemaxapps"], 10, 64)
	return n
}

// tagResource reads a namespace resource tag as getResourceFromTags does:
// the shim's JSON of an si.Resource; a value that is not such JSON, or not
// above zero, is no resource.
func tagResource(tags map[string]string, key string) resources.Resource {
	var r *struct {
		Resources map[string]*struct {
			Value int64 `json:"value"`
		} `json:"resources"`
	}
	if json.Unmarshal([]byte(tags[key]), &r) != nil || r == nil {
		return nil
	}
	out := resources.Resource{}
	for k, q := range r.Resources {
		if q != nil {
			out[k] = q.Value
		} else {
			out[k] = 0
		}
	}
	if !out.StrictlyPositive() {
		return nil
	}
	return out
}

func positions(doc *config.Document, m config.StrMap) map[string]engine.Position {
	out := map[string]engine.Position{}
	for k, n := range m.Nodes {
		out[k] = doc.NodePos(n)
	}
	return out
}

func limitSource(doc *config.Document, part *config.Partition, q *config.Queue, path string, l *config.Limit, name config.Str, kind Kind) *Source {
	s := &Source{Kind: kind, Partition: part.CanonicalName(), Queue: path, Limit: l.Limit.Value, Name: name.Value, At: doc.NodePos(name.Node)}
	if l.MaxApplications != 0 {
		p := doc.NodePos(l.MaxAppsNode)
		s.AppsAt = &p
	}
	if len(l.MaxResources.Entries) > 0 {
		s.ResAt = positions(doc, l.MaxResources)
	}
	return s
}

// State is the user and group manager a freshly started scheduler holds,
// for a reader that answers limits itself (the HTML report's search): the
// nodes of every named user's and group's tracker, the wildcard user
// limits a new user node takes, and what ensureGroup reads.
type State struct {
	// Users and Groups map each tracker's existing nodes (by queue path)
	// to their figure; nil where the node exists with no limit, which
	// keeps the wildcard out as YuniKorn's existing node does.
	Users, Groups map[string]map[string]*Figure
	UserWild      map[string]*Figure
	// Configured are each path's named group limits in config order;
	// GroupWild the paths with a wildcard group limit.
	Configured map[string][]string
	GroupWild  map[string]bool
}

// State exports the manager; nil when no partition writes any limit.
func (md *Model) State() *State {
	if md.last == nil {
		return nil
	}
	st := &State{Users: map[string]map[string]*Figure{}, Groups: map[string]map[string]*Figure{},
		UserWild: map[string]*Figure{}, Configured: md.m.configured, GroupWild: map[string]bool{}}
	nodes := func(t *tracker) map[string]*Figure {
		out := map[string]*Figure{}
		var walk func(n *node)
		walk = func(n *node) {
			out[n.path] = figure(n)
			for _, c := range n.kids {
				walk(c)
			}
		}
		walk(t.root)
		return out
	}
	for name, t := range md.m.users {
		st.Users[name] = nodes(t)
	}
	for name, t := range md.m.groups {
		st.Groups[name] = nodes(t)
	}
	for p, e := range md.m.userWild {
		st.UserWild[p] = &Figure{MaxApplications: e.apps, MaxResources: nonZero(e.res), Source: e.src}
	}
	for p := range md.m.groupWild {
		st.GroupWild[p] = true
	}
	return st
}

func nonZero(r resources.Resource) resources.Resource {
	if r.IsZero() {
		return nil
	}
	return r
}

// QueueFigure is a configured queue's own maxapplications and max
// resources as YuniKorn applies them; nil when it sets neither.
func (md *Model) QueueFigure(part *config.Partition, q *config.Queue) *Figure {
	return md.queueFigure(part, q)
}
