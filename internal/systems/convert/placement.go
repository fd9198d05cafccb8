package convert

import (
	"fmt"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/internal/systems/yarn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

// YARN's placement carried into YuniKorn placement rules. YuniKorn's rules
// descend from the Fair Scheduler's: provided, user and fixed (with a
// filter of users and groups, a parent rule and create) carry specified,
// user, nestedUserQueue, default and the Capacity Scheduler's u: and g:
// mappings. YuniKorn has no group rule: a rule that places by a group
// (primaryGroup, secondaryGroupExistingQueue, %primary_group) is carried,
// where its queues exist, as one fixed rule per queue with a group filter,
// which matches any of the user's groups; reject, a:, and set rules are
// not carried. The proof (placement_proof.go) names whoever the rules
// place differently.

// rules collects the YuniKorn rules and what was not carried.
type rules struct {
	nodes []*yaml.Node
	notes []string
	// parents are the queues fixed parent rules name
	parents map[string]bool
}

func (rs *rules) add(n *yaml.Node) {
	rs.nodes = append(rs.nodes, n)
	// a rule's fixed parent must be marked parent: true in the tree
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != "parent" {
			continue
		}
		p := n.Content[i+1]
		for j := 0; j+1 < len(p.Content); j += 2 {
			if p.Content[j].Value == "value" {
				if rs.parents == nil {
					rs.parents = map[string]bool{}
				}
				rs.parents[p.Content[j+1].Value] = true
			}
		}
	}
}

func (rs *rules) note(format string, args ...any) {
	rs.notes = append(rs.notes, fmt.Sprintf(format, args...))
}

func boolNode(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Value: fmt.Sprint(b), Tag: "!!bool"}
}

// rule is one YuniKorn placement rule: name, create, value, parent,
// filter, in that order.
func rule(name string, create bool, value string, parent, filter *yaml.Node) *yaml.Node {
	n := mapping("name", str(name), "create", boolNode(create))
	if value != "" {
		n.Content = append(n.Content, str("value"), str(value))
	}
	if parent != nil {
		n.Content = append(n.Content, str("parent"), parent)
	}
	if filter != nil {
		n.Content = append(n.Content, str("filter"), filter)
	}
	return n
}

// filterEntry is a user or group name as a YuniKorn filter matches it
// exactly: the name itself when YuniKorn takes it as a name, else an
// anchored expression (a name with a regexp character would be one, and
// one its name pattern refuses would match no one).
func filterEntry(name string, group bool) string {
	pattern := acl.RequestUserPattern
	if group {
		pattern = acl.ConfigGroupPattern
	}
	if !acl.SpecialPattern.MatchString(name) && pattern.MatchString(name) {
		return name
	}
	return "^" + regexp.QuoteMeta(name) + "$"
}

// filter is an allow filter of one user or one group; nil for none.
func filter(users, groups []string) *yaml.Node {
	if len(users) == 0 && len(groups) == 0 {
		return nil
	}
	n := mapping("type", str("allow"))
	seq := func(names []string, group bool) *yaml.Node {
		s := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
		for _, v := range names {
			s.Content = append(s.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: filterEntry(v, group), Style: yaml.DoubleQuotedStyle})
		}
		return s
	}
	if len(users) > 0 {
		n.Content = append(n.Content, str("users"), seq(users, false))
	}
	if len(groups) > 0 {
		n.Content = append(n.Content, str("groups"), seq(groups, true))
	}
	return n
}

// placementRules carries YARN's placement into YuniKorn rules; an error
// when YARN's own placement is not known (a policy from a yarn-site.xml
// not given, rules in a file aclint does not read).
func placementRules(s *yarn.Setup) (*rules, error) {
	if s.FS {
		return fsRules(s)
	}
	return csRules(s)
}

// groupQueues are the queues a group rule can place in: every queue below
// under (a leaf when leaf is set, a parent otherwise) whose name YuniKorn
// takes as a group filter entry.
func groupQueues(s *yarn.Setup, under *yarn.Queue, leaf bool, parent func(*yarn.Queue) bool) []*yarn.Queue {
	var out []*yarn.Queue
	for _, q := range under.Children {
		if q.Repeat || parent(q) == leaf || Stopped(s, q) || !acl.ValidQueueName(q.Name) {
			continue
		}
		out = append(out, q)
	}
	return out
}

// parentOK says whether a queue can be a fixed parent rule's: a parent
// queue of the tree, or (create) one that does not exist yet.
func parentOK(s *yarn.Setup, path string, create bool) bool {
	if stoppedAt(s, path) != nil {
		return false // left out of the config, and YARN rejects what lands there
	}
	q := s.CS.ByPath[path]
	if q == nil {
		return create
	}
	return q == s.CS.Root || q.IsParentQueue()
}

// stoppedAt is the queue that makes path take no application in YARN: the
// queue itself when it is STOPPED, or, for a queue a rule would create, the
// nearest queue above it that exists, when that one is STOPPED (a queue
// created under a STOPPED parent takes its state). Such queues are left
// out of the config, so a rule that places there is too. nil: none.
func stoppedAt(s *yarn.Setup, path string) *yarn.Queue {
	for p := path; p != ""; {
		if q := s.CS.ByPath[p]; q != nil {
			if Stopped(s, q) {
				return q
			}
			return nil
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			return nil
		}
		p = p[:i]
	}
	return nil
}

// stoppedWhy says what became of a rule that places in a queue YARN takes
// no application in (stoppedAt).
func stoppedWhy(q *yarn.Queue, path string) string {
	where := path + " is STOPPED in YARN"
	if q.Path != path {
		where = path + " would be created under " + q.Path + ", which is STOPPED in YARN (a queue created there takes its state)"
	}
	return where + ": YARN rejects every application the rule places there, and the queue is left out of the YuniKorn config, so the rule is too (YuniKorn tries the next rule for those applications, which the proof lists)"
}

// fixedWhy says why a rule that places in one queue cannot be a YuniKorn
// fixed rule: the queue does not exist and the rule may not create it (it
// never places, in YARN either), or it is a parent queue (YARN rejects
// what it places there; YuniKorn refuses such a rule); "" when it can.
func fixedWhy(s *yarn.Setup, path string, create bool) string {
	if at := stoppedAt(s, path); at != nil && !at.IsParentQueue() || at != nil && at.Path != path {
		return stoppedWhy(at, path)
	}
	q := s.CS.ByPath[path]
	switch {
	case q == nil && !create:
		return path + " does not exist and the rule may not create it, so it never places (in YARN either)"
	case q != nil && (q == s.CS.Root || q.IsParentQueue()):
		return path + " is a parent queue: YARN rejects what the rule places there, and YuniKorn refuses a rule that places in a parent"
	case q == nil && !strings.HasPrefix(path, "root."):
		return path + " is no full queue path"
	}
	return ""
}

func csRules(s *yarn.Setup) (*rules, error) {
	pl, ref := s.StartPlacement()
	if ref != nil {
		return nil, fmt.Errorf("the Capacity Scheduler refuses to start with these placement rules: %q", ref.Message)
	}
	if pl.Unknown != "" {
		return nil, fmt.Errorf("%s: where YARN places applications is not known, so the conversion would not be proven", pl.Unknown)
	}
	rs := &rules{parents: map[string]bool{}}
	// a queue that creates queues at submission is a parent queue, with
	// children or not: so it is in YuniKorn
	for _, q := range s.CS.ByPath {
		if pl.Parent(q) && !q.IsParentQueue() {
			rs.parents[q.Path] = true
		}
	}
	if !pl.Override {
		// an application that names a queue goes there: the rules place
		// only those that name none (or default)
		rs.add(rule("provided", false, "", nil, nil))
	}
	for _, v := range pl.Views() {
		if !csRule(s, pl, v, rs) {
			where := ""
			if v.From != nil {
				where = fmt.Sprintf(" (%s:%d:%d)", v.From.File, v.From.ValuePos.Line, v.From.ValuePos.Col)
			}
			rs.note("placement rule %s%s: YuniKorn has no rule that does what it does, so it is not carried (YuniKorn gives what it placed to the next rule: the differences below, by cause)", v.Text, where)
		}
	}
	if pl.Override {
		rs.add(rule("provided", false, "", nil, nil))
	}
	return rs, nil
}

// csRule carries one Capacity Scheduler mapping; false when YuniKorn has
// no rule for it.
func csRule(s *yarn.Setup, pl *yarn.CSPlacement, v yarn.RuleView, rs *rules) bool {
	var users, groups []string
	switch v.Match {
	case "all":
	case "user":
		users = []string{v.Value}
	case "group":
		groups = []string{v.Value}
	default:
		return false // an application's name: YuniKorn places by none
	}
	if v.Action != "place" || v.Match != "all" && strings.Contains(v.Value, "%") {
		return false
	}
	f := filter(users, groups)
	t := v.Target
	switch {
	case t == "%specified":
		rs.add(rule("provided", v.Create, "", nil, f))
	case t == "%user":
		rs.add(rule("user", false, "", nil, f))
	case strings.HasSuffix(t, ".%user") && !strings.Contains(strings.TrimSuffix(t, ".%user"), "%"):
		parent := strings.TrimSuffix(t, ".%user")
		if q := pl.Queue(parent); q != nil {
			parent = q.Path
		}
		if q := s.CS.ByPath[parent]; q == nil || !pl.Parent(q) {
			return false // the Capacity Scheduler refuses it at start
		}
		if at := stoppedAt(s, parent); at != nil {
			rs.note("placement rule %s: %s; not carried", v.Text, stoppedWhy(at, parent+".%user"))
			return true
		}
		rs.add(rule("user", v.Create, "", rule("fixed", false, parent, nil, nil), f))
	case t == "%primary_group" || t == "%secondary_group":
		// a queue named after the group: one fixed rule per leaf
		var walk func(q *yarn.Queue)
		walk = func(q *yarn.Queue) {
			for _, c := range groupQueues(s, q, true, pl.Parent) {
				rs.add(rule("fixed", false, c.Path, nil, filter(users, []string{c.Name})))
			}
			for _, c := range groupQueues(s, q, false, pl.Parent) {
				walk(c)
			}
		}
		walk(s.CS.Root)
		rs.note("placement rule %s: YuniKorn has no group rule; carried as one fixed rule per queue named like a group, whose filter matches any of the user's groups, not only the %s (the group-filter differences)", v.Text, strings.TrimPrefix(t, "%"))
	case t == "%primary_group.%user" || t == "%secondary_group.%user":
		var walk func(q *yarn.Queue)
		walk = func(q *yarn.Queue) {
			for _, c := range groupQueues(s, q, false, pl.Parent) {
				rs.add(rule("user", v.Create, "", rule("fixed", false, c.Path, nil, nil), filter(users, []string{c.Name})))
				walk(c)
			}
		}
		walk(s.CS.Root)
		rs.note("placement rule %s: YuniKorn has no group rule; carried as one user rule per parent queue named like a group, whose filter matches any of the user's groups, not only the %s (the group-filter differences)", v.Text, strings.TrimSuffix(strings.TrimPrefix(t, "%"), ".%user"))
	case !strings.Contains(t, "%"):
		path := t
		if q := pl.Queue(t); q != nil {
			path = q.Path
		}
		if why := fixedWhy(s, path, v.Create); why != "" {
			rs.note("placement rule %s: %s; not carried", v.Text, why)
			return true
		}
		rs.add(rule("fixed", v.Create && s.CS.ByPath[path] == nil, path, nil, f))
	default:
		return false
	}
	return true
}

// fsParent says whether an allocation file's queue is a parent queue.
func fsParent(s *yarn.Setup) func(*yarn.Queue) bool {
	return func(q *yarn.Queue) bool { return q == s.CS.Root || q.IsParentQueue() }
}

func fsRules(s *yarn.Setup) (*rules, error) {
	fr, from, unknown := s.FSRules()
	if unknown != "" {
		return nil, fmt.Errorf("%s: where YARN places applications is not known, so the conversion would not be proven", unknown)
	}
	rs := &rules{}
	rs.note("placement: %s", from)
	for _, r := range fr {
		if !fsRule(s, r, rs) {
			rs.note("placement rule %s: YuniKorn has no rule that does what it does, so it is not carried (YuniKorn gives what it placed to the next rule: the differences below, by cause)", r.Text())
		}
	}
	return rs, nil
}

// fsRule carries one Fair Scheduler rule; false when YuniKorn has none.
func fsRule(s *yarn.Setup, r *yarn.FSRule, rs *rules) bool {
	switch r.Name {
	case "specified":
		rs.add(rule("provided", r.Create, "", nil, nil))
	case "user":
		rs.add(rule("user", r.Create, "", nil, nil))
	case "default":
		if why := fixedWhy(s, r.Queue, r.Create); why != "" {
			rs.note("placement rule %s: %s; not carried", r.Text(), why)
			return true
		}
		rs.add(rule("fixed", r.Create, r.Queue, nil, nil))
	case "nestedUserQueue":
		switch p := r.Parent; p.Name {
		case "default":
			if !parentOK(s, p.Queue, p.Create && r.Create) {
				rs.note("placement rule %s: its parent rule gives %s, which is a leaf queue or does not exist, so it never places (in YARN either); not carried", r.Text(), p.Queue)
				return true
			}
			rs.add(rule("user", r.Create, "", rule("fixed", p.Create && s.CS.ByPath[p.Queue] == nil, p.Queue, nil, nil), nil))
		case "specified":
			rs.add(rule("user", r.Create, "", rule("provided", p.Create, "", nil, nil), nil))
		case "user":
			rs.add(rule("user", r.Create, "", rule("user", p.Create, "", nil, nil), nil))
		case "primaryGroup", "secondaryGroupExistingQueue":
			for _, c := range groupQueues(s, s.CS.Root, false, fsParent(s)) {
				rs.add(rule("user", r.Create, "", rule("fixed", false, c.Path, nil, nil), filter(nil, []string{c.Name})))
			}
			rs.note("placement rule %s: YuniKorn has no group rule; carried as one user rule per parent queue named like a group, whose filter matches any of the user's groups (the group-filter differences)", r.Text())
		default:
			return false
		}
	case "primaryGroup", "secondaryGroupExistingQueue":
		for _, c := range groupQueues(s, s.CS.Root, true, fsParent(s)) {
			rs.add(rule("fixed", false, c.Path, nil, filter(nil, []string{c.Name})))
		}
		rs.note("placement rule %s: YuniKorn has no group rule; carried as one fixed rule per queue named like a group, whose filter matches any of the user's groups (the group-filter differences)", r.Text())
	default:
		return false // reject: YuniKorn has no rule that rejects
	}
	return true
}
