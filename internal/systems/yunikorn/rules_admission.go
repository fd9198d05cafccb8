package yunikorn

import (
	"fmt"
	"sort"
	"strings"

	"github.com/aclint/aclint/internal/systems/yunikorn/admission"
)

// The admission controller decides whose identity reaches YuniKorn's ACL
// check and which pods reach YuniKorn at all. Its settings live in the same
// ConfigMaps as the queue config.

func (p *pass) admission() (admission.Settings, bool) {
	if p.doc.Settings == nil {
		return admission.Settings{}, false
	}
	return admission.Read(p.doc.Settings), true
}

// ruleAdmissionBypassAuth is the rule admission-bypass-auth.
func ruleAdmissionBypassAuth() *Rule {
	return &Rule{
		Name:     "admission-bypass-auth",
		Severity: Warning,
		Summary:  "`admissionController.accessControl.bypassAuth: true`: anyone who can create a pod can name any user, so every ACL is advisory",
		Doc: "With bypassAuth the admission controller keeps whatever `yunikorn.apache.org/user.info` annotation a\n" +
			"pod carries, from anyone: a pod can claim to be any user in any group, and the queue ACLs then check\n" +
			"that claim. Pods without the annotation are not given the submitter's identity either; the shim sends\n" +
			"user `nobody`. Leave bypassAuth false and let trusted controllers (systemUsers) or named external\n" +
			"users and groups set the annotation.",
		Bad: `apiVersion: v1
kind: ConfigMap
metadata:
  name: yunikorn-configs
data:
  admissionController.accessControl.bypassAuth: "true"
  queues.yaml: |
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: " admins"
            queues:
              - name: default
`,
		Good: `apiVersion: v1
kind: ConfigMap
metadata:
  name: yunikorn-configs
data:
  admissionController.accessControl.bypassAuth: "false"
  queues.yaml: |
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: " admins"
            queues:
              - name: default
`,
		check: func(p *pass) {
			s, ok := p.admission()
			if !ok || !s.BypassAuth {
				return
			}
			p.reportf(s.BypassAuthPos, "set it to \"false\"; let controllers in systemUsers, or the users and groups in externalUsers and externalGroups, set the annotation",
				"%s is true: the admission controller keeps the %s annotation of any pod, so anyone who can create a pod can name any user and groups, and every queue ACL is advisory", admission.KeyBypassAuth, admission.AnnotationUserInfo)
		},
	}
}

// ruleAdmissionPatternOpen is the rule admission-pattern-open.
func ruleAdmissionPatternOpen() *Rule {
	return &Rule{
		Name:     "admission-pattern-open",
		Severity: Warning,
		Summary:  "a systemUsers, externalUsers or externalGroups pattern that matches everyone, is unanchored, or does not compile",
		Doc: "These comma-separated regular expressions say who may set a pod's `yunikorn.apache.org/user.info`\n" +
			"annotation, that is, who may claim another identity. Go's regexp matches anywhere in the name unless\n" +
			"anchored: `admin` lets in `not-an-admin`, and `.*` (or an empty alternative) lets in everyone. A\n" +
			"pattern that does not compile makes the admission controller use the setting's default for the\n" +
			"whole list.",
		Bad: `apiVersion: v1
kind: ConfigMap
metadata:
  name: yunikorn-configs
data:
  admissionController.accessControl.externalUsers: "admin,.*-bot"
  queues.yaml: |
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: " admins"
            queues:
              - name: default
`,
		Good: `apiVersion: v1
kind: ConfigMap
metadata:
  name: yunikorn-configs
data:
  admissionController.accessControl.externalUsers: "^admin$,^ci-bot$"
  queues.yaml: |
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: " admins"
            queues:
              - name: default
`,
		check: func(p *pass) {
			s, ok := p.admission()
			if !ok {
				return
			}
			for _, l := range []admission.List{s.SystemUsers, s.ExternalUsers, s.ExternalGroups} {
				if !l.Set {
					continue
				}
				if l.Invalid != "" {
					continue // admission-setting-invalid
				}
				for _, pt := range l.Patterns {
					everyone, unanchored := pt.Open()
					switch {
					case everyone:
						p.reportf(l.Pos, "anchor each pattern and name the users or groups: ^name$",
							"%s has %q, which matches every name: anyone may set the %s annotation and claim any identity", l.Key, pt.Text, admission.AnnotationUserInfo)
					case unanchored:
						p.reportf(l.Pos, fmt.Sprintf("anchor it: ^%s", pt.Text),
							"%s has %q without ^: Go's regexp matches it anywhere in a name, so any name containing it may set the %s annotation", l.Key, pt.Text, admission.AnnotationUserInfo)
					}
				}
			}
		},
	}
}

// ruleAdmissionNamespacesBypass is the rule admission-namespaces-bypass.
func ruleAdmissionNamespacesBypass() *Rule {
	return &Rule{
		Name:     "admission-namespaces-bypass",
		Severity: Info,
		Summary:  "namespaces whose pods the admission controller does not send to YuniKorn: queue ACLs do not apply to them",
		Doc: "Pods in a namespace matching `admissionController.filtering.bypassNamespaces` (default\n" +
			"`^kube-system$`), or matching none of `admissionController.filtering.processNamespaces` when that is\n" +
			"set, are not given YuniKorn as their scheduler: no placement rule or queue ACL ever sees them. The\n" +
			"namespace annotation `yunikorn.apache.org/namespace.enableYuniKorn` overrides both lists. A\n" +
			"pattern that does not compile makes the admission controller use the default for the whole list.",
		Bad: `apiVersion: v1
kind: ConfigMap
metadata:
  name: yunikorn-configs
data:
  admissionController.filtering.bypassNamespaces: "^kube-system$,^batch-"
  queues.yaml: |
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: " admins"
            queues:
              - name: default
`,
		Good: `apiVersion: v1
kind: ConfigMap
metadata:
  name: yunikorn-configs
data:
  admissionController.filtering.bypassNamespaces: "^kube-system$"
  queues.yaml: |
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: " admins"
            queues:
              - name: default
`,
		check: func(p *pass) {
			s, ok := p.admission()
			if !ok {
				return
			}
			for _, l := range []admission.List{s.ProcessNamespaces, s.BypassNamespaces} {
				if !l.Set {
					continue
				}
				if l.Invalid != "" {
					continue // admission-setting-invalid
				}
				var extra []string
				for _, pt := range l.Patterns {
					if l.Key == admission.KeyBypassNamespaces && pt.Text == admission.DefaultBypassNamespaces {
						continue
					}
					extra = append(extra, pt.Text)
				}
				if len(extra) == 0 {
					continue
				}
				sort.Strings(extra)
				what := "namespaces matching " + strings.Join(extra, ", ") + " bypass YuniKorn"
				if l.Key == admission.KeyProcessNamespaces {
					what = "only namespaces matching " + strings.Join(extra, ", ") + " go to YuniKorn; all others bypass it"
				}
				p.reportf(l.Pos, "make sure these pods are meant to be scheduled without YuniKorn's queues",
					"%s: %s, so no placement rule or queue ACL applies to their pods", l.Key, what)
			}
		},
	}
}

// ruleAdmissionSettingInvalid is the rule admission-setting-invalid.
func ruleAdmissionSettingInvalid() *Rule {
	return &Rule{
		Name:     "admission-setting-invalid",
		Severity: Warning,
		Summary:  "an admission controller setting it cannot read: a boolean that is not one, or a list with a pattern that does not compile",
		Doc: "The admission controller reads its booleans with Go's strconv.ParseBool and its lists as\n" +
			"comma-separated Go regular expressions. A value it cannot read is replaced by the setting's\n" +
			"default (for a list, the whole list), silently: `bypassNamespaces: \"^kube-system$,(batch\"` then\n" +
			"bypasses only kube-system.",
		Bad: `apiVersion: v1
kind: ConfigMap
metadata:
  name: yunikorn-configs
data:
  admissionController.accessControl.trustControllers: "yes please"
  queues.yaml: |
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: " admins"
            queues:
              - name: default
`,
		Good: `apiVersion: v1
kind: ConfigMap
metadata:
  name: yunikorn-configs
data:
  admissionController.accessControl.trustControllers: "true"
  queues.yaml: |
    partitions:
      - name: default
        queues:
          - name: root
            submitacl: " admins"
            queues:
              - name: default
`,
		check: func(p *pass) {
			s, ok := p.admission()
			if !ok {
				return
			}
			for _, b := range s.BoolProblems {
				p.reportf(b.Pos, "write true or false", "%s", b.Msg)
			}
			for _, l := range []admission.List{s.SystemUsers, s.ExternalUsers, s.ExternalGroups, s.ProcessNamespaces, s.BypassNamespaces} {
				if l.Set && l.Invalid != "" {
					p.reportf(l.Pos, "fix the regular expression (Go syntax); separate patterns with commas", "%s: a pattern does not compile (%s)", l.Key, l.Invalid)
				}
			}
		},
	}
}
