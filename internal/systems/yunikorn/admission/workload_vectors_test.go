package admission

import (
	"bufio"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// workloadVector is one workload created by a user, with what
// yunikorn-k8shim's own mutate answered for each object Kubernetes then
// creates, in order (the workload, a Deployment's ReplicaSet or a
// CronJob's Job, a pod), each made from the template as the one before
// left it (testdata/k8shim/README.md).
type workloadVector struct {
	ID          string            `json:"id"`
	Data        map[string]string `json:"data"`
	Namespace   string            `json:"namespace"`
	Kind        string            `json:"kind"`
	Submitter   string            `json:"submitter"`
	Groups      []string          `json:"submitterGroups"`
	Annotation  *string           `json:"annotation"`
	Labels      map[string]string `json:"labels"`
	NamesYK     bool              `json:"podNamesScheduler"`
	RefusedAt   string            `json:"refusedAt"`
	Message     string            `json:"message"`
	UserInfo    *string           `json:"userInfo"`
	SchedulerYK bool              `json:"schedulerYunikorn"`
}

// TestWorkloadVectors holds Admit on a workload to the admission
// controller's answers along the chain: refused (at the workload, its
// ReplicaSet or Job, or its pods) with the controller's message, or the
// pods' identity as the shim reads it and whether they are YuniKorn's.
func TestWorkloadVectors(t *testing.T) {
	f, err := os.Open("../../../../testdata/k8shim/workloads.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n, bad, refused := 0, 0, map[string]int{}
	for sc.Scan() {
		var v workloadVector
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		n++
		refused[v.RefusedAt]++
		data := map[string]config.Setting{}
		for k, val := range v.Data {
			data[k] = config.Setting{Value: val}
		}
		p := Pod{Namespace: v.Namespace, Labels: v.Labels, Annotations: map[string]string{}, Workload: v.Kind}
		if v.Annotation != nil {
			p.Annotations[AnnotationUserInfo] = *v.Annotation
		}
		if v.NamesYK {
			p.SchedulerName = SchedulerName
		}
		g := Read(data).Admit(p, &Submitter{User: v.Submitter, Groups: v.Groups})
		got, want := gateAnswer(g), controllerAnswer(v.RefusedAt != "", v.Message, v.SchedulerYK, v.UserInfo)
		if g.Unknown != "" || !reflect.DeepEqual(got, want) {
			if bad++; bad <= 10 {
				t.Errorf("case %s (%s, refused at %q): got %+v (unknown %q), the admission controller %+v\n%s", v.ID, v.Kind, v.RefusedAt, got, g.Unknown, want, sc.Text())
			}
		}
	}
	t.Logf("%d workloads; refused at: %v", n, refused)
	if n < 1000 || refused["ReplicaSet"] == 0 || refused["Job"] == 0 {
		t.Fatalf("too few vectors, or none refused in the middle: %d, %v", n, refused)
	}
	if bad > 0 {
		t.Errorf("%d of %d vectors differ", bad, n)
	}
}
