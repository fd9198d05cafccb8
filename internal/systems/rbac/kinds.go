package rbac

import (
	"gopkg.in/yaml.v3"
)

// role reads a Role or a ClusterRole.
func (r *reader) role(n *yaml.Node) error {
	var m meta
	ro := &Role{Cluster: r.scalarOf(n, "kind") == "ClusterRole", Pos: r.pos(n), Bootstrap: r.bootstrap}
	known := map[string]field{"apiVersion": nil, "kind": nil, "metadata": r.metadata(&m),
		"rules": r.list("rules", func(v *yaml.Node) error { return r.rule(v, ro) })}
	if ro.Cluster {
		known["aggregationRule"] = func(v *yaml.Node) error { return r.aggregation(v, ro) }
	}
	if err := r.fields(n, ro.Kind(), known); err != nil {
		return err
	}
	ro.Name, ro.Namespace, ro.Labels = m.name, m.namespace, m.labels
	r.set.addRole(ro)
	return nil
}

// rule reads one PolicyRule.
func (r *reader) rule(n *yaml.Node, ro *Role) error {
	ru := Rule{Pos: r.pos(n)}
	err := r.fields(n, "rule", map[string]field{
		"verbs":           r.strs("verbs", &ru.Verbs),
		"apiGroups":       r.strs("apiGroups", &ru.APIGroups),
		"resources":       r.strs("resources", &ru.Resources),
		"resourceNames":   r.strs("resourceNames", &ru.ResourceNames),
		"nonResourceURLs": r.strs("nonResourceURLs", &ru.NonResourceURLs),
	})
	ro.Rules = append(ro.Rules, ru)
	return err
}

// aggregation reads a ClusterRole's aggregationRule.
func (r *reader) aggregation(n *yaml.Node, ro *Role) error {
	ro.Aggregated = true
	return r.fields(n, "aggregationRule", map[string]field{
		"clusterRoleSelectors": r.list("clusterRoleSelectors", func(v *yaml.Node) error {
			s := Selector{Pos: r.pos(v)}
			err := r.fields(v, "clusterRoleSelector", map[string]field{
				"matchLabels": r.strMap("matchLabels", &s.MatchLabels),
				"matchExpressions": r.list("matchExpressions", func(e *yaml.Node) error {
					var q Requirement
					err := r.fields(e, "matchExpression", map[string]field{
						"key": r.str("key", &q.Key), "operator": r.str("operator", &q.Operator), "values": r.strs("values", &q.Values)})
					s.Exprs = append(s.Exprs, q)
					return err
				}),
			})
			ro.Aggregation = append(ro.Aggregation, s)
			return err
		}),
	})
}

// binding reads a RoleBinding or a ClusterRoleBinding.
func (r *reader) binding(n *yaml.Node) error {
	var m meta
	b := &Binding{Cluster: r.scalarOf(n, "kind") == "ClusterRoleBinding", Pos: r.pos(n), Bootstrap: r.bootstrap}
	err := r.fields(n, b.Kind(), map[string]field{"apiVersion": nil, "kind": nil, "metadata": r.metadata(&m),
		"roleRef": func(v *yaml.Node) error {
			b.RefPos = r.pos(v)
			return r.fields(v, "roleRef", map[string]field{
				"apiGroup": r.str("roleRef.apiGroup", &b.RoleAPIGroup), "kind": r.str("roleRef.kind", &b.RoleKind), "name": r.str("roleRef.name", &b.Role)})
		},
		"subjects": r.list("subjects", func(v *yaml.Node) error {
			s := Subject{Pos: r.pos(v)}
			err := r.fields(v, "subject", map[string]field{
				"kind": r.str("subject kind", &s.Kind), "apiGroup": r.str("subject apiGroup", &s.APIGroup),
				"name": r.str("subject name", &s.Name), "namespace": r.str("subject namespace", &s.Namespace)})
			b.Subjects = append(b.Subjects, s)
			return err
		}),
	})
	if err != nil {
		return err
	}
	b.Name, b.Namespace = m.name, m.namespace
	if b.RefPos.Line == 0 {
		b.RefPos = b.Pos
	}
	r.set.addBinding(b)
	return nil
}

// namespace reads a Namespace: its labels and annotations.
func (r *reader) namespace(n *yaml.Node) error {
	var m meta
	err := r.fields(n, "Namespace", map[string]field{"apiVersion": nil, "kind": nil, "metadata": r.metadata(&m), "spec": nil, "status": nil})
	if err != nil {
		return err
	}
	r.set.addNamespace(&Namespace{Name: m.name, Labels: m.labels, Annotations: m.annotations, Pos: r.pos(n)})
	return nil
}

// serviceAccount reads a ServiceAccount.
func (r *reader) serviceAccount(n *yaml.Node) error {
	var m meta
	err := r.fields(n, "ServiceAccount", map[string]field{"apiVersion": nil, "kind": nil, "metadata": r.metadata(&m),
		"secrets": nil, "imagePullSecrets": nil, "automountServiceAccountToken": nil})
	if err != nil {
		return err
	}
	r.set.addServiceAccount(&ServiceAccount{Name: m.name, Namespace: m.namespace, Pos: r.pos(n)})
	return nil
}
