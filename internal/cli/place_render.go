package cli

// This file renders place's neutral answer (audit.Placement) once, for
// every system: the application, each rule's result, the queue and the
// submit check, as text and as JSON.

import (
	"io"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
)

// writePlaceText writes a placement: the answer, the application, the
// rules in order, the queue and who lets the user submit there, or the
// reason it is rejected, and the notes.
func writePlaceText(w io.Writer, p *audit.Placement) error {
	var b strings.Builder
	engine.Fprintf(&b, "%s\n", p.Answer)
	asked := p.Requested
	if asked == "" {
		asked = "(none)"
	}
	// an application that never reached the scheduler (a pod the
	// admission controller refuses) has no user to say
	if p.User != "" || p.Requested != "" || len(p.Groups) > 0 {
		engine.Fprintf(&b, "application of user %s, groups [%s]", p.User, strings.Join(p.Groups, ", "))
		if p.GroupsFrom != "" {
			engine.Fprintf(&b, " (%s)", p.GroupsFrom)
		}
		engine.Fprintf(&b, ", queue %s", asked)
		for _, r := range p.Request {
			engine.Fprintf(&b, ", %s", r)
		}
		b.WriteString("\n")
	}
	lines := func(ls []string) {
		for _, l := range ls {
			engine.Fprintf(&b, "%s\n", l)
		}
	}
	lines(p.Context)
	lines(p.Before)
	writePlaceSteps(&b, p.Steps)
	lines(p.After)
	switch {
	case p.Unknown != "":
		engine.Fprintf(&b, "not known: %s\n", p.Unknown)
	case p.Placed:
		engine.Fprintf(&b, "queue: %s", p.Queue)
		if p.Created {
			engine.Fprintf(&b, " (created under %s)", p.CreatedUnder)
		} else {
			b.WriteString(" (exists)")
		}
		b.WriteString("\n")
		if v := p.Submit; v != nil {
			engine.Fprintf(&b, "submit: %s\n", submitLine(v))
		}
		writeSections(&b, p.Sections)
	default:
		engine.Fprintf(&b, "reason: %s\n", p.Reason)
		if v := p.Submit; v != nil && !v.Allowed {
			writeDenied(&b, v, "  ")
		}
	}
	audit.WriteNotes(&b, p.Notes)
	_, err := io.WriteString(w, b.String())
	return err
}

// writePlaceSteps writes each placement rule and what it did, with the
// submit check that sent the application on when one did.
func writePlaceSteps(b *strings.Builder, steps []audit.PlaceStep) {
	if len(steps) > 0 {
		b.WriteString("rules, in order:\n")
	}
	for _, st := range steps {
		engine.Fprintf(b, "  %d. %s", st.Index, st.Rule)
		if st.Pos.File != "" {
			engine.Fprintf(b, " at %s", st.Pos)
		}
		engine.Fprintf(b, ": %s", st.Result)
		if st.Queue != "" {
			engine.Fprintf(b, " %s", st.Queue)
		}
		if st.Reason != "" {
			engine.Fprintf(b, " (%s)", st.Reason)
		}
		if st.Filter != "" {
			engine.Fprintf(b, "; filter: %s", st.Filter)
		}
		b.WriteString("\n")
		if st.Denied != nil {
			writeDenied(b, st.Denied, "     ")
		}
	}
}

// writeSections writes further answers: a title alone, or a title and
// its lines.
func writeSections(b *strings.Builder, secs []audit.Section) {
	for _, sec := range secs {
		if len(sec.Lines) == 0 {
			engine.Fprintf(b, "%s\n", sec.Title)
			continue
		}
		engine.Fprintf(b, "%s:\n", sec.Title)
		for _, l := range sec.Lines {
			engine.Fprintf(b, "  %s\n", l)
		}
	}
}

// submitLine is the submit check in one line: who lets the user in and
// where that is written, or how the system came to allow it.
func submitLine(v *audit.Verdict) string {
	g := v.By
	if g == nil {
		if len(v.Context) > 0 {
			return v.Answer + ": " + v.Context[0]
		}
		return v.Answer + ": " + v.Why
	}
	what := g.Rule
	if g.Object != "" {
		what = g.Object + " " + g.Rule
	}
	if g.Entry != "" {
		what += ", " + g.Entry
	}
	where := " at " + g.Pos.String()
	if g.Pos.File == "" {
		where = " (" + g.Note + ")"
	}
	return v.Answer + " by " + what + where
}

// writeDenied writes a submit check that let the user in nowhere: why,
// and the rules consulted (the request itself is the placement's).
func writeDenied(b *strings.Builder, v *audit.Verdict, indent string) {
	engine.Fprintf(b, "%ssubmit %s: %s\n", indent, v.Answer, v.Why)
	var sub strings.Builder
	writeConsultedText(&sub, v)
	for _, l := range strings.SplitAfter(sub.String(), "\n") {
		if l != "" {
			b.WriteString(indent + "  " + l)
		}
	}
}

type placeStepJSON struct {
	Index  int    `json:"index"`
	Rule   string `json:"rule"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Result string `json:"result"`
	Queue  string `json:"queue"`
	Reason string `json:"reason"`
	Filter string `json:"filter"`
	Denied any    `json:"denied"`
}

// placeJSON is place's one JSON shape (docs/audits.md,
// schema/place.schema.json).
func placeJSON(p *audit.Placement) any {
	steps := []placeStepJSON{}
	for _, st := range p.Steps {
		var denied any
		if st.Denied != nil {
			denied = checkJSON(st.Denied)
		}
		steps = append(steps, placeStepJSON{st.Index, st.Rule, st.Pos.File, st.Pos.Line, st.Pos.Col, st.Result, st.Queue, st.Reason, st.Filter, denied})
	}
	var queue, by, submit, decided any
	if p.Placed {
		queue = p.Queue
	}
	if p.Rule >= 0 && p.Rule < len(steps) {
		by = steps[p.Rule]
	}
	if p.Submit != nil {
		submit = checkJSON(p.Submit)
		if p.Submit.By != nil && p.Placed {
			decided = toGrantJSON(*p.Submit.By)
		}
	}
	return clikit.Object{
		{Key: "system", Value: p.System},
		{Key: "answer", Value: p.Answer},
		{Key: "placed", Value: p.Placed},
		{Key: "queue", Value: queue},
		{Key: "created", Value: p.Created},
		{Key: "createdUnder", Value: p.CreatedUnder},
		{Key: "user", Value: p.User},
		{Key: "groups", Value: clikit.NonNil(p.Groups)},
		{Key: "groupsFrom", Value: p.GroupsFrom},
		{Key: "requestedQueue", Value: p.Requested},
		{Key: "rules", Value: steps},
		{Key: "placedBy", Value: by},
		{Key: "submit", Value: submit},
		{Key: "decidedBy", Value: decided},
		{Key: "reason", Value: p.Reason},
		{Key: "unknown", Value: p.Unknown},
		{Key: "notes", Value: clikit.NonNil(p.Notes)},
		{Key: "detail", Value: detailJSON(p.Detail)},
	}
}
