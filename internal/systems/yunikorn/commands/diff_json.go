package commands

import (
	"io"

	"github.com/aclint/aclint/internal/systems/yunikorn"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
)

type diffSideJSON struct {
	Config   string        `json:"config"`
	Accepted bool          `json:"accepted"`
	Errors   []jsonFinding `json:"errors"`
}

// diffObjectJSON is a queue added or removed, as every system's diff
// names its objects: the partition is the section.
type diffObjectJSON struct {
	Section string `json:"section"`
	Object  string `json:"object"`
}

// diffCauseJSON is one ACL entry that a change adds or removes, with every
// subject and queue it reaches and the number of (queue, subject) pairs.
type diffCauseJSON struct {
	Change   string       `json:"change"`
	Action   string       `json:"action"`
	Entries  []*grantJSON `json:"entries"`
	Subjects []string     `json:"subjects"`
	Objects  []string     `json:"objects"`
	Pairs    int          `json:"pairs"`
}

type diffChangeJSON struct {
	Section string     `json:"section"`
	Object  string     `json:"object"`
	Subject string     `json:"subject"`
	Action  string     `json:"action"`
	Change  string     `json:"change"`
	Via     *grantJSON `json:"via"`
}

// diffDetailJSON is what only YuniKorn's diff says: the two configs and
// whether YuniKorn takes them, and the partitions added and removed.
type diffDetailJSON struct {
	Old               diffSideJSON `json:"old"`
	New               diffSideJSON `json:"new"`
	Compared          bool         `json:"compared"`
	PartitionsAdded   []string     `json:"partitionsAdded"`
	PartitionsRemoved []string     `json:"partitionsRemoved"`
}

// diffJSONHead is every system's diff JSON (schema/diff.schema.json),
// with YuniKorn's own under detail.
type diffJSONHead struct {
	System  string           `json:"system"`
	Added   []diffObjectJSON `json:"added"`
	Removed []diffObjectJSON `json:"removed"`
	Notes   []string         `json:"notes"`
	Gains   int              `json:"gains"`
	Losses  int              `json:"losses"`
	Causes  []diffCauseJSON  `json:"causes"`
	Detail  diffDetailJSON   `json:"detail"`
}

// diffHead is the diff's JSON without the pairs: the totals, the causes,
// the queues added and removed, and the two configs.
func diffHead(d *diffRun) diffJSONHead {
	mk := func(sd *side) diffSideJSON {
		out := diffSideJSON{Config: sd.name, Accepted: sd.accepted, Errors: []jsonFinding{}}
		for _, f := range sd.errors {
			out.Errors = append(out.Errors, jsonFinding{f.Rule, f.Pos.File, f.Pos.Line, f.Pos.Col, f.Message})
		}
		return out
	}
	out := diffJSONHead{System: yunikorn.System, Added: []diffObjectJSON{}, Removed: []diffObjectJSON{}, Notes: []string{}, Causes: []diffCauseJSON{},
		Detail: diffDetailJSON{Old: mk(d.old), New: mk(d.new), Compared: d.res != nil, PartitionsAdded: []string{}, PartitionsRemoved: []string{}}}
	if res := d.res; res != nil {
		out.Detail.PartitionsAdded = append(out.Detail.PartitionsAdded, res.PartitionsAdded...)
		out.Detail.PartitionsRemoved = append(out.Detail.PartitionsRemoved, res.PartitionsRemoved...)
		out.Notes = append(out.Notes, res.Warnings...)
		for _, q := range res.Queues {
			if q.Added {
				out.Added = append(out.Added, diffObjectJSON{q.Partition, q.Queue})
			} else {
				out.Removed = append(out.Removed, diffObjectJSON{q.Partition, q.Queue})
			}
		}
		out.Gains, out.Losses = d.grouped.Gains, d.grouped.Losses
		for _, gained := range []bool{true, false} {
			for _, c := range d.grouped.Causes {
				if c.Gained == gained {
					entries := make([]*grantJSON, 0, len(c.Entries))
					for _, h := range c.Entries {
						if h != nil {
							entries = append(entries, toGrantJSON(h))
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
				emit(diffChangeJSON{c.Section, c.Object, c.Subject, c.Action, clikit.ChangeWord(c.Gained), toGrantJSON(c.Via)})
			})
		}
	})
}

// grantJSON is a grant as every system's JSON writes it (who-can, check,
// diff): the entry, and the object and rule that hold it.
type grantJSON struct {
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	Object    string `json:"object"`
	Rule      string `json:"rule"`
	Inherited bool   `json:"inherited"`
	Default   bool   `json:"default"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
}

func toGrantJSON(g *audit.Grant) *grantJSON {
	if g == nil {
		return nil
	}
	return &grantJSON{g.Kind, g.Name, g.Object, g.Rule, g.Inherited, g.Default, g.Pos.File, g.Pos.Line, g.Pos.Col}
}
