package mesos

import (
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/audit"
)

// verdict is the local authorizer's decision in the shape every system's
// check has, rendered once by the command line: aclint check -f ACLS and
// aclint mesos check give the same text and JSON for the same request.
// The request is the context; each list consulted (several for
// register_frameworks' roles and a command's user) says its answer, and
// the entries read before the deciding one are the consulted rules. a is
// nil for a Mesos started without --acls.
func (a *ACLs) verdict(req Request, d *Decision) *audit.Verdict {
	who := "an unauthenticated request"
	kind, name := "anonymous", "(no principal)"
	if req.Principal != nil {
		who, kind, name = "principal "+*req.Principal, "principal", *req.Principal
	}
	object := "all " + req.Kind.Object
	switch {
	case req.Kind.ImplicitObject():
		object = "any " + strings.TrimSuffix(req.Kind.Object, "s")
	case len(req.Objects) > 0:
		object = strings.Join(req.Objects, ", ")
	}
	v := &audit.Verdict{System: System, Allowed: d.Allowed, Answer: "denied", Notes: d.Notes,
		Why: fmt.Sprintf("%s may not %s on %s", who, req.Kind.Key, object), Context: []string{describeCheck(req)},
		ConsultedTitle: "consulted first, in order", Detail: a.checkDetail(req, d)}
	if d.Allowed {
		v.Answer, v.Why = "allowed", fmt.Sprintf("%s may %s on %s", who, req.Kind.Key, object)
	}
	if a == nil {
		v.Context = append(v.Context, "no --acls: Mesos runs no authorizer, and every request is allowed")
		g := audit.Grant{Kind: kind, Name: name, Default: true, Note: "no authorizer"}
		v.By = &g
		return v
	}
	g := a.grant(d, kind, name)
	v.By = &g
	decided := d.DecidedBy()
	for i := range d.Checks {
		c := d.Checks[i]
		if len(d.Checks) > 1 {
			answer := "denied"
			if c.Allowed {
				answer = "allowed"
			}
			by := "no entry matched: permissive " + fmt.Sprint(a.Permissive)
			if c.By != nil {
				by = fmt.Sprintf("%s at %s", c.By.Name(), a.Doc.Pos(c.By.Entry.Node.Off))
			}
			v.Context = append(v.Context, fmt.Sprintf("%s %s: %s (%s)", c.Kind.Key, checkObject(c), answer, by))
		}
		if c.By != nil && &d.Checks[i] == decided {
			v.Notes = append([]string{decided.Explain()}, v.Notes...)
		}
		for _, sk := range c.Consulted {
			object := ""
			if len(d.Checks) > 1 {
				object = c.Kind.Key + " " + checkObject(c) + ":"
			}
			v.Consulted = append(v.Consulted, audit.Consulted{Object: object, Rule: sk.Rule.Name(),
				Pos: a.Doc.Pos(sk.Rule.Entry.Node.Off), Result: sk.Reason})
		}
	}
	return v
}

// checkDetail is Mesos' own part of check's JSON: the request and every
// list it was checked against.
func (a *ACLs) checkDetail(req Request, d *Decision) []audit.Field {
	doc := checkJSON(a, req, d)
	return []audit.Field{{Key: "action", Value: req.Kind.Key}, {Key: "principal", Value: req.Principal},
		{Key: "objects", Value: doc.Objects}, {Key: "permissive", Value: doc.Permissive}, {Key: "checks", Value: doc.Checks}}
}
