package commands

import (
	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/limits"
)

type jsonGrant struct {
	Queue  string `json:"queue"`
	ACL    string `json:"acl"`
	Kind   string `json:"kind"`
	Entry  string `json:"entry"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

type jsonConsulted struct {
	Queue  string `json:"queue"`
	ACL    string `json:"acl"`
	Value  string `json:"value"`
	Set    bool   `json:"set"`
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	Result string `json:"result"`
}

// decisionJSON is a decision as aclint test writes it: the entry that
// decided is its decidedBy.
func decisionJSON(d *acl.Decision) any { return decisionFields(d, nil, "decidedBy") }

// decisionDetail is YuniKorn's part of check's JSON (its detail): the
// request as YuniKorn built it, the ACL entry that decided, every ACL
// consulted, and the limits check -v adds.
func decisionDetail(d *acl.Decision, lim *limits.Answer) []audit.Field {
	o := decisionFields(d, lim, "acl")
	fs := make([]audit.Field, len(o))
	for i, f := range o {
		fs[i] = audit.Field{Key: f.Key, Value: f.Value}
	}
	return fs
}

func decisionFields(d *acl.Decision, lim *limits.Answer, byKey string) clikit.Object {
	var by *jsonGrant
	if g := d.DecidedBy; g != nil {
		by = &jsonGrant{g.Queue, g.ACL, g.Kind, g.Entry, g.Pos.File, g.Pos.Line, g.Pos.Col}
	}
	consulted := []jsonConsulted{}
	for _, c := range d.Consulted {
		consulted = append(consulted, jsonConsulted{c.Queue, c.ACL, c.Value, c.Set, c.Pos.File, c.Pos.Line, c.Pos.Col, c.Result})
	}
	o := clikit.Fields("allowed", d.Allowed, "action", string(d.Query.Action), "partition", d.Partition, "queue", d.Queue,
		"decidingQueue", d.Deciding, "dynamic", d.Dynamic, "parentQueue", d.Parent, "user", d.Query.User,
		"groups", clikit.NonNil(d.Groups), "groupsSource", d.GroupsSource, "groupsDetails", clikit.NonNil(d.GroupsDetails),
		"reason", d.Reason, byKey, by, "consulted", consulted, "notes", clikit.NonNil(d.Notes))
	if lim != nil {
		o = append(o, clikit.Field{Key: "limits", Value: limitsJSON(lim)})
	}
	return o
}

// maxConsulted is how many consulted ACLs a text answer lists: the first
// half (nearest the queue) and the last (nearest root). A queue 4,900
// levels deep consults 9,800 ACLs; -o json lists every one.
const maxConsulted = 40
