package rbac

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
)

// Gates: RBAC stands in front of YuniKorn, whose applications are pods.
func (Sys) Gates(system string) bool { return system == "yunikorn" }

// LoadGate reads the manifests of a question into one set, with the
// bootstrap policy, as the gate in front of another system's answers;
// nil when they hold no Role, ClusterRole or binding (Namespaces alone
// say nothing of who may create pods, which the cluster's own bindings
// decide).
func (Sys) LoadGate(ins []*engine.Input, _ engine.Options) (audit.Gate, error) {
	s, err := load(ins)
	if err != nil || !s.holdsRBAC() {
		return nil, err
	}
	return gate{s}, nil
}

// holdsRBAC reports whether the files gave a Role, ClusterRole or
// binding of their own.
func (s *Set) holdsRBAC() bool {
	if len(s.unplacedRoles) > 0 || len(s.unplacedBindings) > 0 {
		return true
	}
	for _, b := range s.bindings {
		if !b.Bootstrap {
			return true
		}
	}
	for _, r := range s.roles {
		if !r.Bootstrap {
			return true
		}
	}
	return false
}

// load reads every input into one set, the bootstrap policy first: a
// manifest kubectl refuses, or an object the API server refuses, makes
// the set answer no question (exit 2 with the findings), as the apply
// that carries it fails.
func load(ins []*engine.Input) (*Set, error) {
	s := NewSet()
	if err := s.AddBootstrap(); err != nil {
		return nil, err
	}
	sources := map[string][]string{}
	for _, in := range ins {
		sources[in.Path] = strings.Split(string(in.Data), "\n")
		if err := Read(s, in.Path, in.Data); err != nil {
			s.Findings = append(s.Findings, notYAML(in.Path, err))
		}
	}
	var errs []engine.Finding
	for _, f := range s.Findings {
		if f.Severity == engine.Error {
			errs = append(errs, f)
		}
	}
	if len(errs) > 0 {
		file := errs[0].Pos.File
		return nil, &audit.Refused{File: file, Why: "kubectl apply fails on these RBAC manifests, so they answer no question",
			Command: "aclint lint -f " + file, Findings: errs, Sources: sources, By: "Kubernetes"}
	}
	return s, nil
}

// gate is a set as audit.Gate.
type gate struct{ s *Set }

func (gate) Name() string { return "Kubernetes RBAC" }

// Namespaces are the Namespace objects and the namespaces objects of the
// files are put in (the API server refuses an object in a namespace that
// does not exist), sorted.
func (g gate) Namespaces() []audit.GateNamespace {
	seen := map[string]bool{}
	var out []audit.GateNamespace
	for _, n := range g.s.Namespaces() {
		seen[n.Name] = true
		out = append(out, audit.GateNamespace{Name: n.Name, Labels: n.Labels, Annotations: n.Annotations, Declared: true, Pos: n.Pos})
	}
	add := func(ns string, pos engine.Position, bootstrap bool) {
		if ns != "" && !seen[ns] && !bootstrap {
			seen[ns] = true
			out = append(out, audit.GateNamespace{Name: ns, Pos: pos})
		}
	}
	for _, b := range g.s.bindings {
		add(b.Namespace, b.Pos, b.Bootstrap)
	}
	for _, r := range g.s.roles {
		add(r.Namespace, r.Pos, r.Bootstrap)
	}
	for _, a := range g.s.serviceAccounts {
		add(a.Namespace, a.Pos, false)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// userOf is the user a subject authenticates as: a service account's
// name carries its groups; every request carries system:authenticated.
func userOf(sub audit.GateSubject) User {
	u := User{Name: sub.User, Groups: sub.Groups}
	if ns, name, ok := serviceAccountName(sub.User); ok {
		sa := ServiceAccountUser(ns, name)
		for _, g := range sa.Groups {
			if !slices.Contains(u.Groups, g) {
				u.Groups = append(append([]string{}, u.Groups...), g)
			}
		}
	}
	return Authenticated(u)
}

// serviceAccountName splits system:serviceaccount:NS:NAME.
func serviceAccountName(user string) (ns, name string, ok bool) {
	rest, ok := strings.CutPrefix(user, "system:serviceaccount:")
	if !ok {
		return "", "", false
	}
	ns, name, ok = strings.Cut(rest, ":")
	return ns, name, ok && ns != "" && name != "" && !strings.Contains(name, ":")
}

// workloads are the kinds the admission controller names the objects
// PodMakers lists.
var workloads = map[string]string{"pods": "", "deployments": "Deployment", "replicasets": "ReplicaSet",
	"statefulsets": "StatefulSet", "daemonsets": "DaemonSet", "jobs": "Job", "cronjobs": "CronJob"}

// Creates asks the authorizer whether the subject may create pods, or a
// workload that makes them, in namespace.
func (g gate) Creates(sub audit.GateSubject, namespace string) audit.Creation {
	c := g.s.MayCreatePods(userOf(sub), namespace)
	if !c.Allowed {
		return audit.Creation{Unknown: strings.Join(c.Unknown, "; ")}
	}
	return audit.Creation{Allowed: true, Kind: c.Kind.String(), Workload: workloads[c.Kind.Resource], By: c.Answer.Grant(), Binding: c.Answer.Binding.describe() + c.Answer.Binding.Name, Pos: c.Answer.Binding.Pos}
}

// Subjects are the subjects the files' bindings name (the bootstrap
// policy's own, the cluster's administrators and controllers, are left
// out), sorted by kind and name.
func (g gate) Subjects() []audit.GateSubject {
	seen := map[string]bool{}
	var out []audit.GateSubject
	for _, b := range g.s.bindings {
		if b.Bootstrap {
			continue
		}
		for _, su := range b.Subjects {
			gs, ok := subjectOf(su, b)
			if key := gs.Kind + "/" + gs.Name; ok && !seen[key] {
				seen[key] = true
				out = append(out, gs)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind > out[j].Kind // users, then service accounts, then groups
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// GroupMember is the user a group's member is asked as: a name no file
// writes, so that only the group lets it in.
const GroupMember = "aclint:member-of-group"

// subjectOf is a binding's subject as the gate's authenticator gives it.
func subjectOf(su Subject, b *Binding) (audit.GateSubject, bool) {
	switch su.Kind {
	case "User":
		return audit.GateSubject{Kind: "User", Name: su.Name, User: su.Name}, true
	case "Group":
		return audit.GateSubject{Kind: "Group", Name: su.Name, User: GroupMember, Groups: []string{su.Name}}, true
	case "ServiceAccount":
		ns := su.Namespace
		if ns == "" {
			ns = b.Namespace
		}
		if ns == "" {
			return audit.GateSubject{}, false
		}
		user := fmt.Sprintf("system:serviceaccount:%s:%s", ns, su.Name)
		return audit.GateSubject{Kind: "ServiceAccount", Name: ns + "/" + su.Name, User: user}, true
	}
	return audit.GateSubject{}, false
}
