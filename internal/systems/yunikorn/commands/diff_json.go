package commands

import (
	"io"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
)

type diffSideJSON struct {
	Config   string        `json:"config"`
	Accepted bool          `json:"accepted"`
	Errors   []jsonFinding `json:"errors"`
}

type diffQueueJSON struct {
	Partition string `json:"partition"`
	Queue     string `json:"queue"`
	Change    string `json:"change"`
}

// diffCauseJSON is one ACL entry that a change adds or removes, with every
// subject and queue it reaches and the number of (queue, subject) pairs.
type diffCauseJSON struct {
	Change   string        `json:"change"`
	Action   string        `json:"action"`
	Entries  []*holderJSON `json:"entries"`
	Subjects []string      `json:"subjects"`
	Queues   []string      `json:"queues"`
	Pairs    int           `json:"pairs"`
}

type diffChangeJSON struct {
	Partition string      `json:"partition"`
	Queue     string      `json:"queue"`
	Subject   string      `json:"subject"`
	Action    string      `json:"action"`
	Change    string      `json:"change"`
	Via       *holderJSON `json:"via"`
}

type diffJSONHead struct {
	Old               diffSideJSON    `json:"old"`
	New               diffSideJSON    `json:"new"`
	Compared          bool            `json:"compared"`
	PartitionsAdded   []string        `json:"partitionsAdded"`
	PartitionsRemoved []string        `json:"partitionsRemoved"`
	Warnings          []string        `json:"warnings"`
	Queues            []diffQueueJSON `json:"queues"`
	Gains             int             `json:"gains"`
	Losses            int             `json:"losses"`
	Causes            []diffCauseJSON `json:"causes"`
}

// diffHead is the diff's JSON without the pairs: the two configs, what was
// compared, the totals and the causes.
func diffHead(d *diffRun) diffJSONHead {
	mk := func(sd *side) diffSideJSON {
		out := diffSideJSON{Config: sd.name, Accepted: sd.accepted, Errors: []jsonFinding{}}
		for _, f := range sd.errors {
			out.Errors = append(out.Errors, jsonFinding{f.Rule, f.Pos.File, f.Pos.Line, f.Pos.Col, f.Message})
		}
		return out
	}
	out := diffJSONHead{Old: mk(d.old), New: mk(d.new), Compared: d.res != nil, PartitionsAdded: []string{}, PartitionsRemoved: []string{},
		Warnings: []string{}, Queues: []diffQueueJSON{}, Causes: []diffCauseJSON{}}
	if res := d.res; res != nil {
		out.PartitionsAdded = append(out.PartitionsAdded, res.PartitionsAdded...)
		out.PartitionsRemoved = append(out.PartitionsRemoved, res.PartitionsRemoved...)
		out.Warnings = append(out.Warnings, res.Warnings...)
		for _, q := range res.Queues {
			ch := "removed"
			if q.Added {
				ch = "added"
			}
			out.Queues = append(out.Queues, diffQueueJSON{q.Partition, q.Queue, ch})
		}
		out.Gains, out.Losses = d.grouped.Gains, d.grouped.Losses
		for _, gained := range []bool{true, false} {
			for _, c := range d.grouped.Causes {
				if c.Gained == gained {
					entries := make([]*holderJSON, 0, len(c.Entries))
					for _, h := range c.Entries {
						if h != nil {
							entries = append(entries, grantHolderJSON(h))
						}
					}
					out.Causes = append(out.Causes, diffCauseJSON{clikit.ChangeWord(c.Gained), c.Action, entries, c.Subjects, c.Objects, c.Pairs})
				}
			}
		}
	}
	return out
}

// writeDiffJSON writes the diff grouped by cause; with --flat it adds
// "changes", every (queue, subject) pair, streamed from a second walk of
// the diff so that a change reaching millions of pairs is never held.
func writeDiffJSON(w io.Writer, d *diffRun) error {
	out := diffHead(d)
	if !d.flat {
		return clikit.WriteJSON(w, out)
	}
	return clikit.WriteWithChanges(w, out, func(emit func(any)) {
		if d.res != nil {
			d.pairs(func(c audit.Change) {
				emit(diffChangeJSON{c.Section, c.Object, c.Subject, c.Action, clikit.ChangeWord(c.Gained), grantHolderJSON(c.Via)})
			})
		}
	})
}

// grantHolderJSON is a grant as YuniKorn's diff writes it.
func grantHolderJSON(g *audit.Grant) *holderJSON {
	if g == nil {
		return nil
	}
	return &holderJSON{Kind: g.Kind, Name: g.Name, Queue: g.Object, ACL: g.Rule, Inherited: g.Inherited, File: g.Pos.File, Line: g.Pos.Line, Column: g.Pos.Col}
}

// holderJSON is a grant as YuniKorn's diff JSON writes it: the entry, and
// the queue and ACL that hold it.
type holderJSON struct {
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	Queue     string `json:"queue"`
	ACL       string `json:"acl"`
	Inherited bool   `json:"inherited"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
}
