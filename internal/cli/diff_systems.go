package cli

// This file answers diff through audit.Differ, for every system whose
// files answer through the capabilities: the changes grouped by the rule
// that causes each (in NEW for a gain, in OLD for a loss), as text, JSON
// and a Markdown comment; --flat adds every (object, subject) pair.

import (
	"bufio"
	"errors"

	"fmt"
	"io"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
)

// diffAsk is how a diff was asked: its outputs and flags.
type diffAsk struct {
	args        []string
	targets     []clikit.DiffOutput
	failOnGain  bool
	flat        bool
	commentSize int
}

// askDiff compares two files of one system through its audit.Differ.
func askDiff(s *streams, old, new *asked, ask diffAsk) error {
	if !engine.SameSystem(old.sys, new.sys) {
		return clikit.Usage("OLD is a %s input and NEW a %s one: diff compares two files of one system", old.sys.Name(), new.sys.Name())
	}
	df, err := capability[audit.Differ](new, "diff")
	if err != nil {
		return err
	}
	mo, err := old.load()
	if err != nil {
		return err
	}
	mn, err := new.load()
	if err != nil {
		var ref *audit.Refused
		if _, e := new.sys.(audit.Loader).Load(new.ins, engine.Options{MaxSize: s.maxInput}); errors.As(e, &ref) {
			// as YuniKorn's diff: NEW refused where OLD ran fails the
			// gate (exit 1): a reload would keep OLD running
			return &clikit.ExitError{Code: ExitFail, Err: err}
		}
		return err
	}
	d, err := df.Diff(mo, mn, audit.DiffSides{Old: old.ins[0].Path, New: new.ins[0].Path, MaxInput: s.maxInput})
	if err != nil {
		return clikit.Usage("%w", err)
	}
	g := &audit.Grouped{}
	d.Changes(g.Add)
	g.Merge()
	var files []string
	for _, t := range ask.targets {
		if t.Path != "" && t.Format != "markdown" {
			files = append(files, fmt.Sprintf("`%s` (%s)", t.Path, t.Format))
		}
	}
	write := func(w io.Writer, format string) error {
		switch format {
		case "json":
			return writeSystemDiffJSON(w, d, g, ask.flat)
		case "markdown":
			return writeSystemDiffMarkdown(w, ask, d, g, files)
		}
		return writeSystemDiffText(w, d, g, ask.flat)
	}
	if err := clikit.WriteDiffTargets(s.out, ask.targets, write); err != nil {
		return err
	}
	if ask.failOnGain && g.Gains > 0 {
		return &clikit.ExitError{Code: ExitFail}
	}
	return nil
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

func systemDiffSummary(d *audit.Diff, g *audit.Grouped) string {
	return fmt.Sprintf("%d %s, %d %s, %d %s added, %d removed", g.Gains, clikit.Plural(g.Gains, "gain", "gains"), g.Losses, clikit.Plural(g.Losses, "loss", "losses"),
		len(d.Added), clikit.Plural(len(d.Added), d.ObjectWord, d.ObjectWord+"s"), len(d.Removed))
}

func objectLabel(o audit.Object) string {
	if o.Section == "" {
		return o.Name
	}
	return o.Section + "/" + o.Name
}

func writeSystemDiffText(w io.Writer, d *audit.Diff, g *audit.Grouped, flat bool) error {
	bw := bufio.NewWriter(w)
	for _, o := range d.Added {
		engine.Fprintf(bw, "+ %s %s added\n", d.ObjectWord, engine.Printable(objectLabel(o)))
	}
	for _, o := range d.Removed {
		engine.Fprintf(bw, "- %s %s removed\n", d.ObjectWord, engine.Printable(objectLabel(o)))
	}
	if flat {
		d.Changes(func(c audit.Change) {
			mark := "+"
			if !c.Gained {
				mark = "-"
			}
			engine.Fprintf(bw, "%s %s: %s\n", mark, engine.Printable(objectName(c.Section+"/"+c.Object)), engine.Printable(clikit.ChangeText(c)))
		})
	} else {
		for _, gained := range []bool{true, false} {
			for _, c := range g.Causes {
				if c.Gained == gained {
					bw.WriteString(clikit.CauseText(printableCause(c), engine.Printable(clikit.DescribeGrant(c.Via)), printableAll(objectNames(c.Objects)), d.ObjectWord))
				}
			}
		}
	}
	var b strings.Builder
	b.WriteString(systemDiffSummary(d, g) + "\n")
	audit.WriteNotes(&b, d.Notes)
	bw.WriteString(b.String())
	return bw.Flush()
}

// writeSystemDiffMarkdown is the pull-request comment: the totals, then
// one line per cause however many objects it reaches, kept under the
// comment size.
func writeSystemDiffMarkdown(w io.Writer, ask diffAsk, d *audit.Diff, g *audit.Grouped, full []string) error {
	var b strings.Builder
	engine.Fprintf(&b, "### %s access: %s → %s\n\n**%s**\n", d.By, clikit.MDCode(ask.args[0]), clikit.MDCode(ask.args[1]), systemDiffSummary(d, g))
	for _, n := range d.Notes {
		engine.Fprintf(&b, "\n> %s\n", clikit.MDText(n))
	}
	blocks := clikit.MDCauseBlocks(g.Causes, "rule", func(c *audit.Cause) string {
		return clikit.MDCauseLine(c, clikit.MDCode(clikit.DescribeGrant(c.Via)), objectNames(c.Objects), d.ObjectWord)
	})
	if len(d.Added)+len(d.Removed) > 0 {
		blocks = append(blocks, fmt.Sprintf("\n#### %ss\n\n", strings.ToUpper(d.ObjectWord[:1])+d.ObjectWord[1:]))
		for _, o := range d.Added {
			blocks = append(blocks, fmt.Sprintf("- added %s\n", clikit.MDCode(objectLabel(o))))
		}
		for _, o := range d.Removed {
			blocks = append(blocks, fmt.Sprintf("- removed %s\n", clikit.MDCode(objectLabel(o))))
		}
	}
	n, m := len(g.Causes), len(d.Added)+len(d.Removed)
	return clikit.WriteLimited(w, b.String(), blocks, fmt.Sprintf("%d %s and %d %s %s", n, clikit.Plural(n, "cause", "causes"),
		m, d.ObjectWord, clikit.Plural(m, "change", "changes")), ask.commentSize, full)
}

// writeSystemDiffJSON writes the totals and causes, and with --flat every
// pair under "changes", streamed from a second walk.
func writeSystemDiffJSON(w io.Writer, d *audit.Diff, g *audit.Grouped, flat bool) error {
	objs := func(os []audit.Object) []any {
		out := []any{}
		for _, o := range os {
			out = append(out, clikit.Object{{Key: "section", Value: o.Section}, {Key: "object", Value: o.Name}})
		}
		return out
	}
	causes := []any{}
	for _, gained := range []bool{true, false} {
		for _, c := range g.Causes {
			if c.Gained != gained {
				continue
			}
			entries := []grantJSON{}
			for _, h := range c.Entries {
				if h != nil {
					entries = append(entries, toGrantJSON(*h))
				}
			}
			causes = append(causes, clikit.Object{{Key: "change", Value: clikit.ChangeWord(c.Gained)}, {Key: "action", Value: c.Action}, {Key: "entries", Value: entries},
				{Key: "subjects", Value: c.Subjects}, {Key: "objects", Value: objectNames(c.Objects)}, {Key: "pairs", Value: c.Pairs}})
		}
	}
	out := clikit.Object{{Key: "system", Value: d.System}, {Key: "added", Value: objs(d.Added)}, {Key: "removed", Value: objs(d.Removed)}, {Key: "notes", Value: clikit.NonNil(d.Notes)},
		{Key: "gains", Value: g.Gains}, {Key: "losses", Value: g.Losses}, {Key: "causes", Value: causes}}
	if !flat {
		return clikit.WriteJSON(w, out)
	}
	return clikit.WriteWithChanges(w, out, func(emit func(any)) {
		d.Changes(func(c audit.Change) {
			var via any
			if c.Via != nil {
				via = toGrantJSON(*c.Via)
			}
			emit(clikit.Object{{Key: "section", Value: c.Section}, {Key: "object", Value: c.Object}, {Key: "subject", Value: c.Subject}, {Key: "action", Value: c.Action},
				{Key: "change", Value: clikit.ChangeWord(c.Gained)}, {Key: "via", Value: via}})
		})
	})
}

// diffQuestions reads OLD and NEW as questions; both nil means they are
// the fallback system's files, which diff compares its own way.
func diffQuestions(s *streams, args []string) (*asked, *asked, error) {
	old, err := s.question(args[:1])
	if err != nil {
		return nil, nil, err
	}
	new, err := s.question(args[1:])
	if err != nil {
		return nil, nil, err
	}
	if (old == nil) != (new == nil) {
		return nil, nil, clikit.Usage("OLD and NEW are files of different systems: diff compares two files of one system")
	}
	if old == nil {
		return nil, nil, nil
	}
	return old, new, nil
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
