package audit

import (
	"hash/fnv"
	"slices"

	"github.com/aclint/aclint/internal/engine"
)

// Differ is a Loader that compares two models of its inputs (aclint diff
// OLD NEW): who gains or loses which action on which object, each change
// with the rule that causes it.
type Differ interface {
	Loader
	// Diff compares old and new, each loaded from one file (path is
	// where it was read, for a system that reads a neighbouring file),
	// with the input bound of the run.
	Diff(old, new Model, sides DiffSides) (*Diff, error)
}

// DiffSides are where the two models were read.
type DiffSides struct {
	Old, New string
	MaxInput int64
	// Seen is the run's files read, where a system reading a neighbouring
	// file remembers it.
	Seen *engine.ReadSet
	// OldGate and NewGate are the gates in front of each side (both or
	// neither), for a system that took them (GateTaker).
	OldGate, NewGate Gate
}

// Diff is what changes between two models.
type Diff struct {
	System string
	// By names the system in sentences ("YARN"); ObjectWord and
	// SectionWord name an object and a section ("queue", "partition").
	By, ObjectWord, SectionWord    string
	SectionsAdded, SectionsRemoved []string
	Added, Removed                 []Object
	// Old and New name the two sides as the system reads them (a
	// ConfigMap in its file); "" names them by their paths.
	Old, New string
	// RuleWord names what causes a change in the pull-request comment:
	// "ACL entry"; "" is "rule".
	RuleWord string
	// Warnings are what the change does besides access that a reviewer
	// must see; Notes what the answer rests on.
	Warnings, Notes []string
	// Widens and Narrows count the gains and losses that are no (object,
	// subject) pair, each said among Warnings (a subject that may now
	// claim any identity): a gate on gains fails on them too.
	Widens, Narrows int
	// Detail is the system's own part of the JSON answer.
	Detail []Field
	// Changes walks every change, in order; it may be walked again (for
	// --flat), and never holds them all.
	Changes func(emit func(Change))
}

// Object is an object of one section.
type Object struct{ Section, Name string }

// Change is one subject gaining or losing one action on one object.
type Change struct {
	Section, Object string
	// Subject is "everyone", or KIND:NAME ("user:alice",
	// "principal:ops").
	Subject string
	Action  string
	Gained  bool
	// Via is the rule: in NEW for a gain, in OLD for a loss; nil when
	// no rule grants it (a default).
	Via *Grant
}

// Cause is one rule a change adds or removes (in NEW for a gain, in OLD
// for a loss), with everything it grants or took away: the subjects and
// objects it reaches, in the order first met, and how many (object,
// subject) pairs that is.
type Cause struct {
	Gained bool
	Action string
	Via    *Grant // nil: no rule grants it
	// Entries are the entries of one rule that reach exactly the same
	// objects, merged by Merge: 100 users added to one ACL are one
	// cause. Via is the first.
	Entries  []*Grant
	Subjects []string
	Objects  []string // section/object
	Pairs    int

	seenS, seenO map[string]struct{}
	lastS, lastO string
}

// causeKey is what makes two changes one cause: the direction, the action
// and the entry (its place in the file), not the object it reaches.
type causeKey struct {
	gained                          bool
	action, object, rule, kind, who string
	file                            string
	line, col                       int
}

// Grouped gathers a diff's changes by cause as they stream past, so that a
// change reaching thousands of objects and subjects costs one cause and
// its two lists, never a record per pair.
type Grouped struct {
	Causes        []*Cause
	Gains, Losses int // (object, subject) pairs
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
	if v := c.Via; v != nil {
		k.object, k.rule, k.kind, k.who = v.Object, v.Rule, v.Kind, v.Name
		k.file, k.line, k.col = v.Pos.File, v.Pos.Line, v.Pos.Col
	}
	if g.at == nil {
		g.at = map[causeKey]*Cause{}
	}
	m := g.at[k]
	if m == nil {
		m = &Cause{Gained: c.Gained, Action: c.Action, Via: c.Via, Entries: []*Grant{c.Via}, seenS: map[string]struct{}{}, seenO: map[string]struct{}{}}
		g.at[k] = m
		g.Causes = append(g.Causes, m)
	}
	m.Pairs++
	if _, ok := m.seenS[c.Subject]; !ok {
		m.seenS[c.Subject] = struct{}{}
		m.Subjects = append(m.Subjects, c.Subject)
	}
	// an object's changes come together: only a new object is looked up
	if c.Section == m.lastS && c.Object == m.lastO {
		return
	}
	m.lastS, m.lastO = c.Section, c.Object
	o := c.Section + "/" + c.Object
	if _, ok := m.seenO[o]; !ok {
		m.seenO[o] = struct{}{}
		m.Objects = append(m.Objects, o)
	}
}

// Merge joins the causes that are entries of the same rule (same object
// and rule, same direction and action) reaching exactly the same objects,
// in the order first met: a change that adds many names to one ACL is
// then one cause listing its entries, not one cause per name.
func (g *Grouped) Merge() {
	type ruleKey struct {
		gained               bool
		action, object, rule string
		sum                  uint64
		n                    int
	}
	var out []*Cause
	at := map[ruleKey][]*Cause{}
	for _, c := range g.Causes {
		if c.Via == nil {
			out = append(out, c)
			continue
		}
		h := fnv.New64a()
		for _, o := range c.Objects {
			h.Write([]byte(o))
			h.Write([]byte{0})
		}
		k := ruleKey{c.Gained, c.Action, c.Via.Object, c.Via.Rule, h.Sum64(), len(c.Objects)}
		merged := false
		for _, m := range at[k] {
			if slices.Equal(m.Objects, c.Objects) {
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

// Replay is a Diff's Changes over changes already found, for a system
// whose inputs are small enough to hold them.
func Replay(changes []Change) func(emit func(Change)) {
	return func(emit func(Change)) {
		for _, c := range changes {
			emit(c)
		}
	}
}

// DiffSide is one side of a diff: its label ("OLD", "NEW"), its name as
// the answer gives it, and the system's refusal when it refuses it (the
// diff then compares nothing, and says why).
type DiffSide struct {
	Label, Name string
	Refused     *Refused
}
