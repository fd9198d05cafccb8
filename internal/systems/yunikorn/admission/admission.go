// Package admission reads the YuniKorn admission controller's settings from
// the scheduler's ConfigMaps and answers what it does with a pod: whether
// the pod is sent to YuniKorn at all, and whose identity (the
// yunikorn.apache.org/user.info annotation) the scheduler core sees. It
// follows yunikorn-k8shim's internal/systems/yunikorn/admission (conf/am_conf.go,
// admission_controller.go, metadata/usergroup.go).
package admission

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
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
	KeyLabelNamespaces   = "admissionController.filtering.labelNamespaces"
	KeyNoLabelNamespaces = "admissionController.filtering.noLabelNamespaces"

	DefaultSystemUsers      = "^system:serviceaccount:kube-system:"
	DefaultBypassNamespaces = "^kube-system$"

	// AnnotationEnable on a namespace overrides the namespace lists.
	AnnotationEnable   = "yunikorn.apache.org/namespace.enableYuniKorn"
	AnnotationUserInfo = "yunikorn.apache.org/user.info"
	// AnnotationGenerateAppID on a namespace overrides the label lists.
	AnnotationGenerateAppID = "yunikorn.apache.org/namespace.generateAppId"
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
	LabelNamespaces, NoLabelNamespaces  List
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
	s.LabelNamespaces = list(data, KeyLabelNamespaces, "")
	s.NoLabelNamespaces = list(data, KeyNoLabelNamespaces, "")
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
// enableYuniKorn annotation when set (exactly "true" is true, any other
// value false: namespace_cache.go getAnnotationValue), else
// processNamespaces (empty: all) and not bypassNamespaces.
func (s Settings) Processes(namespace string, annotations map[string]string) (bool, string) {
	if v, ok := annotations[AnnotationEnable]; ok {
		if v == "true" {
			return true, "the namespace's " + AnnotationEnable + " annotation is true"
		}
		return false, fmt.Sprintf("the namespace's %s annotation is %q, which the admission controller reads as false (only \"true\" is true)", AnnotationEnable, v)
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

// labels says whether the admission controller labels the workloads of a
// namespace with an application ID (shouldLabelNamespace): the namespace's
// generateAppId annotation when set, else labelNamespaces (empty: all) and
// not noLabelNamespaces.
func (s Settings) labels(namespace string, annotations map[string]string) bool {
	if v, ok := annotations[AnnotationGenerateAppID]; ok {
		return v == "true"
	}
	if len(s.LabelNamespaces.Patterns) > 0 {
		if _, ok := s.LabelNamespaces.matches(namespace); !ok {
			return false
		}
	}
	_, no := s.NoLabelNamespaces.matches(namespace)
	return !no
}

// Open reports whether a pattern matches every name, and whether it is
// unanchored (no ^ at the start), so that it matches inside longer names.
func (p Pattern) Open() (everyone, unanchored bool) {
	everyone = p.Re.MatchString("") && p.Re.MatchString("any-user") && p.Re.MatchString("x")
	unanchored = !strings.HasPrefix(p.Text, "^")
	return
}
