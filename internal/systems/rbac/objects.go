// Package rbac is Kubernetes' RBAC as the API server and its authorizer
// decide it: the Role, ClusterRole, RoleBinding and ClusterRoleBinding
// objects of rbac.authorization.k8s.io/v1 read from manifests with their
// positions, defaulted and validated as the API server does on apply, the
// ClusterRoles the aggregation controller builds, Kubernetes' bootstrap
// policy, and the RBAC authorizer's answer to one request. It knows no
// scheduler: a system that asks "may this subject create this kind in
// this namespace" asks through audit.Creators.
package rbac

import "github.com/aclint/aclint/internal/engine"

// Group is the API group of every RBAC object, and the default apiGroup
// of a User or Group subject and of a roleRef.
const Group = "rbac.authorization.k8s.io"

// APIVersion is the one RBAC version the API server serves (v1beta1 and
// v1alpha1 were removed in Kubernetes 1.22).
const APIVersion = Group + "/v1"

// Rule is one PolicyRule of a Role or ClusterRole.
type Rule struct {
	Verbs, APIGroups, Resources, ResourceNames, NonResourceURLs []string
	Pos                                                         engine.Position
	// From is, in an aggregated ClusterRole, the ClusterRole the rule was
	// aggregated from.
	From string
}

// Role is a Role (Cluster false, in Namespace) or a ClusterRole.
type Role struct {
	Cluster         bool
	Name, Namespace string
	Labels          map[string]string
	Rules           []Rule
	// Aggregation is a ClusterRole's aggregationRule.clusterRoleSelectors
	// (Aggregated says it has an aggregationRule): the controller replaces
	// its rules with those of every other ClusterRole a selector picks.
	Aggregation []Selector
	Aggregated  bool
	// Unsettled says that not all its rules are known: it reaches a ring
	// of ClusterRoles that aggregate each other, and which rules they end
	// with depends on the order the controller happens to sync them.
	// Rules are then those it surely has, Maybe those it may have.
	Unsettled bool
	Maybe     []Rule
	// own are the rules the manifest writes (an aggregated role's are
	// replaced when it settles)
	own []Rule
	Pos engine.Position
	// Bootstrap marks a role of Kubernetes' bootstrap policy, which the
	// API server reconciles at every start.
	Bootstrap bool
}

// Kind is "Role" or "ClusterRole".
func (r *Role) Kind() string {
	if r.Cluster {
		return "ClusterRole"
	}
	return "Role"
}

// Selector is a label selector: every key of MatchLabels and every
// requirement must hold.
type Selector struct {
	MatchLabels map[string]string
	Exprs       []Requirement
	Pos         engine.Position
}

// Requirement is one matchExpressions entry.
type Requirement struct {
	Key, Operator string
	Values        []string
}

// Subject is one subject of a binding, defaulted as the API server does.
type Subject struct {
	Kind, APIGroup, Name, Namespace string
	Pos                             engine.Position
}

// Binding is a RoleBinding (Cluster false, in Namespace) or a
// ClusterRoleBinding.
type Binding struct {
	Cluster         bool
	Name, Namespace string
	RoleKind, Role  string
	RoleAPIGroup    string
	RefPos          engine.Position
	Subjects        []Subject
	Pos             engine.Position
	Bootstrap       bool
}

// Kind is "RoleBinding" or "ClusterRoleBinding".
func (b *Binding) Kind() string {
	if b.Cluster {
		return "ClusterRoleBinding"
	}
	return "RoleBinding"
}

// Namespace is a Namespace object: its labels and annotations are what
// placement and the admission controller read.
type Namespace struct {
	Name                string
	Labels, Annotations map[string]string
	Pos                 engine.Position
}

// ServiceAccount is a ServiceAccount object.
type ServiceAccount struct {
	Name, Namespace string
	Pos             engine.Position
}
