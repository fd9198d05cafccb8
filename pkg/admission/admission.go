// Package admission reads the YuniKorn admission controller's settings from
// the scheduler's ConfigMaps and answers what it does with a pod: whether
// the pod is sent to YuniKorn at all, and whose identity (the
// yunikorn.apache.org/user.info annotation) the scheduler core sees. It
// follows yunikorn-k8shim's pkg/admission (conf/am_conf.go,
// admission_controller.go, metadata/usergroup.go).
package admission

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/aclint/aclint/pkg/config"
)

// The settings' keys, and their defaults when unset.
const (
	KeyBypassAuth        = "admissionController.accessControl.bypassAuth"
	KeyTrustControllers  = "admissionController.accessControl.trustControllers"
	KeySystemUsers       = "admissionController.accessControl.systemUsers"
	KeyExternalUsers     = "admissionController.accessControl.externalUsers"
	KeyExternalGroups    = "admissionController.accessControl.externalGroups"
	KeyProcessNamespaces = "admissionController.filtering.processNamespaces"
	KeyBypassNamespaces  = "admissionController.filtering.bypassNamespaces"

	DefaultSystemUsers      = "^system:serviceaccount:kube-system:"
	DefaultBypassNamespaces = "^kube-system$"

	// AnnotationEnable on a namespace overrides the namespace lists.
	AnnotationEnable   = "yunikorn.apache.org/namespace.enableYunikorn"
	AnnotationUserInfo = "yunikorn.apache.org/user.info"
)

// Problem is a setting the admission controller cannot read.
type Problem struct {
	Msg string
	Pos config.Position
}

// Pattern is one regular expression of a comma-separated list.
type Pattern struct {
	Text string
	Re   *regexp.Regexp
}

// List is a comma-separated list of patterns, as the admission controller
// reads it: blanks around each trimmed, empty entries skipped; when one
// entry does not compile, the whole setting falls back to its default.
type List struct {
	Key      string
	Patterns []Pattern
	Set      bool // the ConfigMap sets it
	Pos      config.Position
	Invalid  string // why the written value was replaced by the default
	Value    string // as written
}

// Settings are the admission controller's access control and filtering.
type Settings struct {
	BypassAuth, TrustControllers        bool
	BypassAuthSet                       bool
	BypassAuthPos                       config.Position
	SystemUsers, ExternalUsers          List
	ExternalGroups                      List
	ProcessNamespaces, BypassNamespaces List
	BoolProblems                        []Problem // values strconv.ParseBool cannot read (the default is used)
}

// Read takes the settings from the flattened ConfigMap data.
func Read(data map[string]config.Setting) Settings {
	s := Settings{TrustControllers: true}
	boolean := func(key string, def bool, dst *bool) (bool, config.Position) {
		v, ok := data[key]
		if !ok {
			*dst = def
			return false, config.Position{}
		}
		b, err := strconv.ParseBool(v.Value)
		if err != nil {
			s.BoolProblems = append(s.BoolProblems, Problem{fmt.Sprintf("%s is %q, which is not a boolean: the admission controller uses %t", key, v.Value, def), v.Pos})
			b = def
		}
		*dst = b
		return true, v.Pos
	}
	s.BypassAuthSet, s.BypassAuthPos = boolean(KeyBypassAuth, false, &s.BypassAuth)
	boolean(KeyTrustControllers, true, &s.TrustControllers)
	s.SystemUsers = list(data, KeySystemUsers, DefaultSystemUsers)
	s.ExternalUsers = list(data, KeyExternalUsers, "")
	s.ExternalGroups = list(data, KeyExternalGroups, "")
	s.ProcessNamespaces = list(data, KeyProcessNamespaces, "")
	s.BypassNamespaces = list(data, KeyBypassNamespaces, DefaultBypassNamespaces)
	return s
}

func list(data map[string]config.Setting, key, def string) List {
	l := List{Key: key}
	value := def
	if v, ok := data[key]; ok {
		l.Set, l.Pos, value = true, v.Pos, v.Value
	}
	l.Value = value
	ps, err := parse(value)
	if err != nil {
		l.Invalid = fmt.Sprintf("%v: the admission controller uses the default %q instead", err, def)
		ps, _ = parse(def)
	}
	l.Patterns = ps
	return l
}

func parse(s string) ([]Pattern, error) {
	var out []Pattern
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, err
		}
		out = append(out, Pattern{p, re})
	}
	return out, nil
}

func (l List) matches(s string) (Pattern, bool) {
	for _, p := range l.Patterns {
		if p.Re.MatchString(s) {
			return p, true
		}
	}
	return Pattern{}, false
}

// Processes says whether the admission controller sends pods of a
// namespace to YuniKorn (shouldProcessNamespace): the namespace's
// enableYunikorn annotation when set, else processNamespaces (empty: all)
// and not bypassNamespaces.
func (s Settings) Processes(namespace string, annotations map[string]string) (bool, string) {
	if v, ok := annotations[AnnotationEnable]; ok {
		switch strings.ToLower(v) {
		case "true":
			return true, "the namespace's " + AnnotationEnable + " annotation is true"
		case "false":
			return false, "the namespace's " + AnnotationEnable + " annotation is false"
		}
	}
	if len(s.ProcessNamespaces.Patterns) > 0 {
		if _, ok := s.ProcessNamespaces.matches(namespace); !ok {
			return false, fmt.Sprintf("namespace %s matches no pattern of %s (%s)", namespace, KeyProcessNamespaces, s.ProcessNamespaces.Value)
		}
	}
	if p, ok := s.BypassNamespaces.matches(namespace); ok {
		return false, fmt.Sprintf("namespace %s matches %q of %s", namespace, p.Text, KeyBypassNamespaces)
	}
	return true, ""
}

// Submitter is the Kubernetes user who creates the pod.
type Submitter struct {
	User   string
	Groups []string
}

// Identity is whose identity the scheduler core sees for a pod.
type Identity struct {
	User     string
	Groups   []string
	Known    bool   // false: the pod names no identity and no submitter was given
	Rejected string // the admission controller refuses to create the pod
	How      string
}

// Identity follows processPod's user handling. A pod that carries the
// user.info annotation keeps it when bypassAuth is true or the submitter may
// set it (a trusted controller matching systemUsers, or a user or group
// matching externalUsers or externalGroups); otherwise the pod is refused. A
// pod without it gets the submitter's identity written in, unless bypassAuth
// is true; then the shim sends user nobody.
func (s Settings) Identity(annotations map[string]string, sub *Submitter) Identity {
	info, set := annotations[AnnotationUserInfo]
	if set {
		var ui struct {
			User   string   `json:"user"`
			Groups []string `json:"groups"`
		}
		if err := json.Unmarshal([]byte(info), &ui); err != nil {
			if s.BypassAuth {
				return Identity{Known: true, How: "bypassAuth is true, so the admission controller keeps the annotation, which is not valid JSON: the shim cannot read it"}
			}
			return Identity{Rejected: "the " + AnnotationUserInfo + " annotation is not valid JSON: " + err.Error()}
		}
		id := Identity{User: ui.User, Groups: ui.Groups, Known: true}
		switch {
		case s.BypassAuth:
			id.How = "the pod's own " + AnnotationUserInfo + " annotation, kept because bypassAuth is true: anyone who can create a pod can name any user and groups"
		case sub == nil:
			id.How = "the pod's own " + AnnotationUserInfo + " annotation: the admission controller keeps it only if the submitter may set it (a trusted controller, or an external user or group); name the submitter with --submitter to check"
		default:
			why, ok := s.allowed(*sub)
			if !ok {
				return Identity{Rejected: fmt.Sprintf("user %s with groups [%s] is not allowed to set user annotation (%s)", sub.User, strings.Join(sub.Groups, ", "), why)}
			}
			id.How = "the pod's own " + AnnotationUserInfo + " annotation, which the submitter may set: " + why
		}
		return id
	}
	if s.BypassAuth {
		return Identity{User: "nobody", Known: true, How: "bypassAuth is true, so the admission controller does not write the submitter's identity: the shim sends user nobody with no groups"}
	}
	if sub == nil {
		return Identity{User: "nobody", How: "the pod names no identity: the admission controller writes the submitting Kubernetes user into " + AnnotationUserInfo + "; name that user with --submitter (answering for user nobody meanwhile)"}
	}
	return Identity{User: sub.User, Groups: sub.Groups, Known: true, How: "the submitter's identity, written by the admission controller into " + AnnotationUserInfo}
}

func (s Settings) allowed(sub Submitter) (string, bool) {
	if s.TrustControllers {
		if p, ok := s.SystemUsers.matches(sub.User); ok {
			return fmt.Sprintf("a trusted controller: user %s matches %q of %s", sub.User, p.Text, KeySystemUsers), true
		}
	}
	if p, ok := s.ExternalUsers.matches(sub.User); ok {
		return fmt.Sprintf("user %s matches %q of %s", sub.User, p.Text, KeyExternalUsers), true
	}
	for _, g := range sub.Groups {
		if p, ok := s.ExternalGroups.matches(g); ok {
			return fmt.Sprintf("group %s matches %q of %s", g, p.Text, KeyExternalGroups), true
		}
	}
	return "not a trusted controller, and no external user or group pattern matches", false
}

// Open reports whether a pattern matches every name, and whether it is
// unanchored (no ^ at the start), so that it matches inside longer names.
func (p Pattern) Open() (everyone, unanchored bool) {
	everyone = p.Re.MatchString("") && p.Re.MatchString("any-user") && p.Re.MatchString("x")
	unanchored = !strings.HasPrefix(p.Text, "^")
	return
}

// Pod is what the admission controller looks at: the pod's namespace with
// its annotations, the pod's own annotations (for a workload, its pod
// template's), and the workload's kind ("" for a pod).
type Pod struct {
	Namespace            string
	NamespaceAnnotations map[string]string
	Annotations          map[string]string
	Workload             string
}

// Gate is what the admission controller does with a pod: refuse it, let it
// pass to another scheduler, or send it to YuniKorn under an identity.
// Unknown says why the identity the core sees cannot be known from the
// files (no user.info and no submitter given): such a question has no
// answer.
type Gate struct {
	Identity                  Identity
	Rejected, Bypass, Unknown string
	Notes                     []string
}

// Admit follows processPod (and, for a workload, processWorkload) for a pod
// created by sub (nil: not known).
func (s Settings) Admit(p Pod, sub *Submitter) Gate {
	g := Gate{Identity: s.Identity(p.Annotations, sub)}
	if g.Identity.Rejected != "" {
		g.Rejected = "the admission controller refuses to create the pod: " + g.Identity.Rejected
		return g
	}
	if ok, why := s.Processes(p.Namespace, p.NamespaceAnnotations); !ok {
		g.Bypass = "the admission controller does not send this pod to YuniKorn (" + why + "): no placement rule or queue ACL applies to it"
		return g
	}
	what := "pod"
	if p.Workload != "" {
		what = p.Workload
	}
	if !g.Identity.Known {
		// the core sees whoever creates the pod: nothing in the files says who
		g.Unknown = fmt.Sprintf("the %s carries no %s annotation, so YuniKorn's admission controller writes in the Kubernetes user who creates it, and the core decides for that user, whom no file names: give it with --submitter USER (and --submitter-groups), or pass --without-admission-controller if pods reach the shim without it (the shim then sends user nobody)", what, AnnotationUserInfo)
		return g
	}
	if p.Workload != "" && !s.BypassAuth && !s.TrustControllers {
		g.Notes = append(g.Notes, fmt.Sprintf("%s is false: the controller that creates the %s's pods is a system user and may set the user.info annotation only if it matches %s or %s; otherwise the admission controller refuses its pods", KeyTrustControllers, p.Workload, KeyExternalUsers, KeyExternalGroups))
	}
	g.Notes = append(g.Notes, "identity the core sees: "+g.Identity.How)
	if s.BypassAuth {
		g.Notes = append(g.Notes, "admissionController.accessControl.bypassAuth is true: any pod may name any user and groups, so this answer holds only if the pod's annotation is honest")
	}
	return g
}
