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

// Pattern is one regular expression of a comma-separated list, checked
// when the list is read and compiled again each time it is matched: a
// compiled regexp holds kilobytes, and 100,000 patterns in an 890 KB
// ConfigMap held 1 GB for the whole run. A question matches each list a
// few times, so the memory stays bounded by the input for some CPU.
type Pattern struct {
	Text string
}

// re is the pattern compiled; parse has checked that it compiles.
func (p Pattern) re() *regexp.Regexp { return regexp.MustCompile(p.Text) }

// Match reports whether the pattern matches s, as Go's regexp (which the
// admission controller uses) does: anywhere in s unless anchored.
func (p Pattern) Match(s string) bool { return p.re().MatchString(s) }

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
	l.Patterns = split(def) // the defaults are YuniKorn's own: they compile
	if l.Set {
		ps, err := parse(value)
		if err != nil {
			l.Invalid = fmt.Sprintf("%v: the admission controller uses the default %q instead", err, def)
		} else {
			l.Patterns = ps
		}
	}
	return l
}

// parse reads a list as the admission controller does, refusing it when a
// pattern does not compile.
func parse(s string) ([]Pattern, error) {
	ps := split(s)
	for _, p := range ps {
		if _, err := regexp.Compile(p.Text); err != nil {
			return nil, err
		}
	}
	return ps, nil
}

// split cuts a list at its commas, blanks around each pattern trimmed and
// empty ones skipped.
func split(s string) []Pattern {
	var out []Pattern
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, Pattern{p})
		}
	}
	return out
}

func (l List) matches(s string) (Pattern, bool) {
	for _, p := range l.Patterns {
		if p.Match(s) {
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
	re := p.re()
	everyone = re.MatchString("") && re.MatchString("any-user") && re.MatchString("x")
	unanchored = !strings.HasPrefix(p.Text, "^")
	return
}
