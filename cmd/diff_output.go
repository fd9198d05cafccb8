package cmd

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/aclint/aclint/pkg/safewrite"

	"github.com/aclint/aclint/pkg/acl"
	"github.com/aclint/aclint/pkg/report"
)

func changeText(c acl.Change) string {
	verb, via := "gains", "via"
	if !c.Gained {
		verb, via = "loses", "was granted by"
	}
	who := c.Principal
	if who != "everyone" {
		who = strings.Replace(who, ":", " ", 1)
	}
	return fmt.Sprintf("%s %s %s (%s %s)", who, verb, c.Action, via, c.Via.Describe())
}

func writeDiffText(w *bufio.Writer, old, new *side, res *acl.DiffResult) error {
	for _, sd := range []*side{old, new} {
		if !sd.accepted {
			label := "NEW"
			if sd == old {
				label = "OLD"
			}
			fmt.Fprintf(w, "%s (%s) is rejected by YuniKorn:\n", label, sd.name)
			var b strings.Builder
			_ = report.Text(&b, sd.errors, report.Sources{sd.cfg.Doc.File: sd.cfg.Doc.Lines()}, false)
			for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
				fmt.Fprintf(w, "  %s\n", l)
			}
		}
	}
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
	gains, losses := 0, 0
	for _, c := range res.Changes {
		mark := "+"
		if c.Gained {
			gains++
		} else {
			mark = "-"
			losses++
		}
		fmt.Fprintf(w, "%s %s/%s: %s\n", mark, c.Partition, c.Queue, changeText(c))
	}
	if gains+losses+len(res.Queues)+len(res.PartitionsAdded)+len(res.PartitionsRemoved) == 0 {
		fmt.Fprintln(w, "no change in access")
		return nil
	}
	fmt.Fprintf(w, "%d %s, %d %s, %d %s added, %d removed\n", gains, plural(gains, "gain", "gains"), losses, plural(losses, "loss", "losses"),
		countQueues(res, true), plural(countQueues(res, true), "queue", "queues"), countQueues(res, false))
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

func diffJSON(old, new *side, res *acl.DiffResult) any {
	type sideJSON struct {
		Config   string        `json:"config"`
		Accepted bool          `json:"accepted"`
		Errors   []jsonFinding `json:"errors"`
	}
	mk := func(sd *side) sideJSON {
		out := sideJSON{Config: sd.name, Accepted: sd.accepted, Errors: []jsonFinding{}}
		for _, f := range sd.errors {
			out.Errors = append(out.Errors, jsonFinding{f.Rule, f.Pos.File, f.Pos.Line, f.Pos.Col, f.Message})
		}
		return out
	}
	type changeJSON struct {
		Partition string      `json:"partition"`
		Queue     string      `json:"queue"`
		Subject   string      `json:"subject"`
		Action    string      `json:"action"`
		Change    string      `json:"change"`
		Via       *holderJSON `json:"via"`
	}
	type queueJSON struct {
		Partition string `json:"partition"`
		Queue     string `json:"queue"`
		Change    string `json:"change"`
	}
	out := struct {
		Old               sideJSON     `json:"old"`
		New               sideJSON     `json:"new"`
		Compared          bool         `json:"compared"`
		PartitionsAdded   []string     `json:"partitionsAdded"`
		PartitionsRemoved []string     `json:"partitionsRemoved"`
		Warnings          []string     `json:"warnings"`
		Queues            []queueJSON  `json:"queues"`
		Changes           []changeJSON `json:"changes"`
	}{Old: mk(old), New: mk(new), Compared: res != nil, PartitionsAdded: []string{}, PartitionsRemoved: []string{}, Warnings: []string{}, Queues: []queueJSON{}, Changes: []changeJSON{}}
	if res != nil {
		out.PartitionsAdded = append(out.PartitionsAdded, res.PartitionsAdded...)
		out.PartitionsRemoved = append(out.PartitionsRemoved, res.PartitionsRemoved...)
		out.Warnings = append(out.Warnings, res.Warnings...)
		for _, q := range res.Queues {
			ch := "removed"
			if q.Added {
				ch = "added"
			}
			out.Queues = append(out.Queues, queueJSON{q.Partition, q.Queue, ch})
		}
		for _, c := range res.Changes {
			ch := "lost"
			if c.Gained {
				ch = "gained"
			}
			out.Changes = append(out.Changes, changeJSON{c.Partition, c.Queue, c.Principal, string(c.Action), ch, toHolderJSON(c.Via)})
		}
	}
	return out
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
		if err := checkOutput(f, "text", "json", "markdown"); err != nil {
			return nil, err
		}
		if hasPath && path == "" {
			return nil, usageErr("invalid -o %q: give a file after =", v)
		}
		if !hasPath {
			toStdout++
		}
		out = append(out, diffOutput{f, path})
	}
	if toStdout > 1 {
		return nil, usageErr("only one -o may go to standard output; give the others a file: -o FORMAT=PATH")
	}
	return out, nil
}

// writeDiffOutputs writes every -o; a markdown comment names the files
// written beside it as the full report.
func writeDiffOutputs(s *streams, targets []diffOutput, old, new *side, res *acl.DiffResult, commentSize int) error {
	var files []string
	for _, t := range targets {
		if t.path != "" && t.format != "markdown" {
			files = append(files, fmt.Sprintf("`%s` (%s)", t.path, t.format))
		}
	}
	write := func(w io.Writer, format string) error {
		switch format {
		case "json":
			return writeJSON(w, diffJSON(old, new, res))
		case "markdown":
			return writeDiffMarkdown(w, old, new, res, commentSize, files)
		}
		bw := bufio.NewWriter(w)
		if err := writeDiffText(bw, old, new, res); err != nil {
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
			return usageErr("writing %s output to %s: %w", t.format, where, err)
		}
	}
	return nil
}
