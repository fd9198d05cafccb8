package rbac

import (
	"fmt"
	"sort"

	"github.com/aclint/aclint/internal/engine"
)

// Set is the RBAC of a cluster as the files given (and Kubernetes'
// bootstrap policy) make it: the objects the API server takes, the last
// of two with the same name winning as a second apply does, and findings
// for those it refuses.
type Set struct {
	// roles by "namespace/name"; ClusterRoles by "/name"
	roles           map[string]*Role
	bindings        []*Binding
	bindingAt       map[string]int
	namespaces      map[string]*Namespace
	serviceAccounts map[string]*ServiceAccount
	// Findings are what the API server refuses and what is applied twice.
	Findings []engine.Finding
	// Complete says the set holds every role the cluster has (it was read
	// from the cluster): a binding to a role it lacks grants nothing, as
	// in Kubernetes. Read from files, such a role may be in the cluster,
	// so what it could allow is not known.
	Complete bool
	settled  bool
	// the bindings indexed when the set settles: the ClusterRoleBindings,
	// and the RoleBindings by namespace
	clusterBindings []*Binding
	nsBindings      map[string][]*Binding
	// unplaced are the Roles and RoleBindings a file writes without a
	// namespace: kubectl apply puts them in its context's namespace, which
	// the files do not say
	unplacedRoles    map[string]*Role
	unplacedBindings []*Binding
}

// NewSet is an empty set: no bootstrap policy (WithBootstrap adds it).
func NewSet() *Set {
	return &Set{roles: map[string]*Role{}, bindingAt: map[string]int{}, namespaces: map[string]*Namespace{}, serviceAccounts: map[string]*ServiceAccount{}, unplacedRoles: map[string]*Role{}}
}

func (s *Set) refuse(pos engine.Position, rule, msg, hint string) {
	s.Findings = append(s.Findings, engine.Finding{Rule: rule, Severity: engine.Error, Pos: pos, Message: msg, Hint: hint})
}

func roleKey(cluster bool, ns, name string) string {
	if cluster {
		return "/" + name
	}
	return ns + "/" + name
}

// twice notes an object applied a second time: the later one wins.
func (s *Set) twice(kind, name string, first, again engine.Position, bootstrap bool) {
	if bootstrap {
		return // the files' own replaces Kubernetes' bootstrap object
	}
	s.Findings = append(s.Findings, engine.Finding{Rule: ruleDuplicateObject, Severity: engine.Warning, Pos: again,
		Message: fmt.Sprintf("%s %s is written twice: applied in order, this one replaces the first", kind, name),
		Hint:    "keep one of them", Related: []engine.Related{{Pos: first, Message: "the first " + kind + " " + name}}})
}

func (s *Set) addRole(r *Role) {
	if s.invalid(validateRole(r)) {
		return
	}
	r.own = r.Rules
	if !r.Cluster && r.Namespace == "" {
		if s.unplaced(r.Kind(), r.Name, r.Pos) {
			s.unplacedRoles[r.Name] = r
		}
		return
	}
	k := roleKey(r.Cluster, r.Namespace, r.Name)
	if old, ok := s.roles[k]; ok {
		s.twice(r.Kind(), r.Name, old.Pos, r.Pos, old.Bootstrap)
	}
	s.roles[k] = r
	s.settled = false
}

func (s *Set) addBinding(b *Binding) {
	defaultBinding(b)
	if s.invalid(validateBinding(b)) {
		return
	}
	if !b.Cluster && b.Namespace == "" {
		if s.unplaced(b.Kind(), b.Name, b.Pos) {
			s.unplacedBindings = append(s.unplacedBindings, b)
		}
		return
	}
	k := roleKey(b.Cluster, b.Namespace, b.Name)
	if i, ok := s.bindingAt[k]; ok {
		s.twice(b.Kind(), b.Name, s.bindings[i].Pos, b.Pos, s.bindings[i].Bootstrap)
		s.bindings[i] = b
		s.settled = false
		return
	}
	s.bindingAt[k] = len(s.bindings)
	s.bindings = append(s.bindings, b)
	s.settled = false
}

func (s *Set) addNamespace(n *Namespace) {
	if s.invalid(validateNamed("Namespace", n.Name, n.Pos, dnsLabel)) {
		return
	}
	if old, ok := s.namespaces[n.Name]; ok {
		s.twice("Namespace", n.Name, old.Pos, n.Pos, false)
	}
	s.namespaces[n.Name] = n
}

func (s *Set) addServiceAccount(a *ServiceAccount) {
	if s.invalid(validateNamed("ServiceAccount", a.Name, a.Pos, dnsSubdomain)) {
		return
	}
	s.serviceAccounts[a.Namespace+"/"+a.Name] = a
}

// unplaced notes a namespaced object without a namespace, and says
// whether to keep it aside: read from a cluster it is refused, as the API
// server refuses it; read from files it lands where kubectl apply's
// context says, so it is kept aside and what it could allow is not known.
func (s *Set) unplaced(kind, name string, pos engine.Position) bool {
	if s.Complete {
		s.invalid([]engine.Finding{invalidAt(pos, kind, name, "metadata.namespace is required")})
		return false
	}
	s.Findings = append(s.Findings, engine.Finding{Rule: ruleNoNamespace, Severity: engine.Info, Pos: pos,
		Message: fmt.Sprintf("%s %s has no metadata.namespace: kubectl apply puts it in the namespace of its context, which no file says, so what it grants is not known", kind, name),
		Hint:    "write its namespace in metadata.namespace"})
	return true
}

// invalid records what the API server refuses of an object.
func (s *Set) invalid(errs []engine.Finding) bool {
	s.Findings = append(s.Findings, errs...)
	return len(errs) > 0
}

// Namespaces are the Namespace objects, by name.
func (s *Set) Namespaces() []*Namespace {
	out := make([]*Namespace, 0, len(s.namespaces))
	for _, n := range s.namespaces {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Namespace is the Namespace object named name, nil when no file has it.
func (s *Set) Namespace(name string) *Namespace { return s.namespaces[name] }

// Bindings are the bindings taken, in the order applied.
func (s *Set) Bindings() []*Binding { return s.bindings }
