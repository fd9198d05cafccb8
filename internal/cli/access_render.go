package cli

// This file renders audit.Accesser's listing once for every system: text,
// JSON and CSV, each written row by row as the system walks its tree.

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/progress"
)

// askAccess answers access through a system's audit.Accesser.
func askAccess(s *streams, cmd *cobra.Command, q *asked, words []string) error {
	acc, err := capability[audit.Accesser](q, "access")
	if err != nil {
		return err
	}
	m, err := q.loadFor("access", words)
	if err != nil {
		return err
	}
	qu := audit.Question{Words: words}
	if cmd.Flags().Changed("groups") {
		qu.Groups = clikit.ParseList(flagString(cmd, "groups"))
	}
	w := bufio.NewWriter(s.out)
	r := newAccessRenderer(w, flagString(cmd, "output"))
	// text lists where the subject has access, unless --all: on 2,000
	// queues, the rest is 2,000 lines of "-"; JSON and CSV, for scripts,
	// list every object unless --only-access
	output := flagString(cmd, "output")
	f := &accessFilter{r: r, only: flagBool(cmd, "only-access") || output == "text" && !flagBool(cmd, "all")}
	err = acc.Access(m, qu, scopeOf(cmd), f)
	if err == nil {
		err = r.end()
	}
	if err == nil && output == "text" && f.hidden > 0 && !flagBool(cmd, "only-access") {
		word := f.head.ObjectWord
		if word == "" {
			word = "object"
		}
		_, err = engine.Fprintf(w, "%d %s where %s has no access not shown: --all lists them\n", f.hidden, clikit.Plural(f.hidden, word, word+"s"), f.head.Subject)
	}
	w.Flush()
	if err != nil {
		var u *audit.UsageError
		if errors.As(err, &u) {
			return clikit.Usage("%s: %w (access %s, e.g. access -f %s %s)", q.sys.Name(), err, acc.AccessUsage().Words, q.named(), acc.AccessUsage().Example)
		}
		var g *audit.Gated
		if errors.As(err, &g) {
			return writeGated(s, g, "rows", flagString(cmd, "output"))
		}
		return answerErr(err)
	}
	if f.unknown {
		return &clikit.ExitError{Code: ExitUsage, Err: errors.New("the listing is not complete: an answer on the way is not known (marked ?)")}
	}
	return nil
}

// newAccessRenderer renders a listing as -o asks.
func newAccessRenderer(w *bufio.Writer, output string) accessRenderer {
	switch output {
	case "json":
		return &accessJSONOut{js: &clikit.Stream{W: w}}
	case "csv":
		return &accessCSVOut{cw: csv.NewWriter(w)}
	}
	return &accessTextOut{w: w}
}

// accessRenderer is an audit.AccessWriter for one output format; end
// closes what it opened.
type accessRenderer interface {
	audit.AccessWriter
	end() error
}

// accessFilter leaves out the rows --only-access does not want and notes
// an answer that is not known.
type accessFilter struct {
	r       accessRenderer
	only    bool
	unknown bool
	hidden  int // rows left out
	head    audit.AccessHead
}

func (f *accessFilter) Head(h audit.AccessHead) error       { f.head = h; return f.r.Head(h) }
func (f *accessFilter) Section(s audit.AccessSection) error { return f.r.Section(s) }
func (f *accessFilter) Row(r audit.AccessRow) error {
	progress.Answered()
	unknown := false
	for _, c := range r.Cells {
		unknown = unknown || c.Unknown
	}
	f.unknown = f.unknown || unknown
	if f.only && !r.HasAccess() && !unknown { // a ? is never left out
		f.hidden++
		return nil
	}
	return f.r.Row(r)
}

// grantText is a cell in text: the kind and name the rule lets in, and
// where it is.
func grantText(c audit.Cell) string {
	g := c.By
	switch {
	case g == nil && c.Unknown:
		return "?"
	case g == nil:
		return "-"
	case g.Object == "" && g.Kind == "wildcard":
		return "everyone (" + g.Rule + ")"
	case g.Object == "":
		return fmt.Sprintf("%s %s (%s)", g.Kind, g.Name, g.Rule)
	}
	how := ""
	if g.Inherited {
		how = ", inherited"
	}
	return fmt.Sprintf("%s %s via %s %s%s", g.Kind, g.Name, g.Object, g.Rule, how)
}

type accessTextOut struct {
	w       *bufio.Writer
	actions []string
}

func (t *accessTextOut) Head(h audit.AccessHead) error {
	t.actions = h.Actions
	for _, n := range h.Notes {
		engine.Fprintf(t.w, "note: %s\n", engine.Printable(n))
	}
	return nil
}

func (t *accessTextOut) Section(s audit.AccessSection) error {
	fmt.Fprintln(t.w, engine.Printable(s.Title))
	for _, n := range s.Notes {
		engine.Fprintf(t.w, "  note: %s\n", engine.Printable(n))
	}
	if s.Reason != "" {
		engine.Fprintf(t.w, "  denied everywhere: %s\n", engine.Printable(s.Reason))
	}
	return nil
}

func (t *accessTextOut) Row(r audit.AccessRow) error {
	object := engine.Printable(r.Object)
	switch r.Kind {
	case "parent", "created", "stopped":
		object += " (" + r.Kind + ")"
	}
	if len(r.Cells) <= 2 {
		// a line per object: the object, then each action and its grant
		engine.Fprintf(t.w, "  %-40s", object)
		for i, c := range r.Cells {
			if i == len(r.Cells)-1 {
				engine.Fprintf(t.w, " %s: %s\n", t.actions[i], engine.Printable(grantText(c)))
			} else {
				engine.Fprintf(t.w, " %s: %-48s", t.actions[i], engine.Printable(grantText(c)))
			}
		}
	} else {
		// many actions: the object, then a line for each action it has
		engine.Fprintf(t.w, "  %s\n", object)
		none := true
		for i, c := range r.Cells {
			if c.By != nil || c.Unknown {
				engine.Fprintf(t.w, "    %-12s %s\n", t.actions[i]+":", engine.Printable(grantText(c)))
				none = false
			}
		}
		if none {
			fmt.Fprintln(t.w, "    no access")
		}
	}
	if r.CreatedBy != "" {
		engine.Fprintf(t.w, "    does not exist: placement %s creates it for this request when it names no queue\n", r.CreatedBy)
	}
	return nil
}

func (t *accessTextOut) end() error { return nil }

type accessCSVOut struct {
	cw   *csv.Writer
	line []string
}

func (c *accessCSVOut) Head(h audit.AccessHead) error {
	head := []string{csvWord(h.SectionWord), csvWord(h.ObjectWord)}
	for _, a := range h.Actions {
		head = append(head, a, a+"_via_"+csvWord(h.ObjectWord), a+"_via_"+csvWord(h.RuleWord), a+"_entry")
	}
	head = append(head, csvWord(h.ObjectWord)+"_kind")
	c.line = make([]string, len(head))
	return c.cw.Write(clikit.PrintableFields(head))
}

// csvWord is a word of a CSV header: "object type" is object_type.
func csvWord(s string) string { return strings.ReplaceAll(s, " ", "_") }

func (c *accessCSVOut) Section(audit.AccessSection) error { return nil }

func (c *accessCSVOut) Row(r audit.AccessRow) error {
	c.line[0], c.line[1] = r.Section, r.Object
	for i, cell := range r.Cells {
		out := c.line[2+4*i : 6+4*i]
		switch g := cell.By; {
		case g != nil:
			out[0], out[1], out[2], out[3] = "true", g.Object, g.Rule, g.Kind+":"+g.Name
		case cell.Unknown:
			out[0], out[1], out[2], out[3] = "unknown", "", "", ""
		default:
			out[0], out[1], out[2], out[3] = "false", "", "", ""
		}
	}
	c.line[len(c.line)-1] = r.Kind
	return c.cw.Write(clikit.PrintableFields(c.line))
}

func (c *accessCSVOut) end() error { c.cw.Flush(); return c.cw.Error() }

// accessJSONOut streams access's one JSON shape (docs/audits.md).
type accessJSONOut struct {
	js        *clikit.Stream
	actions   []string
	inSection bool
}

func (j *accessJSONOut) Head(h audit.AccessHead) error {
	j.actions = h.Actions
	j.js.Open("sections", "system", h.System, "subject", h.Subject, "actions", h.Actions, "notes", clikit.NonNil(h.Notes))
	return j.js.Err()
}

func (j *accessJSONOut) Section(s audit.AccessSection) error {
	if j.inSection {
		j.js.Close()
	}
	j.inSection = true
	j.js.Open("objects", "section", s.Name, "groups", clikit.NonNil(s.Groups), "groupsSource", s.GroupsSource, "reason", s.Reason, "notes", clikit.NonNil(s.Notes))
	return j.js.Err()
}

func (j *accessJSONOut) Row(r audit.AccessRow) error {
	access := make(clikit.Object, len(r.Cells))
	known := true
	for i, c := range r.Cells {
		access[i] = clikit.Field{Key: j.actions[i], Value: nil}
		if c.By != nil {
			access[i].Value = toGrantJSON(*c.By)
		}
		known = known && !c.Unknown
	}
	o := clikit.Object{{Key: "object", Value: r.Object}, {Key: "kind", Value: r.Kind}}
	if r.CreatedBy != "" {
		o = append(o, clikit.Field{Key: "createdBy", Value: r.CreatedBy})
	}
	j.js.Item(append(o, clikit.Field{Key: "access", Value: access}, clikit.Field{Key: "known", Value: known}))
	return j.js.Err()
}

func (j *accessJSONOut) end() error {
	if !j.js.Started() {
		return nil
	}
	if j.inSection {
		j.js.Close()
	}
	return j.js.Close()
}
