package commands

// This file follows a subject through the gate in front of YuniKorn
// (Kubernetes RBAC, as an audit.Gate) to a queue: may it create a pod,
// or a workload whose controller makes them, in a namespace; what the
// admission controller makes of that pod; where placement puts it.

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/systems/yunikorn/admission"
	"github.com/aclint/aclint/internal/systems/yunikorn/placement"
)

// TakeGate composes the question's answers with a gate (audit.GateTaker):
// check, who-can and access follow a subject through it, diff through
// each side's (audit.DiffSides); the other commands refuse it rather than
// leave it out.
func (q *question) TakeGate(g audit.Gate) error {
	if q.cmd == nil || !slices.Contains([]string{"check", "who-can", "access", "diff"}, q.cmd.Name()) {
		return errors.New("this command does not follow a subject through " + g.Name())
	}
	q.gate = g
	return nil
}

// route is one way a subject's pod reaches the scheduler: the namespace
// it is created in, what allows it, whether it names the queue, the
// request the admission controller and the shim make of it, and where
// placement puts it.
type route struct {
	ns       audit.GateNamespace
	creation audit.Creation
	named    string // the queue its queue label names, "" for none
	pr       *placement.PodRequest
	res      *placement.Result
	// unknown: the gate cannot tell whether the subject may create it
	// (why); the route is what would happen if it may
	unknown string
}

// lands says the route puts the application in queue (lower case, as
// YuniKorn stores paths).
func (r route) lands(queue string) bool {
	return r.res != nil && r.res.Placed && r.res.Queue == strings.ToLower(queue)
}

// through is one config's path to its queues: the gate in front of it
// and the admission controller's settings (diff follows two of them).
type through struct {
	g        audit.Gate
	l        loaded
	settings admission.Settings
}

// through is the question's own path: its gate and config l.
func (q *question) through(l loaded) through { return throughOf(q.gate, l) }

func throughOf(g audit.Gate, l loaded) through {
	return through{g: g, l: l, settings: admission.Read(l.Config.Doc.Settings)}
}

// creation is what the gate says of the subject creating pods in ns.
type creation struct {
	ns audit.GateNamespace
	c  audit.Creation
}

// creations are the namespaces the gate lets the subject create pods in,
// or cannot tell whether it does (audit.Creation.Unknown).
func (t through) creations(sub audit.GateSubject) []creation {
	var out []creation
	for _, ns := range t.g.Namespaces() {
		if c := t.g.Creates(sub, ns.Name); c.Allowed || c.Unknown != "" {
			out = append(out, creation{ns, c})
		}
	}
	return out
}

// routes are the ways the subject's pods reach partition: in every
// namespace the gate knows where it may create them, a pod naming no
// queue and, when queue is given, one whose label names it. Where the
// gate cannot tell whether it may, the routes it would have are kept,
// each kind that makes pods, with why it is not known (route.unknown), so
// that only one that would matter makes the answer not known. A
// namespace whose annotations no file gives is a route without a pod
// (pr nil): where it leads is not known.
func (t through) routes(partition string, sub audit.GateSubject, cs []creation, queue string) ([]route, error) {
	var out []route
	for _, nc := range cs {
		ns, c := nc.ns, nc.c
		if !ns.Declared {
			why := fmt.Sprintf("%s may create pods in namespace %s, which no file holds a Namespace object of: its annotations and labels, which the admission controller and placement read, are not known (give its Namespace manifest with -f)", sub.User, ns.Name)
			if !c.Allowed {
				why = c.Unknown
			}
			out = append(out, route{ns: ns, creation: c, unknown: why})
			continue
		}
		kinds := []audit.Creation{c}
		if !c.Allowed {
			kinds = nil
			for _, w := range podMakers {
				kinds = append(kinds, audit.Creation{Kind: "what " + t.g.Name() + " may allow", Workload: w, By: c.Unknown, Unknown: c.Unknown})
			}
		}
		for _, k := range kinds {
			for _, named := range uniqueQueues(queue) {
				r, err := t.route(partition, ns, k, sub, named)
				if err != nil {
					return nil, err
				}
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// podMakers are the kinds whose creation puts pods in a namespace, as the
// admission controller names them ("" is a pod).
var podMakers = []string{"", "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job", "CronJob"}

// route is the subject's probe pod in ns, through the admission
// controller and placement.
func (t through) route(partition string, ns audit.GateNamespace, c audit.Creation, sub audit.GateSubject, named string) (route, error) {
	r := route{ns: ns, creation: c, named: named, unknown: c.Unknown}
	pr, err := probe(t.settings, ns, c, sub, named, false)
	if err != nil {
		return r, err
	}
	r.pr = pr
	if pr.Reaches() {
		app := pr.App
		app.Partition = partition
		r.res, err = t.l.Placer.Place(app)
	}
	return r, err
}

// probe is the request the admission controller and the shim make of
// the subject's probe pod in ns (a claiming one: see probeManifests).
func probe(settings admission.Settings, ns audit.GateNamespace, c audit.Creation, sub audit.GateSubject, queue string, claim bool) (*placement.PodRequest, error) {
	pod, nsDoc := probeManifests(ns, c.Workload, queue, claim)
	return placement.ReadPod(pod, nsDoc, settings, &admission.Submitter{User: sub.User, Groups: apiGroups(sub)}, false)
}

// claims says whether the subject, which may create pods in ns, may have
// them reach YuniKorn under any identity it writes (the admission
// controller lets it set user.info, or leaves the namespace's pods as
// they are, bypass, and they name the scheduler), and how.
func claims(settings admission.Settings, ns audit.GateNamespace, c audit.Creation, sub audit.GateSubject) (how string, bypass, ok bool, err error) {
	pr, err := probe(settings, ns, c, sub, "", true)
	if err != nil || !pr.Reaches() || pr.App.User != claimedUser {
		return "", false, false, err
	}
	if pr.Gate.Gap != "" {
		return pr.Gate.Gap, true, true, nil
	}
	return pr.Derivation.User, false, true, nil
}

// uniqueQueues are the queue labels a subject's pod is asked with: none,
// and the queue asked about.
func uniqueQueues(queue string) []string {
	if queue == "" {
		return []string{""}
	}
	return []string{"", queue}
}

// apiGroups are the groups the API server gives the subject's request,
// as the admission controller writes them into the pod: every
// authenticated request carries system:authenticated.
func apiGroups(sub audit.GateSubject) []string {
	add := []string{"system:authenticated"}
	if rest, ok := strings.CutPrefix(sub.User, "system:serviceaccount:"); ok {
		if ns, _, ok := strings.Cut(rest, ":"); ok {
			add = []string{"system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated"}
		}
	}
	out := append([]string{}, sub.Groups...)
	for _, g := range add {
		if !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	return out
}

// claimedUser is the identity a probe pod claims in its user.info
// annotation: a name no file writes.
const claimedUser = "aclint:claimed-identity"

// probeManifests are a pod (or the workload that makes it) created in ns
// with nothing of its own but the queue label, and ns's Namespace object,
// as the shim reads them. A claiming pod also names YuniKorn as its
// scheduler and claims claimedUser in its user.info annotation.
func probeManifests(ns audit.GateNamespace, workload, queue string, claim bool) (pod, namespace []byte) {
	labels := map[string]string{}
	if queue != "" {
		labels[placement.LabelQueue] = queue
	}
	meta := map[string]any{"name": "aclint-probe", "namespace": ns.Name}
	podSpec := map[string]any{"containers": []any{map[string]any{"name": "main", "image": "busybox"}}}
	podMeta := map[string]any{"labels": labels}
	if claim {
		podSpec["schedulerName"] = admission.SchedulerName
		podMeta["annotations"] = map[string]string{placement.AnnotationUserInfo: `{"user":"` + claimedUser + `"}`}
		if workload == "" {
			meta["annotations"] = podMeta["annotations"]
		}
	}
	template := map[string]any{"metadata": podMeta, "spec": podSpec}
	var m map[string]any
	switch workload {
	case "":
		meta["labels"] = labels
		m = map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": podSpec}
	case "Job":
		m = map[string]any{"apiVersion": "batch/v1", "kind": workload, "metadata": meta, "spec": map[string]any{"template": template}}
	case "CronJob":
		m = map[string]any{"apiVersion": "batch/v1", "kind": workload, "metadata": meta,
			"spec": map[string]any{"schedule": "* * * * *", "jobTemplate": map[string]any{"spec": map[string]any{"template": template}}}}
	default:
		m = map[string]any{"apiVersion": "apps/v1", "kind": workload, "metadata": meta, "spec": map[string]any{"template": template}}
	}
	pod, _ = json.Marshal(m)
	namespace, _ = json.Marshal(map[string]any{"apiVersion": "v1", "kind": "Namespace",
		"metadata": map[string]any{"name": ns.Name, "labels": ns.Labels, "annotations": ns.Annotations}})
	return pod, namespace
}

// describeRoute says a route in a line: the namespace, what allows it,
// the pod's identity and where it lands.
func describeRoute(r route) string {
	kind := r.creation.Kind
	what := "a pod"
	if r.creation.Workload != "" {
		what = "a " + r.creation.Workload + " (its controller makes the pods)"
	}
	asked := "naming no queue"
	if r.named != "" {
		asked = "labelled queue: " + r.named
	}
	s := fmt.Sprintf("namespace %s: creates %s %s (%s by %s)", r.ns.Name, what, asked, kind, r.creation.By)
	switch {
	case !r.pr.Reaches():
		g := gated(r.pr.Gate)
		return s + "; " + g.Said
	case r.res.Placed:
		return s + fmt.Sprintf("; the core sees user %s; placed in %s%s", r.pr.App.User, r.res.Queue, placedBy(r.res))
	}
	return s + fmt.Sprintf("; the core sees user %s; rejected: %s", r.pr.App.User, r.res.Reason)
}

// placedBy names the placement rule that placed the application.
func placedBy(res *placement.Result) string {
	for _, st := range res.Rules {
		if st.Result == "placed" {
			return fmt.Sprintf(" by rule %d (%s, %s)", st.Index, st.Rule, st.Pos)
		}
	}
	if res.Fallback != "" {
		return " (" + res.Fallback + ")"
	}
	return ""
}
