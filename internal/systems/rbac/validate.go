package rbac

import (
	"fmt"

	"github.com/aclint/aclint/internal/engine"
)

// The API server's defaulting (pkg/apis/rbac/v1/defaults.go) and
// validation (pkg/apis/rbac/validation) of the objects it takes.

// defaultBinding gives a roleRef and the User and Group subjects the
// apiGroup the API server defaults them to.
func defaultBinding(b *Binding) {
	if b.RoleAPIGroup == "" {
		b.RoleAPIGroup = Group
	}
	for i := range b.Subjects {
		if s := &b.Subjects[i]; s.APIGroup == "" && (s.Kind == "User" || s.Kind == "Group") {
			s.APIGroup = Group
		}
	}
}

// invalidAt is one refusal of the API server.
func invalidAt(pos engine.Position, kind, name, format string, args ...any) engine.Finding {
	what := kind
	if name != "" {
		what += " " + name
	}
	return engine.Finding{Rule: ruleInvalid, Severity: engine.Error, Pos: pos,
		Message: fmt.Sprintf("%s: %s: the API server refuses it", what, fmt.Sprintf(format, args...)),
		Hint:    "fix the field so kubectl apply takes it"}
}

// validateNamed checks an object's name (required, and of the shape the
// kind's names take).
func validateNamed(kind, name string, pos engine.Position, shape func(string) string) []engine.Finding {
	if name == "" {
		return []engine.Finding{invalidAt(pos, kind, "", "metadata.name is required")}
	}
	if msg := shape(name); msg != "" {
		return []engine.Finding{invalidAt(pos, kind, name, "metadata.name %q %s", name, msg)}
	}
	return nil
}

// validateMeta checks the name, and for a namespaced kind the namespace.
func validateMeta(kind, name, ns string, namespaced bool, labels map[string]string, pos engine.Position) []engine.Finding {
	errs := validateNamed(kind, name, pos, pathSegment)
	if namespaced && ns != "" {
		if msg := dnsLabel(ns); msg != "" {
			errs = append(errs, invalidAt(pos, kind, name, "metadata.namespace %q %s", ns, msg))
		}
	}
	for _, k := range sortedKeys(labels) {
		if msg := qualifiedName(k); msg != "" {
			errs = append(errs, invalidAt(pos, kind, name, "label key %q: %s", k, msg))
		}
		if msg := labelValue(labels[k]); msg != "" {
			errs = append(errs, invalidAt(pos, kind, name, "label %s's value %q %s", k, labels[k], msg))
		}
	}
	return errs
}

// validateRole is ValidateRole and ValidateClusterRole.
func validateRole(r *Role) []engine.Finding {
	errs := validateMeta(r.Kind(), r.Name, r.Namespace, !r.Cluster, r.Labels, r.Pos)
	for i, ru := range r.Rules {
		bad := func(format string, args ...any) {
			errs = append(errs, invalidAt(ru.Pos, r.Kind(), r.Name, "rules[%d]: %s", i, fmt.Sprintf(format, args...)))
		}
		if len(ru.Verbs) == 0 {
			bad("verbs must contain at least one value")
		}
		if len(ru.NonResourceURLs) > 0 {
			if !r.Cluster {
				bad("namespaced rules cannot apply to non-resource URLs")
			}
			if len(ru.APIGroups) > 0 || len(ru.Resources) > 0 || len(ru.ResourceNames) > 0 {
				bad("rules cannot apply to both regular resources and non-resource URLs")
			}
			continue
		}
		if len(ru.APIGroups) == 0 {
			bad("resource rules must supply at least one api group")
		}
		if len(ru.Resources) == 0 {
			bad("resource rules must supply at least one resource")
		}
	}
	if r.Aggregated && len(r.Aggregation) == 0 {
		errs = append(errs, invalidAt(r.Pos, r.Kind(), r.Name, "aggregationRule.clusterRoleSelectors: at least one clusterRoleSelector required if aggregationRule is non-nil"))
	}
	for i, sel := range r.Aggregation {
		for _, msg := range validateSelector(sel) {
			errs = append(errs, invalidAt(sel.Pos, r.Kind(), r.Name, "aggregationRule.clusterRoleSelectors[%d]: %s", i, msg))
		}
	}
	return errs
}

// validateSelector is ValidateLabelSelector.
func validateSelector(sel Selector) []string {
	var errs []string
	for _, k := range sortedKeys(sel.MatchLabels) {
		if msg := qualifiedName(k); msg != "" {
			errs = append(errs, fmt.Sprintf("matchLabels key %q: %s", k, msg))
		}
		if msg := labelValue(sel.MatchLabels[k]); msg != "" {
			errs = append(errs, fmt.Sprintf("matchLabels value %q %s", sel.MatchLabels[k], msg))
		}
	}
	for j, e := range sel.Exprs {
		switch e.Operator {
		case "In", "NotIn":
			if len(e.Values) == 0 {
				errs = append(errs, fmt.Sprintf("matchExpressions[%d].values: must be specified when `operator` is 'In' or 'NotIn'", j))
			}
		case "Exists", "DoesNotExist":
			if len(e.Values) > 0 {
				errs = append(errs, fmt.Sprintf("matchExpressions[%d].values: may not be specified when `operator` is 'Exists' or 'DoesNotExist'", j))
			}
		default:
			errs = append(errs, fmt.Sprintf("matchExpressions[%d].operator: %q is not a valid selector operator", j, e.Operator))
		}
		if msg := qualifiedName(e.Key); msg != "" {
			errs = append(errs, fmt.Sprintf("matchExpressions[%d].key %q: %s", j, e.Key, msg))
		}
		for _, v := range e.Values {
			if msg := labelValue(v); msg != "" {
				errs = append(errs, fmt.Sprintf("matchExpressions[%d] value %q %s", j, v, msg))
			}
		}
	}
	return errs
}

// validateBinding is ValidateRoleBinding and ValidateClusterRoleBinding.
func validateBinding(b *Binding) []engine.Finding {
	errs := validateMeta(b.Kind(), b.Name, b.Namespace, !b.Cluster, nil, b.Pos)
	bad := func(pos engine.Position, format string, args ...any) {
		errs = append(errs, invalidAt(pos, b.Kind(), b.Name, format, args...))
	}
	if b.RoleAPIGroup != Group {
		bad(b.RefPos, "roleRef.apiGroup %q is not supported: the one value is %q", b.RoleAPIGroup, Group)
	}
	if b.RoleKind != "ClusterRole" && (b.Cluster || b.RoleKind != "Role") {
		want := `"Role" or "ClusterRole"`
		if b.Cluster {
			want = `"ClusterRole"`
		}
		bad(b.RefPos, "roleRef.kind %q is not supported: supported values are %s", b.RoleKind, want)
	}
	if b.Role == "" {
		bad(b.RefPos, "roleRef.name is required")
	} else if msg := pathSegment(b.Role); msg != "" {
		bad(b.RefPos, "roleRef.name %q %s", b.Role, msg)
	}
	for i, s := range b.Subjects {
		for _, msg := range validateSubject(s, !b.Cluster) {
			bad(s.Pos, "subjects[%d]: %s", i, msg)
		}
	}
	return errs
}

// validateSubject is ValidateRoleBindingSubject.
func validateSubject(s Subject, namespaced bool) []string {
	var errs []string
	if s.Name == "" {
		errs = append(errs, "name is required")
	}
	switch s.Kind {
	case "ServiceAccount":
		if s.Name != "" {
			if msg := dnsSubdomain(s.Name); msg != "" {
				errs = append(errs, fmt.Sprintf("name %q %s", s.Name, msg))
			}
		}
		if s.APIGroup != "" {
			errs = append(errs, fmt.Sprintf("apiGroup %q is not supported for a ServiceAccount: leave it out", s.APIGroup))
		}
		if !namespaced && s.Namespace == "" {
			errs = append(errs, "namespace is required for a ServiceAccount of a ClusterRoleBinding")
		}
	case "User", "Group":
		if s.APIGroup != Group {
			errs = append(errs, fmt.Sprintf("apiGroup %q is not supported: the one value is %q", s.APIGroup, Group))
		}
	default:
		errs = append(errs, fmt.Sprintf("kind %q is not supported: supported values are \"ServiceAccount\", \"User\", \"Group\"", s.Kind))
	}
	return errs
}
