package rbac

import (
	"strings"
	"testing"
)

func readFindings(t *testing.T, doc string) (*Set, []string) {
	t.Helper()
	s := NewSet()
	if err := Read(s, "m.yaml", []byte(doc)); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range s.Findings {
		out = append(out, f.Pos.String()+" "+f.Rule+": "+f.Message)
	}
	return s, out
}

func TestReadRefusesAsKubectlApply(t *testing.T) {
	for _, c := range []struct{ name, doc, want string }{
		{"unknown field", "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: ns}\nrule: []\n", `m.yaml:4:1 rbac-malformed: Role: unknown field "rule"`},
		{"a key twice: the later wins", "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: ns, name: s}\n", `m.yaml:3:36 rbac-duplicate-key: metadata: "name" is written twice`},
		{"YAML 1.1 boolean", "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r}\nrules: [{verbs: [on], apiGroups: [''], resources: [pods]}]\n", `m.yaml:4:18 rbac-malformed: verbs item must be a string`},
		{"number", "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: 12}\n", `m.yaml:3:18 rbac-malformed: metadata.name must be a string`},
		{"not served", "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: ClusterRole\nmetadata: {name: r}\n", `m.yaml:1:1 rbac-not-served`},
		{"unknown subject kind", "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: b, namespace: ns}\nroleRef: {kind: Role, name: r}\nsubjects:\n- {kind: Robot, name: x}\n", `m.yaml:6:3 rbac-invalid: RoleBinding b: subjects[0]: kind "Robot" is not supported`},
		{"Role in a ClusterRoleBinding", "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: b}\nroleRef: {kind: Role, name: r}\n", `m.yaml:4:10 rbac-invalid: ClusterRoleBinding b: roleRef.kind "Role" is not supported: supported values are "ClusterRole"`},
		{"service account without namespace", "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: b}\nroleRef: {kind: ClusterRole, name: r}\nsubjects: [{kind: ServiceAccount, name: ci}]\n", `namespace is required for a ServiceAccount of a ClusterRoleBinding`},
		{"empty aggregation", "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r}\naggregationRule: {}\n", `at least one clusterRoleSelector required`},
		{"alias bomb", "a: &a [x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r, labels: *c}\n", `rbac-malformed`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, got := readFindings(t, c.doc)
			if len(got) == 0 || !strings.Contains(strings.Join(got, "\n"), c.want) {
				t.Errorf("findings %q, want one with %q", got, c.want)
			}
		})
	}
}

func TestReadPassesOverOtherKinds(t *testing.T) {
	s, got := readFindings(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec: {replicas: 1}
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Namespace
  metadata: {name: team-a, labels: {team: a}}
- apiVersion: rbac.authorization.k8s.io/v1
  kind: RoleBinding
  metadata: {name: devs, namespace: team-a}
  roleRef: {kind: ClusterRole, name: edit}
  subjects: [{kind: Group, name: devs}]
`)
	if len(got) > 0 {
		t.Fatalf("findings: %q", got)
	}
	if s.Namespace("team-a") == nil || len(s.Bindings()) != 1 || s.Bindings()[0].Pos.Line != 12 {
		t.Fatalf("read %+v %+v", s.Namespaces(), s.Bindings())
	}
}

func TestBootstrapEditLetsCreatePodsAndWorkloads(t *testing.T) {
	s := NewSet()
	if err := s.AddBootstrap(); err != nil {
		t.Fatal(err)
	}
	if err := Read(s, "rb.yaml", []byte("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: devs, namespace: team-a}\nroleRef: {kind: ClusterRole, name: edit}\nsubjects: [{kind: Group, name: devs}]\n")); err != nil {
		t.Fatal(err)
	}
	alice := Authenticated(User{Name: "alice", Groups: []string{"devs"}})
	for _, res := range []struct{ group, resource string }{{"", "pods"}, {"apps", "deployments"}, {"batch", "cronjobs"}, {"apps", "statefulsets"}} {
		a := s.Authorize(alice, Request{Verb: "create", APIGroup: res.group, Resource: res.resource, Namespace: "team-a"})
		if !a.Allowed || a.Role.Name != "edit" || a.Role.Rules[a.Rule].From != "system:aggregate-to-edit" {
			t.Errorf("%s: %+v", res.resource, a)
		}
		if a := s.Authorize(alice, Request{Verb: "create", APIGroup: res.group, Resource: res.resource, Namespace: "prod"}); a.Allowed || len(a.Unknown) > 0 {
			t.Errorf("%s in prod: %+v", res.resource, a)
		}
	}
	// system:masters is bound to cluster-admin by the bootstrap policy
	if a := s.Authorize(Authenticated(User{Name: "root", Groups: []string{"system:masters"}}), Request{Verb: "create", Resource: "pods", Namespace: "prod"}); !a.Allowed || a.Binding.Name != "cluster-admin" {
		t.Errorf("system:masters: %+v", a)
	}
}

func TestMissingRoleIsNotKnown(t *testing.T) {
	s, _ := readFindings(t, "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: b, namespace: ns}\nroleRef: {kind: ClusterRole, name: team-edit}\nsubjects: [{kind: User, name: alice}]\n")
	a := s.Authorize(Authenticated(User{Name: "alice"}), Request{Verb: "create", Resource: "pods", Namespace: "ns"})
	if a.Allowed || len(a.Unknown) != 1 || !strings.Contains(a.Unknown[0], "ClusterRole team-edit, which no file given has") {
		t.Fatalf("%+v", a)
	}
	// someone the binding does not name is denied: the role cannot matter
	if a := s.Authorize(Authenticated(User{Name: "bob"}), Request{Verb: "create", Resource: "pods", Namespace: "ns"}); a.Allowed || len(a.Unknown) > 0 {
		t.Fatalf("bob: %+v", a)
	}
}

func TestMayCreatePods(t *testing.T) {
	s := NewSet()
	if err := s.AddBootstrap(); err != nil {
		t.Fatal(err)
	}
	doc := `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: jobs, namespace: etl}
rules:
- {verbs: [create], apiGroups: [batch], resources: [cronjobs]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: ci, namespace: etl}
roleRef: {kind: Role, name: jobs}
subjects: [{kind: ServiceAccount, name: ci}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: ops, namespace: prod}
roleRef: {kind: ClusterRole, name: prod-deployer}
subjects: [{kind: Group, name: ops}]
`
	if err := Read(s, "rbac.yaml", []byte(doc)); err != nil || len(s.Findings) > 0 {
		t.Fatal(err, s.Findings)
	}
	ci := ServiceAccountUser("etl", "ci")
	c := s.MayCreatePods(ci, "etl")
	if !c.Allowed || c.Kind.String() != "cronjobs.batch" {
		t.Fatalf("%+v", c)
	}
	want := "RoleBinding etl/ci (ServiceAccount ci, rbac.yaml:7:1) binds Role jobs, whose rule verbs [create] resources [cronjobs] apiGroups [batch] allows it (rbac.yaml:5:3)"
	if got := c.Answer.Grant(); got != want {
		t.Errorf("grant\n%s, want\n%s", got, want)
	}
	if c := s.MayCreatePods(ci, "prod"); c.Allowed || len(c.Unknown) > 0 {
		t.Errorf("ci in prod: %+v", c)
	}
	// a ClusterRole no file has: whether ops may is not known, and says why once
	c = s.MayCreatePods(Authenticated(User{Name: "olga", Groups: []string{"ops"}}), "prod")
	if c.Allowed || len(c.Unknown) != 1 || !strings.Contains(c.Unknown[0], "prod-deployer") {
		t.Errorf("ops in prod: %+v", c)
	}
}

func TestUnplacedBindingIsNotKnown(t *testing.T) {
	s, got := readFindings(t, "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: b}\nroleRef: {kind: ClusterRole, name: edit}\nsubjects: [{kind: User, name: alice}]\n")
	if len(got) != 1 || !strings.Contains(got[0], "rbac-no-namespace") {
		t.Fatalf("findings %q", got)
	}
	if err := s.AddBootstrap(); err != nil {
		t.Fatal(err)
	}
	a := s.Authorize(Authenticated(User{Name: "alice"}), Request{Verb: "create", Resource: "pods", Namespace: "team-a"})
	if a.Allowed || len(a.Unknown) != 1 || !strings.Contains(a.Unknown[0], "has no namespace, and would allow it applied in team-a") {
		t.Fatalf("%+v", a)
	}
	// read from a cluster, the API server refuses it
	c := NewSet()
	c.Complete = true
	if err := Read(c, "m.yaml", []byte("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: b}\nroleRef: {kind: ClusterRole, name: edit}\n")); err != nil || len(c.Findings) != 1 || c.Findings[0].Rule != "rbac-invalid" {
		t.Fatalf("%v %+v", err, c.Findings)
	}
}
