package yunikorn

import (
	"fmt"
	"reflect"

	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/resources"
)

// limitIssue is one violation of YuniKorn's limit checks.
type limitIssue struct {
	kind string
	pos  config.Position
	msg  string
	hint string
}

// limitIssues runs YuniKorn's limit checks once per lint run: the
// partition/root consistency (checkLimitsStructure), each queue's own
// limits (checkLimit, whose state carries from one limit to the next), and
// the limits against the ancestors' (checkLimitResource,
// checkLimitMaxApplications). Every violation is kept, not only the first.
func (p *pass) limitIssues() []limitIssue {
	p.acls.limitsOnce.Do(func() {
		for _, part := range p.cfg.Partitions {
			p.acls.limitIssues = append(p.acls.limitIssues, p.partitionLimits(part)...)
		}
	})
	return p.acls.limitIssues
}

func (p *pass) partitionLimits(part *config.Partition) []limitIssue {
	var out []limitIssue
	add := func(kind string, pos config.Position, hint, format string, args ...any) {
		out = append(out, limitIssue{kind, pos, fmt.Sprintf(format, args...), hint})
	}
	root := part.Root
	if len(part.Limits) > 0 && len(root.Limits) > 0 && !sameLimits(part.Limits, root.Limits) {
		add("partition-differs", p.doc.NodePos(root.LimitsKey), "keep the limits in one place: remove them from the partition or from root",
			"the limits of partition %s and of its root queue differ (YuniKorn: partition limits and root queue limits are not equivalent)", part.CanonicalName())
	}
	limitsOf := part.LimitsOf
	// each queue's own limits
	root.Walk(func(q *config.Queue) {
		if len(limitsOf(q)) == 0 {
			return
		}
		users, groups := map[string]bool{}, map[string]bool{}
		for li, l := range limitsOf(q) {
			name := l.Limit.Value
			if len(l.Users) == 0 && len(l.Groups) == 0 {
				add("empty", p.doc.NodePos(l.Node), "name the users or groups the limit is for, or remove it",
					"limit %q of %s names no users and no groups (YuniKorn: empty user and group lists defined in limit)", name, q.Path())
			}
			for _, kind := range []string{"user", "group"} {
				list, seen, pattern := l.Users, users, acl.RequestUserPattern
				if kind == "group" {
					list, seen, pattern = l.Groups, groups, acl.ConfigGroupPattern
				}
				for _, u := range list {
					pos := p.doc.NodePos(u.Node)
					switch {
					case u.Value != "*" && !pattern.MatchString(u.Value):
						add("invalid-name", pos, "use a name matching "+pattern.String(),
							"limit %q of %s names %s %q, which YuniKorn does not accept (invalid limit %s name '%s' in limit definition)", name, q.Path(), kind, u.Value, kind, u.Value)
						continue
					case seen[u.Value]:
						add("duplicate", pos, "give each "+kind+" one limit per queue",
							"%s %q has more than one limit on %s (YuniKorn: duplicated %s name '%s')", kind, u.Value, q.Path(), kind, u.Value)
						continue
					}
					seen[u.Value] = true
					if seen["*"] && u.Value != "*" {
						add("after-wildcard", pos, "move the wildcard limit to the end of the limits list",
							"limit %q of %s names %s %q after the wildcard %s limit (YuniKorn: should not set no wildcard %s %s after wildcard %s limit)", name, q.Path(), kind, u.Value, kind, kind, u.Value, kind)
					}
				}
			}
			if groups["*"] && len(groups) == 1 {
				// YuniKorn checks the limits in order: a named group limit
				// after this one does not save it
				later := ""
				for _, nl := range limitsOf(q)[li+1:] {
					for _, g := range nl.Groups {
						if g.Value != "*" && later == "" {
							later = nl.Limit.Value
						}
					}
				}
				for _, g := range l.Groups {
					if g.Value != "*" {
						continue
					}
					if later != "" {
						add("wildcard-group-only", p.doc.NodePos(g.Node), fmt.Sprintf("move limit %q (a named group) before this one", later),
							"the wildcard group limit of %s comes before any named group limit: YuniKorn checks the limits in order, and a named one after it (limit %q) does not count (YuniKorn: should not specify only one group limit that is using the wildcard)", q.Path(), later)
						continue
					}
					add("wildcard-group-only", p.doc.NodePos(g.Node), "add a limit for a named group before the wildcard, or use a queue limit instead",
						"the only group limit of %s is the wildcard, which would just repeat the queue's own limit (YuniKorn: should not specify only one group limit that is using the wildcard)", q.Path())
				}
			}
			res, _ := parseResource(l.MaxResources)
			if len(l.MaxResources.Entries) > 0 && !res.StrictlyPositive() && len(res) == len(l.MaxResources.Entries) {
				add("not-positive", p.doc.NodePos(l.MaxResources.Key), "give every resource of the limit a value above zero",
					"maxresources of limit %q of %s are not all above zero (YuniKorn: MaxResources should be greater than zero in '%s' limit)", name, q.Path(), name)
			}
			if l.MaxApplications == 0 && len(l.MaxResources.Entries) == 0 {
				add("no-limit", p.doc.NodePos(l.Node), "set maxapplications or maxresources, or remove the limit",
					"limit %q of %s limits nothing (YuniKorn: invalid resource combination for limit %s all resource limits are null)", name, q.Path(), name)
			}
			if q.MaxApplications != 0 && q.MaxApplications < l.MaxApplications {
				add("above-queue", p.doc.NodePos(l.MaxAppsNode), fmt.Sprintf("set at most %d, the queue's maxapplications", q.MaxApplications),
					"limit %q allows %d applications, more than %s itself allows (%d) (YuniKorn: invalid MaxApplications settings for limit %s exceed current the queue MaxApplications)", name, l.MaxApplications, q.Path(), q.MaxApplications, name)
			}
			if q.Name.Value != "root" {
				qmax, _ := parseResource(q.Max)
				if !qmax.FitInMaxUndef(res) {
					add("above-queue", p.doc.NodePos(l.MaxResources.Key), "lower the limit to fit the queue's max resources",
						"maxresources of limit %q are larger than the max resources of %s (YuniKorn: invalid MaxResources settings for limit %s exeecd current the queue MaxResources)", name, q.Path(), name)
				}
			}
		}
	})
	// limits against the ancestors' limits, resources and applications
	var walk func(q *config.Queue, userRes, groupRes map[string]resources.Resource, userApps, groupApps map[string]uint64)
	walk = func(q *config.Queue, userRes, groupRes map[string]resources.Resource, userApps, groupApps map[string]uint64) {
		if len(limitsOf(q)) == 0 {
			for _, c := range q.Children { // nothing changes here: hand the ancestors' limits down
				walk(c, userRes, groupRes, userApps, groupApps)
			}
			return
		}
		curUR, curGR := copyRes(userRes), copyRes(groupRes)
		curUA, curGA := copyApps(userApps), copyApps(groupApps)
		for _, l := range limitsOf(q) {
			res, _ := parseResource(l.MaxResources)
			for _, kind := range []string{"user", "group"} {
				list, parentR, curR, parentA, curA := l.Users, userRes, curUR, userApps, curUA
				if kind == "group" {
					list, parentR, curR, parentA, curA = l.Groups, groupRes, curGR, groupApps, curGA
				}
				for _, u := range list {
					if existing, ok := parentR[u.Value]; ok {
						if !existing.FitInMaxUndef(res) {
							add("above-ancestor", p.doc.NodePos(l.MaxResources.Key), "lower the limit to fit the ancestor's",
								"%s %s max resources %s on %s are larger than an ancestor's limit %s (YuniKorn: %s %s max resource ... is greater than immediate or ancestor parent maximum resource)", kind, u.Value, res, q.Path(), existing, kind, u.Value)
						}
						curR[u.Value] = resources.Min(res, existing)
					} else if wild, ok := parentR["*"]; u.Value != "*" && ok {
						if !wild.FitInMaxUndef(res) {
							add("above-ancestor", p.doc.NodePos(l.MaxResources.Key), "lower the limit to fit the ancestor's wildcard limit",
								"%s %s max resources %s on %s are larger than an ancestor's wildcard %s limit %s (YuniKorn: ... is greater than wildcard maximum resource ... of immediate or ancestor parent queue)", kind, u.Value, res, q.Path(), kind, wild)
						}
						curR[u.Value] = res
					} else {
						curR[u.Value] = res
					}
					apps := l.MaxApplications
					if existing, ok := parentA[u.Value]; ok {
						if existing != 0 && (existing < apps || apps == 0) {
							add("above-ancestor", p.doc.NodePos(orNode(l.MaxAppsNode, l.Node)), fmt.Sprintf("set maxapplications to at most %d", existing),
								"%s %s may run %s applications on %s, more than an ancestor's limit of %d (YuniKorn: %s %s max applications %d of queue %s is greater than immediate or ancestor parent max applications %d)", kind, u.Value, appsText(apps), q.Path(), existing, kind, u.Value, apps, q.Name.Value, existing)
						}
						curA[u.Value] = apps
					} else if wild, ok := parentA["*"]; u.Value != "*" && ok {
						if wild != 0 && (wild < apps || apps == 0) {
							add("above-ancestor", p.doc.NodePos(orNode(l.MaxAppsNode, l.Node)), fmt.Sprintf("set maxapplications to at most %d", wild),
								"%s %s may run %s applications on %s, more than an ancestor's wildcard limit of %d (YuniKorn: %s %s max applications %d of queue %s is greater than wildcard max applications %d of immediate or ancestor parent queue)", kind, u.Value, appsText(apps), q.Path(), wild, kind, u.Value, apps, q.Name.Value, wild)
						}
						curA[u.Value] = apps
					} else {
						curA[u.Value] = apps
					}
				}
			}
		}
		for _, c := range q.Children {
			walk(c, curUR, curGR, curUA, curGA)
		}
	}
	walk(root, nil, nil, nil, nil)
	return out
}

func appsText(n uint64) string {
	if n == 0 {
		return "unlimited"
	}
	return fmt.Sprint(n)
}

func orNode[T comparable](a, b T) T {
	var zero T
	if a != zero {
		return a
	}
	return b
}

func copyRes(m map[string]resources.Resource) map[string]resources.Resource {
	out := make(map[string]resources.Resource, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func copyApps(m map[string]uint64) map[string]uint64 {
	out := make(map[string]uint64, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// sameLimits is reflect.DeepEqual over YuniKorn's Limit structs.
func sameLimits(a, b []*config.Limit) bool {
	type limit struct {
		Limit         string
		Users, Groups []string
		MaxResources  map[string]string
		MaxApps       uint64
	}
	conv := func(ls []*config.Limit) []limit {
		var out []limit
		for _, l := range ls {
			x := limit{Limit: l.Limit.Value, MaxResources: l.MaxResources.Entries, MaxApps: l.MaxApplications}
			if l.UsersList {
				x.Users = []string{}
			}
			if l.GroupsList {
				x.Groups = []string{}
			}
			for _, u := range l.Users {
				x.Users = append(x.Users, u.Value)
			}
			for _, g := range l.Groups {
				x.Groups = append(x.Groups, g.Value)
			}
			out = append(out, x)
		}
		return out
	}
	return reflect.DeepEqual(conv(a), conv(b))
}

// limitRule makes one kind of limit violation a rule.
func limitRule(kind string, r *Rule) *Rule {
	r.Severity = Error
	r.check = func(p *pass) {
		for _, is := range p.limitIssues() {
			if is.kind == kind {
				p.reportf(is.pos, is.hint, "%s", is.msg)
			}
		}
	}
	return r
}

const limitsBase = `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
`

// limitRules are the limits rules, each checking one kind of the issues
// limitIssues finds.
func limitRules() []*Rule {
	return []*Rule{
		limitRule("empty", &Rule{Name: "limit-empty", Summary: "a limit that names no users and no groups",
			Doc:  "Every entry of `limits` applies to the users or groups it names; one with neither is rejected:\n`empty user and group lists defined in limit`.",
			Bad:  limitsBase + "            limits:\n              - limit: nobody\n                maxapplications: 5\n",
			Good: limitsBase + "            limits:\n              - limit: everyone\n                users: [\"*\"]\n                maxapplications: 5\n"}),
		limitRule("invalid-name", &Rule{Name: "limit-invalid-name", Summary: "a limit for a user or group name YuniKorn does not accept",
			Doc:  "Limits take user names matching `^[_a-zA-Z][a-zA-Z0-9:#/_.@-]*[$]?$`, group names matching\n`^[_a-zA-Z][a-zA-Z0-9:_.-]*$`, or `*`; anything else rejects the config.",
			Bad:  limitsBase + "            limits:\n              - limit: interns\n                groups: [\"2024-interns\"]\n                maxapplications: 5\n",
			Good: limitsBase + "            limits:\n              - limit: interns\n                groups: [\"interns-2024\"]\n                maxapplications: 5\n"}),
		limitRule("duplicate", &Rule{Name: "limit-duplicate-name", Summary: "a user or group with more than one limit on the same queue",
			Doc:  "Each user and group may appear in one limit of a queue: `duplicated user name 'sue', already exists`.",
			Bad:  limitsBase + "            limits:\n              - limit: a\n                users: [sue]\n                maxapplications: 5\n              - limit: b\n                users: [sue, bob]\n                maxapplications: 3\n",
			Good: limitsBase + "            limits:\n              - limit: a\n                users: [sue]\n                maxapplications: 5\n              - limit: b\n                users: [bob]\n                maxapplications: 3\n"}),
		limitRule("after-wildcard", &Rule{Name: "limit-after-wildcard", Summary: "a named user or group limit after the wildcard limit",
			Doc:  "The wildcard limit applies to everyone not named before it, so it must come last among a queue's\nlimits: `should not set no wildcard user bob after wildcard user limit`.",
			Bad:  limitsBase + "            limits:\n              - limit: everyone\n                users: [\"*\"]\n                maxapplications: 2\n              - limit: bob\n                users: [bob]\n                maxapplications: 5\n",
			Good: limitsBase + "            limits:\n              - limit: bob\n                users: [bob]\n                maxapplications: 5\n              - limit: everyone\n                users: [\"*\"]\n                maxapplications: 2\n"}),
		limitRule("wildcard-group-only", &Rule{Name: "limit-wildcard-group-only", Summary: "a wildcard group limit with no named group limit before it",
			Doc:  "A wildcard group limit caps every user of the queue together, which is the queue's own limit;\nYuniKorn requires a named group limit first: `should not specify only one group limit that is using\nthe wildcard`.",
			Bad:  limitsBase + "            limits:\n              - limit: all\n                groups: [\"*\"]\n                maxapplications: 10\n",
			Good: limitsBase + "            limits:\n              - limit: data\n                groups: [data]\n                maxapplications: 5\n              - limit: all\n                groups: [\"*\"]\n                maxapplications: 10\n"}),
		limitRule("not-positive", &Rule{Name: "limit-not-positive", Summary: "limit maxresources that are not all above zero",
			Doc:  "A limit's `maxresources` must be positive: a zero for every type is rejected (`MaxResources should\nbe greater than zero`). To forbid a user, leave it out of the ACLs instead.",
			Bad:  limitsBase + "            limits:\n              - limit: interns\n                groups: [interns]\n                maxresources: {memory: 0}\n",
			Good: limitsBase + "            limits:\n              - limit: interns\n                groups: [interns]\n                maxresources: {memory: 10G}\n"}),
		limitRule("no-limit", &Rule{Name: "limit-no-limit", Summary: "a limit with neither maxapplications nor maxresources",
			Doc:  "A limit must limit something: `invalid resource combination for limit ... all resource limits are null`.",
			Bad:  limitsBase + "            limits:\n              - limit: interns\n                groups: [interns]\n",
			Good: limitsBase + "            limits:\n              - limit: interns\n                groups: [interns]\n                maxapplications: 2\n"}),
		limitRule("above-queue", &Rule{Name: "limit-above-queue", Summary: "a limit above the queue's own maxapplications or max resources",
			Doc:  "A user or group cannot be allowed more than the whole queue: YuniKorn rejects a limit whose\n`maxapplications` or `maxresources` exceed the queue's.",
			Bad:  limitsBase + "            maxapplications: 10\n            resources:\n              max: {memory: 10G}\n            limits:\n              - limit: sue\n                users: [sue]\n                maxapplications: 20\n                maxresources: {memory: 20G}\n",
			Good: limitsBase + "            maxapplications: 10\n            resources:\n              max: {memory: 10G}\n            limits:\n              - limit: sue\n                users: [sue]\n                maxapplications: 5\n                maxresources: {memory: 5G}\n"}),
		limitRule("above-ancestor", &Rule{Name: "limit-above-ancestor", Summary: "a limit above an ancestor's limit for the same user or group, or above an ancestor's wildcard limit",
			Doc:  "Limits only narrow going down the tree: a queue's limit for a user or group (or for anyone under an\nancestor's wildcard limit) may not allow more resources or applications than the ancestor's; an\nunlimited (0) maxapplications counts as more.",
			Bad:  "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: \"*\"\n        limits:\n          - limit: sue\n            users: [sue]\n            maxapplications: 5\n        queues:\n          - name: batch\n            limits:\n              - limit: sue\n                users: [sue]\n                maxapplications: 10\n",
			Good: "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: \"*\"\n        limits:\n          - limit: sue\n            users: [sue]\n            maxapplications: 5\n        queues:\n          - name: batch\n            limits:\n              - limit: sue\n                users: [sue]\n                maxapplications: 3\n"}),
		limitRule("partition-differs", &Rule{Name: "partition-limits-differ", Summary: "limits on both the partition and its root queue that differ",
			Doc:  "Partition limits are root's limits: set them in one place. When both are set they must be equal\n(compared exactly, an empty list differs from a missing one): `partition limits and root queue limits\nare not equivalent`.",
			Bad:  "partitions:\n  - name: default\n    limits:\n      - limit: sue\n        users: [sue]\n        maxapplications: 5\n    queues:\n      - name: root\n        submitacl: \"*\"\n        limits:\n          - limit: sue\n            users: [sue]\n            maxapplications: 10\n",
			Good: "partitions:\n  - name: default\n    limits:\n      - limit: sue\n        users: [sue]\n        maxapplications: 5\n    queues:\n      - name: root\n        submitacl: \"*\"\n        queues:\n          - name: default\n"}),
	}
}
