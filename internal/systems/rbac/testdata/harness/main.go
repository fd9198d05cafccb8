// Command harness answers RBAC questions with Kubernetes' own code: the
// API server's defaulting and validation of rbac.authorization.k8s.io/v1
// objects, the ClusterRole aggregation controller, the authenticator's
// groups and the RBAC authorizer, all from k8s.io/kubernetes v1.37.2.
//
// It reads one case per line on standard input:
//
//	{"objects":[...rbac/v1 objects...],"questions":[{"user":"alice","groups":["g"],"serviceAccount":"ns/name","verb":"create","apiGroup":"","resource":"pods","subresource":"","namespace":"ns","name":""}]}
//
// and writes one line per case: the objects the API server refuses (by
// index, with its errors) and each question's answer.
//
// It is built outside the repository (see build.sh); nothing of it is
// linked into aclint.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"time"

	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation/field"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/apiserver/pkg/authentication/serviceaccount"
	"k8s.io/apiserver/pkg/authentication/user"
	"k8s.io/apiserver/pkg/authorization/authorizer"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/kubernetes/pkg/apis/rbac"
	rbacinstall "k8s.io/kubernetes/pkg/apis/rbac/install"
	rbacvalidation "k8s.io/kubernetes/pkg/apis/rbac/validation"
	"k8s.io/kubernetes/pkg/controller/clusterroleaggregation"
	rbacregistryvalidation "k8s.io/kubernetes/pkg/registry/rbac/validation"
	rbacauthorizer "k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac"
	"k8s.io/kubernetes/plugin/pkg/auth/authorizer/rbac/bootstrappolicy"
)

type question struct {
	User           string   `json:"user"`
	Groups         []string `json:"groups"`
	ServiceAccount string   `json:"serviceAccount"`
	Verb           string   `json:"verb"`
	APIGroup       string   `json:"apiGroup"`
	Resource       string   `json:"resource"`
	Subresource    string   `json:"subresource"`
	Namespace      string   `json:"namespace"`
	Name           string   `json:"name"`
}

type inCase struct {
	// Bootstrap puts the bootstrap policy (as -bootstrap writes it) in
	// the cluster before the objects.
	Bootstrap bool              `json:"bootstrap"`
	Objects   []json.RawMessage `json:"objects"`
	// YAML are objects written as YAML, each read as kubectl apply reads
	// a manifest (sigs.k8s.io/yaml, YAML 1.1) and decoded as the API
	// server does under kubectl's default field validation, Strict; their
	// indexes follow the objects'.
	YAML      []string   `json:"yaml"`
	Questions []question `json:"questions"`
}

type refusal struct {
	Index  int      `json:"index"`
	Errors []string `json:"errors"`
}

type outCase struct {
	Refused []refusal `json:"refused"`
	Answers []bool    `json:"answers"`
	// Aggregated is each aggregated ClusterRole's rules after the
	// controller has run, by name.
	Aggregated map[string][]rbacv1.PolicyRule `json:"aggregated,omitempty"`
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-bootstrap" {
		os.Stdout.Write(bootstrapList())
		return
	}
	scheme := runtime.NewScheme()
	rbacinstall.Install(scheme)
	codecs := serializer.NewCodecFactory(scheme)
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		var c inCase
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			fmt.Fprintln(os.Stderr, "harness:", err)
			os.Exit(2)
		}
		res := answer(scheme, codecs, c)
		b, _ := json.Marshal(res)
		out.Write(append(b, '\n'))
	}
}

type store struct {
	roles               []*rbacv1.Role
	roleBindings        []*rbacv1.RoleBinding
	clusterRoles        []*rbacv1.ClusterRole
	clusterRoleBindings []*rbacv1.ClusterRoleBinding
}

// admit decodes one object as the API server does (defaults, then the
// internal version's validation) and keeps it when it is not refused.
func (s *store) admit(scheme *runtime.Scheme, codecs serializer.CodecFactory, raw []byte) []string {
	internal, _, err := codecs.UniversalDecoder(rbac.SchemeGroupVersion).Decode(raw, nil, nil)
	if err != nil {
		return []string{err.Error()}
	}
	var errs []string
	add := func(l field.ErrorList) {
		for _, e := range l {
			errs = append(errs, e.Error())
		}
	}
	switch o := internal.(type) {
	case *rbac.Role:
		add(rbacvalidation.ValidateRole(o))
	case *rbac.ClusterRole:
		o.Namespace = ""
		add(rbacvalidation.ValidateClusterRole(o, rbacvalidation.ClusterRoleValidationOptions{}))
	case *rbac.RoleBinding:
		add(rbacvalidation.ValidateRoleBinding(o))
	case *rbac.ClusterRoleBinding:
		o.Namespace = ""
		add(rbacvalidation.ValidateClusterRoleBinding(o))
	default:
		return []string{fmt.Sprintf("not an RBAC object: %T", internal)}
	}
	if len(errs) > 0 {
		return errs
	}
	// an object applied again replaces the one of its name
	switch o := internal.(type) {
	case *rbac.Role:
		v := &rbacv1.Role{}
		must(scheme.Convert(o, v, nil))
		s.roles = replace(s.roles, v)
	case *rbac.ClusterRole:
		v := &rbacv1.ClusterRole{}
		must(scheme.Convert(o, v, nil))
		s.clusterRoles = replace(s.clusterRoles, v)
	case *rbac.RoleBinding:
		v := &rbacv1.RoleBinding{}
		must(scheme.Convert(o, v, nil))
		s.roleBindings = replace(s.roleBindings, v)
	case *rbac.ClusterRoleBinding:
		v := &rbacv1.ClusterRoleBinding{}
		must(scheme.Convert(o, v, nil))
		s.clusterRoleBindings = replace(s.clusterRoleBindings, v)
	}
	return nil
}

// replace puts o in l, in place of the object of its namespace and name.
func replace[T metav1.Object](l []T, o T) []T {
	for i, x := range l {
		if x.GetNamespace() == o.GetNamespace() && x.GetName() == o.GetName() {
			l[i] = o
			return l
		}
	}
	return append(l, o)
}

// admitYAML reads a YAML manifest as kubectl does (to JSON through
// sigs.k8s.io/yaml) and decodes it strictly (unknown and repeated fields
// refused), as the API server does for kubectl apply, then admits it.
func (s *store) admitYAML(scheme *runtime.Scheme, codecs serializer.CodecFactory, doc []byte) []string {
	js, err := utilyaml.ToJSON(doc)
	if err != nil {
		return []string{err.Error()}
	}
	strict := serializer.NewCodecFactory(scheme, serializer.EnableStrict)
	if _, _, err := strict.UniversalDecoder(rbac.SchemeGroupVersion).Decode(js, nil, nil); err != nil {
		return []string{err.Error()}
	}
	return s.admit(scheme, codecs, js)
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func answer(scheme *runtime.Scheme, codecs serializer.CodecFactory, c inCase) outCase {
	var s store
	res := outCase{Refused: []refusal{}, Answers: []bool{}}
	if c.Bootstrap {
		for _, raw := range bootstrapItems() {
			if errs := s.admit(scheme, codecs, raw); errs != nil {
				panic(fmt.Sprint("the bootstrap policy refused: ", errs))
			}
		}
	}
	for i, raw := range c.Objects {
		if errs := s.admit(scheme, codecs, raw); errs != nil {
			res.Refused = append(res.Refused, refusal{i, errs})
		}
	}
	for i, doc := range c.YAML {
		if errs := s.admitYAML(scheme, codecs, []byte(doc)); errs != nil {
			res.Refused = append(res.Refused, refusal{len(c.Objects) + i, errs})
		}
	}
	res.Aggregated = s.aggregate()
	_, static := rbacregistryvalidation.NewTestRuleResolver(s.roles, s.roleBindings, s.clusterRoles, s.clusterRoleBindings)
	authz := rbacauthorizer.New(static, static, static, static)
	for _, q := range c.Questions {
		d, _, _ := authz.Authorize(context.Background(), attributes(q))
		res.Answers = append(res.Answers, d == authorizer.DecisionAllow)
	}
	return res
}

// attributes is the request as the API server's authenticators give it:
// a service account's user and groups, system:authenticated added.
func attributes(q question) authorizer.AttributesRecord {
	var u user.Info = &user.DefaultInfo{Name: q.User, Groups: q.Groups}
	if q.ServiceAccount != "" {
		u = serviceaccount.UserInfo(splitSA(q.ServiceAccount))
	}
	groups := append([]string{}, u.GetGroups()...)
	authenticated := false
	for _, g := range groups {
		authenticated = authenticated || g == user.AllAuthenticated
	}
	if !authenticated {
		groups = append(groups, user.AllAuthenticated)
	}
	return authorizer.AttributesRecord{
		User:            &user.DefaultInfo{Name: u.GetName(), Groups: groups},
		Verb:            q.Verb,
		Namespace:       q.Namespace,
		APIGroup:        q.APIGroup,
		Resource:        q.Resource,
		Subresource:     q.Subresource,
		Name:            q.Name,
		ResourceRequest: true,
	}
}

func splitSA(s string) (string, string, string) {
	for i := range s {
		if s[i] == '/' {
			return s[:i], s[i+1:], ""
		}
	}
	return "", s, ""
}

// aggregate runs Kubernetes' ClusterRole aggregation controller over the
// ClusterRoles until their rules settle, and returns the aggregated ones.
func (s *store) aggregate() map[string][]rbacv1.PolicyRule {
	any := false
	for _, r := range s.clusterRoles {
		any = any || r.AggregationRule != nil
	}
	if !any {
		return nil
	}
	client := fake.NewClientset()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, r := range s.clusterRoles {
		_, err := client.RbacV1().ClusterRoles().Create(ctx, r.DeepCopy(), metav1.CreateOptions{})
		must(err)
	}
	factory := informers.NewSharedInformerFactory(client, 0)
	ctrl := clusterroleaggregation.NewClusterRoleAggregation(factory.Rbac().V1().ClusterRoles(), client.RbacV1())
	factory.Start(ctx.Done())
	go ctrl.Run(ctx, 1)
	var last []rbacv1.ClusterRole
	stable := 0
	for stable < 20 {
		time.Sleep(10 * time.Millisecond)
		l, err := client.RbacV1().ClusterRoles().List(ctx, metav1.ListOptions{})
		must(err)
		if equality.Semantic.DeepEqual(l.Items, last) {
			stable++
		} else {
			stable = 0
			last = l.Items
		}
	}
	out := map[string][]rbacv1.PolicyRule{}
	byName := map[string]*rbacv1.ClusterRole{}
	for i := range last {
		byName[last[i].Name] = &last[i]
	}
	for i, r := range s.clusterRoles {
		got := byName[r.Name]
		if got == nil {
			continue
		}
		s.clusterRoles[i] = got
		if r.AggregationRule != nil {
			rules := got.Rules
			if rules == nil {
				rules = []rbacv1.PolicyRule{}
			}
			out[r.Name] = rules
		}
	}
	sort.Slice(s.clusterRoles, func(i, j int) bool { return s.clusterRoles[i].Name < s.clusterRoles[j].Name })
	return out
}

// bootstrapItems are the bootstrap policy's objects, as -bootstrap
// writes them.
func bootstrapItems() []json.RawMessage {
	var l struct{ Items []json.RawMessage }
	must(json.Unmarshal(bootstrapList(), &l))
	return l.Items
}

// bootstrapList is the roles and bindings the API server reconciles at
// every start (pkg/registry/rbac/rest's post-start hook), as rbac/v1
// objects, one list.
func bootstrapList() []byte {
	var items []any
	add := func(kind string, o any) {
		b, _ := json.Marshal(o)
		var m map[string]any
		must(json.Unmarshal(b, &m))
		m["apiVersion"], m["kind"] = "rbac.authorization.k8s.io/v1", kind
		items = append(items, m)
	}
	for _, r := range append(bootstrappolicy.ClusterRoles(), bootstrappolicy.ControllerRoles()...) {
		add("ClusterRole", r)
	}
	for _, b := range append(bootstrappolicy.ClusterRoleBindings(), bootstrappolicy.ControllerRoleBindings()...) {
		add("ClusterRoleBinding", b)
	}
	nss := func(m map[string][]rbacv1.Role) []string {
		var l []string
		for k := range m {
			l = append(l, k)
		}
		sort.Strings(l)
		return l
	}
	for _, ns := range nss(bootstrappolicy.NamespaceRoles()) {
		for _, r := range bootstrappolicy.NamespaceRoles()[ns] {
			add("Role", r)
		}
	}
	rbs := bootstrappolicy.NamespaceRoleBindings()
	var bns []string
	for k := range rbs {
		bns = append(bns, k)
	}
	sort.Strings(bns)
	for _, ns := range bns {
		for _, b := range rbs[ns] {
			add("RoleBinding", b)
		}
	}
	out, _ := json.MarshalIndent(map[string]any{"apiVersion": "v1", "kind": "List", "items": items}, "", " ")
	return append(out, '\n')
}
