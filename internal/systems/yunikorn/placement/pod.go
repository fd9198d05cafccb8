package placement

import (
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/internal/systems/yunikorn/admission"
)

// The Kubernetes shim's names (yunikorn-k8shim pkg/common/constants).
const (
	LabelQueue           = "queue"
	AnnotationQueue      = "yunikorn.apache.org/queue"
	LabelQueueCanonical  = "yunikorn.apache.org/queue"
	AnnotationUserInfo   = "yunikorn.apache.org/user.info"
	AnnotationParent     = "yunikorn.apache.org/parentqueue"
	AnnotationQuota      = "yunikorn.apache.org/namespace.quota"
	AnnotationGuaranteed = "yunikorn.apache.org/namespace.guaranteed"
	AnnotationMaxApps    = "yunikorn.apache.org/namespace.maxApps"
	AnnotationMaxCPU     = "yunikorn.apache.org/namespace.max.cpu"
	AnnotationMaxMemory  = "yunikorn.apache.org/namespace.max.memory"
	DefaultUser          = "nobody"
)

type meta struct {
	Name        string            `yaml:"name"`
	Namespace   string            `yaml:"namespace"`
	Labels      map[string]string `yaml:"labels"`
	Annotations map[string]string `yaml:"annotations"`
}

// podSpec is the part of a pod's spec the shim reads.
type podSpec struct {
	SchedulerName string `yaml:"schedulerName"`
}

// template is a workload's pod template.
type template struct {
	Metadata meta    `yaml:"metadata"`
	Spec     podSpec `yaml:"spec"`
}

type object struct {
	Kind     string `yaml:"kind"`
	Metadata meta   `yaml:"metadata"`
	Spec     struct {
		SchedulerName string       `yaml:"schedulerName"`
		Template      *template    `yaml:"template"`
		JobTemplate   *jobTemplate `yaml:"jobTemplate"`
	} `yaml:"spec"`
}

// jobTemplate is a CronJob's job template.
type jobTemplate struct {
	Spec struct {
		Template *template `yaml:"template"`
	} `yaml:"spec"`
}

// Workloads are the kinds whose pod template the YuniKorn admission
// controller annotates (processWorkload) and whose pods the shim then sees.
var Workloads = []string{"Job", "CronJob", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet"}

// podMeta is the metadata and scheduler name of the pods an object makes:
// a pod's own, or a workload's pod template's, in the workload's namespace.
func (o *object) podMeta() (meta, string, error) {
	switch o.Kind {
	case "Pod", "":
		return o.Metadata, o.Spec.SchedulerName, nil
	case "CronJob":
		if o.Spec.JobTemplate == nil || o.Spec.JobTemplate.Spec.Template == nil {
			return meta{}, "", fmt.Errorf("CronJob %s has no spec.jobTemplate.spec.template", o.Metadata.Name)
		}
		t := o.Spec.JobTemplate.Spec.Template
		m := t.Metadata
		m.Namespace = o.Metadata.Namespace
		return m, t.Spec.SchedulerName, nil
	}
	for _, k := range Workloads {
		if o.Kind == k {
			if o.Spec.Template == nil {
				return meta{}, "", fmt.Errorf("%s %s has no spec.template", o.Kind, o.Metadata.Name)
			}
			m := o.Spec.Template.Metadata
			m.Namespace = o.Metadata.Namespace
			return m, o.Spec.Template.Spec.SchedulerName, nil
		}
	}
	return meta{}, "", fmt.Errorf("expected a Pod or a workload with a pod template (%s), found kind %s", strings.Join(Workloads, ", "), o.Kind)
}

// Derivation says where each part of an app read from a pod came from.
type Derivation struct {
	Queue, User, Tags string
	Notes             []string
	// Workload is the kind of the object read when it is not a pod: its
	// pod template gave the labels and annotations
	Workload string
	// the pod's namespace with its annotations, and the pod's annotations,
	// for the admission controller
	Namespace            string
	NamespaceAnnotations map[string]string
	PodAnnotations       map[string]string
	// the pod's labels and spec.schedulerName (a workload's template's)
	PodLabels     map[string]string
	SchedulerName string
}

// FromPod builds the application the shim sends for a pod (and, when given,
// its namespace): the queue from the label yunikorn.apache.org/queue, else
// the annotation yunikorn.apache.org/queue, else the label queue; user and
// groups from the yunikorn.apache.org/user.info annotation, else nobody
// with no groups; the tag namespace (default when the pod names none) and,
// from the namespace's annotations, namespace.parentqueue and the quota
// tags.
func FromPod(pod, namespace []byte) (App, Derivation, error) {
	var app App
	var d Derivation
	p, inline, notes, err := readManifest(pod)
	if err != nil {
		return app, d, err
	}
	d.Notes = append(d.Notes, notes...)
	m, sched, err := p.podMeta()
	if err != nil {
		return app, d, err
	}
	if p.Kind != "Pod" && p.Kind != "" {
		d.Workload = p.Kind
		d.Notes = append(d.Notes, fmt.Sprintf("read the pod template of %s %s: its pods carry the template's labels and annotations; the admission controller writes the identity of whoever creates the %s into the template, and the pods' creator (a controller) is a system user", p.Kind, p.Metadata.Name, p.Kind))
	}
	switch {
	case m.Labels[LabelQueueCanonical] != "":
		app.Queue, d.Queue = m.Labels[LabelQueueCanonical], "label "+LabelQueueCanonical
	case m.Annotations[AnnotationQueue] != "":
		app.Queue, d.Queue = m.Annotations[AnnotationQueue], "annotation "+AnnotationQueue
	case m.Labels[LabelQueue] != "":
		app.Queue, d.Queue = m.Labels[LabelQueue], "label "+LabelQueue
	default:
		d.Queue = "the pod names no queue"
	}
	// the identity as the shim reads the pod as written; with the
	// admission controller in the path, admission.Settings.Admit decides
	app.User, app.Groups, d.User = admission.ShimIdentity(m.Annotations)
	d.PodAnnotations, d.PodLabels, d.SchedulerName = m.Annotations, m.Labels, sched
	ns := m.Namespace
	if ns == "" {
		ns = "default"
		d.Notes = append(d.Notes, "the pod names no namespace: the shim uses default")
	}
	d.Namespace = ns
	app.Tags = map[string]string{"namespace": ns}
	d.Tags = "namespace " + ns
	var n *object
	switch {
	case namespace != nil:
		if k := topKind(namespace); k != "" && k != "Namespace" {
			return app, d, fmt.Errorf("expected a Namespace, found kind %s", k)
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(namespace, &doc); err != nil {
			return app, d, fmt.Errorf("the namespace is not valid YAML: %v", err)
		}
		if len(doc.Content) == 0 {
			return app, d, errors.New("the namespace file is empty")
		}
		if n, err = decodeObject(doc.Content[0]); err != nil {
			return app, d, fmt.Errorf("the namespace: %w", err)
		}
		if n.Kind != "Namespace" && n.Kind != "" {
			return app, d, fmt.Errorf("expected a Namespace, found kind %s", n.Kind)
		}
	case inline != nil:
		n = inline
		d.Notes = append(d.Notes, fmt.Sprintf("the namespace %s is read from the same file", inline.Metadata.Name))
	}
	if n != nil {
		if n.Metadata.Name != "" && n.Metadata.Name != ns {
			d.Notes = append(d.Notes, fmt.Sprintf("the namespace file is %s but the pod is in %s: its annotations would not apply; read anyway", n.Metadata.Name, ns))
		}
		a := n.Metadata.Annotations
		d.NamespaceAnnotations = a
		if v := a[AnnotationParent]; v != "" {
			app.Tags["namespace.parentqueue"] = v
			d.Tags += ", namespace.parentqueue " + v
		}
		for tag, v := range namespaceTags(a) {
			app.Tags[tag] = v
		}
	}
	return app, d, nil
}

// PodRequest is what reaches the scheduler core for a pod: the application
// the shim sends, where each part of it came from, and what the admission
// controller (or, without one, the shim alone) did with the pod. When
// Gate.Rejected or Gate.Bypass is set, no request reaches the core.
type PodRequest struct {
	App        App
	Derivation Derivation
	Gate       admission.Gate
}

// Reaches reports whether the pod reaches the core as a request.
func (r *PodRequest) Reaches() bool { return r.Gate.Rejected == "" && r.Gate.Bypass == "" }

// ReadPod reads a pod (or workload) and its namespace as FromPod does, then
// decides its identity and whether it reaches YuniKorn: through the
// admission controller with the settings given, for a pod created by sub
// (nil: not known), or, when without is true, as the shim takes pods no
// admission controller has seen. An identity nothing in the files gives is
// an error naming the flags that give it.
func ReadPod(pod, namespace []byte, s admission.Settings, sub *admission.Submitter, without bool) (*PodRequest, error) {
	app, d, err := FromPod(pod, namespace)
	if err != nil {
		return nil, err
	}
	p := admission.Pod{Namespace: d.Namespace, NamespaceAnnotations: d.NamespaceAnnotations, Labels: d.PodLabels,
		Annotations: d.PodAnnotations, SchedulerName: d.SchedulerName, Workload: d.Workload}
	r := &PodRequest{App: app, Derivation: d}
	if without {
		r.Gate = admission.Without(p)
		r.Derivation.Notes = append(r.Derivation.Notes, "--without-admission-controller: the shim reads the pod as it is, so the identity is the pod's own "+AnnotationUserInfo+" annotation, or user nobody without it")
	} else {
		r.Gate = s.Admit(p, sub)
	}
	if r.Gate.Unknown != "" {
		return nil, errors.New(r.Gate.Unknown)
	}
	if r.Reaches() {
		r.App.User, r.App.Groups = r.Gate.Identity.User, r.Gate.Identity.Groups
		r.Derivation.User = r.Gate.Identity.How
		if r.Gate.Gap != "" {
			r.Derivation.Notes = append(r.Derivation.Notes, r.Gate.Gap)
		}
		r.Derivation.Notes = append(r.Derivation.Notes, r.Gate.Notes...)
	}
	return r, nil
}

// Notes say where the request came from: the pod's identity and what the
// admission controller did, for an answer about the pod.
func (r *PodRequest) Notes() []string {
	return append([]string{"identity the core sees: user " + r.App.User + groupsNote(r.App.Groups) + ", from " + r.Derivation.User}, r.Derivation.Notes...)
}

func groupsNote(g []string) string {
	if len(g) == 0 {
		return " with no groups (the partition's resolver finds them)"
	}
	return " with groups [" + strings.Join(g, ", ") + "]"
}
