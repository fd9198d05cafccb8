package rbac

import (
	"fmt"
	"slices"
	"strings"
)

// Kind is a kind of object whose creation puts pods in a namespace: a
// pod, or a workload whose controller creates them (the ones YuniKorn's
// admission controller follows).
type Kind struct{ APIGroup, Resource string }

func (k Kind) String() string {
	if k.APIGroup == "" {
		return k.Resource
	}
	return k.Resource + "." + k.APIGroup
}

// PodMakers are the kinds a subject may create to put pods in a
// namespace: pods, and the workloads whose controllers create them.
func PodMakers() []Kind {
	return []Kind{{"", "pods"}, {"apps", "deployments"}, {"apps", "replicasets"}, {"apps", "statefulsets"},
		{"apps", "daemonsets"}, {"batch", "jobs"}, {"batch", "cronjobs"}}
}

// Creation is whether a subject may put pods in a namespace: the first
// kind of PodMakers RBAC lets it create, with the authorizer's answer,
// or, when none is allowed, why it is not known (a role no file has).
type Creation struct {
	Allowed bool
	Kind    Kind
	Answer  Answer
	Unknown []string
}

// MayCreatePods asks the authorizer, kind by kind, whether u may create
// pods (or a workload that makes them) in namespace.
func (s *Set) MayCreatePods(u User, namespace string) Creation {
	var unknown []string
	for _, k := range PodMakers() {
		a := s.Authorize(u, Request{Verb: "create", APIGroup: k.APIGroup, Resource: k.Resource, Namespace: namespace})
		if a.Allowed {
			return Creation{Allowed: true, Kind: k, Answer: a}
		}
		for _, w := range a.Unknown {
			if !slices.Contains(unknown, w) {
				unknown = append(unknown, w)
			}
		}
	}
	return Creation{Unknown: unknown}
}

// Grant says what allows: the binding, the subject in it, the role and
// its rule, where each is written.
func (a Answer) Grant() string {
	if !a.Allowed {
		return ""
	}
	b, s, ru := a.Binding, a.Binding.Subjects[a.Subject], a.Role.Rules[a.Rule]
	var w strings.Builder
	fmt.Fprintf(&w, "%s%s (%s %s, %s) binds %s %s", b.describe(), b.Name, s.Kind, s.Name, where(b.Pos.String(), b.Bootstrap), a.Role.Kind(), a.Role.Name)
	from := ""
	if ru.From != "" && ru.From != a.Role.Name {
		from = ", aggregated from ClusterRole " + ru.From
	}
	fmt.Fprintf(&w, ", whose rule verbs [%s] resources [%s] apiGroups [%s] allows it (%s%s)",
		strings.Join(ru.Verbs, ","), strings.Join(ru.Resources, ","), strings.Join(quoted(ru.APIGroups), ","), where(ru.Pos.String(), a.Role.Bootstrap && ru.From == ""), from)
	return w.String()
}

func where(pos string, bootstrap bool) string {
	if bootstrap {
		return BootstrapFile
	}
	return pos
}

// quoted writes the core API group, "", so that it shows.
func quoted(groups []string) []string {
	out := make([]string, len(groups))
	for i, g := range groups {
		out[i] = g
		if g == "" {
			out[i] = `""`
		}
	}
	return out
}
