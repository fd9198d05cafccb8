package placement

import (
	"encoding/json"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
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

type object struct {
	Kind     string `yaml:"kind"`
	Metadata meta   `yaml:"metadata"`
	Spec     struct {
		Template *struct {
			Metadata meta `yaml:"metadata"`
		} `yaml:"template"`
		JobTemplate *struct {
			Spec struct {
				Template *struct {
					Metadata meta `yaml:"metadata"`
				} `yaml:"template"`
			} `yaml:"spec"`
		} `yaml:"jobTemplate"`
	} `yaml:"spec"`
}

// Workloads are the kinds whose pod template the YuniKorn admission
// controller annotates (processWorkload) and whose pods the shim then sees.
var Workloads = []string{"Job", "CronJob", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet"}

// podMeta is the metadata of the pods an object makes: a pod's own, or a
// workload's pod template's, in the workload's namespace.
func (o *object) podMeta() (meta, error) {
	switch o.Kind {
	case "Pod", "":
		return o.Metadata, nil
	case "CronJob":
		if o.Spec.JobTemplate == nil || o.Spec.JobTemplate.Spec.Template == nil {
			return meta{}, fmt.Errorf("CronJob %s has no spec.jobTemplate.spec.template", o.Metadata.Name)
		}
		m := o.Spec.JobTemplate.Spec.Template.Metadata
		m.Namespace = o.Metadata.Namespace
		return m, nil
	}
	for _, k := range Workloads {
		if o.Kind == k {
			if o.Spec.Template == nil {
				return meta{}, fmt.Errorf("%s %s has no spec.template", o.Kind, o.Metadata.Name)
			}
			m := o.Spec.Template.Metadata
			m.Namespace = o.Metadata.Namespace
			return m, nil
		}
	}
	return meta{}, fmt.Errorf("expected a Pod or a workload with a pod template (%s), found kind %s", strings.Join(Workloads, ", "), o.Kind)
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
	var p object
	if err := yaml.Unmarshal(pod, &p); err != nil {
		return app, d, fmt.Errorf("the pod is not valid YAML: %v", err)
	}
	m, err := p.podMeta()
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
	app.User, d.User = DefaultUser, "no "+AnnotationUserInfo+" annotation: the shim sends user nobody with no groups"
	if info, ok := m.Annotations[AnnotationUserInfo]; ok {
		var ui struct {
			User   string   `json:"user"`
			Groups []string `json:"groups"`
		}
		if err := json.Unmarshal([]byte(info), &ui); err != nil {
			return app, d, fmt.Errorf("annotation %s is not the JSON the admission controller writes ({\"user\": ..., \"groups\": [...]}): %v", AnnotationUserInfo, err)
		}
		app.User, app.Groups = ui.User, ui.Groups
		d.User = "annotation " + AnnotationUserInfo
	}
	d.PodAnnotations = m.Annotations
	ns := m.Namespace
	if ns == "" {
		ns = "default"
		d.Notes = append(d.Notes, "the pod names no namespace: the shim uses default")
	}
	d.Namespace = ns
	app.Tags = map[string]string{"namespace": ns}
	d.Tags = "namespace " + ns
	if namespace != nil {
		var n object
		if err := yaml.Unmarshal(namespace, &n); err != nil {
			return app, d, fmt.Errorf("the namespace is not valid YAML: %v", err)
		}
		if n.Kind != "Namespace" && n.Kind != "" {
			return app, d, fmt.Errorf("expected a Namespace, found kind %s", n.Kind)
		}
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
	if strings.TrimSpace(app.User) == "" && len(app.Groups) == 0 {
		d.Notes = append(d.Notes, "the user.info annotation names no user")
	}
	return app, d, nil
}
