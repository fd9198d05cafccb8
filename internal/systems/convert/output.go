package convert

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/safewrite"
)

// convert's -o is as lint's: FORMAT for standard output, FORMAT=PATH for
// a file, repeatable. yaml is the converted queues.yaml; json the whole
// answer for scripts: the config, every difference and what is not
// converted. A value that names no format and has no "=" is a path for
// the yaml (what -o meant before issue 55), kept for the scripts that use
// it.

// target is one -o: a format and its file ("" for standard output).
type target clikit.DiffOutput

// parseTargets reads the -o values as every repeatable -o is read; a value
// that names no format and has no "=" is the yaml's file, as -o was once.
// With none, the yaml goes to standard output.
func parseTargets(values []string) ([]target, error) {
	vs := make([]string, len(values))
	for i, v := range values {
		if format, _, hasPath := strings.Cut(v, "="); !hasPath && format != "yaml" && format != "json" {
			v = "yaml=" + v
		}
		vs[i] = v
	}
	outs, err := clikit.ParseOutputs(vs, "yaml", "json")
	if err != nil {
		return nil, err
	}
	out := []target{{"yaml", ""}}
	if len(outs) > 0 {
		out = out[:0]
	}
	for _, o := range outs {
		out = append(out, target(o))
	}
	return out, nil
}

// write writes the result to each target.
func (t target) write(env clikit.Env, res *Result) error {
	body := func(w io.Writer) error {
		if t.Format == "json" {
			return clikit.WriteJSON(w, resultJSON(res))
		}
		_, err := w.Write(res.YAML)
		return err
	}
	if t.Path == "" || t.Path == "-" {
		if err := body(env.Out()); err != nil {
			return clikit.Usage("writing output: %w", err)
		}
		return nil
	}
	if err := safewrite.Output(t.Path, env.Seen(), body); err != nil {
		return clikit.Usage("writing %s: %w", t.Path, err)
	}
	return nil
}

// resultJSON is convert's JSON answer (schema/convert.schema.json): every
// access difference and every kind of application placed differently,
// each with its cause, and the causes with their counts.
func resultJSON(res *Result) clikit.Object {
	type access struct {
		Queue     string  `json:"queue"`
		Action    string  `json:"action"`
		Principal string  `json:"principal"`
		YARN      bool    `json:"yarn"`
		YuniKorn  bool    `json:"yunikorn"`
		Why       string  `json:"why"`
		Cause     string  `json:"cause"`
		Accepted  *string `json:"acceptedBy"`
	}
	type place struct {
		User      string   `json:"user"`
		Groups    []string `json:"groups"`
		Requested string   `json:"requested"`
		YARN      string   `json:"yarn"`
		YuniKorn  string   `json:"yunikorn"`
		Like      int      `json:"like"`
		Cause     string   `json:"cause"`
		Accepted  *string  `json:"acceptedBy"`
	}
	acc := []access{}
	for _, d := range res.Differences {
		acc = append(acc, access{d.Queue, d.Action.String(), d.Principal, d.YARN, d.YuniKorn, strings.TrimPrefix(d.Why, " "), d.Cause, res.acceptedBy(d.Accepted)})
	}
	pl := []place{}
	for _, d := range res.Placement {
		pl = append(pl, place{d.User, clikit.NonNil(d.Groups), d.Requested, d.YARN, d.YuniKorn, d.Like, d.Cause, res.acceptedBy(d.Accepted)})
	}
	return clikit.Object{
		{Key: "same", Value: res.Same()},
		{Key: "allAccepted", Value: res.AllAccepted()},
		{Key: "config", Value: string(res.YAML)},
		{Key: "causes", Value: causesJSON(res)},
		{Key: "access", Value: acc},
		{Key: "placement", Value: pl},
		{Key: "placementAsked", Value: res.PlaceAsked},
		{Key: "notConverted", Value: clikit.NonNil(res.NotConverted)},
		{Key: "notes", Value: clikit.NonNil(res.Notes)},
		{Key: "unusedAccepted", Value: unusedJSON(res)},
	}
}

// acceptedBy is where the entry that accepts a difference is, or nil.
func (r *Result) acceptedBy(e *AcceptEntry) *string {
	if e == nil {
		return nil
	}
	w := e.Where(r.accepted.Path)
	return &w
}

func causesJSON(res *Result) []clikit.Object {
	out := []clikit.Object{}
	for _, g := range groupByCause(res) {
		out = append(out, clikit.Object{
			{Key: "cause", Value: g.cause.ID},
			{Key: "summary", Value: g.cause.Summary},
			{Key: "fix", Value: g.cause.Fix},
			{Key: "access", Value: g.access},
			{Key: "applications", Value: g.apps},
			{Key: "acceptedBy", Value: res.acceptedBy(g.accepted)},
		})
	}
	return out
}

func unusedJSON(res *Result) []string {
	out := []string{}
	for _, e := range res.accepted.Unused() {
		out = append(out, e.Where(res.accepted.Path))
	}
	return out
}

// causeGroup is the differences of one cause that one entry accepts (or
// none does), with the first as their example.
type causeGroup struct {
	cause        Cause
	accepted     *AcceptEntry
	access, apps int
	example      string
}

// groupByCause groups the differences by cause, in Causes' order, the
// unaccepted before the accepted of each cause.
func groupByCause(res *Result) []causeGroup {
	var out []causeGroup
	find := func(id string, e *AcceptEntry) *causeGroup {
		for i := range out {
			if out[i].cause.ID == id && out[i].accepted == e {
				return &out[i]
			}
		}
		c, _ := causeOf(id)
		out = append(out, causeGroup{cause: c, accepted: e})
		return &out[len(out)-1]
	}
	for _, d := range res.Differences {
		g := find(d.Cause, d.Accepted)
		if g.access++; g.example == "" {
			g.example = d.example()
			if d.Cause == causeAccess || d.Cause == causePlacedOtherly {
				g.example = d.String()
			}
		}
	}
	for _, d := range res.Placement {
		g := find(d.Cause, d.Accepted)
		if g.apps += d.Like; g.example == "" {
			g.example = d.example()
		}
	}
	rank := map[string]int{}
	for i, c := range Causes() {
		rank[c.ID] = i
	}
	sort.SliceStable(out, func(i, j int) bool {
		if rank[out[i].cause.ID] != rank[out[j].cause.ID] {
			return rank[out[i].cause.ID] < rank[out[j].cause.ID]
		}
		return out[i].accepted == nil && out[j].accepted != nil
	})
	return out
}

// report is the text report on standard error: the notes, what is not
// converted, then one line per cause (what differs, how much, one
// example), and the totals. The names the proof makes up are explained
// where they first appear.
func report(w io.Writer, res *Result) error {
	var b strings.Builder
	for _, n := range res.Notes {
		engine.Fprintf(&b, "note: %s\n", n)
	}
	for _, n := range res.NotConverted {
		engine.Fprintf(&b, "not converted: %s\n", n)
	}
	accepted := 0
	for _, g := range groupByCause(res) {
		if g.accepted != nil {
			accepted++
			engine.Fprintf(&b, "accepted: %s: %s, by %s: %s\n", g.cause.ID, g.counts(), g.accepted.Where(res.accepted.Path), g.accepted.Reason)
			continue
		}
		fix := ""
		if g.cause.Fix != "" {
			fix = "; to change it: " + g.cause.Fix
		}
		engine.Fprintf(&b, "differs: %s: %s: %s; e.g. %s%s\n", g.cause.ID, g.counts(), g.cause.Summary, g.example, fix)
	}
	for _, e := range res.accepted.Unused() {
		engine.Fprintf(&b, "note: the accepted entry at %s (%s) accepts no difference now\n", e.Where(res.accepted.Path), e.Cause)
	}
	b.WriteString(totals(res))
	if res.accepted != nil {
		b.WriteString(newCauses(res))
	}
	_, err := io.WriteString(w, explainProbes(b.String()))
	return err
}

func (g causeGroup) counts() string {
	var parts []string
	if g.access > 0 {
		parts = append(parts, fmt.Sprintf("%d access %s", g.access, plural(g.access, "answer", "answers")))
	}
	if g.apps > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", g.apps, plural(g.apps, "application", "applications")))
	}
	return strings.Join(parts, " and ")
}

// totals are the report's last lines.
func totals(res *Result) string {
	var b strings.Builder
	accAccess, apps, accApps := 0, 0, 0
	for _, d := range res.Differences {
		if d.Accepted != nil {
			accAccess++
		}
	}
	for _, d := range res.Placement {
		apps += d.Like
		if d.Accepted != nil {
			accApps += d.Like
		}
	}
	if len(res.Differences) == 0 {
		b.WriteString("access is the same in YARN and in the YuniKorn config, for every queue, action, user and group the ACLs name, and everyone else\n")
	} else {
		fmt.Fprintf(&b, "%d access %s%s\n", len(res.Differences), plural(len(res.Differences), "answer differs", "answers differ"), acceptedCount(res, accAccess))
	}
	if len(res.Placement) == 0 {
		fmt.Fprintf(&b, "placement is the same in YARN and in the YuniKorn config, for all %d applications that can tell them apart (every user, group list and requested queue the rules, ACLs and queues name)\n", res.PlaceAsked)
	} else {
		fmt.Fprintf(&b, "%d of %d applications asked are placed differently%s\n", apps, res.PlaceAsked, acceptedCount(res, accApps))
	}
	return b.String()
}

// newCauses says which causes have differences the accepted file does
// not take, or that it takes them all.
func newCauses(res *Result) string {
	var ids []string
	for _, g := range groupByCause(res) {
		if g.accepted == nil {
			ids = append(ids, g.cause.ID)
		}
	}
	if len(ids) == 0 {
		return fmt.Sprintf("every difference is accepted by %s\n", engine.Printable(res.accepted.Path))
	}
	return fmt.Sprintf("not accepted by %s: %s\n", engine.Printable(res.accepted.Path), strings.Join(ids, ", "))
}

func acceptedCount(res *Result, n int) string {
	if res.accepted == nil {
		return ""
	}
	return fmt.Sprintf(" (%d accepted by %s)", n, engine.Printable(res.accepted.Path))
}

// explainProbes says what each name the proof makes up stands for, where
// it first appears.
func explainProbes(text string) string {
	for _, p := range []struct{ name, means string }{
		{probeUser, "a user no ACL or rule names"},
		{probeGroup, "a group no ACL or rule names"},
		{probeQueue, "a queue no file names"},
		{probeDotUser, "a user no rule names, with a dot"},
	} {
		for from := 0; ; {
			i := strings.Index(text[from:], p.name)
			if i < 0 {
				break
			}
			i += from
			j := i + len(p.name)
			if i == 0 || text[i-1] == ' ' {
				text = text[:j] + " [" + p.means + "]" + text[j:]
				break
			}
			from = j
		}
	}
	return text
}
