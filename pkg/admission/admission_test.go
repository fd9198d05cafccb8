package admission

import (
	"strings"
	"testing"

	"github.com/aclint/aclint/pkg/config"
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

func TestIdentity(t *testing.T) {
	pod := map[string]string{AnnotationUserInfo: `{"user": "alice", "groups": ["dev"]}`}
	s := settings(KeyExternalGroups, "^ci$")
	if id := s.Identity(pod, &Submitter{User: "system:serviceaccount:kube-system:job"}); id.Rejected != "" || id.User != "alice" {
		t.Errorf("a trusted controller may set it: %+v", id)
	}
	if id := s.Identity(pod, &Submitter{User: "bob", Groups: []string{"ci"}}); id.Rejected != "" {
		t.Errorf("an external group may set it: %+v", id)
	}
	if id := s.Identity(pod, &Submitter{User: "mallory"}); !strings.Contains(id.Rejected, "not allowed to set user annotation") {
		t.Errorf("others may not: %+v", id)
	}
	if id := settings(KeyTrustControllers, "false").Identity(pod, &Submitter{User: "system:serviceaccount:kube-system:job"}); id.Rejected == "" {
		t.Errorf("with trustControllers false controllers are like anyone: %+v", id)
	}
	if id := settings(KeyBypassAuth, "true").Identity(pod, &Submitter{User: "mallory"}); id.Rejected != "" || id.User != "alice" {
		t.Errorf("bypassAuth keeps any annotation: %+v", id)
	}
	if id := s.Identity(nil, &Submitter{User: "bob", Groups: []string{"dev"}}); id.User != "bob" || !id.Known {
		t.Errorf("no annotation: the submitter's identity is written: %+v", id)
	}
	if id := settings(KeyBypassAuth, "true").Identity(nil, &Submitter{User: "bob"}); id.User != "nobody" {
		t.Errorf("bypassAuth writes nothing: nobody: %+v", id)
	}
	if id := s.Identity(map[string]string{AnnotationUserInfo: "{"}, &Submitter{User: "system:serviceaccount:kube-system:x"}); id.Rejected == "" {
		t.Errorf("an annotation that is not JSON is refused: %+v", id)
	}
}

// Admit: a pod without user.info and no submitter has no answer; a
// submitter or bypassAuth gives one; a workload under trustControllers:
// false is noted; a bypassed namespace never reaches YuniKorn.
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
	strict := Read(map[string]config.Setting{KeyTrustControllers: {Value: "false"}})
	g := strict.Admit(Pod{Namespace: "team-a", Workload: "Deployment"}, &Submitter{User: "alice"})
	if len(g.Notes) == 0 || !strings.Contains(g.Notes[0], "trustControllers is false: the controller that creates the Deployment's pods") {
		t.Errorf("workload under trustControllers false: %+v", g)
	}
	bypass := Read(map[string]config.Setting{KeyBypassAuth: {Value: "true"}})
	if g := bypass.Admit(pod, nil); g.Unknown != "" || g.Identity.User != "nobody" {
		t.Errorf("bypassAuth: %+v", g)
	}
}
