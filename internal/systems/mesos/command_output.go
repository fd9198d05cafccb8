package mesos

import (
	"strings"

	"github.com/aclint/aclint/internal/engine"
)

// describeCheck renders the request in one line.
func describeCheck(req Request) string {
	var b strings.Builder
	b.WriteString(req.Kind.Key)
	if req.Principal != nil {
		engine.Fprintf(&b, " by principal %s", engine.Quote(*req.Principal))
	} else {
		b.WriteString(" by an unauthenticated request (no principal)")
	}
	switch {
	case req.Kind.ImplicitObject():
		engine.Fprintf(&b, " on any %s", req.Kind.Object)
	case len(req.Objects) == 0:
		engine.Fprintf(&b, " on all %s", req.Kind.Object)
	default:
		q := make([]string, len(req.Objects))
		for i, o := range req.Objects {
			q[i] = engine.Quote(o)
		}
		engine.Fprintf(&b, " on %s %s", req.Kind.Object, strings.Join(q, ", "))
	}
	if req.Command {
		if req.CommandUser != nil {
			engine.Fprintf(&b, ", with a command as user %s", engine.Quote(*req.CommandUser))
		} else {
			b.WriteString(", with a command without a user")
		}
	}
	return b.String()
}

func checkObject(c Check) string {
	if c.Object == nil {
		return "any " + strings.TrimSuffix(c.Kind.Object, "s")
	}
	return strings.TrimSuffix(c.Kind.Object, "s") + " " + engine.Quote(*c.Object)
}

// checkDoc is a request and its decision, in JSON.
type checkDoc struct {
	Allowed    bool           `json:"allowed"`
	Action     string         `json:"action"`
	Principal  *string        `json:"principal"`
	Objects    []string       `json:"objects"`
	DecidedBy  *entryJSON     `json:"decidedBy"`
	Permissive *bool          `json:"permissive"`
	Notes      []string       `json:"notes"`
	Checks     []checkJSONDoc `json:"checks"`
}

func checkJSON(acls *ACLs, req Request, d *Decision) checkDoc {
	entry := func(r *Rule) *entryJSON {
		if r == nil {
			return nil
		}
		p := acls.Doc.Pos(r.Entry.Node.Off)
		return &entryJSON{Entry: r.Entry.Name(), Role: r.Recursive, File: p.File, Line: p.Line, Column: p.Col}
	}
	out := checkDoc{Allowed: d.Allowed, Action: req.Kind.Key, Principal: req.Principal, Objects: req.Objects, Notes: d.Notes, Checks: []checkJSONDoc{}}
	if out.Objects == nil {
		out.Objects = []string{}
	}
	if out.Notes == nil {
		out.Notes = []string{}
	}
	if acls != nil {
		out.Permissive = &acls.Permissive
		if c := d.DecidedBy(); c != nil {
			out.DecidedBy = entry(c.By)
		}
		for _, c := range d.Checks {
			cj := checkJSONDoc{Action: c.Kind.Key, Object: c.Object, Allowed: c.Allowed, DecidedBy: entry(c.By), Consulted: []skipJSON{}}
			for _, sk := range c.Consulted {
				cj.Consulted = append(cj.Consulted, skipJSON{*entry(sk.Rule), sk.Reason})
			}
			out.Checks = append(out.Checks, cj)
		}
	}
	return out
}
