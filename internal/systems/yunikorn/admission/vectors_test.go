package admission

import (
	"bufio"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// vector is one pod CREATE as yunikorn-k8shim's AdmissionController.mutate
// answered it (testdata/k8shim/README.md says how they were made).
type vector struct {
	ID          string            `json:"id"`
	Data        map[string]string `json:"data"`
	Namespace   string            `json:"namespace"`
	Submitter   string            `json:"submitter"`
	Groups      []string          `json:"submitterGroups"`
	Annotation  *string           `json:"annotation"`
	NamesYK     bool              `json:"podNamesScheduler"`
	NsAnn       map[string]string `json:"namespaceAnnotations"`
	Labels      map[string]string `json:"labels"`
	Allowed     bool              `json:"allowed"`
	Message     string            `json:"message"`
	UserInfo    *string           `json:"userInfo"`
	SchedulerYK bool              `json:"schedulerYunikorn"`
}

// TestAdmissionVectors holds Admit to the admission controller's own
// answers: refused or not with its message, whether the pod ends up
// YuniKorn's, and the identity the shim then reads.
func TestAdmissionVectors(t *testing.T) {
	f, err := os.Open("../../../../testdata/k8shim/admission.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n, bad := 0, 0
	for sc.Scan() {
		var v vector
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		n++
		data := map[string]config.Setting{}
		for k, val := range v.Data {
			data[k] = config.Setting{Value: val}
		}
		p := Pod{Namespace: v.Namespace, NamespaceAnnotations: v.NsAnn, Labels: v.Labels, Annotations: map[string]string{}}
		if v.Annotation != nil {
			p.Annotations[AnnotationUserInfo] = *v.Annotation
		}
		if v.NamesYK {
			p.SchedulerName = SchedulerName
		}
		g := Read(data).Admit(p, &Submitter{User: v.Submitter, Groups: v.Groups})
		got, want := gateAnswer(g), controllerAnswer(!v.Allowed, v.Message, v.SchedulerYK, v.UserInfo)
		if g.Unknown != "" || !reflect.DeepEqual(got, want) {
			if bad++; bad <= 10 {
				t.Errorf("case %s: got %+v (unknown %q), the admission controller %+v\n%s", v.ID, got, g.Unknown, want, sc.Text())
			}
		}
	}
	if n < 3000 {
		t.Fatalf("only %d vectors", n)
	}
	if bad > 0 {
		t.Errorf("%d of %d vectors differ", bad, n)
	}
}

// answer is what a vector holds one admission to: refused with the
// controller's message, or whether the pod is YuniKorn's and with which
// identity the shim reads it.
type answer struct {
	Refused bool
	Message string
	YK      bool
	User    string
	Groups  []string
}

// gateAnswer is aclint's answer.
func gateAnswer(g Gate) answer {
	a := answer{Refused: g.Rejected != "", Message: g.Rejected, YK: g.Rejected == "" && g.Bypass == ""}
	if a.YK {
		a.User, a.Groups = g.Identity.User, g.Identity.Groups
	}
	return a
}

// controllerAnswer is the admission controller's, the pod's user.info read
// as the shim reads it.
func controllerAnswer(refused bool, message string, schedulerYK bool, userInfo *string) answer {
	a := answer{Refused: refused, Message: message, YK: !refused && schedulerYK}
	if a.YK {
		ann := map[string]string{}
		if userInfo != nil {
			ann[AnnotationUserInfo] = *userInfo
		}
		a.User, a.Groups, _ = ShimIdentity(ann)
	}
	return a
}
