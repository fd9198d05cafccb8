package commands

import (
	"fmt"
	"io"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/limits"
)

func writeDecisionText(w io.Writer, d *acl.Decision, explain bool) error {
	verdict := "denied"
	if d.Allowed {
		verdict = "allowed"
	}
	// groups may come from LDAP or a groups file: no newline of theirs may
	// start a line of ours (a CI log reads "::error::" at a line's start)
	groups := engine.Printable(acl.Names(d.Groups))
	var b strings.Builder
	fmt.Fprintln(&b, verdict)
	engine.Fprintf(&b, "%s on %s in partition %s for user %s, groups %s", d.Query.Action, d.Queue, d.Partition, d.Query.User, groups)
	if d.GroupsSource != "" {
		engine.Fprintf(&b, " (%s)", d.GroupsSource)
	}
	fmt.Fprintln(&b)
	if explain {
		engine.Fprintf(&b, "groups: %s\n", groups)
		if d.GroupsSource != "" {
			engine.Fprintf(&b, "groups from: %s\n", d.GroupsSource)
		}
		for _, l := range d.GroupsDetails {
			engine.Fprintf(&b, "  %s\n", engine.Printable(l))
		}
	}
	switch {
	case d.Reason != "":
		engine.Fprintf(&b, "reason: %s\n", engine.Printable(d.Reason))
	case d.DecidedBy != nil:
		g := d.DecidedBy
		what := fmt.Sprintf("%s %q", g.Kind, g.Entry)
		if g.Kind == "wildcard" {
			what = `wildcard "*"`
		}
		engine.Fprintf(&b, "decided by: %s %s, %s at %s\n", g.Queue, g.ACL, what, g.Pos)
	}
	if !d.Allowed && len(d.Consulted) > 0 {
		fmt.Fprintln(&b, "consulted, from the queue up to root:")
		eachConsulted(&b, d.Consulted, "  ", func(c acl.Consulted) {
			where, val := "", ""
			switch {
			case c.Set:
				val = " " + engine.Quote(c.Value)
				where = " at " + c.Pos.String()
			case c.Pos.File != "":
				where = " (queue at " + c.Pos.String() + ")"
			}
			engine.Fprintf(&b, "  %s %s%s%s: %s\n", engine.Printable(c.Queue), c.ACL, val, where, engine.Printable(c.Result))
		})
	}
	if len(d.Notes) > 0 {
		fmt.Fprintln(&b, "notes:")
		for _, n := range d.Notes {
			engine.Fprintf(&b, "  - %s\n", engine.Printable(n))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

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

func grantOf(d *acl.Decision) *acl.Grant {
	if d == nil {
		return nil
	}
	return d.DecidedBy
}

func writeConsulted(b *strings.Builder, d *acl.Decision, indent string) {
	if d.Reason != "" {
		engine.Fprintf(b, "%ssubmit denied: %s\n", indent, d.Reason)
		return
	}
	engine.Fprintf(b, "%ssubmit denied on %s, consulted up to root:\n", indent, d.Deciding)
	eachConsulted(b, d.Consulted, indent+"  ", func(c acl.Consulted) {
		val := ""
		if c.Set {
			val = " " + engine.Quote(c.Value)
		}
		engine.Fprintf(b, "%s  %s %s%s: %s\n", indent, c.Queue, c.ACL, val, c.Result)
	})
}

// maxConsulted is how many consulted ACLs a text answer lists: the first
// half (nearest the queue) and the last (nearest root). A queue 4,900
// levels deep consults 9,800 ACLs; -o json lists every one.
const maxConsulted = 40

func eachConsulted(b *strings.Builder, cs []acl.Consulted, indent string, write func(acl.Consulted)) {
	if len(cs) <= maxConsulted {
		for _, c := range cs {
			write(c)
		}
		return
	}
	for _, c := range cs[:maxConsulted/2] {
		write(c)
	}
	engine.Fprintf(b, "%s... %d more ACLs consulted, none lets the request in (-o json lists every one)\n", indent, len(cs)-maxConsulted)
	for _, c := range cs[len(cs)-maxConsulted/2:] {
		write(c)
	}
}
