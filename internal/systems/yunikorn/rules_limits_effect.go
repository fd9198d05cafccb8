package yunikorn

import (
	"fmt"
	"sort"
	"strings"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// Rules on limits YuniKorn accepts but that do not do what they seem to
// say, from its user and group manager (ugm/manager.go ensureGroup, and a
// named user limit replacing the wildcard user limit of its queue in
// queue_tracker.go setLimit).

// ruleGroupLimitNeverApplies is the rule group-limit-never-applies.
func ruleGroupLimitNeverApplies() *Rule {
	return &Rule{
		Name:     "group-limit-never-applies",
		Severity: Warning,
		Summary:  "a group limit that no application is ever tracked under",
		Doc: "YuniKorn tracks each application under one group: searching from the application's queue up to\n" +
			"root, at each level the named group limits in config order, then that level's wildcard group\n" +
			"limit. A wildcard group limit therefore catches every application below it whose user's groups\n" +
			"it meets first, and a group's limit higher up never sees them. When every queue an application\n" +
			"can run in below a group limit has such a wildcard on the way up (and the group is not named\n" +
			"there before it), the group's limit applies to nobody. (Queues placement may create count as\n" +
			"places an application can run when the partition has a placement rule with create: true.)",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        limits:
          - limit: analysts
            groups: [analysts]
            maxapplications: 10
        queues:
          - name: reports
            limits:
              - limit: ops
                groups: [ops]
                maxapplications: 3
              - limit: everyone else
                groups: ["*"]
                maxapplications: 2
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        limits:
          - limit: analysts
            groups: [analysts]
            maxapplications: 10
        queues:
          - name: reports
            limits:
              - limit: ops
                groups: [ops]
                maxapplications: 3
              - limit: analysts
                groups: [analysts]
                maxapplications: 5
              - limit: everyone else
                groups: ["*"]
                maxapplications: 2
`,
		check: func(p *pass) {
			// the manager holds the last partition's limits, keyed by path, and
			// applications of every partition meet them by their queue's path
			last := limitsPartition(p.cfg)
			if last == nil {
				return
			}
			named, wild := map[string]map[string]bool{}, map[string]bool{}
			last.Root.Walk(func(q *config.Queue) {
				if w := q.WrittenPath(); w != strings.ToLower(w) {
					return // filed under a path no application has
				}
				for _, l := range last.LimitsOf(q) {
					for _, g := range l.Groups {
						if g.Value == "*" {
							wild[q.Path()] = true
						} else if g.Value != "" {
							if named[q.Path()] == nil {
								named[q.Path()] = map[string]bool{}
							}
							named[q.Path()][g.Value] = true
						}
					}
				}
			})
			// where an application can run: a leaf, or a new queue under any
			// parent of a partition whose placement rules create queues
			var starts []string
			for _, part := range p.cfg.Partitions {
				creates := createsQueues(part)
				part.Root.Walk(func(q *config.Queue) {
					if q.IsLeaf() || creates {
						starts = append(starts, q.Path())
					}
				})
			}
			last.Root.Walk(func(a *config.Queue) {
				if w := a.WrittenPath(); w != strings.ToLower(w) {
					return // limit-path-case says why these never apply
				}
				for _, l := range last.LimitsOf(a) {
					for _, g := range l.Groups {
						if g.Value == "" || g.Value == "*" {
							continue
						}
						if by := groupBlocked(a.Path(), g.Value, starts, named, wild); by != "" {
							p.reportf(p.doc.NodePos(g.Node), fmt.Sprintf("name group %s in the limits of %s before its wildcard, or move this limit there", g.Value, by),
								"the limit %q for group %s on %s never applies: every queue an application can run in below it meets the wildcard group limit of %s first, so its members' applications are tracked under the wildcard group instead", l.Limit.Value, g.Value, a.Path(), by)
						}
					}
				}
			})
		},
	}
}

// groupBlocked returns the path whose wildcard group limit keeps every
// application below path a from being tracked under group g, or "" when
// some application can be: walking from where it runs up to a (not
// included), the first level that names g or has a wildcard group limit
// decides (ensureGroupInternal), and reaching a undecided lets g's limit
// there apply.
func groupBlocked(a, g string, starts []string, named map[string]map[string]bool, wild map[string]bool) string {
	by := ""
	for _, s := range starts {
		if s != a && !strings.HasPrefix(s, a+".") {
			continue
		}
		blocked := false
		for x := s; x != a; x = x[:strings.LastIndexByte(x, '.')] {
			if named[x][g] {
				break
			}
			if wild[x] {
				blocked = true
				if by == "" {
					by = x
				}
				break
			}
		}
		if !blocked {
			return ""
		}
	}
	return by
}

// ruleUserLimitEscapesWildcard is the rule user-limit-escapes-wildcard.
func ruleUserLimitEscapesWildcard() *Rule {
	return &Rule{
		Name:     "user-limit-escapes-wildcard",
		Severity: Warning,
		Summary:  "a named user limit that looks stricter than the wildcard user limit of its queue but leaves out a figure the wildcard sets",
		Doc: "On the queue where it is written, a named user's limit replaces the wildcard user limit: YuniKorn\n" +
			"does not combine the two. A named limit that is stricter in one figure but sets no maxapplications\n" +
			"or no quantity of a resource the wildcard limits gives that user no limit at all for that figure\n" +
			"on the queue, while every other user is held to the wildcard's.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            limits:
              - limit: intern
                users: [intern]
                maxapplications: 1
              - limit: everyone
                users: ["*"]
                maxapplications: 5
                maxresources: {vcore: 8}
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            limits:
              - limit: intern
                users: [intern]
                maxapplications: 1
                maxresources: {vcore: 2}
              - limit: everyone
                users: ["*"]
                maxapplications: 5
                maxresources: {vcore: 8}
`,
		check: func(p *pass) {
			for _, part := range p.cfg.Partitions {
				part.Root.Walk(func(q *config.Queue) {
					lims := part.LimitsOf(q)
					var wild *config.Limit
					for _, l := range lims {
						for _, u := range l.Users {
							if u.Value == "*" {
								wild = l
							}
						}
					}
					if wild == nil {
						return
					}
					wres, _ := parseResource(wild.MaxResources)
					for _, l := range lims {
						if l == wild {
							continue
						}
						res, _ := parseResource(l.MaxResources)
						stricter := wild.MaxApplications != 0 && l.MaxApplications != 0 && l.MaxApplications <= wild.MaxApplications
						var missing []string
						if wild.MaxApplications != 0 && l.MaxApplications == 0 {
							missing = append(missing, fmt.Sprintf("maxapplications (the wildcard's is %d)", wild.MaxApplications))
						}
						for k, v := range wres {
							w, ok := res[k]
							if ok && w <= v {
								stricter = true
							}
							if !ok {
								missing = append(missing, fmt.Sprintf("%s (the wildcard's is %s)", k, wild.MaxResources.Entries[k]))
							}
						}
						if !stricter || len(missing) == 0 {
							continue
						}
						sort.Strings(missing)
						for _, u := range l.Users {
							if u.Value == "" || u.Value == "*" {
								continue
							}
							p.reportf(p.doc.NodePos(u.Node), "give limit "+fmt.Sprintf("%q", l.Limit.Value)+" the figures the wildcard sets, at most as large",
								"limit %q for user %s on %s replaces the wildcard user limit there and sets no %s: %s has no such limit on %s, while every other user has", l.Limit.Value, u.Value, q.Path(), strings.Join(missing, " and no "), u.Value, q.Path())
						}
					}
				})
			}
		},
	}
}

// ruleLimitsUnreachable is the rule limits-unreachable.
func ruleLimitsUnreachable() *Rule {
	return &Rule{
		Name:     "limits-unreachable",
		Severity: Warning,
		Summary:  "limits on a queue where no application can run",
		Doc: "Limits only count applications that run at or below their queue, and an application runs only\n" +
			"where its user may submit: the submitacl or adminacl of the queue or of an ancestor lets them in.\n" +
			"When every queue at or below a queue with limits allows nobody (in every partition: YuniKorn's\n" +
			"user and group manager looks limits up by queue path alone), the limits never hold anyone back:\n" +
			"usually an ACL is missing, or the limits sit on the wrong queue. (Queues placement may create\n" +
			"count as places an application can run when the partition has a placement rule with create: true.\n" +
			"A partition nobody may submit to at all, or with nowhere to place an application, is reported once,\n" +
			"by no-submit-access or placement-nothing-placed.)",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        queues:
          - name: open
            submitacl: "*"
          - name: batch
            limits:
              - limit: everyone
                users: ["*"]
                maxapplications: 5
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        queues:
          - name: open
            submitacl: "*"
          - name: batch
            submitacl: " batch-users"
            limits:
              - limit: everyone
                users: ["*"]
                maxapplications: 5
`,
		check: func(p *pass) {
			last := limitsPartition(p.cfg)
			if last == nil {
				return
			}
			// paths at or above a queue where some user may run an application,
			// over every partition: the manager meets them all by path
			reached := map[string]bool{}
			closed := map[*config.Partition]bool{}
			for _, part := range p.cfg.Partitions {
				open := make(map[*config.Queue]bool)
				someOpen, someStart := false, false
				creates := createsQueues(part)
				part.Root.Walk(func(q *config.Queue) {
					s, a := p.acls.get(q)
					// an invalid ACL already makes the config an error: count it as open
					own := !s.Valid() || !s.MatchesNobody() || !a.Valid() || !a.MatchesNobody()
					open[q] = own || (q.Parent != nil && open[q.Parent])
					someOpen = someOpen || own
					// root is always built as a parent queue
					start := (q.IsLeaf() && q.Parent != nil) || creates
					someStart = someStart || start
					if !open[q] || !start {
						return
					}
					for x := q; x != nil && !reached[x.Path()]; x = x.Parent {
						reached[x.Path()] = true
					}
				})
				closed[part] = (!someOpen || !someStart) && part.QueuesSet
			}
			if closed[last] {
				return // no-submit-access or placement-nothing-placed: one cause, one finding
			}
			last.Root.Walk(func(q *config.Queue) {
				lims := last.LimitsOf(q)
				if len(lims) == 0 || reached[q.Path()] {
					return
				}
				if w := q.WrittenPath(); w != strings.ToLower(w) {
					return // limit-path-case says why these never apply
				}
				key := q.LimitsKey
				if len(q.Limits) == 0 {
					key = last.LimitsKey
				}
				p.reportf(p.doc.NodePos(key), "give a submitacl on "+q.Path()+" (or a queue below it) to the users who run applications there, or move these limits to a queue they can submit to",
					"the limits on %s never hold anyone back: nobody may submit to %s or any queue below it (no submitacl or adminacl there or above lets anyone in), so no application runs there", q.Path(), q.Path())
			})
		},
	}
}

// limitsPartition is the partition whose limits YuniKorn's single user and
// group manager keeps: the last one that writes any (UpdateConfig is called
// per partition, each replacing the limits before).
func limitsPartition(cfg *config.Config) *config.Partition {
	var last *config.Partition
	for _, part := range cfg.Partitions {
		if part.HasLimits() {
			last = part
		}
	}
	return last
}

// createsQueues reports whether any placement rule of the partition, or a
// parent rule of one, may create a queue.
func createsQueues(part *config.Partition) bool {
	for _, r := range part.PlacementRules {
		for x := r; x != nil; x = x.Parent {
			if x.Create {
				return true
			}
		}
	}
	return false
}
