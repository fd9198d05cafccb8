package acl

import (
	"hash/fnv"
	"slices"
)

// Cause is one ACL entry a config change adds or removes (in the new config
// for a gain, the old one for a loss), with everything it grants or took
// away: the subjects and queues it reaches, in the order the diff first met
// them, and how many (queue, subject) pairs that is.
type Cause struct {
	Gained bool
	Action Action
	Via    *Holder // nil: no ACL grants it
	// Entries are the entries of one ACL that reach exactly the same
	// queues, merged by Merge: 100 users added to one submitacl are one
	// cause. Via is the first.
	Entries  []*Holder
	Subjects []string
	Queues   []string // partition/queue
	Pairs    int

	seenS, seenQ map[string]struct{}
	lastP, lastQ string
}

// causeKey is what makes two changes one cause: the direction, the action
// and the entry (its place in the file), not the queue it reaches.
type causeKey struct {
	gained                bool
	action                Action
	queue, acl, kind, who string
	file                  string
	line, col             int
}

// Grouped gathers a diff's changes by cause as they stream past, so that a
// change reaching thousands of queues and subjects costs one cause and its
// two lists, never a record per pair.
type Grouped struct {
	Causes        []*Cause
	Gains, Losses int // (queue, subject) pairs
	at            map[causeKey]*Cause
}

// Add counts one change into its cause.
func (g *Grouped) Add(c Change) {
	if c.Gained {
		g.Gains++
	} else {
		g.Losses++
	}
	k := causeKey{gained: c.Gained, action: c.Action}
	if c.Via != nil {
		k.queue, k.acl, k.kind, k.who = c.Via.Queue, c.Via.ACL, c.Via.Kind, c.Via.Name
		k.file, k.line, k.col = c.Via.Pos.File, c.Via.Pos.Line, c.Via.Pos.Col
	}
	if g.at == nil {
		g.at = map[causeKey]*Cause{}
	}
	m := g.at[k]
	if m == nil {
		m = &Cause{Gained: c.Gained, Action: c.Action, Via: c.Via, Entries: []*Holder{c.Via}, seenS: map[string]struct{}{}, seenQ: map[string]struct{}{}}
		g.at[k] = m
		g.Causes = append(g.Causes, m)
	}
	m.Pairs++
	if _, ok := m.seenS[c.Principal]; !ok {
		m.seenS[c.Principal] = struct{}{}
		m.Subjects = append(m.Subjects, c.Principal)
	}
	// a queue's changes come together: only a new queue is looked up
	if c.Partition == m.lastP && c.Queue == m.lastQ {
		return
	}
	m.lastP, m.lastQ = c.Partition, c.Queue
	q := c.Partition + "/" + c.Queue
	if _, ok := m.seenQ[q]; !ok {
		m.seenQ[q] = struct{}{}
		m.Queues = append(m.Queues, q)
	}
}

// Merge joins the causes that are entries of the same ACL (same queue and
// field, same direction and action) reaching exactly the same queues, in
// the order first met: a change that adds many names to one ACL is then
// one cause listing its entries, not one cause per name, each with the
// same queues again.
func (g *Grouped) Merge() {
	type aclKey struct {
		gained     bool
		action     Action
		queue, acl string
		sum        uint64
		n          int
	}
	var out []*Cause
	at := map[aclKey][]*Cause{}
	for _, c := range g.Causes {
		if c.Via == nil {
			out = append(out, c)
			continue
		}
		h := fnv.New64a()
		for _, q := range c.Queues {
			h.Write([]byte(q))
			h.Write([]byte{0})
		}
		k := aclKey{c.Gained, c.Action, c.Via.Queue, c.Via.ACL, h.Sum64(), len(c.Queues)}
		merged := false
		for _, m := range at[k] {
			if slices.Equal(m.Queues, c.Queues) {
				m.Entries = append(m.Entries, c.Entries...)
				m.Pairs += c.Pairs
				for _, s := range c.Subjects {
					if _, ok := m.seenS[s]; !ok {
						m.seenS[s] = struct{}{}
						m.Subjects = append(m.Subjects, s)
					}
				}
				merged = true
				break
			}
		}
		if !merged {
			at[k] = append(at[k], c)
			out = append(out, c)
		}
	}
	g.Causes = out
}
