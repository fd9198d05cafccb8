package rbac

import (
	"fmt"
	"slices"
	"strings"
)

// User is who a request is from, as the API server's authenticators give
// it: a name and groups (system:authenticated among them; User adds it).
type User struct {
	Name   string
	Groups []string
}

// ServiceAccountUser is the user a service account's token authenticates
// as: its name, and the groups every service account carries.
func ServiceAccountUser(namespace, name string) User {
	return User{Name: "system:serviceaccount:" + namespace + ":" + name,
		Groups: []string{"system:serviceaccounts", "system:serviceaccounts:" + namespace, "system:authenticated"}}
}

// Authenticated is u with the group every authenticated request carries.
func Authenticated(u User) User {
	for _, g := range u.Groups {
		if g == "system:authenticated" {
			return u
		}
	}
	u.Groups = append(append([]string{}, u.Groups...), "system:authenticated")
	return u
}

// Request is what is asked: a verb on a resource (and subresource, and
// object name) of an API group, in a namespace ("" cluster-wide).
type Request struct {
	Verb, APIGroup, Resource, Subresource, Namespace, Name string
}

// Answer is the authorizer's decision, with what decides it: the binding
// (and which of its subjects) and the role's rule that allow, or, when
// nothing allows, why the answer is not known (Unknown: a role no file
// has, whose rules could allow).
type Answer struct {
	Allowed bool
	Binding *Binding
	Subject int
	Role    *Role
	Rule    int
	Unknown []string
}

// Authorize decides a request as the RBAC authorizer does
// (plugin/pkg/auth/authorizer/rbac): the ClusterRoleBindings, then the
// RoleBindings of the request's namespace, whose subjects include the user,
// and the first rule of their roles that allows the request.
func (s *Set) Authorize(u User, req Request) Answer {
	s.settle()
	var unknown []string
	// the ClusterRoleBindings, then the RoleBindings of the namespace
	for _, bindings := range [2][]*Binding{s.clusterBindings, s.nsBindings[req.Namespace]} {
		for _, b := range bindings {
			if a, ok := s.bindingAllows(b, u, req, &unknown); ok {
				return a
			}
		}
	}
	return Answer{Unknown: append(unknown, s.unplacedAllow(u, req)...)}
}

// bindingAllows is the answer when binding b allows the request; what
// it could allow but no file says is added to unknown.
func (s *Set) bindingAllows(b *Binding, u User, req Request, unknown *[]string) (Answer, bool) {
	si, ok := b.appliesTo(u, req.Namespace)
	if !ok {
		return Answer{}, false
	}
	role := s.roles[roleKey(b.RoleKind == "ClusterRole", b.Namespace, b.Role)]
	if role == nil {
		if !s.Complete { // complete, it grants nothing, as in Kubernetes
			*unknown = append(*unknown, fmt.Sprintf("%s%s refers to %s, which no file given has", b.describe(), b.Name, b.roleName()))
		}
		return Answer{}, false
	}
	for i := range role.Rules {
		if role.Rules[i].allows(req) {
			return Answer{Allowed: true, Binding: b, Subject: si, Role: role, Rule: i}, true
		}
	}
	for i := range role.Maybe {
		if role.Maybe[i].allows(req) {
			*unknown = append(*unknown, fmt.Sprintf("%s%s refers to ClusterRole %s, which may or may not hold the rule of ClusterRole %s that allows it: ClusterRoles that aggregate each other settle on what the order the aggregation controller syncs them makes them", b.describe(), b.Name, role.Name, role.Maybe[i].From))
			break
		}
	}
	return Answer{}, false
}

// unplacedAllow are the objects without a namespace that would allow the
// request were they applied in its namespace: a RoleBinding there, or a
// Role there that a RoleBinding of that namespace names and no file has.
func (s *Set) unplacedAllow(u User, req Request) []string {
	if req.Namespace == "" {
		return nil
	}
	var out []string
	allows := func(ro *Role) bool {
		for i := range ro.Rules {
			if ro.Rules[i].allows(req) {
				return true
			}
		}
		return false
	}
	for _, b := range s.unplacedBindings {
		if _, ok := b.appliesTo(u, req.Namespace); !ok {
			continue
		}
		ro := s.roles[roleKey(true, "", b.Role)]
		if b.RoleKind == "Role" {
			ro = s.roles[roleKey(false, req.Namespace, b.Role)]
			if ro == nil {
				ro = s.unplacedRoles[b.Role]
			}
		}
		if ro == nil || allows(ro) {
			out = append(out, fmt.Sprintf("RoleBinding %s has no namespace, and would allow it applied in %s", b.Name, req.Namespace))
		}
	}
	for _, b := range s.nsBindings[req.Namespace] {
		ro := s.unplacedRoles[b.Role]
		if _, ok := b.appliesTo(u, req.Namespace); ok && b.RoleKind == "Role" && s.roles[roleKey(false, req.Namespace, b.Role)] == nil && ro != nil && allows(ro) {
			out = append(out, fmt.Sprintf("Role %s has no namespace, and would allow it applied in %s (RoleBinding %s/%s names it)", ro.Name, req.Namespace, b.Namespace, b.Name))
		}
	}
	return out
}

func (b *Binding) describe() string {
	if b.Cluster {
		return "ClusterRoleBinding "
	}
	return "RoleBinding " + b.Namespace + "/"
}

func (b *Binding) roleName() string {
	if b.RoleKind == "Role" {
		return "Role " + b.Namespace + "/" + b.Role
	}
	return "ClusterRole " + b.Role
}

// appliesTo is the first of the binding's subjects that is the user.
func (b *Binding) appliesTo(u User, namespace string) (int, bool) {
	for i, s := range b.Subjects {
		if s.appliesTo(u, b.nsFor(namespace)) {
			return i, true
		}
	}
	return 0, false
}

// nsFor is the namespace a ServiceAccount subject without one defaults
// to: the RoleBinding's (the request's), none for a ClusterRoleBinding.
func (b *Binding) nsFor(namespace string) string {
	if b.Cluster {
		return ""
	}
	return namespace
}

func (s Subject) appliesTo(u User, namespace string) bool {
	switch s.Kind {
	case "User":
		return u.Name == s.Name
	case "Group":
		return slices.Contains(u.Groups, s.Name)
	case "ServiceAccount":
		ns := namespace
		if s.Namespace != "" {
			ns = s.Namespace
		}
		return ns != "" && u.Name == "system:serviceaccount:"+ns+":"+s.Name
	}
	return false
}

// allows is RuleAllows for a resource request.
func (r *Rule) allows(req Request) bool {
	combined := req.Resource
	if req.Subresource != "" {
		combined += "/" + req.Subresource
	}
	return matchesOrStar(r.Verbs, req.Verb) && matchesOrStar(r.APIGroups, req.APIGroup) &&
		r.resourceMatches(combined, req.Subresource) && (len(r.ResourceNames) == 0 || slices.Contains(r.ResourceNames, req.Name))
}

func matchesOrStar(list []string, v string) bool {
	for _, x := range list {
		if x == "*" || x == v {
			return true
		}
	}
	return false
}

// resourceMatches is rbacv1helpers.ResourceMatches: *, the resource (with
// its subresource), or */subresource.
func (r *Rule) resourceMatches(combined, sub string) bool {
	for _, res := range r.Resources {
		if res == "*" || res == combined {
			return true
		}
		if sub != "" && len(res) == len(sub)+2 && strings.HasPrefix(res, "*/") && strings.HasSuffix(res, sub) {
			return true
		}
	}
	return false
}
