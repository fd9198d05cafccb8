package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

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

func changeWord(gained bool) string {
	if gained {
		return "gained"
	}
	return "lost"
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
					out.Causes = append(out.Causes, diffCauseJSON{changeWord(c.Gained), c.Action, entries, c.Subjects, c.Objects, c.Pairs})
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
	return writeWithChanges(w, out, func(emit func(any)) {
		if d.res != nil {
			d.pairs(func(c audit.Change) {
				emit(diffChangeJSON{c.Section, c.Object, c.Subject, c.Action, changeWord(c.Gained), grantHolderJSON(c.Via)})
			})
		}
	})
}

// grantHolderJSON is a grant as YuniKorn's diff writes it.
func grantHolderJSON(g *audit.Grant) *holderJSON {
	if g == nil {
		return nil
	}
	return &holderJSON{g.Kind, g.Name, g.Object, g.Rule, g.Inherited, g.Pos.File, g.Pos.Line, g.Pos.Col}
}

// describeGrant names the rule that decides: where it is, the entry and
// where it is written (YuniKorn's "root.a submitacl user "bob" at
// f:3:9"); a default says so, and a rule no file holds is its name.
func describeGrant(g *audit.Grant) string {
	switch {
	case g == nil:
		return "-"
	case g.Default && g.Note != "":
		return strings.TrimPrefix(g.Object+" "+g.Rule, " ") + ", " + g.Note
	case g.Pos.File == "":
		return strings.TrimPrefix(g.Object+" "+g.Rule, " ")
	}
	what := fmt.Sprintf("%s %q", g.Kind, g.Name)
	if g.Kind == "wildcard" || g.Kind == "everyone" {
		what = `"*"`
	}
	return fmt.Sprintf("%s %s at %s", strings.TrimPrefix(g.Object+" "+g.Rule, " "), what, g.Pos)
}

// writeWithChanges writes head, a JSON object, with one more member,
// "changes", whose items walk writes one per line as it goes: a diff
// reaching millions of pairs is never held.
func writeWithChanges(w io.Writer, head any, walk func(emit func(any))) error {
	var b bytes.Buffer
	if err := clikit.WriteJSON(&b, head); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	// the head without its closing brace, then the pairs, one per line
	bw.Write(bytes.TrimSuffix(bytes.TrimSpace(b.Bytes()), []byte("}")))
	bw.WriteString(",\n  \"changes\": [")
	first := true
	walk(func(v any) {
		if !first {
			bw.WriteByte(',')
		}
		first = false
		bw.WriteString("\n    ")
		bw.Write(clikit.JSONValue(v))
	})
	if !first {
		bw.WriteString("\n  ")
	}
	bw.WriteString("]\n}\n")
	return bw.Flush()
}
