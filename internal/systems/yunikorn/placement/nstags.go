package placement

import (
	"encoding/json"
	"sort"
	"strconv"

	"github.com/aclint/aclint/internal/systems/yunikorn/resources"
)

// namespaceTags are the quota tags the Kubernetes shim adds to every
// application from its namespace's annotations (context.go
// updateApplicationTags): namespace.quota (else the deprecated
// namespace.max.cpu and namespace.max.memory) and namespace.guaranteed as
// the JSON of an si.Resource, cpu in millicores and everything else in
// whole units; namespace.maxApps as written when it is a whole number of
// at least 0. An annotation the shim cannot read adds no tag, as there.
func namespaceTags(a map[string]string) map[string]string {
	out := map[string]string{}
	quota := kubeResource(a[AnnotationQuota])
	if a[AnnotationQuota] == "" && (a[AnnotationMaxCPU] != "" || a[AnnotationMaxMemory] != "") {
		quota = deprecatedQuota(a[AnnotationMaxCPU], a[AnnotationMaxMemory])
	}
	if quota != "" {
		out["namespace.resourcequota"] = quota
	}
	if g := kubeResource(a[AnnotationGuaranteed]); g != "" {
		out["namespace.resourceguaranteed"] = g
	}
	if v := a[AnnotationMaxApps]; v != "" {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			out["namespace.resourcemaxapps"] = v
		}
	}
	return out
}

// kubeResource converts a JSON map of Kubernetes quantities as the shim's
// common.GetResource does; "" when the shim adds no tag (bad JSON, a bad
// quantity, or nothing above zero).
func kubeResource(annotation string) string {
	if annotation == "" {
		return ""
	}
	var m map[string]string
	if json.Unmarshal([]byte(annotation), &m) != nil {
		return ""
	}
	out := map[string]int64{}
	for name, v := range m {
		value, milli, err := resources.ParseKube(v)
		if err != nil {
			return ""
		}
		if name == "cpu" {
			out[resources.CPU] = milli
		} else {
			out[name] = value
		}
	}
	return siResource(out)
}

func deprecatedQuota(cpu, mem string) string {
	out := map[string]int64{}
	if cpu != "" {
		_, milli, err := resources.ParseKube(cpu)
		if err != nil {
			return ""
		}
		out[resources.CPU] = milli
	}
	if mem != "" {
		value, _, err := resources.ParseKube(mem)
		if err != nil {
			return ""
		}
		out["memory"] = value
	}
	return siResource(out)
}

// siResource is json.Marshal of an si.Resource, "" when every quantity is
// zero (the shim's IsZero).
func siResource(r map[string]int64) string {
	zero := true
	names := make([]string, 0, len(r))
	for k, v := range r {
		zero = zero && v == 0
		names = append(names, k)
	}
	if zero {
		return ""
	}
	sort.Strings(names)
	type quantity struct {
		Value int64 `json:"value,omitempty"`
	}
	res := map[string]quantity{}
	for _, k := range names {
		res[k] = quantity{r[k]}
	}
	b, _ := json.Marshal(struct {
		Resources map[string]quantity `json:"resources,omitempty"`
	}{res})
	return string(b)
}
