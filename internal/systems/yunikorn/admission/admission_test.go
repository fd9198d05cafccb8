package admission

import (
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

func settings(kv ...string) Settings {
	m := map[string]config.Setting{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = config.Setting{Value: kv[i+1]}
	}
	return Read(m)
}

// Defaults, and the fallbacks of the admission controller's parsers.
func TestRead(t *testing.T) {
	s := settings()
	if s.BypassAuth || !s.TrustControllers || len(s.SystemUsers.Patterns) != 1 || len(s.BypassNamespaces.Patterns) != 1 || len(s.ProcessNamespaces.Patterns) != 0 {
		t.Fatalf("defaults: %+v", s)
	}
	s = settings(KeyBypassAuth, "yes", KeyBypassNamespaces, "^a$, ,(b", KeyExternalUsers, " ^x$ ,^y$")
	if s.BypassAuth || len(s.BoolProblems) != 1 {
		t.Errorf("a non-boolean is the default, and said: %+v", s)
	}
	if s.BypassNamespaces.Invalid == "" || s.BypassNamespaces.Patterns[0].Text != "^kube-system$" {
		t.Errorf("one bad pattern puts back the whole default: %+v", s.BypassNamespaces)
	}
	if len(s.ExternalUsers.Patterns) != 2 || s.ExternalUsers.Patterns[0].Text != "^x$" {
		t.Errorf("patterns are trimmed: %+v", s.ExternalUsers.Patterns)
	}
}

func TestProcesses(t *testing.T) {
	s := settings(KeyProcessNamespaces, "^team-", KeyBypassNamespaces, "^team-secret$")
	for ns, want := range map[string]bool{"team-a": true, "team-secret": false, "other": false} {
		if got, _ := s.Processes(ns, nil); got != want {
			t.Errorf("%s: %v, want %v", ns, got, want)
		}
	}
	if ok, _ := s.Processes("other", map[string]string{AnnotationEnable: "true"}); !ok {
		t.Error("the namespace annotation overrides the lists")
	}
}

// Admit on the cases the vectors do not reach: no submitter, workloads,
// the trust gap of a pod that names YuniKorn in a namespace the controller
// leaves alone.
func TestAdmit(t *testing.T) {
	def := Read(nil)
	pod := Pod{Namespace: "team-a"}
	if g := def.Admit(pod, nil); g.Unknown == "" || !strings.Contains(g.Unknown, "--submitter") {
		t.Errorf("no user.info, no submitter: %+v", g)
	}
	if g := def.Admit(pod, &Submitter{User: "alice"}); g.Unknown != "" || g.Identity.User != "alice" {
		t.Errorf("submitter alice: %+v", g)
	}
	if g := def.Admit(Pod{Namespace: "kube-system"}, &Submitter{User: "alice"}); g.Bypass == "" {
		t.Errorf("kube-system reaches YuniKorn: %+v", g)
	}
	// names YuniKorn itself in kube-system: YuniKorn's, as nobody
	g := def.Admit(Pod{Namespace: "kube-system", SchedulerName: "yunikorn"}, nil)
	if g.Bypass != "" || g.Unknown != "" || g.Identity.User != "nobody" || !strings.Contains(g.Gap, "names schedulerName: yunikorn itself") {
		t.Errorf("kube-system pod naming yunikorn: %+v", g)
	}
	// refused for the submitter before the annotation's JSON is looked at
	g = def.Admit(Pod{Namespace: "team-a", Annotations: map[string]string{AnnotationUserInfo: "{"}}, &Submitter{User: "bob", Groups: []string{"a", "b"}})
	if g.Rejected != "user bob with groups [a,b] is not allowed to set user annotation" {
		t.Errorf("order: %+v", g)
	}
	// a pod's own annotation without a submitter: kept or refused, by who
	// the submitter is; unless an externalUsers pattern lets anyone set it
	signed := Pod{Namespace: "team-a", Annotations: map[string]string{AnnotationUserInfo: `{"user":"carol"}`}}
	if g := def.Admit(signed, nil); g.Unknown == "" || g.Identity.User != "" {
		t.Errorf("annotation, no submitter: %+v", g)
	}
	open := Read(map[string]config.Setting{KeyExternalUsers: {Value: ".*"}})
	if g := open.Admit(signed, nil); g.Unknown != "" || g.Identity.User != "carol" {
		t.Errorf("anyone may set it: %+v", g)
	}
	bypass := Read(map[string]config.Setting{KeyBypassAuth: {Value: "true"}})
	if g := bypass.Admit(pod, nil); g.Unknown != "" || g.Identity.User != "nobody" {
		t.Errorf("bypassAuth: %+v", g)
	}
	// a Deployment in a bypassed namespace whose template names yunikorn:
	// the template's annotation is never checked
	dep := Pod{Namespace: "kube-system", Workload: "Deployment", SchedulerName: "yunikorn", Annotations: map[string]string{AnnotationUserInfo: `{"user":"root"}`}}
	if g := def.Admit(dep, &Submitter{User: "mallory"}); g.Rejected != "" || g.Identity.User != "root" || g.Gap == "" {
		t.Errorf("unchecked template: %+v", g)
	}
	// the same Deployment in a processed namespace is refused for mallory
	dep.Namespace = "team-a"
	if g := def.Admit(dep, &Submitter{User: "mallory"}); !strings.Contains(g.Rejected, "not allowed") {
		t.Errorf("checked template: %+v", g)
	}
	// with trustControllers false, the controller may not set what the
	// admission controller wrote into the template: the pods are refused
	strict := Read(map[string]config.Setting{KeyTrustControllers: {Value: "false"}})
	g = strict.Admit(Pod{Namespace: "team-a", Workload: "Job"}, &Submitter{User: "alice"})
	if !strings.Contains(g.Rejected, "system:serviceaccount:kube-system:job-controller") || !strings.Contains(g.Why, "its pods are not") {
		t.Errorf("workload under trustControllers false: %+v", g)
	}
	// a namespace whose workloads are not labelled: the pods carry the
	// controller's own identity
	nolabel := Read(map[string]config.Setting{KeyNoLabelNamespaces: {Value: "^team-a$"}})
	if g := nolabel.Admit(Pod{Namespace: "team-a", Workload: "Job"}, &Submitter{User: "alice"}); g.Identity.User != "system:serviceaccount:kube-system:job-controller" {
		t.Errorf("unlabelled namespace: %+v", g)
	}
	// without the admission controller the pod must name YuniKorn
	if g := Without(Pod{}); g.Bypass == "" {
		t.Errorf("without, no scheduler name: %+v", g)
	}
}

func TestShimIdentity(t *testing.T) {
	for ann, want := range map[string]string{"": "nobody", "{": "nobody", `{"user":""}`: "nobody", `{"user":"a"}`: "a", "null": "nobody"} {
		if u, _, _ := ShimIdentity(map[string]string{AnnotationUserInfo: ann}); u != want {
			t.Errorf("%q: %s, want %s", ann, u, want)
		}
	}
	if _, g, _ := ShimIdentity(map[string]string{AnnotationUserInfo: `{"groups":["x"]}`}); len(g) != 1 {
		t.Error("an empty user keeps the groups")
	}
}
