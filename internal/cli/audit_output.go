package cli

// This file renders the neutral answers of internal/audit, once for every
// system: who-can as text, JSON and CSV, and check's verdict.

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
)

// detailJSON is a system's own part of an answer, as a JSON object.
func detailJSON(fs []audit.Field) clikit.Object {
	o := clikit.Object{}
	for _, f := range fs {
		o = append(o, clikit.Field{Key: f.Key, Value: f.Value})
	}
	return o
}

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

func grantsJSON(gs []audit.Grant) []grantJSON {
	out := []grantJSON{}
	for _, g := range gs {
		out = append(out, toGrantJSON(g))
	}
	return out
}

func toGrantJSON(g audit.Grant) grantJSON {
	return grantJSON{g.Kind, g.Name, g.Object, g.Rule, g.Inherited, g.Default, g.Pos.File, g.Pos.Line, g.Pos.Col}
}

// whoCanJSON is who-can's one JSON shape (docs/audits.md).
func whoCanJSON(r *audit.WhoCan) any {
	type dropped struct {
		Object string `json:"object"`
		Rule   string `json:"rule"`
		Kind   string `json:"kind"`
		Name   string `json:"name"`
		Reason string `json:"reason"`
		File   string `json:"file"`
		Line   int    `json:"line"`
		Column int    `json:"column"`
	}
	ds := []dropped{}
	for _, d := range r.Dropped {
		ds = append(ds, dropped{d.Object, d.Rule, d.Kind, d.Name, d.Reason, d.Pos.File, d.Pos.Line, d.Pos.Col})
	}
	return clikit.Object{
		{Key: "system", Value: r.System},
		{Key: "action", Value: r.Action},
		{Key: "object", Value: r.Object},
		{Key: "everyone", Value: grantsJSON(r.Everyone)},
		{Key: "users", Value: grantsJSON(r.Users)},
		{Key: "groups", Value: grantsJSON(r.Groups)},
		{Key: "denied", Value: grantsJSON(r.Denied)},
		{Key: "dropped", Value: ds},
		{Key: "complete", Value: r.Incomplete == ""},
		{Key: "notes", Value: clikit.NonNil(r.Notes)},
		{Key: "detail", Value: detailJSON(r.Detail)},
	}
}

func writeWhoCanCSV(w io.Writer, r *audit.WhoCan) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"subject_kind", "subject", "object", "rule", "inherited", "file", "line", "column", "access"})
	for _, sec := range []struct {
		access string
		gs     []audit.Grant
	}{{"allowed", r.Everyone}, {"allowed", r.Users}, {"allowed", r.Groups}, {"denied", r.Denied}} {
		for _, g := range sec.gs {
			cw.Write(clikit.PrintableFields([]string{g.Kind, g.Name, g.Object, g.Rule, strconv.FormatBool(g.Inherited), g.Pos.File, strconv.Itoa(g.Pos.Line), strconv.Itoa(g.Pos.Col), sec.access}))
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeWhoCanText writes who-can's text: the title, how the object comes
// to be, who is let in, who is refused, what the system reads past, notes.
func writeWhoCanText(w io.Writer, r *audit.WhoCan) error {
	var b strings.Builder
	pr := engine.Printable
	engine.Fprintf(&b, "%s:\n", pr(r.Title))
	for _, p := range r.Preamble {
		engine.Fprintf(&b, "%s\n", pr(p))
	}
	lines := func(gs []audit.Grant) []holderLine {
		out := make([]holderLine, len(gs))
		for i, g := range gs {
			where := " at " + g.Pos.String()
			if g.Pos.File == "" {
				where = ": " + g.Note
			}
			out[i] = holderLine{pr(g.Name), pr(g.Object), pr(g.Rule), pr(where), g.Inherited}
		}
		return out
	}
	if r.Instead != "" {
		engine.Fprintf(&b, "%s\n", pr(r.Instead))
	} else {
		writeHolders(&b, r, lines(r.Everyone), lines(r.Users), lines(r.Groups))
	}
	if len(r.Denied) > 0 {
		b.WriteString("denied:\n")
		writeHolderLines(&b, r.How, lines(r.Denied))
	}
	if len(r.Dropped) > 0 {
		engine.Fprintf(&b, "dropped by %s:\n", r.By)
		for _, d := range r.Dropped {
			engine.Fprintf(&b, "  %s %q in %s %s at %s: %s\n", d.Kind, d.Name, pr(d.Object), pr(d.Rule), pr(d.Pos.String()), pr(d.Reason))
		}
	}
	audit.WriteNotes(&b, r.Notes)
	_, err := io.WriteString(w, b.String())
	return err
}

// checkJSON is the one JSON shape of a check answered through a
// capability.
func checkJSON(v *audit.Verdict) any {
	var by any
	if v.By != nil {
		by = toGrantJSON(*v.By)
	}
	return clikit.Object{
		{Key: "system", Value: v.System},
		{Key: "answer", Value: v.Answer},
		{Key: "allowed", Value: v.Allowed},
		{Key: "decidedBy", Value: by},
		{Key: "why", Value: v.Why},
		{Key: "unknown", Value: v.Unknown},
		{Key: "notes", Value: clikit.NonNil(v.Notes)},
		{Key: "consulted", Value: consultedJSON(v.Consulted)},
		{Key: "detail", Value: detailJSON(v.Detail)},
	}
}

type consultedEntry struct {
	Object string `json:"object"`
	Rule   string `json:"rule"`
	Value  string `json:"value"`
	Set    bool   `json:"set"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Result string `json:"result"`
}

func consultedJSON(cs []audit.Consulted) []consultedEntry {
	out := make([]consultedEntry, 0, len(cs))
	for _, c := range cs {
		out = append(out, consultedEntry{c.Object, c.Rule, c.Value, c.Set, c.Pos.File, c.Pos.Line, c.Pos.Col, c.Result})
	}
	return out
}

// maxConsulted is how many consulted rules a text answer lists: the first
// half (nearest the object) and the last. A YuniKorn queue 4,900 levels
// deep consults 9,800 ACLs; -o json lists every one.
const maxConsulted = 40

func writeConsultedText(b *strings.Builder, v *audit.Verdict) {
	if len(v.Consulted) == 0 {
		return
	}
	title := v.ConsultedTitle
	if title == "" {
		title = "consulted, in order"
	}
	engine.Fprintf(b, "%s:\n", title)
	one := func(c audit.Consulted) {
		val, where := "", ""
		switch {
		case c.Set:
			val = " " + engine.Quote(c.Value)
			where = " at " + c.Pos.String()
		case c.Pos.File != "" && c.Holder != "":
			where = " (" + c.Holder + " at " + c.Pos.String() + ")"
		case c.Pos.File != "":
			where = " at " + c.Pos.String()
		}
		name := c.Rule
		if c.Object != "" {
			name = c.Object + " " + c.Rule
		}
		engine.Fprintf(b, "  %s%s%s: %s\n", name, val, where, c.Result)
	}
	cs := v.Consulted
	if len(cs) <= maxConsulted {
		for _, c := range cs {
			one(c)
		}
		return
	}
	for _, c := range cs[:maxConsulted/2] {
		one(c)
	}
	engine.Fprintf(b, "  ... %d more consulted, none lets the request in (-o json lists every one)\n", len(cs)-maxConsulted)
	for _, c := range cs[len(cs)-maxConsulted/2:] {
		one(c)
	}
}

// writeCheckText writes a verdict: the answer and why, the rule that
// decided and where it is written, the notes.
func writeCheckText(w io.Writer, v *audit.Verdict) error {
	var b strings.Builder
	engine.Fprintf(&b, "%s: %s\n", v.Answer, v.Why)
	for _, l := range v.Context {
		engine.Fprintf(&b, "%s\n", l)
	}
	if v.Unknown != "" {
		engine.Fprintf(&b, "not known: %s\n", v.Unknown)
	}
	if g := v.By; g != nil {
		where := " at " + g.Pos.String()
		if g.Pos.File == "" {
			where = ": " + g.Note
		}
		what := g.Rule
		if g.Object != "" {
			what = g.Object + " " + g.Rule
		}
		if g.Entry != "" {
			what += ", " + g.Entry
		}
		if what == "" {
			where = strings.TrimPrefix(where, ": ")
		}
		engine.Fprintf(&b, "decided by %s%s\n", what, where)
	}
	writeConsultedText(&b, v)
	audit.WriteNotes(&b, v.Notes)
	for _, sec := range v.Sections {
		engine.Fprintf(&b, "%s:\n", sec.Title)
		for _, l := range sec.Lines {
			engine.Fprintf(&b, "  %s\n", l)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
