package commands

import (
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/admission"
	"github.com/aclint/aclint/internal/systems/yunikorn/limits"
	"github.com/aclint/aclint/internal/systems/yunikorn/placement"
)

// placeAnswer is YuniKorn's placement in the shape every system's place
// has, rendered once by the command line. YuniKorn's own fields (the
// partition, the tags, the fallback, the limits) are its detail.
func placeAnswer(app placement.App, r *placement.Result, d *placement.Derivation, lim *limits.Answer) *audit.Placement {
	p := &audit.Placement{System: yunikorn.System, Answer: placeWord(r), Placed: r.Placed, Queue: r.Queue,
		Created: r.Created, CreatedUnder: r.CreatedUnder, User: r.User, Groups: r.Groups, GroupsFrom: r.GroupsSource,
		Requested: app.Queue, Request: []string{"tags " + acl.DescribeTags(app.Tags), "in partition " + r.Partition},
		Rule: -1, Reason: r.Reason, Notes: r.Notes}
	if d != nil {
		p.Context = append(p.Context, "from the pod: queue from "+d.Queue+"; user from "+d.User+"; tags "+d.Tags)
	}
	if r.NoRules != "" {
		p.Before = append(p.Before, "no rules: "+r.NoRules)
	}
	for i, st := range r.Rules {
		ps := audit.PlaceStep{Index: st.Index, Rule: st.Rule, Pos: st.Pos, Result: st.Result, Queue: st.Queue, Reason: st.Reason}
		if st.Filter != "" && !strings.Contains(st.Reason, st.Filter) {
			ps.Filter = st.Filter
		}
		if st.Decision != nil && !st.Decision.Allowed {
			ps.Denied = decisionVerdict(st.Decision, nil, false)
		}
		if st.Result == "placed" && r.Placed && st.Queue == r.Queue {
			p.Rule = i
		}
		p.Steps = append(p.Steps, ps)
	}
	if r.Fallback != "" {
		p.After = append(p.After, "fallback: "+r.Fallback)
	}
	if r.Decision != nil {
		p.Submit = decisionVerdict(r.Decision, nil, false)
	}
	if r.Crash != "" {
		p.Unknown = "placing it crashes YuniKorn's scheduler: " + r.Crash
	}
	var limitsJ any
	if lim != nil && r.Placed {
		limitsJ = limitsJSON(lim)
		if lim.MaxApplications == 0 && lim.MaxResources == nil && !lim.Tracked {
			p.Sections = append(p.Sections, audit.Section{Title: "limits: none (no user, group or queue limit applies)"})
		} else {
			var b strings.Builder
			writeLimitsFigures(&b, lim, "")
			p.Sections = append(p.Sections, audit.Section{Title: "limits on " + lim.Queue + " (aclint limits shows every level)",
				Lines: strings.Split(strings.TrimRight(b.String(), "\n"), "\n")})
		}
	}
	tags := app.Tags
	if tags == nil {
		tags = map[string]string{}
	}
	p.Detail = []audit.Field{{Key: "partition", Value: r.Partition}, {Key: "tags", Value: tags},
		{Key: "noRules", Value: r.NoRules}, {Key: "fallback", Value: r.Fallback}, {Key: "crash", Value: r.Crash},
		{Key: "limits", Value: limitsJ}}
	return p
}

// gatePlacement is the answer for a pod that never reaches the scheduler:
// the admission controller refuses it (rejected, exit 1), or YuniKorn does
// not schedule it (not known, exit 2).
func gatePlacement(g admission.Gate) *audit.Placement {
	p := &audit.Placement{System: yunikorn.System, Answer: "not scheduled by YuniKorn", Rule: -1, Unknown: g.Bypass,
		Detail: []audit.Field{{Key: "admission", Value: "not scheduled by YuniKorn"}, {Key: "why", Value: g.Why}}}
	if g.Rejected != "" {
		p.Answer, p.Unknown, p.Reason = "rejected", "", "the admission controller refuses to create the pod: "+g.Rejected
		p.Detail[0].Value = "rejected"
	}
	if g.Why != "" {
		p.Context = append(p.Context, "why: "+g.Why)
	}
	return p
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
