package admission

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/systems/yunikorn/admission/si"
)

// SchedulerName is the scheduler name the shim takes pods for
// (constants.SchedulerName).
const SchedulerName = "yunikorn"

// DefaultUser is the user the shim sends when a pod names none
// (constants.DefaultUser).
const DefaultUser = "nobody"

// Submitter is the Kubernetes user who creates the pod.
type Submitter struct {
	User   string
	Groups []string
}

// Identity is whose identity the scheduler core sees for a pod.
type Identity struct {
	User   string
	Groups []string
	How    string
}

// Pod is what the admission controller and the shim look at: the pod's
// namespace ("" is default) with its annotations, the pod's own labels,
// annotations and spec.schedulerName (for a workload, its pod template's),
// and the workload's kind ("" for a pod).
type Pod struct {
	Namespace            string
	NamespaceAnnotations map[string]string
	Labels               map[string]string
	Annotations          map[string]string
	SchedulerName        string
	Workload             string
}

// Gate is what happens to a pod between the API server and the scheduler
// core: the admission controller refuses it (Rejected, its own message), or
// the pod never reaches YuniKorn (Bypass), or it does under an identity.
// Unknown says why that identity cannot be known from the files (the pod
// names none and no submitter was given). Gap, when set, says the pod
// reaches YuniKorn only because it names the scheduler itself, in a place
// where the admission controller leaves pods as they are.
type Gate struct {
	Identity             Identity
	Rejected, Why        string
	Bypass, Unknown, Gap string
	Notes                []string
}

// ShimIdentity is the user and groups the shim sends for a user.info
// annotation (utils.GetUserFromPod): no annotation, an empty one or one it
// cannot read is user nobody with no groups; an empty user is nobody with
// the groups given.
func ShimIdentity(annotations map[string]string) (user string, groups []string, why string) {
	info := annotations[AnnotationUserInfo]
	if info == "" {
		return DefaultUser, nil, "no " + AnnotationUserInfo + " annotation: the shim sends user nobody with no groups"
	}
	var ui si.UserGroupInformation
	if err := json.Unmarshal([]byte(info), &ui); err != nil {
		return DefaultUser, nil, fmt.Sprintf("the %s annotation is not JSON the shim can read (%v): it sends user nobody with no groups", AnnotationUserInfo, err)
	}
	if ui.User == "" {
		return DefaultUser, ui.Groups, "the " + AnnotationUserInfo + " annotation names no user: the shim sends user nobody"
	}
	return ui.User, ui.Groups, "the " + AnnotationUserInfo + " annotation"
}

// Without is what the shim does with a pod when no admission controller is
// in the path: it takes the pod only if the pod names YuniKorn as its
// scheduler (utils.GetApplicationIDFromPod), and reads the pod's own
// user.info annotation.
func Without(p Pod) Gate {
	if p.SchedulerName != SchedulerName {
		return Gate{Bypass: fmt.Sprintf("without the admission controller, the shim takes only pods that name schedulerName: %s, and this one %s", SchedulerName, scheduler(p.SchedulerName))}
	}
	u, g, why := ShimIdentity(p.Annotations)
	return Gate{Identity: Identity{User: u, Groups: g, How: why + ", as written: without the admission controller nothing checks it"}}
}

func scheduler(name string) string {
	if name == "" {
		return "names none (the default scheduler takes it)"
	}
	return "names " + name
}

// Admit follows the admission controller's mutate for a pod created by
// sub (nil: not known), then the shim: processPod checks a user.info
// annotation the pod carries (may the submitter set it, then is it JSON),
// writes the submitter's identity into a pod without one, leaves pods
// labelled app: yunikorn and pods of namespaces it does not process as they
// are, and names YuniKorn as the scheduler of the rest. The shim takes
// every pod that names YuniKorn, whoever named it.
//
// For a workload, processWorkload runs first on the workload (created by
// sub) and processPod then on each of its pods, created by a controller.
func (s Settings) Admit(p Pod, sub *Submitter) Gate {
	if p.Workload != "" {
		return s.admitWorkload(p, sub)
	}
	ns := p.Namespace
	if ns == "" {
		ns = "default"
	}
	_, set := p.Annotations[AnnotationUserInfo]
	kept := "" // why the admission controller keeps the pod's own annotation
	if set && !s.BypassAuth {
		g, why, ok := s.keepsUserInfo(p, sub)
		if !ok {
			return g
		}
		kept = "which the submitter may set: " + why
	}
	leaves := ""
	if p.Labels["app"] == "yunikorn" {
		leaves = "the pod carries the label app: yunikorn (the scheduler's own pods), which the admission controller leaves as it is"
	} else if ok, why := s.Processes(ns, p.NamespaceAnnotations); !ok {
		leaves = "the admission controller leaves pods of this namespace as they are (" + why + ")"
	}
	if leaves != "" {
		return s.leftAlone(p, leaves, set)
	}
	g := s.identity(p, sub, set, kept)
	if s.BypassAuth {
		g.Notes = append(g.Notes, KeyBypassAuth+" is true: any pod may name any user and groups, so this answer holds only if the pod's annotation is honest")
	}
	return g
}

// keepsUserInfo is whether the admission controller keeps the pod's own
// user.info annotation: the submitter may set it and it is valid JSON;
// otherwise the gate that says why (refused, or not known).
func (s Settings) keepsUserInfo(p Pod, sub *Submitter) (g Gate, why string, ok bool) {
	why, ok, known := s.maySet(sub)
	switch {
	case !known:
		g.Unknown = fmt.Sprintf("the pod carries its own %s annotation, which the admission controller keeps only if the Kubernetes user who creates the pod may set it (a trusted controller, or a user or group of %s or %s), and refuses the pod otherwise; no file names that user: give it with --submitter USER (and --submitter-groups), or pass --without-admission-controller if pods reach the shim without it", AnnotationUserInfo, KeyExternalUsers, KeyExternalGroups)
		return g, "", false
	case !ok:
		g.Rejected = fmt.Sprintf("user %s with groups [%s] is not allowed to set user annotation", sub.User, strings.Join(sub.Groups, ","))
		g.Why = why
		return g, "", false
	}
	if err := json.Unmarshal([]byte(p.Annotations[AnnotationUserInfo]), &si.UserGroupInformation{}); err != nil {
		g.Rejected = err.Error()
		g.Why = "the " + AnnotationUserInfo + " annotation is not valid JSON"
		return g, "", false
	}
	return g, why, true
}

// leftAlone is a pod the admission controller leaves as it is (leaves
// says why): not YuniKorn's unless it names the scheduler itself, and then
// with whatever identity it carries.
func (s Settings) leftAlone(p Pod, leaves string, set bool) Gate {
	var g Gate
	if p.SchedulerName != SchedulerName {
		g.Bypass = leaves + ", and the pod " + scheduler(p.SchedulerName) + " as its scheduler: it is not YuniKorn's, so no placement rule or queue ACL applies to it"
		return g
	}
	u, gr, why := ShimIdentity(p.Annotations)
	if set {
		why = "the pod's own " + AnnotationUserInfo + " annotation, as the pod wrote it"
		if u == DefaultUser {
			why += " (which names no user the shim can read: it sends user nobody)"
		}
	}
	g.Identity = Identity{User: u, Groups: gr, How: why}
	switch {
	case !set:
		g.Gap = leaves + ", but the pod names schedulerName: yunikorn itself, so the shim takes it: the admission controller writes no identity into it, and the core sees user nobody"
	case s.BypassAuth:
		g.Gap = leaves + ", but the pod names schedulerName: yunikorn itself, so the shim takes it with its own " + AnnotationUserInfo + " annotation, which nothing checks (bypassAuth is true): anyone who can create a pod here can claim any identity"
	default:
		g.Gap = leaves + ", but the pod names schedulerName: yunikorn itself, so the shim takes it with its own " + AnnotationUserInfo + " annotation, as the admission controller let it through"
	}
	return g
}

// identity is the identity a processed pod reaches the core with: its own
// annotation (kept says why), none under bypassAuth, or the submitter's.
func (s Settings) identity(p Pod, sub *Submitter, set bool, kept string) Gate {
	var g Gate
	switch {
	case set:
		u, gr, why := ShimIdentity(p.Annotations)
		how := "the pod's own " + AnnotationUserInfo + " annotation, " + kept
		if s.BypassAuth {
			how = "the pod's own " + AnnotationUserInfo + " annotation, kept because bypassAuth is true: anyone who can create a pod can name any user and groups"
		}
		if u == DefaultUser && why != "the "+AnnotationUserInfo+" annotation" {
			how += "; " + why
		}
		g.Identity = Identity{User: u, Groups: gr, How: how}
	case s.BypassAuth:
		g.Identity = Identity{User: DefaultUser, How: "bypassAuth is true, so the admission controller does not write the submitter's identity: the shim sends user nobody with no groups"}
	case sub == nil:
		g.Unknown = fmt.Sprintf("the pod carries no %s annotation, so YuniKorn's admission controller writes in the Kubernetes user who creates it, and the core decides for that user, whom no file names: give it with --submitter USER (and --submitter-groups), or pass --without-admission-controller if pods reach the shim without it (the shim then sends user nobody)", AnnotationUserInfo)
	default:
		u, gr, _ := ShimIdentity(map[string]string{AnnotationUserInfo: written(*sub)})
		g.Identity = Identity{User: u, Groups: gr, How: "the submitter's identity, written by the admission controller into " + AnnotationUserInfo}
	}
	return g
}

// written is the annotation the admission controller writes for a
// submitter (getPatchOperation).
func written(sub Submitter) string {
	b, _ := json.Marshal(si.UserGroupInformation{User: sub.User, Groups: sub.Groups})
	return string(b)
}

// maySet says whether the submitter may set the user.info annotation
// (known false when the submitter is not given and the answer depends on
// who it is); without a submitter, an externalUsers pattern that matches
// every name lets anyone set it.
func (s Settings) maySet(sub *Submitter) (why string, ok, known bool) {
	if sub != nil {
		why, ok = s.allowed(*sub)
		return why, ok, true
	}
	for _, p := range s.ExternalUsers.Patterns {
		if everyone, _ := p.Open(); everyone {
			return fmt.Sprintf("anyone: %q of %s matches every name", p.Text, KeyExternalUsers), true, true
		}
	}
	return "", false, false
}

// allowed follows IsAnnotationAllowed, in its order: a trusted controller
// (systemUsers, when trustControllers), then externalUsers, then each
// externalGroups pattern against every group.
func (s Settings) allowed(sub Submitter) (string, bool) {
	if s.TrustControllers {
		if p, ok := s.SystemUsers.matches(sub.User); ok {
			return fmt.Sprintf("a trusted controller: user %s matches %q of %s", sub.User, p.Text, KeySystemUsers), true
		}
	}
	if p, ok := s.ExternalUsers.matches(sub.User); ok {
		return fmt.Sprintf("user %s matches %q of %s", sub.User, p.Text, KeyExternalUsers), true
	}
	for _, p := range s.ExternalGroups.Patterns {
		re := p.re()
		for _, g := range sub.Groups {
			if re.MatchString(g) {
				return fmt.Sprintf("group %s matches %q of %s", g, p.Text, KeyExternalGroups), true
			}
		}
	}
	if s.TrustControllers {
		return fmt.Sprintf("user %s matches no pattern of %s, %s or %s", sub.User, KeySystemUsers, KeyExternalUsers, KeyExternalGroups), false
	}
	return fmt.Sprintf("%s is false, and user %s matches no pattern of %s or %s", KeyTrustControllers, sub.User, KeyExternalUsers, KeyExternalGroups), false
}

// podCreators are the service accounts kube-controller-manager creates a
// workload's pods as (with --use-service-account-credentials, as kubeadm
// sets it up).
var podCreators = map[string]string{
	"Job": "job-controller", "ReplicaSet": "replicaset-controller",
	"StatefulSet": "statefulset-controller", "DaemonSet": "daemon-set-controller",
}

// middleObjects are the objects a workload's controller makes before any
// pod, each a create request the admission controller processes
// (processWorkload): a Deployment's ReplicaSet, made by the
// deployment-controller (left alone when that user matches systemUsers,
// shouldProcessWorkload), and a CronJob's Job, made by the
// cronjob-controller (always processed).
var middleObjects = map[string]struct{ kind, by string }{
	"Deployment": {"ReplicaSet", "deployment-controller"},
	"CronJob":    {"Job", "cronjob-controller"},
}

// controller is kube-controller-manager acting as a controller's service
// account, with the groups Kubernetes gives a service account.
func controller(name string) Submitter {
	return Submitter{User: "system:serviceaccount:kube-system:" + name,
		Groups: []string{"system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated"}}
}

// appIDLabels are the labels that make the admission controller process a
// workload in a namespace it does not label (shouldProcessAdmissionReview).
var appIDLabels = []string{"yunikorn.apache.org/app-id", "applicationId", "spark-app-selector"}

// admitWorkload follows processWorkload on the workload, then processPod on
// the pods its controller creates from the template.
func (s Settings) admitWorkload(p Pod, sub *Submitter) Gate {
	ns := p.Namespace
	if ns == "" {
		ns = "default"
	}
	tmpl := map[string]string{}
	for k, v := range p.Annotations {
		tmpl[k] = v
	}
	_, set := tmpl[AnnotationUserInfo]
	var notes []string
	leaves := ""
	if ok, why := s.Processes(ns, p.NamespaceAnnotations); !ok {
		leaves = why
	} else if !s.labels(ns, p.NamespaceAnnotations) && !hasAppID(p.Labels) {
		leaves = fmt.Sprintf("namespace %s is not one whose workloads it labels (%s, %s, or the namespace's %s annotation), and the template carries no application ID label", ns, KeyLabelNamespaces, KeyNoLabelNamespaces, AnnotationGenerateAppID)
	}
	if p.Workload == "ReplicaSet" && sub != nil {
		if pt, ok := s.SystemUsers.matches(sub.User); ok {
			leaves = fmt.Sprintf("a ReplicaSet created by a system user (%s matches %q of %s) is left as it is", sub.User, pt.Text, KeySystemUsers)
		}
	}
	if leaves != "" {
		notes = append(notes, fmt.Sprintf("the admission controller leaves the %s as it is (%s): a %s annotation in its template is not checked", p.Workload, leaves, AnnotationUserInfo))
	} else if set && !s.BypassAuth {
		why, ok, known := s.maySet(sub)
		switch {
		case !known:
			return Gate{Unknown: fmt.Sprintf("the %s's template carries its own %s annotation, which the admission controller keeps only if the Kubernetes user who creates the %s may set it, and refuses the %s otherwise; no file names that user: give it with --submitter USER (and --submitter-groups), or pass --without-admission-controller if pods reach the shim without it", p.Workload, AnnotationUserInfo, p.Workload, p.Workload)}
		case !ok:
			return Gate{Rejected: fmt.Sprintf("user %s with groups [%s] is not allowed to set user annotation", sub.User, strings.Join(sub.Groups, ",")), Why: why + " (the " + p.Workload + " itself is refused)"}
		}
		if err := json.Unmarshal([]byte(tmpl[AnnotationUserInfo]), &si.UserGroupInformation{}); err != nil {
			return Gate{Rejected: err.Error(), Why: "the " + AnnotationUserInfo + " annotation of the " + p.Workload + "'s template is not valid JSON (the " + p.Workload + " itself is refused)"}
		}
	} else if !set && !s.BypassAuth {
		if sub == nil {
			return Gate{Unknown: fmt.Sprintf("the %s's template carries no %s annotation, so YuniKorn's admission controller writes in the Kubernetes user who creates the %s, and the core decides for that user, whom no file names: give it with --submitter USER (and --submitter-groups), or pass --without-admission-controller if pods reach the shim without it (the shim then sends user nobody)", p.Workload, AnnotationUserInfo, p.Workload)}
		}
		tmpl[AnnotationUserInfo] = written(*sub)
		notes = append(notes, fmt.Sprintf("the admission controller writes the submitter's identity into the %s's template", p.Workload))
	}
	if mid, ok := middleObjects[p.Workload]; ok {
		// the controller makes the middle object from the template, with
		// the annotation the admission controller kept or wrote, and the
		// admission controller runs on it too before any pod exists
		creator := controller(mid.by)
		next := p
		next.Workload, next.Annotations = mid.kind, tmpl
		g := s.admitWorkload(next, &creator)
		if g.Rejected != "" {
			g.Why = fmt.Sprintf("the %s is created, but its %s is not, so it never gets pods: the %s's creator, %s, %s", p.Workload, mid.kind, mid.kind, creator.User, g.Why)
		}
		if g.Rejected == "" && g.Bypass == "" && leaves != "" && set {
			// the first object never checked is where the claim gets in
			g.Gap = fmt.Sprintf("the admission controller never checked the %s annotation of the %s's template (%s); its %s and pods carry it and their creators, controllers, may set it: anyone who can create a %s here can claim any identity", AnnotationUserInfo, p.Workload, leaves, mid.kind, p.Workload)
		}
		g.Notes = append(append(notes, fmt.Sprintf("the %s's %s is created by %s (kube-controller-manager with service account credentials), and the admission controller processes that request too (processWorkload)", p.Workload, mid.kind, creator.User)), g.Notes...)
		return g
	}
	creator := controller(podCreators[p.Workload])
	pod := p
	pod.Workload, pod.Annotations = "", tmpl
	g := s.Admit(pod, &creator)
	if g.Rejected != "" {
		g.Why = fmt.Sprintf("the %s is created, but its pods are not: their creator, %s, %s", p.Workload, creator.User, g.Why)
	}
	if g.Rejected == "" && g.Bypass == "" && leaves != "" && set {
		g.Gap = fmt.Sprintf("the admission controller never checked the %s annotation of the %s's template (%s); its pods carry it and their creator, a controller, may set it: anyone who can create a %s here can claim any identity", AnnotationUserInfo, p.Workload, leaves, p.Workload)
	}
	g.Notes = append(append(notes, g.Notes...), fmt.Sprintf("the %s's pods are created by %s (kube-controller-manager with service account credentials)", p.Workload, creator.User))
	return g
}

func hasAppID(labels map[string]string) bool {
	for _, l := range appIDLabels {
		if labels[l] != "" {
			return true
		}
	}
	return false
}
