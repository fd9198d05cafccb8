package yarn

import (
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
)

// verdict is the ResourceManager's answer in the shape every system's
// check has, rendered once by the command line: aclint check -f FILES and
// aclint yarn check give the same text and JSON. The ACLs consulted are
// listed when the answer is a denial or not known; YARN's own fields
// (the verdict word, yarn.acl.enable, the queues consulted) are its
// detail.
func (s *Setup) verdict(qu *Queue, user string, groups []string, a Action, ans Answer) *audit.Verdict {
	who := user
	if len(groups) > 0 {
		who += " (groups " + strings.Join(groups, ", ") + ")"
	}
	v := &audit.Verdict{System: System, Allowed: ans.Allowed && ans.Known, Answer: "denied",
		Why:    fmt.Sprintf("%s may not %s %s", who, verbOn(a), qu.Path),
		Notes:  checkNotes(s, ans, a),
		Detail: s.checkDetail(ans, user, groups, a)}
	switch {
	case !ans.Known:
		v.Answer, v.Unknown = "unknown", ans.Why
		v.Why = fmt.Sprintf("whether %s may %s %s", who, verbOn(a), qu.Path)
	case ans.Stopped != "":
		v.Why += ": it is STOPPED"
		v.Context = append(v.Context, ans.Stopped)
	case ans.ACLsOff:
		v.Answer, v.Why = "allowed", fmt.Sprintf("%s may %s %s", who, verbOn(a), qu.Path)
		where := "not set in the yarn-site.xml given (default false)"
		if p := s.ACLEnableFrom; p != nil {
			where = fmt.Sprintf("%q at %s:%d:%d", p.Value, p.File, p.ValuePos.Line, p.ValuePos.Col)
		}
		v.Context = append(v.Context, "yarn.acl.enable is "+where+": YARN checks no queue ACL")
	case ans.Allowed:
		v.Answer, v.Why = "allowed", fmt.Sprintf("%s may %s %s", who, verbOn(a), qu.Path)
		d := ans.Decision
		kind, name, _ := d.Queue.ACL[d.Action].Grant(user, groups)
		g := audit.Grant{Kind: kind, Name: name, Object: d.Queue.Path, Rule: s.ACLName(d.Action), Inherited: d.Queue != qu, Entry: kind + " " + name}
		if kind == "everyone" {
			g.Entry = "everyone (*)"
		}
		if p := d.Queue.From[d.Action]; p != nil {
			g.Pos = engine.Position{File: p.File, Line: p.ValuePos.Line, Col: p.ValuePos.Col}
		} else {
			g.Default, g.Note = true, "root's default, "+s.ACLName(d.Action)+" not set"
		}
		v.By = &g
		if d.Action != a {
			v.Context = append(v.Context, "administering a queue lets one submit to it")
		}
	}
	if (!ans.Allowed || !ans.Known) && ans.Stopped == "" {
		v.ConsultedTitle = "ACLs consulted, from the queue up"
		kinds := []Action{a}
		if a == Submit {
			kinds = append(kinds, Administer)
		}
		for _, k := range kinds {
			for _, q := range ans.Decision.Consulted {
				c := audit.Consulted{Object: q.Path, Rule: s.ACLName(k), Result: "lets nobody in here", Holder: "queue"}
				if p := q.From[k]; p != nil {
					c.Value, c.Set, c.Pos = p.Value, true, engine.Position{File: p.File, Line: p.ValuePos.Line, Col: p.ValuePos.Col}
					c.Result = "does not list " + user
				} else if q.Path == "root" {
					c.Result = `not set: root's default "*" (everyone)`
				} else {
					c.Result = `not set: the default " " (no one)`
				}
				if q.Unknown[k] {
					c.Result = "not known: its value uses ${...}"
				}
				v.Consulted = append(v.Consulted, c)
			}
		}
	}
	return v
}

// checkDetail is YARN's own part of check's JSON.
func (s *Setup) checkDetail(ans Answer, user string, groups []string, a Action) []audit.Field {
	j := checkJSON(s, ans, user, groups, a)
	return []audit.Field{{Key: "queue", Value: j.Queue}, {Key: "user", Value: j.User}, {Key: "groups", Value: j.Groups},
		{Key: "action", Value: j.Action}, {Key: "verdict", Value: j.Verdict}, {Key: "aclEnable", Value: j.ACLEnable},
		{Key: "decidingQueue", Value: j.DecidingQueue}, {Key: "acl", Value: j.DecidedBy}, {Key: "consulted", Value: j.Consulted},
		{Key: "parentQueue", Value: j.ParentQueue}}
}
