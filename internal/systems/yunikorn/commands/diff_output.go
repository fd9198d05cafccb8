package commands

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"

	"github.com/aclint/aclint/internal/output"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

// diffRun is one compared pair of configs: the grouped answer, and the
// pairs again on request (flat), streamed from a second walk rather than
// kept.
type diffRun struct {
	old, new *side
	res      *acl.DiffResult // nil: not compared
	grouped  *audit.Grouped
	flat     bool
}

// pairs walks the diff again, handing each (queue, subject) change to emit.
func (d *diffRun) pairs(emit func(audit.Change)) {
	yunikorn.DiffTo(d.old.policy, d.new.policy, emit)
}

func writeDiffText(w *bufio.Writer, d *diffRun) error {
	for _, sd := range []*side{d.old, d.new} {
		if !sd.accepted {
			label := "NEW"
			if sd == d.old {
				label = "OLD"
			}
			engine.Fprintf(w, "%s (%s) is rejected by YuniKorn:\n", label, sd.name)
			var b strings.Builder
			_ = output.Text(&b, sd.errors, output.Sources{sd.cfg.Doc.File: sd.cfg.Doc.Lines()}, false)
			for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
				engine.Fprintf(w, "  %s\n", l)
			}
		}
	}
	res := d.res
	if res == nil {
		fmt.Fprintln(w, "access is compared only between two configs YuniKorn accepts; on a reload YuniKorn keeps the old config when the new one is rejected")
		return nil
	}
	for _, p := range res.PartitionsAdded {
		engine.Fprintf(w, "+ partition %s (added)\n", p)
	}
	for _, p := range res.PartitionsRemoved {
		engine.Fprintf(w, "- partition %s (removed)\n", p)
	}
	for _, m := range res.Warnings {
		engine.Fprintf(w, "warning: %s\n", m)
	}
	for _, q := range res.Queues {
		if q.Added {
			engine.Fprintf(w, "+ %s/%s (queue added)\n", q.Partition, q.Queue)
		} else {
			engine.Fprintf(w, "- %s/%s (queue removed)\n", q.Partition, q.Queue)
		}
	}
	if d.flat {
		d.pairs(func(c audit.Change) {
			mark := "+"
			if !c.Gained {
				mark = "-"
			}
			engine.Fprintf(w, "%s %s/%s: %s\n", mark, c.Section, c.Object, clikit.ChangeText(c))
		})
	} else {
		for _, gained := range []bool{true, false} {
			for _, c := range d.grouped.Causes {
				if c.Gained == gained {
					w.WriteString(clikit.CauseText(c, clikit.DescribeGrant(c.Via), c.Objects, "queue"))
				}
			}
		}
	}
	gains, losses := d.grouped.Gains, d.grouped.Losses
	if gains+losses+len(res.Queues)+len(res.PartitionsAdded)+len(res.PartitionsRemoved) == 0 {
		fmt.Fprintln(w, "no change in access")
		return nil
	}
	engine.Fprintf(w, "%d %s, %d %s, %d %s added, %d removed\n", gains, clikit.Plural(gains, "gain", "gains"), losses, clikit.Plural(losses, "loss", "losses"),
		countQueues(res, true), clikit.Plural(countQueues(res, true), "queue", "queues"), countQueues(res, false))
	return nil
}

func countQueues(res *acl.DiffResult, added bool) int {
	n := 0
	for _, q := range res.Queues {
		if q.Added == added {
			n++
		}
	}
	return n
}

type jsonFinding struct {
	Rule    string `json:"rule"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// writeDiffOutputs writes every -o; a markdown comment names the files
// written beside it as the full report.
func writeDiffOutputs(s *streams, targets []clikit.DiffOutput, d *diffRun, commentSize int) error {
	var files []string
	for _, t := range targets {
		if t.Path != "" && t.Format != "markdown" {
			files = append(files, fmt.Sprintf("`%s` (%s)", t.Path, t.Format))
		}
	}
	write := func(w io.Writer, format string) error {
		switch format {
		case "json":
			return writeDiffJSON(w, d)
		case "markdown":
			return writeDiffMarkdown(w, d, commentSize, files)
		}
		bw := bufio.NewWriter(w)
		if err := writeDiffText(bw, d); err != nil {
			return err
		}
		return bw.Flush()
	}
	return clikit.WriteDiffTargets(s.env.Out(), targets, write)
}
