package cli

// This file answers diff through audit.Differ, for every system: each
// side loaded (a side the system refuses is part of the answer: a change
// that makes the system refuse its config fails the gate), the changes
// grouped by the rule that causes each (in NEW for a gain, in OLD for a
// loss), and the exit code a pipeline reads.

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
)

func newDiffCmd(s *streams) *cobra.Command {
	c := &cobra.Command{
		Use:   "diff OLD NEW",
		Short: "Show what a config change grants or takes away: who gains or loses access to what",
		Args:  clikit.ExactArgs(2, "diff needs OLD NEW"),
	}
	p := s.extend(c, "diff")
	f := c.Flags()
	f.StringArrayP("output", "o", []string{"text"}, "output format text, json or markdown (a pull-request comment), optionally FORMAT=PATH; repeatable, e.g. -o markdown=comment.md -o json=access-diff.json")
	f.Int("comment-size", clikit.DefaultCommentSize, "markdown: the most characters the comment may have (GitHub takes 65,536); past it the causes that do not fit are counted and the comment points at the full report. 0: no limit")
	f.Bool("flat", false, "text and JSON: list every (queue, subject) pair that changes, not only the ACL entries that cause them")
	f.String("fail-on", "none", "exit 1 on this answer: gain (anyone gains access, so a pipeline can ask for approval), change (anyone gains or loses access) or none")
	f.Bool("fail-on-gain", false, "--fail-on gain")
	f.MarkHidden("fail-on-gain") // the older spelling, kept for the scripts that use it
	c.RunE = func(cmd *cobra.Command, args []string) error {
		targets, err := clikit.ParseDiffOutputs(flagStrings(cmd, "output"))
		if err != nil {
			return err
		}
		failOn, err := diffFailOn(cmd)
		if err != nil {
			return err
		}
		commentSize := flagInt(cmd, "comment-size")
		if commentSize < 0 {
			return clikit.Usage("--comment-size %d: give the most characters the comment may have, or 0 for no limit", commentSize)
		}
		if args[0] == "-" && args[1] == "-" {
			return clikit.Usage("only one of OLD and NEW can be standard input")
		}
		old, err := s.question(args[:1])
		if err != nil {
			return err
		}
		new, err := s.question(args[1:])
		if err != nil {
			return err
		}
		if !engine.SameSystem(old.sys, new.sys) {
			return clikit.Usage("OLD is a %s input and NEW a %s one: diff compares two files of one system", old.sys.Name(), new.sys.Name())
		}
		if err := p.take(old); err != nil {
			return err
		}
		if err := p.take(new); err != nil {
			return err
		}
		return askDiff(s, old, new, diffAsk{args: args, targets: targets, failOn: failOn, flat: flagBool(cmd, "flat"), commentSize: commentSize})
	}
	return c
}

// diffAsk is how a diff was asked: its outputs and flags.
type diffAsk struct {
	args        []string
	targets     []clikit.DiffOutput
	failOn      string // gain, change or none (--fail-on)
	flat        bool
	commentSize int
}

// diffRun is a diff's answer: both sides, and the changes when both were
// compared (d nil otherwise).
type diffRun struct {
	ask      diffAsk
	system   string // the system's name, as --system names it
	by       string // the system in sentences
	old, new audit.DiffSide
	d        *audit.Diff
	g        *audit.Grouped
}

// askDiff compares two files of one system through its audit.Differ.
func askDiff(s *streams, old, new *asked, ask diffAsk) error {
	df, err := capability[audit.Differ](new, "diff")
	if err != nil {
		return err
	}
	r := &diffRun{ask: ask, system: new.sys.Name(), by: new.sys.Name(), g: &audit.Grouped{}}
	og, ng, err := diffGates(old, new)
	if err != nil {
		return err
	}
	mo, refo, err := loadSide(old)
	if err != nil {
		return err
	}
	mn, refn, err := loadSide(new)
	if err != nil {
		return err
	}
	r.old = audit.DiffSide{Label: "OLD", Name: ask.args[0], Refused: refo}
	r.new = audit.DiffSide{Label: "NEW", Name: ask.args[1], Refused: refn}
	r.sides()
	if refo == nil && refn == nil {
		if r.d, err = df.Diff(mo, mn, audit.DiffSides{Old: old.named(), New: new.named(), MaxInput: s.maxInput, Seen: s.seen, OldGate: og, NewGate: ng}); err != nil {
			return answerErr(err)
		}
		r.compared()
	}
	if err := writeDiffTargets(s, r); err != nil {
		return err
	}
	switch {
	case refo == nil && refn != nil:
		// a reload would keep OLD running: the change fails the gate
		return &clikit.ExitError{Code: ExitFail}
	case refo != nil && refn != nil:
		// a gate that compared nothing must not pass
		return clikit.Usage("both configs are rejected by %s: nothing was compared; fix them first (aclint lint -f %s -f %s)", r.by, ask.args[0], ask.args[1])
	case refo != nil && ask.failOn != "none":
		return clikit.Usage("OLD is rejected by %s, so nothing was compared and --fail-on %s cannot tell what NEW grants; review NEW's access with aclint access or aclint matrix", r.by, ask.failOn)
	case ask.failOn == "gain" && r.gains() > 0, ask.failOn == "change" && r.gains()+r.g.Losses+r.d.Narrows > 0:
		return &clikit.ExitError{Code: ExitFail}
	}
	return nil
}

// diffFailOn is --fail-on, or gain for the older --fail-on-gain.
func diffFailOn(cmd *cobra.Command) (string, error) {
	v := flagString(cmd, "fail-on")
	if flagBool(cmd, "fail-on-gain") {
		if cmd.Flags().Changed("fail-on") && v != "gain" {
			return "", clikit.Usage("--fail-on-gain is --fail-on gain: give one of them")
		}
		v = "gain"
	}
	switch v {
	case "gain", "change", "none":
		return v, nil
	}
	return "", clikit.Usage("invalid --fail-on %q: use gain, change or none", v)
}

// sides names refused sides as their refusal does, and the system as
// they say it.
func (r *diffRun) sides() {
	for _, sd := range []*audit.DiffSide{&r.old, &r.new} {
		if sd.Refused != nil {
			sd.Name = sd.Refused.File
			if sd.Refused.By != "" {
				r.by = sd.Refused.By
			}
		}
	}
}

// compared takes the system's diff: the sides as it names them, and its
// changes grouped by cause.
func (r *diffRun) compared() {
	r.by = r.d.By
	if r.d.Old != "" {
		r.old.Name = r.d.Old
	}
	if r.d.New != "" {
		r.new.Name = r.d.New
	}
	r.d.Changes(r.g.Add)
	r.g.Merge()
}

// embeddedDiff is a diff another command embeds (drift).
func embeddedDiff(old, new audit.DiffSide, d *audit.Diff) *diffRun {
	r := &diffRun{old: old, new: new, d: d, g: &audit.Grouped{}}
	r.sides()
	if d != nil {
		r.system = d.System
		r.compared()
	}
	return r
}

// loadSide loads one side of a diff: its model, or the system's refusal
// of it, which the diff reports.
func loadSide(q *asked) (audit.Model, *audit.Refused, error) {
	l, ok := q.caps.(audit.Loader)
	if !ok {
		return nil, nil, clikit.Usage("%s files answer no question: %s has no model of them", q.sys.Name(), q.sys.Name())
	}
	m, err := l.Load(q.ins, q.opts)
	var ref *audit.Refused
	if errors.As(err, &ref) {
		if ref.File == "" {
			ref.File = q.named()
		}
		return nil, ref, nil
	}
	if err != nil {
		return nil, nil, answerErr(err)
	}
	return m, nil, nil
}
