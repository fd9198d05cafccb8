package rbac

import "github.com/aclint/aclint/internal/engine"

// The rules' names. Each is reported by the reader and the API server's
// validation as they read a file (sourceRead), not by a check of its own.
const (
	ruleMalformed       = "rbac-malformed"
	ruleNotServed       = "rbac-not-served"
	ruleInvalid         = "rbac-invalid"
	ruleDuplicateObject = "rbac-duplicate-object"
	ruleDuplicateKey    = "rbac-duplicate-key"
	ruleNoNamespace     = "rbac-no-namespace"
	sourceRead          = "the manifest reader (kubectl's YAML reading, the API server's defaulting and validation)"
)

const ruleHead = "apiVersion: rbac.authorization.k8s.io/v1\n"

// Rules are the RBAC rules, in one list.
func Rules() *engine.RuleList {
	return engine.NewRuleList(
		read(&engine.Rule{Name: ruleMalformed, Severity: engine.Error,
			Summary: "a manifest kubectl apply refuses to send: not YAML, a field the type lacks, a number or a boolean where a string goes",
			Doc: "kubectl reads YAML as YAML 1.1, so an unquoted `yes`, `no`, `on`, `off`, `y` or `n` is a boolean and `012` " +
				"a number, and the API server's strict field validation (kubectl's default) refuses a field the object does " +
				"not have. The object is not applied, and the access it writes is not granted.",
			Bad:  ruleHead + "kind: RoleBinding\nmetadata:\n  name: devs\n  namespace: no\nroleRef: {kind: ClusterRole, name: edit}\nsubjects:\n- {kind: Group, name: devs}\n",
			Good: ruleHead + "kind: RoleBinding\nmetadata:\n  name: devs\n  namespace: \"no\"\nroleRef: {kind: ClusterRole, name: edit}\nsubjects:\n- {kind: Group, name: devs}\n"}),
		read(&engine.Rule{Name: ruleNotServed, Severity: engine.Error,
			Summary: "an RBAC object of a version Kubernetes no longer serves (v1beta1, v1alpha1)",
			Doc:     "Kubernetes 1.22 stopped serving `rbac.authorization.k8s.io/v1beta1`; the API server refuses such an object.",
			Bad:     "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: ClusterRole\nmetadata: {name: reader}\nrules:\n- {verbs: [get], apiGroups: [\"\"], resources: [pods]}\n",
			Good:    ruleHead + "kind: ClusterRole\nmetadata: {name: reader}\nrules:\n- {verbs: [get], apiGroups: [\"\"], resources: [pods]}\n"}),
		read(&engine.Rule{Name: ruleInvalid, Severity: engine.Error,
			Summary: "an RBAC object the API server's validation refuses: a subject kind it does not know, a Role in a ClusterRoleBinding, a rule without verbs, a bad name",
			Doc: "The API server validates every Role, ClusterRole and binding (pkg/apis/rbac/validation) and refuses the " +
				"whole object on any error: an unknown subject `kind` (they are case-sensitive), a ServiceAccount of a " +
				"ClusterRoleBinding without a namespace, a rule without verbs, apiGroups or resources, an empty " +
				"aggregationRule, a name with `/` or `%`. aclint's reading is held to Kubernetes' own code.",
			Bad:  ruleHead + "kind: RoleBinding\nmetadata: {name: devs, namespace: team-a}\nroleRef: {kind: ClusterRole, name: edit}\nsubjects:\n- {kind: user, name: alice}\n",
			Good: ruleHead + "kind: RoleBinding\nmetadata: {name: devs, namespace: team-a}\nroleRef: {kind: ClusterRole, name: edit}\nsubjects:\n- {kind: User, name: alice}\n"}),
		read(&engine.Rule{Name: ruleDuplicateObject, Severity: engine.Warning,
			Summary: "one object written twice in a file: applied in order, the later replaces the first",
			Doc:     "Two objects of one kind, namespace and name are one object: `kubectl apply` applies both in turn and only the later stays.",
			Bad:     ruleHead + "kind: ClusterRole\nmetadata: {name: reader}\nrules:\n- {verbs: [get], apiGroups: [\"\"], resources: [pods]}\n---\n" + ruleHead + "kind: ClusterRole\nmetadata: {name: reader}\nrules:\n- {verbs: [list], apiGroups: [\"\"], resources: [pods]}\n",
			Good:    ruleHead + "kind: ClusterRole\nmetadata: {name: reader}\nrules:\n- {verbs: [get, list], apiGroups: [\"\"], resources: [pods]}\n"}),
		read(&engine.Rule{Name: ruleDuplicateKey, Severity: engine.Warning,
			Summary: "a key written twice in one mapping: kubectl keeps the later value, kustomize and Flux refuse the file",
			Doc:     "kubectl's YAML reader keeps the last of two equal keys without a word, so the first value is lost; kustomize (and Flux, which builds with it) refuses the file.",
			Bad:     ruleHead + "kind: ClusterRole\nmetadata: {name: reader}\nrules:\n- verbs: [get]\n  apiGroups: [\"\"]\n  resources: [pods]\n  verbs: [list]\n",
			Good:    ruleHead + "kind: ClusterRole\nmetadata: {name: reader}\nrules:\n- verbs: [get, list]\n  apiGroups: [\"\"]\n  resources: [pods]\n"}),
		read(&engine.Rule{Name: ruleNoNamespace, Severity: engine.Info,
			Summary: "a Role or RoleBinding without metadata.namespace: where it grants is kubectl's context's, not the file's",
			Doc: "kubectl apply puts a namespaced object without a namespace in its context's namespace (kustomize in the " +
				"kustomization's). Questions aclint answers from the files say \"not known\" where such an object could decide; " +
				"write the namespace, or lint what `kustomize build` writes.",
			Bad:  ruleHead + "kind: RoleBinding\nmetadata: {name: devs}\nroleRef: {kind: ClusterRole, name: edit}\nsubjects:\n- {kind: Group, name: devs}\n",
			Good: ruleHead + "kind: RoleBinding\nmetadata: {name: devs, namespace: team-a}\nroleRef: {kind: ClusterRole, name: edit}\nsubjects:\n- {kind: Group, name: devs}\n"}),
	)
}

// read is a rule the reader reports.
func read(r *engine.Rule) *engine.Rule {
	r.System, r.Source = System, sourceRead
	return r
}
