package yunikorn

import (
	"fmt"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

// WhoCanAnswer is acl's who-can list as the neutral answer every system's
// who-can gives (internal/audit): YuniKorn's own part, the partition and
// how a queue that does not exist yet is created, is its Detail.
func WhoCanAnswer(r *acl.WhoCanResult) *audit.WhoCan {
	a := &audit.WhoCan{
		System: System,
		Action: string(r.Action),
		Object: r.Target.Path,
		Title:  fmt.Sprintf("%s on %s in partition %s", r.Action, r.Target.Path, r.Partition),
		How:    "on the queue",
		By:     "YuniKorn",
		Notes:  r.Notes,
	}
	a.Everyone, a.Users, a.Groups = grants(r.Everyone), grants(r.Users), grants(r.Groups)
	for _, d := range r.Dropped {
		a.Dropped = append(a.Dropped, audit.Dropped{Object: d.Queue, Rule: d.ACL, Kind: d.Kind, Name: d.Name, Reason: d.Reason, Pos: d.Pos})
	}
	if len(r.Target.Ways) > 0 {
		a.Preamble = append(a.Preamble, fmt.Sprintf("%s does not exist; placement creates it, in rule order (a rule is reached only when the ones before it place nothing):", r.Target.Path))
		for _, w := range r.Target.Ways {
			a.Preamble = append(a.Preamble, fmt.Sprintf("  %s: %s", w.By, w.Needs()))
		}
	}
	a.Detail = []audit.Field{
		{Key: "partition", Value: r.Partition},
		{Key: "decidingQueue", Value: r.Target.Queue.Path()},
		{Key: "dynamic", Value: r.Target.Dynamic},
		{Key: "createdBy", Value: Ways(r.Target.Ways)},
	}
	return a
}

func grants(hs []acl.Holder) []audit.Grant {
	out := []audit.Grant{}
	for _, h := range hs {
		kind := h.Kind
		if kind == "wildcard" {
			kind = "everyone"
		}
		out = append(out, audit.Grant{Kind: kind, Name: h.Name, Object: h.Queue, Rule: h.ACL, Inherited: h.Inherited, Pos: h.Pos})
	}
	return out
}

// Way is how a placement rule creates a queue, as JSON writes it.
type Way struct {
	Rule   int               `json:"rule"`
	By     string            `json:"by"`
	Tags   map[string]string `json:"tags"`
	User   string            `json:"user"`
	Queue  string            `json:"queue"`
	Filter string            `json:"filter"`
	Needs  string            `json:"needs"`
}

// Ways lists the rules that create a queue, with what each needs.
func Ways(ways []acl.Way) []Way {
	out := []Way{}
	for _, w := range ways {
		tags := w.Tags
		if tags == nil {
			tags = map[string]string{}
		}
		out = append(out, Way{w.Rule, w.By, tags, w.User, w.Queue, w.Filter, w.Needs()})
	}
	return out
}
