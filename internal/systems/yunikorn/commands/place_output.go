package commands

import (
	"io"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/limits"
	"github.com/aclint/aclint/internal/systems/yunikorn/placement"
)

func writePlaceText(w io.Writer, app placement.App, r *placement.Result, d *placement.Derivation, lim *limits.Answer) error {
	var b strings.Builder
	b.WriteString(placeWord(r) + "\n")
	q := app.Queue
	if q == "" {
		q = "(none)"
	}
	engine.Fprintf(&b, "application of user %s, groups %s", r.User, acl.Names(r.Groups))
	if r.GroupsSource != "" {
		engine.Fprintf(&b, " (%s)", r.GroupsSource)
	}
	engine.Fprintf(&b, ", queue %s, tags %s, in partition %s\n", q, acl.DescribeTags(app.Tags), r.Partition)
	if d != nil {
		engine.Fprintf(&b, "from the pod: queue from %s; user from %s; tags %s\n", d.Queue, d.User, d.Tags)
	}
	if r.NoRules != "" {
		engine.Fprintf(&b, "no rules: %s\n", r.NoRules)
	}
	if len(r.Rules) > 0 {
		b.WriteString("rules, in order:\n")
	}
	for _, st := range r.Rules {
		engine.Fprintf(&b, "  %d. %s", st.Index, st.Rule)
		if st.Pos.File != "" {
			engine.Fprintf(&b, " at %s", st.Pos)
		}
		engine.Fprintf(&b, ": %s", st.Result)
		if st.Queue != "" {
			engine.Fprintf(&b, " %s", st.Queue)
		}
		if st.Reason != "" {
			engine.Fprintf(&b, " (%s)", st.Reason)
		}
		if st.Filter != "" && !strings.Contains(st.Reason, st.Filter) {
			engine.Fprintf(&b, "; filter: %s", st.Filter)
		}
		b.WriteString("\n")
		if st.Decision != nil && !st.Decision.Allowed {
			writeConsulted(&b, st.Decision, "     ")
		}
	}
	if r.Fallback != "" {
		engine.Fprintf(&b, "fallback: %s\n", r.Fallback)
	}
	switch {
	case r.Placed:
		engine.Fprintf(&b, "queue: %s", r.Queue)
		if r.Created {
			engine.Fprintf(&b, " (created under %s)", r.CreatedUnder)
		} else {
			b.WriteString(" (exists)")
		}
		b.WriteString("\n")
		if g := grantOf(r.Decision); g != nil {
			engine.Fprintf(&b, "submit: allowed by %s\n", g.String())
		}
		switch {
		case lim == nil:
		case lim.MaxApplications == 0 && lim.MaxResources == nil && !lim.Tracked:
			b.WriteString("limits: none (no user, group or queue limit applies)\n")
		default:
			engine.Fprintf(&b, "limits on %s (aclint limits shows every level):\n", lim.Queue)
			writeLimitsFigures(&b, lim, "  ")
		}
	default:
		engine.Fprintf(&b, "reason: %s\n", r.Reason)
		if r.Decision != nil && !r.Decision.Allowed {
			writeConsulted(&b, r.Decision, "  ")
		}
	}
	audit.WriteNotes(&b, r.Notes)
	_, err := io.WriteString(w, b.String())
	return err
}

func placeJSON(app placement.App, r *placement.Result, lim *limits.Answer) any {
	type ruleJSON struct {
		Index  int    `json:"index"`
		Rule   string `json:"rule"`
		File   string `json:"file,omitempty"`
		Line   int    `json:"line,omitempty"`
		Column int    `json:"column,omitempty"`
		Result string `json:"result"`
		Queue  string `json:"queue"`
		Filter string `json:"filter,omitempty"`
		Reason string `json:"reason"`
	}
	out := struct {
		Placed    bool       `json:"placed"`
		Queue     *string    `json:"queue"`
		Created   bool       `json:"created"`
		Under     string     `json:"createdUnder,omitempty"`
		Partition string     `json:"partition"`
		User      string     `json:"user"`
		Groups    []string   `json:"groups"`
		Requested string     `json:"requestedQueue"`
		Tags      any        `json:"tags"`
		Rules     []ruleJSON `json:"rules"`
		NoRules   string     `json:"noRules,omitempty"`
		Fallback  string     `json:"fallback"`
		DecidedBy *jsonGrant `json:"decidedBy"`
		Reason    string     `json:"reason,omitempty"`
		Crash     string     `json:"crash,omitempty"`
		Limits    any        `json:"limits"`
		Notes     []string   `json:"notes"`
	}{Placed: r.Placed, Created: r.Created, Under: r.CreatedUnder, Partition: r.Partition, User: r.User, Groups: r.Groups,
		Requested: app.Queue, Tags: app.Tags, Rules: []ruleJSON{}, NoRules: r.NoRules, Fallback: r.Fallback, Reason: r.Reason, Crash: r.Crash, Notes: r.Notes}
	if r.Placed {
		out.Queue = &r.Queue
	}
	if lim != nil {
		out.Limits = limitsJSON(lim)
	}
	if out.Groups == nil {
		out.Groups = []string{}
	}
	if out.Notes == nil {
		out.Notes = []string{}
	}
	if out.Tags == nil {
		out.Tags = map[string]string{}
	}
	for _, st := range r.Rules {
		out.Rules = append(out.Rules, ruleJSON{st.Index, st.Rule, st.Pos.File, st.Pos.Line, st.Pos.Col, st.Result, st.Queue, st.Filter, st.Reason})
	}
	if g := grantOf(r.Decision); g != nil && r.Placed {
		out.DecidedBy = &jsonGrant{g.Queue, g.ACL, g.Kind, g.Entry, g.Pos.File, g.Pos.Line, g.Pos.Col}
	}
	return out
}

// placeWord is place's verdict: placed, rejected, or crash.
func placeWord(r *placement.Result) string {
	switch {
	case r.Crash != "":
		return "crash"
	case r.Placed:
		return "placed"
	}
	return "rejected"
}
