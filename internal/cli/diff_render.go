package cli

// This file renders diff's answer once for every system: text, and the
// pull-request comment (Markdown), each written to standard output or to
// the file -o FORMAT=PATH names.

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/output"
)

// writeDiffTargets writes every -o; a Markdown comment names the files
// written beside it as the full report.
func writeDiffTargets(s *streams, r *diffRun) error {
	var files []string
	for _, t := range r.ask.targets {
		if t.Path != "" && t.Format != "markdown" {
			files = append(files, fmt.Sprintf("`%s` (%s)", t.Path, t.Format))
		}
	}
	return clikit.WriteDiffTargets(s.out, s.seen, r.ask.targets, func(w io.Writer, format string) error {
		switch format {
		case "json":
			return writeDiffJSON(w, r)
		case "markdown":
			return writeDiffMarkdown(w, r, files)
		}
		bw := bufio.NewWriter(w)
		writeDiffText(bw, r)
		return bw.Flush()
	})
}

// objectName is an object of a diff as text: section/object, or the
// object alone for a system with one section.
func objectName(o string) string { return strings.TrimPrefix(o, "/") }

func objectNames(os []string) []string {
	out := make([]string, len(os))
	for i, o := range os {
		out[i] = objectName(o)
	}
	return out
}

func objectLabel(o audit.Object) string {
	if o.Section == "" {
		return o.Name
	}
	return o.Section + "/" + o.Name
}

// changed reports whether anything changes at all.
func (r *diffRun) changed() bool {
	d := r.d
	return r.gains()+r.g.Losses+d.Narrows+len(d.Added)+len(d.Removed)+len(d.SectionsAdded)+len(d.SectionsRemoved) > 0
}

// gains counts what the change grants: the (object, subject) pairs, and
// the gains that are no pair (audit.Diff.Widens).
func (r *diffRun) gains() int {
	if r.d == nil {
		return 0
	}
	return r.g.Gains + r.d.Widens
}

// counts are a diff's totals: "2 gains, 1 loss, 1 queue added, 0 removed".
func (r *diffRun) counts() string {
	g, word := r.g, r.d.ObjectWord
	s := fmt.Sprintf("%d %s, %d %s, %d %s added, %d removed", g.Gains, clikit.Plural(g.Gains, "gain", "gains"), g.Losses, clikit.Plural(g.Losses, "loss", "losses"),
		len(r.d.Added), clikit.Plural(len(r.d.Added), word, word+"s"), len(r.d.Removed))
	if n := r.d.Widens + r.d.Narrows; n > 0 {
		s += fmt.Sprintf(", and %d more %s in the warnings", n, clikit.Plural(n, "change", "changes"))
	}
	return s
}

// findingLines are a refused side's errors as lint writes them.
func findingLines(ref *audit.Refused) []string {
	var errs []engine.Finding
	for _, f := range ref.Findings {
		if f.Severity == engine.Error {
			errs = append(errs, f)
		}
	}
	var b strings.Builder
	_ = output.Text(&b, errs, output.Sources(ref.Sources), false)
	return strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
}

func writeDiffText(w *bufio.Writer, r *diffRun) {
	for _, sd := range []audit.DiffSide{r.old, r.new} {
		if sd.Refused != nil {
			engine.Fprintf(w, "%s (%s) is rejected by %s:\n", sd.Label, sd.Name, r.by)
			for _, l := range findingLines(sd.Refused) {
				fmt.Fprintf(w, "  %s\n", l)
			}
		}
	}
	d := r.d
	if d == nil {
		engine.Fprintf(w, "access is compared only between two configs %s accepts", r.by)
		if r.new.Refused != nil && r.new.Refused.OnReload != "" {
			engine.Fprintf(w, "; on a reload %s", r.new.Refused.OnReload)
		}
		fmt.Fprintln(w)
		return
	}
	for _, p := range d.SectionsAdded {
		engine.Fprintf(w, "+ %s %s (added)\n", d.SectionWord, p)
	}
	for _, p := range d.SectionsRemoved {
		engine.Fprintf(w, "- %s %s (removed)\n", d.SectionWord, p)
	}
	for _, m := range d.Warnings {
		engine.Fprintf(w, "warning: %s\n", m)
	}
	for _, o := range d.Added {
		engine.Fprintf(w, "+ %s (%s added)\n", objectLabel(o), d.ObjectWord)
	}
	for _, o := range d.Removed {
		engine.Fprintf(w, "- %s (%s removed)\n", objectLabel(o), d.ObjectWord)
	}
	if r.ask.flat {
		d.Changes(func(c audit.Change) {
			mark := "+"
			if !c.Gained {
				mark = "-"
			}
			engine.Fprintf(w, "%s %s: %s\n", mark, objectName(c.Section+"/"+c.Object), clikit.ChangeText(c))
		})
	} else {
		for _, gained := range []bool{true, false} {
			for _, c := range r.g.Causes {
				if c.Gained == gained {
					w.WriteString(clikit.CauseText(printableCause(c), engine.Printable(clikit.DescribeGrant(c.Via)), printableAll(objectNames(c.Objects)), d.ObjectWord))
				}
			}
		}
	}
	if !r.changed() {
		fmt.Fprintln(w, "no change in access")
	} else {
		engine.Fprintf(w, "%s\n", r.counts())
	}
	var b strings.Builder
	audit.WriteNotes(&b, d.Notes)
	w.WriteString(b.String())
}

// writeDiffMarkdown writes the diff as a pull-request comment: the verdict
// and the totals first, then gains and losses grouped by the rule that
// causes them (one line per rule entry, however many objects it reaches),
// the objects and sections added and removed. The comment stays under
// --comment-size characters: past it the causes that do not fit are
// counted, and the comment points at the full report (the other outputs
// of this run, or the command that writes it).
func writeDiffMarkdown(w io.Writer, r *diffRun, full []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### aclint: access changes from %s to %s\n", clikit.MDCode(r.old.Name), clikit.MDCode(r.new.Name))
	d := r.d
	if d == nil {
		writeRefusedMarkdown(&b, r)
		return clikit.WriteLimited(w, b.String(), nil, "", r.ask.commentSize, full)
	}
	switch {
	case !r.changed():
		fmt.Fprint(&b, "\n**Verdict: no change in access.**\n")
	case r.gains() > 0:
		fmt.Fprintf(&b, "\n**Verdict: access widens** (%s).\n", r.counts())
	default:
		fmt.Fprintf(&b, "\n**Verdict: nobody gains access** (%s).\n", r.counts())
	}
	for _, m := range d.Warnings {
		fmt.Fprintf(&b, "\n> [!WARNING]\n> %s\n", clikit.MDText(m))
	}
	for _, n := range d.Notes {
		fmt.Fprintf(&b, "\n> %s\n", clikit.MDText(n))
	}
	rule := d.RuleWord
	if rule == "" {
		rule = "rule"
	}
	// the body: one block per line, so the limit can cut between them
	blocks := clikit.MDCauseBlocks(r.g.Causes, rule, func(c *audit.Cause) string {
		holder := clikit.MDCode(clikit.DescribeGrant(c.Via))
		if c.Via != nil && c.Via.Pos.File != "" {
			holder = clikit.MDHolder(c.Via)
		}
		return clikit.MDCauseLine(c, holder, objectNames(c.Objects), d.ObjectWord)
	})
	blocks = append(blocks, listBlocks(d.ObjectWord, objectLabels(d.Added), objectLabels(d.Removed))...)
	blocks = append(blocks, listBlocks(d.SectionWord, d.SectionsAdded, d.SectionsRemoved)...)
	n, m := len(r.g.Causes), len(d.Added)+len(d.Removed)+len(d.SectionsAdded)+len(d.SectionsRemoved)
	what := d.ObjectWord
	if d.SectionWord != "" {
		what += " or " + d.SectionWord
	}
	return clikit.WriteLimited(w, b.String(), blocks, fmt.Sprintf("%d %s and %d %s %s", n, clikit.Plural(n, "cause", "causes"),
		m, what, clikit.Plural(m, "change", "changes")), r.ask.commentSize, full)
}

func objectLabels(os []audit.Object) []string {
	out := make([]string, len(os))
	for i, o := range os {
		out[i] = objectLabel(o)
	}
	return out
}

// listBlocks are the comment's list of what was added and removed: a
// heading ("#### Queues") and a line each.
func listBlocks(word string, added, removed []string) []string {
	if len(added)+len(removed) == 0 || word == "" {
		return nil
	}
	blocks := []string{fmt.Sprintf("\n#### %ss\n\n", strings.ToUpper(word[:1])+word[1:])}
	for _, a := range added {
		blocks = append(blocks, fmt.Sprintf("- added %s\n", clikit.MDCode(a)))
	}
	for _, a := range removed {
		blocks = append(blocks, fmt.Sprintf("- removed %s\n", clikit.MDCode(a)))
	}
	return blocks
}

// writeRefusedMarkdown is the comment's verdict when a side is refused:
// which, with its errors; nothing is compared.
func writeRefusedMarkdown(b *strings.Builder, r *diffRun) {
	for _, sd := range []audit.DiffSide{r.old, r.new} {
		if sd.Refused == nil {
			continue
		}
		label := "the new config"
		if sd.Label == "OLD" {
			label = "the old config"
		}
		fmt.Fprintf(b, "\n**Verdict: %s (%s) is rejected by %s**", label, clikit.MDCode(sd.Name), r.by)
		if sd.Label == "NEW" && sd.Refused.OnReload != "" {
			fmt.Fprintf(b, ": on a reload %s", sd.Refused.OnReload)
		}
		fmt.Fprint(b, "\n\n")
		for _, f := range sd.Refused.Findings {
			if f.Severity == engine.Error {
				fmt.Fprintf(b, "- %s %s (%s)\n", clikit.MDCode(f.Pos.String()), clikit.MDText(f.Message), clikit.MDCode(f.Rule))
			}
		}
	}
	fmt.Fprintf(b, "\nAccess is compared only between two configs %s accepts.\n", r.by)
}

// printableCause is a cause whose subjects are printable, for text.
func printableCause(c *audit.Cause) *audit.Cause {
	p := *c
	p.Subjects = printableAll(c.Subjects)
	return &p
}

func printableAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = engine.Printable(s)
	}
	return out
}
