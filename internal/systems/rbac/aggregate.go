package rbac

import (
	"slices"
	"sort"
)

// settle indexes the bindings and gives every aggregated ClusterRole the
// rules Kubernetes' aggregation controller (pkg/controller/
// clusterroleaggregation) settles on: for each selector in order, the
// ClusterRoles it picks by name, the role itself aside, each rule once;
// when no rule is picked, the controller's apply leaves the role's own
// rules as they are. An aggregated role's rules are those of the roles it
// picks once they are settled, so they are built in the order the roles
// depend on each other.
//
// Roles that pick each other in a ring settle on what the controller's
// order makes them: the rules of every plain ClusterRole they reach are
// surely theirs, the rules an aggregated role among them wrote itself may
// be or not (Maybe), so an answer that only those allow is not known.
func (s *Set) settle() {
	if s.settled {
		return
	}
	s.settled = true
	s.clusterBindings, s.nsBindings = nil, map[string][]*Binding{}
	for _, b := range s.bindings {
		if b.Cluster {
			s.clusterBindings = append(s.clusterBindings, b)
		} else {
			s.nsBindings[b.Namespace] = append(s.nsBindings[b.Namespace], b)
		}
	}
	cluster := s.clusterRolesByName()
	picks := map[*Role][]*Role{}
	for _, r := range cluster {
		r.Unsettled, r.Maybe = false, nil
		if r.Aggregated {
			picks[r] = picked(r, cluster)
		}
	}
	ringed := inRings(cluster, picks)
	done := map[*Role]bool{}
	var build func(r *Role)
	build = func(r *Role) {
		if done[r] {
			return
		}
		done[r] = true
		if reachesRing(r, picks, ringed) {
			settleRinged(r, picks)
			return
		}
		var rules []Rule
		for _, c := range picks[r] {
			if c.Aggregated {
				build(c)
			}
			rules = addRules(rules, c.Rules, c.Name)
		}
		r.Rules = r.own
		if len(rules) > 0 {
			r.Rules = rules
		}
	}
	for _, r := range cluster {
		if r.Aggregated {
			build(r)
		}
	}
}

// picked are the ClusterRoles r's selectors pick, selector by selector
// and by name within one, r aside.
func picked(r *Role, cluster []*Role) []*Role {
	var out []*Role
	for _, sel := range r.Aggregation {
		for _, c := range cluster {
			if c != r && sel.matches(c.Labels) {
				out = append(out, c)
			}
		}
	}
	return out
}

// inRings are the aggregated roles on a ring of picks.
func inRings(cluster []*Role, picks map[*Role][]*Role) map[*Role]bool {
	ringed := map[*Role]bool{}
	for _, r := range cluster {
		if !r.Aggregated {
			continue
		}
		// r is on a ring when it reaches itself
		seen := map[*Role]bool{}
		stack := slices.Clone(picks[r])
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if c == r {
				ringed[r] = true
				break
			}
			if seen[c] || !c.Aggregated {
				continue
			}
			seen[c] = true
			stack = append(stack, picks[c]...)
		}
	}
	return ringed
}

// reachesRing says whether r, or a role it picks through aggregated
// roles, is on a ring.
func reachesRing(r *Role, picks map[*Role][]*Role, ringed map[*Role]bool) bool {
	seen := map[*Role]bool{}
	stack := []*Role{r}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[c] || !c.Aggregated {
			continue
		}
		if ringed[c] {
			return true
		}
		seen[c] = true
		stack = append(stack, picks[c]...)
	}
	return false
}

// settleRinged gives a role that reaches a ring the rules of every plain
// ClusterRole it reaches, and as Maybe the own rules of every aggregated
// role it reaches, itself among them.
func settleRinged(r *Role, picks map[*Role][]*Role) {
	r.Unsettled = true
	var sure, maybe []Rule
	seen := map[*Role]bool{}
	stack := []*Role{r}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[c] {
			continue
		}
		seen[c] = true
		if !c.Aggregated {
			sure = addRules(sure, c.Rules, c.Name)
			continue
		}
		maybe = addRules(maybe, c.own, c.Name)
		for i := len(picks[c]) - 1; i >= 0; i-- {
			stack = append(stack, picks[c][i])
		}
	}
	r.Rules, r.Maybe = sure, maybe
}

// addRules adds the rules of ClusterRole from that rules lacks.
func addRules(rules, add []Rule, from string) []Rule {
	for _, ru := range add {
		if !slices.ContainsFunc(rules, ru.same) {
			if ru.From == "" {
				ru.From = from
			}
			rules = append(rules, ru)
		}
	}
	return rules
}

// clusterRolesByName are the ClusterRoles, sorted by name.
func (s *Set) clusterRolesByName() []*Role {
	var out []*Role
	for _, r := range s.roles {
		if r.Cluster {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// same is the controller's equality of two rules (equality.Semantic: a
// list left out equals an empty one).
func (r Rule) same(o Rule) bool {
	return slices.Equal(r.Verbs, o.Verbs) && slices.Equal(r.APIGroups, o.APIGroups) && slices.Equal(r.Resources, o.Resources) &&
		slices.Equal(r.ResourceNames, o.ResourceNames) && slices.Equal(r.NonResourceURLs, o.NonResourceURLs)
}
