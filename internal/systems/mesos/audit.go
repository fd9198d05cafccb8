package mesos

import (
	"fmt"
	"sort"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/spf13/cobra"
)

// Load reads an --acls file for questions (audit.Loader): ACLs Mesos
// refuses to start with are an *audit.Refused with the errors.
func (Sys) Load(ins []*engine.Input, opts engine.Options) (audit.Model, error) {
	if len(ins) != 1 {
		return nil, fmt.Errorf("Mesos reads one --acls file; %d were given", len(ins))
	}
	in := ins[0]
	doc := Parse(in.Path, in.Data)
	acls := Decode(doc)
	if acls.Errors() != nil {
		return nil, &audit.Refused{File: in.Path, Why: "Mesos refuses to start with these ACLs, so they answer no question",
			Command: "aclint lint -f " + in.Given(), Findings: Lint(doc), Sources: map[string][]string{in.Path: doc.Lines()}, By: "Mesos"}
	}
	// check's own flags (Extend), read by Check
	if opts.Value("command-user-set") == "true" {
		u := opts.Value("command-user")
		acls.asked.commandUser, acls.asked.command = &u, true
	}
	if opts.Value("parent-user-set") == "true" {
		u := opts.Value("parent-user")
		acls.asked.parentUser = &u
	}
	return acls, nil
}

// asked are the flags of aclint check that only a Mesos request has.
type asked struct {
	command                 bool
	commandUser, parentUser *string
}

// Extend is Mesos' part of aclint check: --command-user and --parent-user,
// the flags of a nested container launch, which no other system's question
// has.
func (Sys) Extend(command string, env clikit.Env) *clikit.Extension {
	if command != "check" {
		return nil
	}
	var commandUser, parentUser string
	var c *cobra.Command
	set := func(name string) bool { return c != nil && c.Flags().Changed(name) }
	return &clikit.Extension{
		Flags: func(cmd *cobra.Command) {
			c = cmd
			cmd.Flags().StringVar(&commandUser, "command-user", "", "Mesos, the *_under_parent_with_user kinds: the launch carries a command run as this user (\"\" for none)")
			cmd.Flags().StringVar(&parentUser, "parent-user", "", "Mesos, the *_as_user kinds: the user of the executor the nested container is launched under (default: ANY)")
		},
		Values: func() map[string]string {
			return map[string]string{"command-user": commandUser, "command-user-set": fmt.Sprint(set("command-user")),
				"parent-user": parentUser, "parent-user-set": fmt.Sprint(set("parent-user"))}
		},
		Foreign: func(system string) error {
			for _, f := range []string{"command-user", "parent-user"} {
				if set(f) {
					return env.Usage("--%s asks about a Mesos nested container launch; a %s question takes none", f, system)
				}
			}
			return nil
		},
	}
}

// WhoCanUsage is the words of a Mesos who-can question.
func (Sys) WhoCanUsage() audit.Usage {
	return audit.Usage{Words: "ACTION [OBJECT]", Example: "register_frameworks analytics", Files: "-f acls.json"}
}

// UnknownAction explains an ACTION that is not an ACL kind.
func UnknownAction(name string) string {
	if ob, ok := ObsoleteKinds[name]; ok {
		return fmt.Sprintf("%s is not an ACL kind of current Mesos (%s): ask about %s", name, ob.What, ob.Now)
	}
	msg := fmt.Sprintf("unknown ACTION %q: it must be an ACL kind's JSON key", name)
	if near := engine.Nearest(name, KindKeys()); near != "" {
		return msg + fmt.Sprintf(" (did you mean %s?)", near)
	}
	return msg + "; the kinds are: " + strings.Join(KindKeys(), ", ")
}

// WhoCan lists the principals the local authorizer lets do ACTION on
// OBJECT (no OBJECT: a request about all objects, ANY). Every principal
// named in the lists the request is checked against is asked, and so are
// one principal named nowhere (all such principals are answered alike:
// that is "everyone") and an unauthenticated request; each answer is
// Authorize's, so first-match order, recursive roles, the nested lists and
// permissive decide exactly as in check.
func (Sys) WhoCan(m audit.Model, q audit.Question) (*audit.WhoCan, error) {
	a := m.(*ACLs)
	if q.Action != "" {
		return nil, audit.Usagef("--action is not a Mesos word: the ACTION is the question's first word, an ACL kind")
	}
	if len(q.Words) < 1 || len(q.Words) > 2 {
		return nil, audit.Usagef("a Mesos question is an ACL kind and at most one object")
	}
	k := LookupKind(q.Words[0])
	if k == nil {
		return nil, audit.Usagef("%s", UnknownAction(q.Words[0]))
	}
	req := Request{Kind: k}
	object := "ANY"
	if len(q.Words) == 2 {
		req.Objects = []string{q.Words[1]}
		object = q.Words[1]
	}
	ans := &audit.WhoCan{System: System, Action: k.Key, Object: object, How: "first match", By: "Mesos", UsersTitle: "principals", GroupsTitle: "-",
		Title: fmt.Sprintf("%s on %s %s (Mesos local authorizer)", k.Key, k.Object, object)}
	ask := func(p *string) (*Decision, error) {
		r := req
		r.Principal = p
		return a.Authorize(r)
	}
	named := a.principals(k)
	other := unnamed(named)
	od, err := ask(&other)
	if err != nil {
		return nil, err
	}
	ans.Notes = od.Notes
	if od.Allowed {
		ans.Everyone = []audit.Grant{a.grant(od, "everyone", "*")}
	} else {
		ans.Everyone = []audit.Grant{}
	}
	ans.Users, ans.Groups, ans.Denied = []audit.Grant{}, []audit.Grant{}, []audit.Grant{}
	anon, err := ask(nil)
	if err != nil {
		return nil, err
	}
	subjects := []struct {
		kind, name string
		d          *Decision
	}{{"anonymous", "(no principal)", anon}}
	for _, p := range named {
		p := p
		d, err := ask(&p)
		if err != nil {
			return nil, err
		}
		subjects = append(subjects, struct {
			kind, name string
			d          *Decision
		}{"principal", p, d})
	}
	for _, s := range subjects {
		switch {
		case s.d.Allowed:
			ans.Users = append(ans.Users, a.grant(s.d, s.kind, s.name))
		case od.Allowed:
			// refused where a principal named nowhere is let in
			ans.Denied = append(ans.Denied, a.grant(s.d, s.kind, s.name))
		}
	}
	ans.Detail = []audit.Field{{Key: "permissive", Value: a.Permissive}, {Key: "principalsNamed", Value: len(named)}}
	return ans, nil
}

// principals are the principals named in the lists a request of kind k
// is checked against, sorted.
func (a *ACLs) principals(k *Kind) []string {
	kinds := []*Kind{k}
	if c := NestedChild(k.Key); c != "" {
		kinds = append(kinds, LookupKind(c))
	}
	if p := NestedParent(k.Key); p != "" {
		kinds = append(kinds, LookupKind(p))
	}
	set := map[string]bool{}
	for _, kk := range kinds {
		for _, e := range a.Lists[kk.Key] {
			if e.Subject != nil {
				for _, v := range e.Subject.Values {
					set[v] = true
				}
			}
		}
	}
	out := make([]string, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// unnamed is a principal no list names: every such principal is answered
// alike, since the authorizer only compares names for equality.
func unnamed(named []string) string {
	p := "aclint-unnamed-principal"
	for i := 0; ; i++ {
		found := false
		for _, n := range named {
			if n == p {
				found = true
				break
			}
		}
		if !found {
			return p
		}
		p = fmt.Sprintf("aclint-unnamed-principal-%d", i)
	}
}

// grant is a subject's answer with the entry that decided it.
func (a *ACLs) grant(d *Decision, kind, name string) audit.Grant {
	g := audit.Grant{Kind: kind, Name: name}
	c := d.DecidedBy()
	if c == nil {
		g.Default, g.Note = true, "no authorizer"
		return g
	}
	if c.By == nil {
		g.Rule = "permissive, no entry matching"
		g.Default = true
		g.Note = fmt.Sprintf("no entry of %s matches: permissive is %t", c.Kind.Key, a.Permissive)
		if a.PermissiveNode != nil {
			g.Default = false
			g.Pos = a.Doc.Pos(a.PermissiveNode.Off)
		}
		return g
	}
	g.Rule = c.By.Name()
	g.Pos = a.Doc.Pos(c.By.Entry.Node.Off)
	return g
}

// CheckUsage is the words of a Mesos check question (audit.Checker).
func (Sys) CheckUsage() audit.Usage {
	return audit.Usage{Words: "ACTION PRINCIPAL [OBJECT] (PRINCIPAL - for an unauthenticated request)", Example: "run_tasks spark etl", Files: "-f acls.json"}
}

// Check answers whether PRINCIPAL may do ACTION on OBJECT (none: ANY), as
// the local authorizer does: register_frameworks takes one OBJECT per
// role of the framework. The answer is the one aclint mesos check gives
// (verdict), whose flags for nested launches (--command-user,
// --parent-user) are its own.
func (Sys) Check(m audit.Model, q audit.Question) (*audit.Verdict, error) {
	a := m.(*ACLs)
	if q.Action != "" || q.Groups != nil {
		return nil, audit.Usagef("--action and --groups are not Mesos words: the ACTION is the first word, and principals have no groups")
	}
	if len(q.Words) < 2 {
		return nil, audit.Usagef("a Mesos check is an ACL kind, a principal and its objects")
	}
	k := LookupKind(q.Words[0])
	if k == nil {
		return nil, audit.Usagef("%s", UnknownAction(q.Words[0]))
	}
	if len(q.Words) > 3 && k.Key != "register_frameworks" {
		return nil, audit.Usagef("%s takes at most one object (only register_frameworks takes one per role)", k.Key)
	}
	req := Request{Kind: k, Objects: q.Words[2:]}
	if p := q.Words[1]; p != "-" {
		req.Principal = &p
	}
	if a.asked.command {
		if NestedChild(k.Key) == "" {
			return nil, audit.Usagef("--command-user is for launch_nested_containers_under_parent_with_user and launch_nested_container_sessions_under_parent_with_user")
		}
		req.Command = true
		if *a.asked.commandUser != "" {
			req.CommandUser = a.asked.commandUser
		}
	}
	if a.asked.parentUser != nil {
		if NestedParent(k.Key) == "" {
			return nil, audit.Usagef("--parent-user is for launch_nested_containers_as_user and launch_nested_container_sessions_as_user")
		}
		req.ParentUser = a.asked.parentUser
	}
	d, err := a.Authorize(req)
	if err != nil {
		return nil, err
	}
	return a.verdict(req, d), nil
}
