package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"

	"github.com/aclint/aclint/internal/safewrite"

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

func changeText(c audit.Change) string {
	verb, via := "gains", "via"
	if !c.Gained {
		verb, via = "loses", "was granted by"
	}
	who := c.Subject
	if who != "everyone" {
		who = strings.Replace(who, ":", " ", 1)
	}
	return fmt.Sprintf("%s %s %s (%s %s)", who, verb, c.Action, via, describeGrant(c.Via))
}

// textListed is how many subjects and queues a cause names in text before
// it counts the rest; --flat lists every pair.
const textListed = 8

// listed names the first textListed of list, then counts the rest.
func listed(list []string, name func(string) string) string {
	out := make([]string, 0, textListed+1)
	for _, e := range list[:min(len(list), textListed)] {
		out = append(out, name(e))
	}
	if more := len(list) - len(out); more > 0 {
		out = append(out, fmt.Sprintf("%d more", more))
	}
	return strings.Join(out, ", ")
}

func subjectText(p string) string {
	if p == "everyone" {
		return p
	}
	return strings.Replace(p, ":", " ", 1)
}

// causeText is one cause: who gains or loses what on how many queues, the
// entry (via, as the system names it), and the queues.
func causeText(c *audit.Cause, via string, queues []string, word string) string {
	mark, verb, how := "+", "gain", "via"
	if !c.Gained {
		mark, verb, how = "-", "lose", "was granted by"
	}
	if len(c.Subjects) == 1 {
		verb += "s"
	}
	return fmt.Sprintf("%s %s %s %s on %d %s (%s %s%s)\n    %ss: %s\n", mark, listed(c.Subjects, subjectText), verb, c.Action,
		len(queues), clikit.Plural(len(queues), word, word+"s"), how, via, moreEntries(c), word, listed(queues, func(q string) string { return q }))
}

// moreEntries counts the other entries of the same ACL a cause stands for.
func moreEntries(c *audit.Cause) string {
	if n := len(c.Entries) - 1; n > 0 {
		return fmt.Sprintf(" and %d more %s of it", n, clikit.Plural(n, "entry", "entries"))
	}
	return ""
}

func writeDiffText(w *bufio.Writer, d *diffRun) error {
	for _, sd := range []*side{d.old, d.new} {
		if !sd.accepted {
			label := "NEW"
			if sd == d.old {
				label = "OLD"
			}
			fmt.Fprintf(w, "%s (%s) is rejected by YuniKorn:\n", label, sd.name)
			var b strings.Builder
			_ = output.Text(&b, sd.errors, output.Sources{sd.cfg.Doc.File: sd.cfg.Doc.Lines()}, false)
			for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
				fmt.Fprintf(w, "  %s\n", l)
			}
		}
	}
	res := d.res
	if res == nil {
		fmt.Fprintln(w, "access is compared only between two configs YuniKorn accepts; on a reload YuniKorn keeps the old config when the new one is rejected")
		return nil
	}
	for _, p := range res.PartitionsAdded {
		fmt.Fprintf(w, "+ partition %s (added)\n", p)
	}
	for _, p := range res.PartitionsRemoved {
		fmt.Fprintf(w, "- partition %s (removed)\n", p)
	}
	for _, m := range res.Warnings {
		fmt.Fprintf(w, "warning: %s\n", m)
	}
	for _, q := range res.Queues {
		if q.Added {
			fmt.Fprintf(w, "+ %s/%s (queue added)\n", q.Partition, q.Queue)
		} else {
			fmt.Fprintf(w, "- %s/%s (queue removed)\n", q.Partition, q.Queue)
		}
	}
	if d.flat {
		d.pairs(func(c audit.Change) {
			mark := "+"
			if !c.Gained {
				mark = "-"
			}
			fmt.Fprintf(w, "%s %s/%s: %s\n", mark, c.Section, c.Object, changeText(c))
		})
	} else {
		for _, gained := range []bool{true, false} {
			for _, c := range d.grouped.Causes {
				if c.Gained == gained {
					w.WriteString(causeText(c, describeGrant(c.Via), c.Objects, "queue"))
				}
			}
		}
	}
	gains, losses := d.grouped.Gains, d.grouped.Losses
	if gains+losses+len(res.Queues)+len(res.PartitionsAdded)+len(res.PartitionsRemoved) == 0 {
		fmt.Fprintln(w, "no change in access")
		return nil
	}
	fmt.Fprintf(w, "%d %s, %d %s, %d %s added, %d removed\n", gains, clikit.Plural(gains, "gain", "gains"), losses, clikit.Plural(losses, "loss", "losses"),
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

// diffOutput is one -o of diff: a format and where it goes ("" for
// standard output).
type diffOutput struct{ format, path string }

func parseDiffOutputs(values []string) ([]diffOutput, error) {
	var out []diffOutput
	toStdout := 0
	for _, v := range values {
		f, path, hasPath := strings.Cut(v, "=")
		if err := clikit.CheckOutput(f, "text", "json", "markdown"); err != nil {
			return nil, err
		}
		if hasPath && path == "" {
			return nil, clikit.Usage("invalid -o %q: give a file after =", v)
		}
		if !hasPath {
			toStdout++
		}
		out = append(out, diffOutput{f, path})
	}
	if toStdout > 1 {
		return nil, clikit.Usage("only one -o may go to standard output; give the others a file: -o FORMAT=PATH")
	}
	return out, nil
}

// writeDiffOutputs writes every -o; a markdown comment names the files
// written beside it as the full report.
func writeDiffOutputs(s *streams, targets []diffOutput, d *diffRun, commentSize int) error {
	var files []string
	for _, t := range targets {
		if t.path != "" && t.format != "markdown" {
			files = append(files, fmt.Sprintf("`%s` (%s)", t.path, t.format))
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
	return writeDiffTargets(s, targets, write)
}

// writeDiffTargets writes every -o of a diff, YuniKorn's or YARN's: to
// standard output, or to its file through safewrite.
func writeDiffTargets(s *streams, targets []diffOutput, write func(w io.Writer, format string) error) error {
	for _, t := range targets {
		var err error
		if t.path == "" {
			err = write(s.out, t.format)
		} else {
			err = safewrite.Output(t.path, func(w io.Writer) error { return write(w, t.format) })
		}
		if err != nil {
			where := "standard output"
			if t.path != "" {
				where = t.path
			}
			return clikit.Usage("writing %s output to %s: %w", t.format, where, err)
		}
	}
	return nil
}
