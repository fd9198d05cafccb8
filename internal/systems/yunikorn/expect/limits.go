package expect

import (
	"fmt"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/limits"
	"github.com/aclint/aclint/internal/systems/yunikorn/resources"
)

// Limits is a limits case's expectation: only the figures it gives are
// compared.
type Limits struct {
	AppsSet bool
	Apps    uint64 // 0: no limit
	ResSet  bool
	Res     resources.Resource // nil: no limit
	// GroupSet: TrackedGroup is compared; "" means no group is tracked.
	GroupSet     bool
	TrackedGroup string
	// Submit is what the case says of the user's submit: "allowed",
	// "denied", or "" (then it must be allowed: the figures of a user
	// YuniKorn rejects never apply, and a case that states them for such a
	// user fails unless it expects the denial)
	Submit string
}

var limitsKeys = []string{"maxApplications", "maxResources", "trackedGroup", "submit"}

// none reports whether v says "no limit": none, or null.
func none(v *yaml.Node) bool {
	return v.Kind == yaml.ScalarNode && (v.Value == "none" || v.Tag == "!!null")
}

// limitsExpect reads limits: {maxApplications: 2, maxResources: {memory:
// 16Gi, vcore: 4}, trackedGroup: data-eng}; resources are written as in
// queues.yaml and compared in YuniKorn's units.
func (p *parser) limitsExpect(v *yaml.Node) *Limits {
	l := &Limits{}
	if v.Kind != yaml.MappingNode {
		p.fail(v, "limits is a mapping: {maxApplications: N, maxResources: {vcore: 4}, trackedGroup: NAME}")
		return l
	}
	p.mapping(v, limitsKeys, "limits", func(key string, k, v *yaml.Node) {
		switch key {
		case "maxApplications":
			l.AppsSet = true
			if none(v) {
				return
			}
			n, err := strconv.ParseUint(p.str(k, v), 10, 64)
			if err != nil || n == 0 {
				p.fail(v, "maxApplications is a number of applications above 0, or none for no limit")
			}
			l.Apps = n
		case "maxResources":
			l.ResSet = true
			if none(v) {
				return
			}
			if v.Kind != yaml.MappingNode || len(v.Content) == 0 {
				p.fail(v, "maxResources is a mapping of resources as queues.yaml writes them ({memory: 16Gi, vcore: 4}), or none for no limit")
				return
			}
			l.Res = resources.Resource{}
			for i := 0; i+1 < len(v.Content); i += 2 {
				rk, rv := deref(v.Content[i]), deref(v.Content[i+1])
				q, err := resources.Parse(rk.Value, rv.Value)
				if rk.Kind != yaml.ScalarNode || rv.Kind != yaml.ScalarNode || err != nil {
					p.fail(rv, "%s: %q is not a quantity YuniKorn reads (e.g. 16Gi, 500m for vcore)", rk.Value, rv.Value)
					continue
				}
				l.Res[rk.Value] = q
			}
		case "submit":
			l.Submit = p.str(k, v)
			if l.Submit != "allowed" && l.Submit != "denied" {
				p.fail(v, "submit is allowed or denied: whether the user may submit to the queue at all")
			}
		case "trackedGroup":
			l.GroupSet = true
			if !none(v) {
				l.TrackedGroup = p.str(k, v)
			}
		}
	})
	if !l.AppsSet && !l.ResSet && !l.GroupSet {
		p.fail(v, "limits names no figure: give maxApplications, maxResources or trackedGroup")
	}
	return l
}

// String says the expectation in the words of Result.Got.
func (l *Limits) String() string {
	var parts []string
	if l.AppsSet {
		parts = append(parts, "maxApplications "+appsWord(l.Apps))
	}
	if l.ResSet {
		parts = append(parts, "maxResources "+resWord(l.Res))
	}
	if l.GroupSet {
		parts = append(parts, "trackedGroup "+groupWord(l.TrackedGroup))
	}
	if l.Submit != "" {
		parts = append([]string{"submit " + l.Submit}, parts...)
	}
	return strings.Join(parts, ", ")
}

func appsWord(n uint64) string {
	if n == 0 {
		return "none"
	}
	return strconv.FormatUint(n, 10)
}

func resWord(r resources.Resource) string {
	if r == nil {
		return "none"
	}
	keys := r.Names()
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s: %s", k, resources.Describe(k, r[k]))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func groupWord(g string) string {
	if g == "" {
		return "none"
	}
	return g
}

// limits answers a limits case as aclint limits does: the queue and the
// groups as check finds them, then the limits there.
func (e Env) limits(c *Case) Result {
	r := Result{Case: c}
	if e.Limits == nil {
		r.Outcome, r.Why = Error, "no limits model for this config"
		return r
	}
	a, d, err := e.Limits.Ask(e.Policy, acl.Query{Partition: c.Partition, Queue: c.Queue, User: c.User, Groups: c.Groups,
		Resolver: e.Resolver, Resolvers: e.Resolvers, Tags: c.Tags})
	r.Decision = d
	if err != nil {
		r.Outcome, r.Why = Error, err.Error()
		return r
	}
	r.Limits = a
	want := c.Limits
	got := &Limits{AppsSet: want.AppsSet, Apps: a.MaxApplications, ResSet: want.ResSet, Res: a.MaxResources, GroupSet: want.GroupSet, TrackedGroup: a.TrackedGroup}
	// the submit the case expects (allowed unless it says denied), and
	// the one check gives; shown when denied or when the case names it
	wantSubmit, gotSubmit := want.Submit, "allowed"
	if wantSubmit == "" {
		wantSubmit = "allowed"
	}
	if d != nil && !d.Allowed {
		gotSubmit = "denied"
	}
	figures := got.String()
	if gotSubmit == "denied" || want.Submit != "" {
		got.Submit = gotSubmit
	}
	r.Got = got.String()
	r.Why = explainLimits(a)
	if gotSubmit == "denied" {
		r.Why = fmt.Sprintf("%s may not submit to %s, so YuniKorn rejects the application and none of these limits ever applies (say submit: denied in the case to expect that); %s", c.User, d.Queue, r.Why)
	}
	wantFigures := *want
	wantFigures.Submit = ""
	r.Outcome = judge(figures == wantFigures.String() && gotSubmit == wantSubmit)
	return r
}

// explainLimits names the entries that bind the figures.
func explainLimits(a *limits.Answer) string {
	var parts []string
	if a.AppsBound != nil {
		s := a.AppsBound.Figure.Source
		parts = append(parts, fmt.Sprintf("applications bound on %s by the %s limit at %s", a.AppsBound.Level, s.Kind, at(s)))
	}
	for _, k := range a.MaxResources.Names() {
		b := a.ResBound[k]
		s := b.Figure.ResourcesFrom()
		parts = append(parts, fmt.Sprintf("%s bound on %s by the %s limit at %s", k, b.Level, s.Kind, at(s)))
	}
	if len(parts) == 0 {
		return "no limit applies"
	}
	return strings.Join(parts, "; ")
}

func at(s *limits.Source) string {
	if s.Kind == limits.KindTag {
		return "the request's tag " + s.Name
	}
	return s.At.String()
}
