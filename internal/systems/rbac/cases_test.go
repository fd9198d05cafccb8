package rbac

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
)

// The generated RBAC sets the harness (testdata/harness: Kubernetes' own
// defaulting, validation, aggregation controller and RBAC authorizer)
// answers: wildcards, aggregation (rings among them), subresources,
// service accounts across namespaces, names with odd characters, and
// objects the API server refuses.

type hQuestion struct {
	User           string   `json:"user,omitempty"`
	Groups         []string `json:"groups,omitempty"`
	ServiceAccount string   `json:"serviceAccount,omitempty"`
	Verb           string   `json:"verb"`
	APIGroup       string   `json:"apiGroup"`
	Resource       string   `json:"resource"`
	Subresource    string   `json:"subresource,omitempty"`
	Namespace      string   `json:"namespace,omitempty"`
	Name           string   `json:"name,omitempty"`
}

type hCase struct {
	Bootstrap bool              `json:"bootstrap,omitempty"`
	Objects   []json.RawMessage `json:"objects"`
	YAML      []string          `json:"yaml,omitempty"`
	Questions []hQuestion       `json:"questions"`
	// the harness's answers
	Refused []struct {
		Index  int      `json:"index"`
		Errors []string `json:"errors"`
	} `json:"refused,omitempty"`
	Answers []bool `json:"answers,omitempty"`
}

type gen struct{ r *rand.Rand }

func (g gen) pick(l ...string) string { return l[g.r.Intn(len(l))] }

// odd is usually one of usual, one time in n one of odd.
func (g gen) odd(n int, usual, odd []string) string {
	if g.r.Intn(n) == 0 {
		return g.pick(odd...)
	}
	return g.pick(usual...)
}

// oddSome is 1 to max of usual, now and then with one of odd, or none.
func (g gen) oddSome(max int, usual, odd []string) []string {
	n := 1 + g.r.Intn(max)
	if g.r.Intn(60) == 0 {
		n = 0
	}
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, g.odd(40, usual, odd))
	}
	return out
}

func (g gen) some(max int, l ...string) []string {
	n := g.r.Intn(max + 1)
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, g.pick(l...))
	}
	return out
}

var (
	genVerbs        = []string{"create", "create", "get", "*", "list", "impersonate"}
	genOddVerbs     = []string{"CREATE", "update", "create "}
	genGroups       = []string{"", "", "apps", "batch", "*"}
	genOddGroups    = []string{"rbac.authorization.k8s.io", "extensions", "Apps"}
	genResources    = []string{"pods", "pods", "deployments", "jobs", "*", "pods/status", "*/status", "cronjobs", "replicasets", "statefulsets", "daemonsets", "users"}
	genOddResources = []string{"pods/*", "Pods", "*/*", "pods/exec", "status", "*/exec", "*/"}
	genNS           = []string{"ns1", "ns2", "default", "team-a"}
	genOddNS        = []string{"NS", "a.b", "x_y"}
	genUsers        = []string{"alice", "bob", "system:serviceaccount:ns1:ci", "a.b@corp.com"}
	genOddUsers     = []string{"Alice", "system:anonymous", "", " alice"}
	genGroupsU      = []string{"dev", "ops", "system:authenticated", "system:serviceaccounts", "system:serviceaccounts:ns1"}
	genOddGroupsU   = []string{"system:masters", "Dev", ""}
	genLabels       = []string{"agg", "team", "rbac.authorization.k8s.io/aggregate-to-edit"}
	genOddLabels    = []string{"x/y", "-bad", "a/b/c", ""}
)

// genCase is one RBAC set and the questions asked of it.
func (g gen) genCase() hCase {
	c := hCase{Bootstrap: g.r.Intn(5) == 0}
	var roles []string
	n := 1 + g.r.Intn(8)
	for i := 0; i < n; i++ {
		var o map[string]any
		switch g.r.Intn(4) {
		case 0, 1:
			o = g.genRole(i)
			roles = append(roles, o["metadata"].(map[string]any)["name"].(string))
		default:
			o = g.genBinding(roles)
		}
		b, _ := json.Marshal(o)
		c.Objects = append(c.Objects, b)
	}
	for i := g.r.Intn(3); i > 0; i-- {
		c.YAML = append(c.YAML, g.genYAML())
	}
	for i := 0; i < 12; i++ {
		q := g.genQuestion()
		if len(c.Objects) > 0 && g.r.Intn(3) > 0 {
			g.aimAt(&q, c.Objects[g.r.Intn(len(c.Objects))])
		}
		c.Questions = append(c.Questions, q)
	}
	return c
}

func (g gen) genRole(i int) map[string]any {
	cluster := g.r.Intn(3) > 0
	kind := "Role"
	if cluster {
		kind = "ClusterRole"
	}
	meta := map[string]any{"name": g.odd(24, []string{fmt.Sprintf("r%d", i), fmt.Sprintf("r%d", i%3), "edit", "a.b", "x:y"}, []string{"bad/name", "..", "%", ""})}
	if !cluster || g.r.Intn(6) == 0 {
		meta["namespace"] = g.odd(40, genNS, genOddNS)
	}
	if g.r.Intn(2) == 0 {
		meta["labels"] = map[string]string{g.odd(32, genLabels, genOddLabels): g.odd(32, []string{"true", "yes", ""}, []string{"bad value", "-x"})}
	}
	o := map[string]any{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind, "metadata": meta}
	var rules []map[string]any
	for j := g.r.Intn(4); j > 0; j-- {
		ru := map[string]any{"verbs": g.oddSome(2, genVerbs, genOddVerbs), "apiGroups": g.oddSome(2, genGroups, genOddGroups), "resources": g.oddSome(2, genResources, genOddResources)}
		if g.r.Intn(5) == 0 {
			ru["resourceNames"] = g.some(2, "x", "", "pod-1")
		}
		if g.r.Intn(60) == 0 {
			ru["nonResourceURLs"] = []string{"/healthz"}
		}
		rules = append(rules, ru)
	}
	if rules != nil {
		o["rules"] = rules
	}
	if cluster && g.r.Intn(3) == 0 {
		o["aggregationRule"] = g.genAggregation()
	}
	return o
}

func (g gen) genAggregation() map[string]any {
	var sels []map[string]any
	for j := g.r.Intn(3); j > 0 || g.r.Intn(10) > 0 && len(sels) == 0; j-- {
		s := map[string]any{}
		if g.r.Intn(3) > 0 {
			s["matchLabels"] = map[string]string{g.odd(40, genLabels, genOddLabels): g.pick("true", "yes", "")}
		}
		if g.r.Intn(3) == 0 {
			op := g.odd(40, []string{"In", "NotIn", "Exists", "DoesNotExist"}, []string{"in", "Gt"})
			e := map[string]any{"key": g.odd(40, genLabels, genOddLabels), "operator": op}
			if (op == "In" || op == "NotIn") != (g.r.Intn(10) == 0) {
				e["values"] = g.oddSome(2, []string{"true", "yes"}, []string{"", "bad value"})
			}
			s["matchExpressions"] = []any{e}
		}
		sels = append(sels, s)
	}
	return map[string]any{"clusterRoleSelectors": sels}
}

func (g gen) genBinding(roles []string) map[string]any {
	cluster := g.r.Intn(3) == 0
	kind := "RoleBinding"
	if cluster {
		kind = "ClusterRoleBinding"
	}
	meta := map[string]any{"name": g.odd(40, []string{"b1", "b2", "b3", "b4"}, []string{"b%", ".."})}
	if !cluster {
		meta["namespace"] = g.odd(48, genNS, genOddNS)
	}
	role := g.pick("edit", "admin", "missing", "view", "cluster-admin", "system:aggregate-to-edit")
	if len(roles) > 0 && g.r.Intn(4) > 0 {
		role = roles[g.r.Intn(len(roles))]
	}
	refKinds := []string{"ClusterRole", "Role", "Role"}
	if cluster {
		refKinds = []string{"ClusterRole"}
	}
	ref := map[string]any{"kind": g.odd(48, refKinds, []string{"role", "", "Role"}), "name": role}
	if g.r.Intn(6) == 0 {
		ref["apiGroup"] = g.odd(20, []string{"rbac.authorization.k8s.io"}, []string{"x", "rbac.authorization.k8s.io/v1"})
	}
	var subs []map[string]any
	for j := 1 + g.r.Intn(3); j > 0; j-- {
		s := map[string]any{"kind": g.odd(60, []string{"User", "Group", "ServiceAccount"}, []string{"user", "Foo"})}
		switch s["kind"] {
		case "ServiceAccount":
			s["name"] = g.odd(40, []string{"ci", "default"}, []string{"Bad_Name", ""})
			if g.r.Intn(2) == 0 || cluster && g.r.Intn(6) > 0 {
				s["namespace"] = g.pick(genNS...)
			}
		case "Group":
			s["name"] = g.odd(40, genGroupsU, genOddGroupsU)
		default:
			s["name"] = g.odd(40, genUsers, genOddUsers)
		}
		if g.r.Intn(8) == 0 {
			s["apiGroup"] = g.odd(12, []string{"", "rbac.authorization.k8s.io"}, []string{"x"})
			if s["kind"] == "ServiceAccount" && g.r.Intn(4) > 0 {
				s["apiGroup"] = ""
			}
		}
		subs = append(subs, s)
	}
	return map[string]any{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind, "metadata": meta, "roleRef": ref, "subjects": subs}
}

func (g gen) genQuestion() hQuestion {
	q := hQuestion{Verb: g.pick("create", "create", "get", "impersonate"), APIGroup: g.pick("", "", "apps", "batch"),
		Resource: g.pick("pods", "pods", "deployments", "jobs", "cronjobs", "statefulsets", "users", "serviceaccounts"), Namespace: g.odd(32, genNS, []string{""})}
	if g.r.Intn(4) == 0 {
		q.Subresource = g.pick("status", "exec")
	}
	if g.r.Intn(5) == 0 {
		q.Name = g.pick("x", "pod-1")
	}
	if g.r.Intn(3) == 0 {
		q.ServiceAccount = g.pick("ns1/ci", "ns2/ci", "default/default")
		return q
	}
	q.User = g.odd(32, genUsers, genOddUsers)
	q.Groups = g.some(2, append(genGroupsU, "system:masters")...)
	return q
}

// aimAt makes a question ask as one of an object's subjects, in its
// namespace, for what one of its rules names, more often than chance.
func (g gen) aimAt(q *hQuestion, raw json.RawMessage) {
	var o struct {
		Metadata struct{ Namespace string }
		Subjects []struct{ Kind, Name, Namespace string }
		Rules    []struct{ Verbs, APIGroups, Resources []string }
	}
	if json.Unmarshal(raw, &o) != nil {
		return
	}
	if o.Metadata.Namespace != "" && g.r.Intn(4) > 0 {
		q.Namespace = o.Metadata.Namespace
	}
	if len(o.Subjects) > 0 {
		s := o.Subjects[g.r.Intn(len(o.Subjects))]
		switch s.Kind {
		case "User":
			q.User, q.ServiceAccount = s.Name, ""
		case "Group":
			q.User, q.ServiceAccount, q.Groups = "carol", "", []string{s.Name}
		case "ServiceAccount":
			ns := s.Namespace
			if ns == "" {
				ns = q.Namespace
			}
			if ns == "" {
				ns = "ns1"
			}
			q.User, q.Groups, q.ServiceAccount = "", nil, ns+"/"+s.Name
		}
	}
	if len(o.Rules) > 0 {
		r := o.Rules[g.r.Intn(len(o.Rules))]
		if len(r.Verbs) > 0 && r.Verbs[0] != "*" {
			q.Verb = r.Verbs[0]
		}
		if len(r.APIGroups) > 0 && r.APIGroups[0] != "*" {
			q.APIGroup = r.APIGroups[0]
		}
		if len(r.Resources) > 0 && r.Resources[0] != "*" {
			res, sub, _ := strings.Cut(r.Resources[0], "/")
			q.Resource, q.Subresource = res, sub
			if res == "*" {
				q.Resource = "pods"
			}
			if sub == "*" {
				q.Subresource = "status"
			}
		}
	}
}

// genScalars are plain scalars kubectl's YAML reader (YAML 1.1, then
// JSON) and yaml.v3 (YAML 1.2) may read differently.
var genScalars = []string{"alice", "y", "n", "yes", "No", "on", "OFF", "true", "True", "1", "012", "08", "0x1F", "1_000", "0o17", "0b11", "+1", "1e3", ".5", "1.", ".inf", "2001-12-14", "2001-12-14T21:59:43Z", "null", "~", "''", "'on'", "\"1\"", "1:20", "=", "a b"}

// genYAML is a binding written as YAML with a scalar in one of its
// places, a key now and then written twice, an unknown field, an alias.
func (g gen) genYAML() string {
	name, ns, user, verb := "b1", g.pick(genNS...), g.pick(genUsers...), "create"
	switch g.r.Intn(5) {
	case 0:
		name = g.pick(genScalars...)
	case 1:
		ns = g.pick(genScalars...)
	case 2:
		user = g.pick(genScalars...)
	case 3:
		verb = g.pick(genScalars...)
	}
	extra := ""
	switch g.r.Intn(6) {
	case 0:
		extra = "  verbs: [get]\n"
	case 1:
		extra = "  resourceNames: [x]\n"
	case 2:
		extra = "  rule: []\n"
	}
	kind := g.pick("Role", "ClusterRole")
	role := fmt.Sprintf("apiVersion: rbac.authorization.k8s.io/v1\nkind: %s\nmetadata:\n  name: y%s\n  namespace: %s\nrules:\n- verbs: [%s]\n  apiGroups: ['']\n  resources: &r [pods]\n%s", kind, name, ns, verb, extra)
	if g.r.Intn(2) == 0 {
		return role
	}
	subjects := fmt.Sprintf("[{kind: User, name: %s}]", user)
	if g.r.Intn(4) == 0 {
		subjects = fmt.Sprintf("\n- kind: User\n  name: %s\n  name: bob", user)
	}
	return fmt.Sprintf("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: %s, namespace: %s}\nroleRef: {kind: ClusterRole, name: edit}\nsubjects: %s\n", name, ns, subjects)
}
