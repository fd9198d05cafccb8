package rbac

import (
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
)

// Load reads the manifests of a question, with the bootstrap policy
// (audit.Loader): a manifest kubectl apply fails on is an *audit.Refused.
func (Sys) Load(ins []*engine.Input, _ engine.Options) (audit.Model, error) {
	return load(ins)
}

// CheckUsage is how an RBAC check reads its words, as kubectl auth can-i
// asks: a namespace, a resource and a user, --action the verb.
func (Sys) CheckUsage() audit.Usage {
	return audit.Usage{Words: "NAMESPACE RESOURCE USER", Example: "analytics jobs.batch alice", Files: "-f rbac.yaml"}
}

// WhoCanUsage is how an RBAC who-can reads its words.
func (Sys) WhoCanUsage() audit.Usage {
	return audit.Usage{Words: "NAMESPACE RESOURCE", Example: "analytics jobs.batch", Files: "-f rbac.yaml"}
}

// AccessUsage is how an RBAC access reads its words.
func (Sys) AccessUsage() audit.Usage {
	return audit.Usage{Words: "USER", Example: "alice", Files: "-f rbac.yaml"}
}

// request reads NAMESPACE RESOURCE as kubectl auth can-i reads its
// resource and -n: RESOURCE is TYPE[.GROUP][/NAME], with a subresource
// (kubectl's --subresource) written TYPE[.GROUP]:SUBRESOURCE; NAMESPACE
// "*" asks across all namespaces, as --all-namespaces does.
func request(verb, namespace, resource string) (Request, error) {
	if verb == "" {
		verb = "create"
	}
	req := Request{Verb: verb, Namespace: namespace}
	if namespace == "*" {
		req.Namespace = ""
	}
	r, name, _ := strings.Cut(resource, "/")
	r, sub, _ := strings.Cut(r, ":")
	r, group, _ := strings.Cut(r, ".")
	if r == "" {
		return req, audit.Usagef("RESOURCE %q names no resource: write TYPE[.GROUP][:SUBRESOURCE][/NAME], e.g. pods, deployments.apps, pods:log, configmaps/settings", resource)
	}
	req.Resource, req.APIGroup, req.Subresource, req.Name = strings.ToLower(r), group, sub, name
	return req, nil
}

// asUser is USER with --groups, as the API server authenticates it.
func asUser(name string, groups []string) User {
	return userOf(audit.GateSubject{User: name, Groups: groups})
}

// Check answers a question as the RBAC authorizer does, naming the
// binding, subject, role and rule that allow it.
func (Sys) Check(m audit.Model, q audit.Question) (*audit.Verdict, error) {
	s := m.(*Set)
	if len(q.Words) != 3 {
		return nil, audit.Usagef("an RBAC question is a namespace (* for all), a resource and a user")
	}
	req, err := request(q.Action, q.Words[0], q.Words[1])
	if err != nil {
		return nil, err
	}
	u := asUser(q.Words[2], q.Groups)
	a := s.Authorize(u, req)
	v := &audit.Verdict{System: System, Allowed: a.Allowed, Answer: "denied",
		Context: []string{fmt.Sprintf("%s for user %s, groups [%s]", describe(req), engine.Printable(u.Name), engine.Printable(strings.Join(u.Groups, ", ")))}}
	switch {
	case a.Allowed:
		v.Answer = "allowed"
		g := grantOf(a)
		v.By = &g
		v.Why = fmt.Sprintf("%s may %s", u.Name, describe(req))
		v.Context = append(v.Context, "by: "+a.Grant())
	case len(a.Unknown) > 0:
		v.Answer, v.Unknown = "unknown", strings.Join(a.Unknown, "; ")
		v.Why = "whether " + u.Name + " may " + describe(req)
	default:
		v.Why = fmt.Sprintf("no binding of the files or of Kubernetes' bootstrap policy lets %s %s", u.Name, describe(req))
	}
	return v, nil
}

// describe says a request in words: create pods in namespace team-a.
func describe(req Request) string {
	what := req.Resource
	if req.APIGroup != "" {
		what += "." + req.APIGroup
	}
	if req.Subresource != "" {
		what += "/" + req.Subresource
	}
	if req.Name != "" {
		what += " named " + req.Name
	}
	where := "in namespace " + req.Namespace
	if req.Namespace == "" {
		where = "in every namespace (cluster-wide)"
	}
	return fmt.Sprintf("%s %s %s", req.Verb, engine.Printable(what), engine.Printable(where))
}

// grantOf is what allows a request, in the shape every system's answer has.
func grantOf(a Answer) audit.Grant {
	b, su := a.Binding, a.Binding.Subjects[a.Subject]
	return audit.Grant{Kind: strings.ToLower(su.Kind), Name: su.Name, Object: b.Kind() + " " + strings.TrimPrefix(b.Namespace+"/", "/") + b.Name,
		Rule: fmt.Sprintf("%s %s rule %d", a.Role.Kind(), a.Role.Name, a.Rule+1), Pos: b.Pos, Default: b.Bootstrap,
		Note: bootstrapNote(b), Entry: su.Kind + " " + su.Name}
}

func bootstrapNote(b *Binding) string {
	if b.Bootstrap {
		return BootstrapFile
	}
	return ""
}

// WhoCan lists the subjects the files' bindings name whom the request is
// allowed, and everyone when any authenticated user is.
func (Sys) WhoCan(m audit.Model, q audit.Question) (*audit.WhoCan, error) {
	s := m.(*Set)
	if len(q.Words) != 2 || q.Groups != nil {
		return nil, audit.Usagef("an RBAC who-can question is a namespace (* for all) and a resource")
	}
	req, err := request(q.Action, q.Words[0], q.Words[1])
	if err != nil {
		return nil, err
	}
	ans := &audit.WhoCan{System: System, Action: req.Verb, Object: q.Words[0] + " " + q.Words[1], By: "the RBAC authorizer",
		How: "by a binding", UsersTitle: "users and service accounts", GroupsTitle: "groups",
		Title:    describe(req) + " (Kubernetes RBAC)",
		Everyone: []audit.Grant{}, Users: []audit.Grant{}, Groups: []audit.Grant{}, Denied: []audit.Grant{}}
	var unknown []string
	ask := func(u User, kind, name string, into *[]audit.Grant) {
		a := s.Authorize(u, req)
		if a.Allowed {
			g := grantOf(a)
			g.Kind, g.Name = kind, name
			*into = append(*into, g)
		}
		unknown = append(unknown, a.Unknown...)
	}
	ask(Authenticated(User{Name: GroupMember}), "everyone", "*", &ans.Everyone)
	for _, sub := range (gate{s}).Subjects() {
		into := &ans.Users
		if sub.Kind == "Group" {
			into = &ans.Groups
		}
		ask(userOf(sub), strings.ToLower(sub.Kind), sub.Name, into)
	}
	if len(unknown) > 0 {
		ans.Incomplete = unknown[0]
	}
	ans.Notes = []string{"the subjects are those the files' bindings name; Kubernetes' bootstrap policy's own (system:masters, the controllers) are left out"}
	return ans, nil
}

// Access lists, namespace by namespace, which kinds that make pods the
// user may create, as kubectl auth can-i would answer each.
func (Sys) Access(m audit.Model, q audit.Question, scope audit.Scope, out audit.AccessWriter) error {
	s := m.(*Set)
	if len(q.Words) != 1 {
		return audit.Usagef("an RBAC access question names one user")
	}
	if scope.Partition != "" || scope.Under != "" {
		return audit.Usagef("an RBAC access question has no partitions and no tree: leave out --partition and --under")
	}
	u := asUser(q.Words[0], q.Groups)
	h := audit.AccessHead{System: System, Subject: q.Words[0], SectionWord: "scope", ObjectWord: "namespace", RuleWord: "binding",
		Notes: []string{"each column is create on that kind, as kubectl auth can-i create KIND -n NAMESPACE answers it"}}
	for _, k := range PodMakers() {
		h.Actions = append(h.Actions, "create "+k.String())
	}
	if err := out.Head(h); err != nil {
		return err
	}
	title := fmt.Sprintf("namespaces: user %s, groups [%s]", engine.Printable(u.Name), engine.Printable(strings.Join(u.Groups, ", ")))
	if err := out.Section(audit.AccessSection{Name: "namespaces", Title: title, Groups: u.Groups}); err != nil {
		return err
	}
	for _, ns := range (gate{s}).Namespaces() {
		row := audit.AccessRow{Section: "namespaces", Object: ns.Name, Kind: "namespace"}
		for _, k := range PodMakers() {
			a := s.Authorize(u, Request{Verb: "create", APIGroup: k.APIGroup, Resource: k.Resource, Namespace: ns.Name})
			c := audit.Cell{Unknown: !a.Allowed && len(a.Unknown) > 0}
			if a.Allowed {
				g := grantOf(a)
				c.By = &g
			}
			row.Cells = append(row.Cells, c)
		}
		if err := out.Row(row); err != nil {
			return err
		}
	}
	return nil
}
