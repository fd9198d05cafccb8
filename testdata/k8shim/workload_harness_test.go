package admission

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	authv1 "k8s.io/api/authentication/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/apache/yunikorn-k8shim/pkg/admission/common"
	"github.com/apache/yunikorn-k8shim/pkg/admission/conf"
)

type wlCase struct {
	ID         string            `json:"id"`
	Data       map[string]string `json:"data"`
	Namespace  string            `json:"namespace"`
	Kind       string            `json:"kind"`
	Submitter  string            `json:"submitter"`
	Groups     []string          `json:"submitterGroups"`
	Annotation *string           `json:"annotation"`
	Labels     map[string]string `json:"labels"`
	NamesYK    bool              `json:"podNamesScheduler"`
}

var gv = map[string][2]string{"Deployment": {"apps", "v1"}, "ReplicaSet": {"apps", "v1"}, "CronJob": {"batch", "v1"}, "Job": {"batch", "v1"}, "StatefulSet": {"apps", "v1"}, "DaemonSet": {"apps", "v1"}, "Pod": {"", "v1"}}

// the template's place in each kind
func templatePath(kind string) []string {
	switch kind {
	case "CronJob":
		return []string{"spec", "jobTemplate", "spec", "template"}
	case "Pod":
		return nil
	}
	return []string{"spec", "template"}
}

func at(m map[string]any, path []string) map[string]any {
	for _, p := range path {
		n, ok := m[p].(map[string]any)
		if !ok {
			n = map[string]any{}
			m[p] = n
		}
		m = n
	}
	return m
}

// HARNESS_IN=cases.jsonl HARNESS_OUT=out.jsonl go test -run TestWorkloadHarness ./pkg/admission
// Each object Kubernetes creates is a request mutate answers, in order, each made from the template as
// the one before left it (its patch applied): the workload by the submitter, a Deployment's ReplicaSet by the
// deployment-controller, a CronJob's Job by the cronjob-controller, then a pod by the pods' controller.
func TestWorkloadHarness(t *testing.T) {
	in, out := os.Getenv("HARNESS_IN"), os.Getenv("HARNESS_OUT")
	if in == "" {
		t.Skip("no HARNESS_IN")
	}
	f, _ := os.Open(in)
	w, _ := os.Create(out)
	defer w.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var c wlCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		acc := conf.NewAdmissionControllerConf([]*v1.ConfigMap{nil, {Data: c.Data}})
		ns, _ := NewNamespaceCache(nil)
		pc, _ := NewPriorityClassCache(nil)
		ac := InitAdmissionController(acc, pc, ns)
		tmplAnn := map[string]any{}
		if c.Annotation != nil {
			tmplAnn[common.UserInfoAnnotation] = *c.Annotation
		}
		labels := map[string]any{}
		for k, v := range c.Labels {
			labels[k] = v
		}
		podSpec := map[string]any{"containers": []any{map[string]any{"name": "c", "image": "busybox"}}}
		if c.NamesYK {
			podSpec["schedulerName"] = "yunikorn"
		}
		sa := func(n string) (string, []string) {
			return "system:serviceaccount:kube-system:" + n, []string{"system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"}
		}
		steps := []struct {
			kind, user string
			groups     []string
		}{{c.Kind, c.Submitter, c.Groups}}
		switch c.Kind {
		case "Deployment":
			u, g := sa("deployment-controller")
			steps = append(steps, struct {
				kind, user string
				groups     []string
			}{"ReplicaSet", u, g})
			u, g = sa("replicaset-controller")
			steps = append(steps, struct {
				kind, user string
				groups     []string
			}{"Pod", u, g})
		case "CronJob":
			u, g := sa("cronjob-controller")
			steps = append(steps, struct {
				kind, user string
				groups     []string
			}{"Job", u, g})
			u, g = sa("job-controller")
			steps = append(steps, struct {
				kind, user string
				groups     []string
			}{"Pod", u, g})
		case "Job":
			u, g := sa("job-controller")
			steps = append(steps, struct {
				kind, user string
				groups     []string
			}{"Pod", u, g})
		case "ReplicaSet":
			u, g := sa("replicaset-controller")
			steps = append(steps, struct {
				kind, user string
				groups     []string
			}{"Pod", u, g})
		case "StatefulSet":
			u, g := sa("statefulset-controller")
			steps = append(steps, struct {
				kind, user string
				groups     []string
			}{"Pod", u, g})
		case "DaemonSet":
			u, g := sa("daemon-set-controller")
			steps = append(steps, struct {
				kind, user string
				groups     []string
			}{"Pod", u, g})
		}
		res := map[string]any{"id": c.ID, "refusedAt": ""}
		sched := c.NamesYK
		for _, st := range steps {
			obj := map[string]any{"apiVersion": strings.TrimPrefix(gv[st.kind][0]+"/"+gv[st.kind][1], "/"), "kind": st.kind,
				"metadata": map[string]any{"name": "o", "namespace": c.Namespace}}
			tmpl := at(obj, templatePath(st.kind))
			md := at(tmpl, []string{"metadata"})
			md["annotations"], md["labels"] = tmplAnn, labels
			if st.kind == "Pod" {
				md["name"], md["namespace"] = "p", c.Namespace
				obj["spec"] = podSpec
			} else {
				tmpl["spec"] = podSpec
			}
			raw, _ := json.Marshal(obj)
			req := &admissionv1.AdmissionRequest{UID: "u", Kind: metav1.GroupVersionKind{Group: gv[st.kind][0], Version: gv[st.kind][1], Kind: st.kind}, Namespace: c.Namespace,
				Operation: admissionv1.Create, UserInfo: authv1.UserInfo{Username: st.user, Groups: st.groups}, Object: runtime.RawExtension{Raw: raw}}
			resp := ac.mutate(req)
			if !resp.Allowed {
				res["refusedAt"] = st.kind
				if resp.Result != nil {
					res["message"] = resp.Result.Message
				}
				break
			}
			var ops []common.PatchOperation
			_ = json.Unmarshal(resp.Patch, &ops)
			for _, op := range ops {
				if strings.HasSuffix(op.Path, "/annotations") {
					if m, ok := op.Value.(map[string]interface{}); ok {
						tmplAnn = map[string]any{}
						for k, v := range m {
							tmplAnn[k] = v
						}
					}
				}
				if strings.HasSuffix(op.Path, "/labels") {
					if m, ok := op.Value.(map[string]interface{}); ok {
						labels = map[string]any{}
						for k, v := range m {
							labels[k] = v
						}
					}
				}
				if op.Path == "/spec/schedulerName" {
					sched = true
				}
			}
		}
		if res["refusedAt"] == "" {
			if s, ok := tmplAnn[common.UserInfoAnnotation].(string); ok {
				res["userInfo"] = s
			} else {
				res["userInfo"] = nil
			}
			res["schedulerYunikorn"] = sched
		}
		b, _ := json.Marshal(res)
		fmt.Fprintln(w, string(b))
	}
}
