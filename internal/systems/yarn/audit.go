package yarn

import (
	"fmt"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
)

// WhoCanUsage is the words of a YARN who-can question (audit.WhoCanner).
func (Sys) WhoCanUsage() audit.Usage {
	return audit.Usage{Words: "QUEUE", Example: "root.prod", Files: "-f capacity-scheduler.xml -f yarn-site.xml"}
}

// WhoCan lists who YARN lets submit to (or administer, --action admin) a
// queue, with the walk up its path the authorizer makes. The words are
// QUEUE, or default QUEUE as YuniKorn's question reads (YARN has one
// partition).
func (Sys) WhoCan(m audit.Model, q audit.Question) (*audit.WhoCan, error) {
	s := m.(*Setup)
	var queue string
	switch len(q.Words) {
	case 1:
		queue = q.Words[0]
	case 2:
		if q.Words[0] != "default" {
			return nil, audit.Usagef("YARN queues have no partitions: ask about QUEUE, or partition default (got %q)", q.Words[0])
		}
		queue = q.Words[1]
	default:
		return nil, audit.Usagef("a YARN question names one queue")
	}
	a, err := ParseAction(q.Action)
	if err != nil {
		return nil, audit.Usagef("%v", err)
	}
	qu, err := s.FindQueue(queue)
	if err != nil {
		return nil, err
	}
	if !s.FS && !s.Known {
		return nil, fmt.Errorf("who may %s %s depends on yarn.acl.enable (false by default: everyone): %s", verbOn(a), qu.Path, s.EnableHint())
	}
	return WhoCanAnswer(s.WhoCan(qu, a)), nil
}

// ParseAction reads --action: submit (the default when empty) or admin.
func ParseAction(s string) (Action, error) {
	switch s {
	case "", "submit":
		return Submit, nil
	case "admin":
		return Administer, nil
	}
	return Submit, fmt.Errorf("invalid --action %q: use submit or admin", s)
}

func verbOn(a Action) string {
	if a == Submit {
		return "submit to"
	}
	return "administer"
}

// WhoCanAnswer is a who-can list in the neutral answer every system's
// who-can gives.
func WhoCanAnswer(r *WhoCanResult) *audit.WhoCan {
	a := &audit.WhoCan{
		System: System,
		Action: r.Action.String(),
		Object: r.Queue,
		Title:  fmt.Sprintf("%s on %s (YARN)", r.Action, r.Queue),
		How:    "on the queue",
		By:     "YARN",
		Notes:  r.Notes,
		Detail: []audit.Field{{Key: "aclsOff", Value: r.ACLsOff}},
	}
	if r.ACLsOff {
		a.Instead = "everyone: yarn.acl.enable is false, YARN checks no queue ACL"
		a.Everyone = []audit.Grant{{Kind: "everyone", Name: "*", Object: r.Queue, Rule: "yarn.acl.enable=false", Default: true, Note: "yarn.acl.enable is false"}}
	} else {
		a.Everyone, a.Users, a.Groups = holders(r.Everyone), holders(r.Users), holders(r.Groups)
	}
	if r.Unknown {
		a.Incomplete = "the list is not complete: an ACL on the path is not known"
	}
	return a
}

func holders(hs []Holder) []audit.Grant {
	out := []audit.Grant{}
	for _, h := range hs {
		kind := h.Kind
		if kind == "wildcard" {
			kind = "everyone"
		}
		g := audit.Grant{Kind: kind, Name: h.Name, Object: h.Queue, Rule: h.ACL, Inherited: h.Inherited, Default: h.Default}
		if h.Default {
			g.Note = "root's default, " + h.ACL + " not set"
		} else {
			g.Pos = engine.Position{File: h.File, Line: h.Pos.Line, Col: h.Pos.Col}
		}
		out = append(out, g)
	}
	return out
}

// CheckUsage is the words of a YARN check question (audit.Checker).
func (Sys) CheckUsage() audit.Usage {
	return audit.Usage{Words: "QUEUE USER", Example: "root.prod.etl alice --groups data", Files: "-f capacity-scheduler.xml -f yarn-site.xml"}
}

// Check answers whether USER (with --groups) may submit to (or, with
// --action admin, administer) QUEUE, as the ResourceManager decides it:
// the same answer as aclint yarn check.
func (Sys) Check(m audit.Model, q audit.Question) (*audit.Verdict, error) {
	s := m.(*Setup)
	words := q.Words
	if len(words) == 3 {
		if words[0] != "default" {
			return nil, audit.Usagef("YARN queues have no partitions: ask about QUEUE USER, or partition default (got %q)", words[0])
		}
		words = words[1:]
	}
	if len(words) != 2 {
		return nil, audit.Usagef("a YARN check names a queue and a user")
	}
	a, err := ParseAction(q.Action)
	if err != nil {
		return nil, audit.Usagef("%v", err)
	}
	qu, err := s.FindQueue(words[0])
	if err != nil {
		return nil, err
	}
	user := words[1]
	return s.verdict(qu, user, q.Groups, a, s.Check(qu, user, q.Groups, a)), nil
}
