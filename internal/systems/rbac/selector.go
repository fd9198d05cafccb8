package rbac

import (
	"slices"
	"sort"
)

// matches says whether labels satisfy a selector, as a labels.Selector
// built by LabelSelectorAsSelector does: every matchLabels pair and every
// requirement (NotIn and DoesNotExist hold where the label is absent); a
// selector with neither selects everything.
func (sel Selector) matches(labels map[string]string) bool {
	for k, v := range sel.MatchLabels {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	for _, e := range sel.Exprs {
		got, ok := labels[e.Key]
		switch e.Operator {
		case "In":
			if !ok || !slices.Contains(e.Values, got) {
				return false
			}
		case "NotIn":
			if ok && slices.Contains(e.Values, got) {
				return false
			}
		case "Exists":
			if !ok {
				return false
			}
		case "DoesNotExist":
			if ok {
				return false
			}
		}
	}
	return true
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
