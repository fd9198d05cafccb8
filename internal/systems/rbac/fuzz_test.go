package rbac

import (
	"testing"
)

// FuzzRead holds the manifest reader to never crash or run away on any
// input, and what it takes to answer a request.
func FuzzRead(f *testing.F) {
	f.Add([]byte("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: b, namespace: ns}\nroleRef: {kind: ClusterRole, name: edit}\nsubjects: [{kind: User, name: alice}]\n"))
	f.Add([]byte("apiVersion: v1\nkind: List\nitems:\n- apiVersion: rbac.authorization.k8s.io/v1\n  kind: ClusterRole\n  metadata: {name: a, labels: {x: y}}\n  aggregationRule: {clusterRoleSelectors: [{matchLabels: {x: y}}]}\n"))
	f.Add([]byte("a: &a [x, *a]\n"))
	f.Add([]byte(`{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"r","namespace":"n"},"rules":[{"verbs":["*"],"apiGroups":[""],"resources":["pods"]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s := NewSet()
		if err := Read(s, "f.yaml", data); err != nil {
			return
		}
		s.Authorize(Authenticated(User{Name: "alice"}), Request{Verb: "create", Resource: "pods", Namespace: "ns"})
	})
}
