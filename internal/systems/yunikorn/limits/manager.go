package limits

import (
	"sort"
	"strings"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/resources"
)

// This file replays yunikorn-core's user and group manager (ugm/manager.go,
// queue_tracker.go) as a freshly started scheduler builds it: one manager
// for the whole scheduler, handed each partition's root queue in turn
// (partition.go initialPartitionFromConfig calls UpdateConfig). The replay
// keeps the trackers, not just the last config, because a tracker built for
// one partition survives the next partition's UpdateConfig with whatever
// that call did not clear; answering from the last partition's limits alone
// would be wrong for the users named in an earlier one.

// entry is one limit as the manager holds it (LimitConfig), with the config
// entry it came from.
type entry struct {
	apps uint64
	res  resources.Resource // empty: no resource limit
	src  *Source
}

// node is a QueueTracker without usage: a freshly started scheduler has no
// running application, so only the limits matter.
type node struct {
	name, path string
	apps       uint64
	res        resources.Resource
	wild       bool // useWildCard
	src        *Source
	kids       map[string]*node
}

type tracker struct {
	root *node
	user bool // a user tracker applies wildcard user limits to new nodes
}

type manager struct {
	users, groups           map[string]*tracker
	userWild, groupWild     map[string]*entry
	configured              map[string][]string
	userLimits, groupLimits map[string]map[string]*entry
}

func newManager() *manager {
	return &manager{users: map[string]*tracker{}, groups: map[string]*tracker{},
		userWild: map[string]*entry{}, groupWild: map[string]*entry{}}
}

// empty reports whether the manager holds no tracker and no limit.
func (m *manager) empty() bool {
	return len(m.users) == 0 && len(m.groups) == 0 && len(m.userWild) == 0 && len(m.groupWild) == 0 &&
		len(m.configured) == 0 && len(m.userLimits) == 0 && len(m.groupLimits) == 0
}

// newNode is newQueueTracker: a user tracker's new node takes the wildcard
// user limit its path has at the moment it is created.
func (m *manager) newNode(parent, name string, user bool) *node {
	path := name
	if parent != "" {
		path = parent + "." + name
	}
	n := &node{name: name, path: path, kids: map[string]*node{}}
	if user {
		if e := m.userWild[path]; e != nil {
			n.apps, n.res, n.wild, n.src = e.apps, e.res, true, e.src
		}
	}
	return n
}

func (m *manager) newTracker(user bool) *tracker {
	return &tracker{root: m.newNode("", "root", user), user: user}
}

// setLimit is QueueTracker.setLimit: e nil clears.
func (m *manager) setLimit(n *node, h []string, e *entry, wild, user, check bool) {
	if len(h) > 1 {
		c := n.kids[h[1]]
		if c == nil {
			c = m.newNode(n.path, h[1], user)
			n.kids[h[1]] = c
		}
		m.setLimit(c, h[1:], e, wild, user, check)
		return
	}
	if len(h) == 1 {
		if check && !n.wild {
			return
		}
		if e == nil {
			n.apps, n.res, n.src = 0, nil, nil
		} else {
			n.apps, n.res, n.src = e.apps, e.res, e.src
		}
		n.wild = wild
	}
}

func trackedCompletely(n *node, h []string) bool {
	if len(h) > 1 {
		if c := n.kids[h[1]]; c != nil {
			return trackedCompletely(c, h[1:])
		}
		return false
	}
	return len(h) == 1 && (h[0] == "root" || h[0] == n.name)
}

// unlink is QueueTracker.unlink with no running application anywhere.
func unlink(n *node, h []string) bool {
	if len(h) > 1 {
		if c := n.kids[h[1]]; c != nil && unlink(c, h[1:]) {
			delete(n.kids, h[1])
			return false
		}
	} else {
		for name, c := range n.kids {
			if unlink(c, []string{name}) {
				delete(n.kids, name)
			}
		}
	}
	return len(n.kids) == 0
}

func removable(n *node) bool {
	for _, c := range n.kids {
		if !removableHere(c) || !removable(c) {
			return false
		}
	}
	return removableHere(n)
}

func removableHere(n *node) bool {
	return len(n.kids) == 0 && n.apps == 0 && n.res.IsZero()
}

// update is Manager.UpdateConfig for one partition's root.
func (m *manager) update(part *config.Partition, doc *config.Document) {
	n := &newLimits{ul: map[string]map[string]*entry{}, gl: map[string]map[string]*entry{}, uw: map[string]*entry{}, gw: map[string]*entry{}, cg: map[string][]string{}}
	var walk func(q *config.Queue, path string)
	walk = func(q *config.Queue, path string) {
		for _, l := range part.LimitsOf(q) {
			m.setQueueLimit(n, doc, part, q, path, l)
		}
		for _, c := range q.Children {
			walk(c, path+"."+c.Name.Value)
		}
	}
	walk(part.Root, "root")
	m.clearEarlier(m.groups, m.groupLimits, n.gl, false)
	m.clearEarlier(m.users, m.userLimits, n.ul, true)
	m.clearEarlierUserWild(n)
	// applyWildCardUserLimits
	for _, path := range sortedKeys(n.uw) {
		for _, name := range sortedKeys(m.users) {
			if n.ul[path][name] == nil {
				m.setLimit(m.users[name].root, strings.Split(path, "."), n.uw[path], true, true, false)
			}
		}
	}
	m.userLimits, m.groupLimits, m.userWild, m.groupWild, m.configured = n.ul, n.gl, n.uw, n.gw, n.cg
}

// newLimits are the limits of the config being applied: users' and
// groups' by path and name, the wildcards by path, the groups each path
// names.
type newLimits struct {
	ul, gl map[string]map[string]*entry
	uw, gw map[string]*entry
	cg     map[string][]string
}

// setQueueLimit sets one limit of queue q (at path) on the trackers of
// the users and groups it names, and records it.
func (m *manager) setQueueLimit(n *newLimits, doc *config.Document, part *config.Partition, q *config.Queue, path string, l *config.Limit) {
	res, _ := resources.FromConf(l.MaxResources.Entries)
	for _, u := range l.Users {
		if u.Value == "" {
			continue
		}
		e := &entry{apps: l.MaxApplications, res: res, src: limitSource(doc, part, q, path, l, u, KindUser)}
		if u.Value == "*" {
			e.src.Kind = KindUserWildcard
			n.uw[path] = e
			continue
		}
		t := m.users[u.Value]
		if t == nil {
			t = m.newTracker(true)
			m.users[u.Value] = t
		}
		m.setLimit(t.root, strings.Split(path, "."), e, false, true, false)
		if n.ul[path] == nil {
			n.ul[path] = map[string]*entry{}
		}
		n.ul[path][u.Value] = e
	}
	for _, g := range l.Groups {
		if g.Value == "" {
			continue
		}
		e := &entry{apps: l.MaxApplications, res: res, src: limitSource(doc, part, q, path, l, g, KindGroup)}
		if g.Value == "*" {
			e.src.Kind = KindGroupWildcard
		}
		t := m.groups[g.Value]
		if t == nil {
			t = m.newTracker(false)
			m.groups[g.Value] = t
		}
		m.setLimit(t.root, strings.Split(path, "."), e, false, false, false)
		if n.gl[path] == nil {
			n.gl[path] = map[string]*entry{}
		}
		n.gl[path][g.Value] = e
		if g.Value == "*" {
			n.gw[path] = e
		} else {
			n.cg[path] = append(n.cg[path], g.Value)
		}
	}
}

// clearEarlierUserWild is clearEarlierSetUserWildCardLimits.
func (m *manager) clearEarlierUserWild(n *newLimits) {
	for _, path := range sortedKeys(m.userWild) {
		cur := m.userWild[path]
		_, curQP := m.userLimits[path]
		_, newQP := n.ul[path]
		nw, ok := n.uw[path]
		switch {
		case !ok && (!curQP || !newQP):
			for _, name := range sortedKeys(m.users) {
				if m.userLimits[path][name] == nil || n.ul[path][name] == nil {
					m.setLimit(m.users[name].root, strings.Split(path, "."), nil, false, true, true)
				}
			}
		case ok && (!curQP || !newQP):
			if cur.apps != nw.apps || !sameResource(cur.res, nw.res) {
				for _, name := range sortedKeys(m.users) {
					if m.userLimits[path][name] == nil || n.ul[path][name] == nil {
						m.setLimit(m.users[name].root, strings.Split(path, "."), nw, true, true, true)
					}
				}
			}
		}
	}
}

// clearEarlier is clearEarlierSetGroupLimits (user false) and
// clearEarlierSetUserLimits: a limit the old config set and the new one
// does not is cleared on its tracker, whose node at that path is unlinked
// with everything below it, and a tracker left with no limit is dropped.
func (m *manager) clearEarlier(trackers map[string]*tracker, old, cur map[string]map[string]*entry, user bool) {
	for _, path := range sortedKeys(old) {
		for _, name := range sortedKeys(old[path]) {
			t := trackers[name]
			if cur[path][name] != nil || t == nil {
				continue
			}
			h := strings.Split(path, ".")
			if trackedCompletely(t.root, h) {
				m.setLimit(t.root, h, nil, false, user, false)
				unlink(t.root, h)
				if removable(t.root) {
					delete(trackers, name)
				}
			}
		}
	}
}

// trackedGroup is ensureGroupInternal: from the leaf up, the level's
// configured groups in config order against the user's groups, then the
// level's wildcard group limit. It also returns the level it stopped at.
func (m *manager) trackedGroup(groups []string, path string) (string, string) {
	if len(groups) == 0 {
		return "", ""
	}
	for p := path; p != ""; p = parentPath(p) {
		for _, c := range m.configured[p] {
			for _, g := range groups {
				if c == g {
					return c, p
				}
			}
		}
		if m.groupWild[p] != nil {
			return "*", p
		}
	}
	return "", ""
}

func parentPath(p string) string {
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		return p[:i]
	}
	return ""
}

// walkTracker returns, for each level of h, the limit the tracker holds
// there, creating what is missing as headroom and canRunApp do: a missing
// user node takes the wildcard user limit of its path.
func (m *manager) walkTracker(t *tracker, h []string, user bool) []*node {
	out := make([]*node, len(h))
	var n *node
	if t == nil {
		n = m.newNode("", "root", user)
	} else {
		n = t.root
	}
	out[0] = n
	for i := 1; i < len(h); i++ {
		c := n.kids[h[i]]
		if c == nil {
			c = m.newNode(n.path, h[i], user)
		}
		out[i], n = c, c
	}
	return out
}

// sameResource is resources.Equals on two non-nil resources: a missing
// quantity counts as 0.
func sameResource(a, b resources.Resource) bool {
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	for k, v := range b {
		if a[k] != v {
			return false
		}
	}
	return true
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
