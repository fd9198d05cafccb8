package yunikorn

import (
	"strings"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// Rules on where YuniKorn's user and group manager looks limits up: it is
// one for the whole scheduler (ugm.GetUserManager), each partition's root
// is handed to UpdateConfig in turn and replaces every limit before it
// (partition.go initialPartitionFromConfig and updatePartitionFromConfig,
// ugm/manager.go UpdateConfig), and limits are keyed by the queue path
// built from the names as written (internalProcessConfig), while an
// application's queue path is lower case.

// ruleLimitPathCase is the rule limit-path-case.
func ruleLimitPathCase() *Rule {
	return &Rule{
		Name:     "limit-path-case",
		Severity: Warning,
		Summary:  "user and group limits on a queue whose path has upper-case letters, which never apply",
		Doc: "YuniKorn's user and group manager files each queue's `limits` under the queue's path as written\n" +
			"(`root.Team.etl`) and looks them up with the application's queue path, which is lower case\n" +
			"(`root.team.etl`): the two never meet, so the limits of such a queue, and the group it would\n" +
			"track, apply to nobody. The queue itself works, as YuniKorn lower-cases queue names.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: Team
            queues:
              - name: etl
                limits:
                  - limit: sue
                    users: [sue]
                    maxapplications: 2
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: team
            queues:
              - name: etl
                limits:
                  - limit: sue
                    users: [sue]
                    maxapplications: 2
`,
		check: func(p *pass) {
			for _, part := range p.cfg.Partitions {
				part.Root.Walk(func(q *config.Queue) {
					if len(q.Limits) == 0 || q.LimitsKey == nil {
						return
					}
					w := q.WrittenPath()
					if w == strings.ToLower(w) {
						return
					}
					p.reportf(p.doc.NodePos(q.LimitsKey), "write the queue names of the path in lower case ("+strings.ToLower(w)+"): YuniKorn stores queue names lower-cased anyway, and the limits then apply",
						"the limits of %s never apply: YuniKorn keeps them under the path as written, %s, and looks limits up by the application's queue path, %s", q.Path(), w, q.Path())
				})
			}
		},
	}
}

// ruleLimitsNotLastPartition is the rule limits-not-last-partition.
func ruleLimitsNotLastPartition() *Rule {
	return &Rule{
		Name:     "limits-not-last-partition",
		Severity: Warning,
		Summary:  "user and group limits in a partition other than the last, which never apply",
		Doc: "YuniKorn has one user and group manager for the whole scheduler. Each partition hands it its\n" +
			"queues' limits in turn, and each time they replace every limit before, so only the last\n" +
			"partition's limits are in force, and they apply by queue path to applications of every partition.\n" +
			"The limits of any other partition do not apply; the one trace they leave is on the trackers of\n" +
			"users they name, where a limit the next partition's update does not clear stays in force\n" +
			"(`aclint limits` replays the manager and shows such a limit as left over).",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        limits:
          - limit: sue
            users: [sue]
            maxapplications: 2
        queues:
          - name: default
  - name: gpu
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: default
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: default
  - name: gpu
    queues:
      - name: root
        submitacl: "*"
        limits:
          - limit: sue
            users: [sue]
            maxapplications: 2
        queues:
          - name: default
`,
		check: func(p *pass) {
			parts := p.cfg.Partitions
			if len(parts) < 2 {
				return
			}
			last := parts[len(parts)-1]
			for _, part := range parts[:len(parts)-1] {
				var first *config.Queue
				part.Root.Walk(func(q *config.Queue) {
					if first == nil && len(q.Limits) > 0 && q.LimitsKey != nil {
						first = q
					}
				})
				if first == nil {
					continue
				}
				p.reportf(p.doc.NodePos(first.LimitsKey), "put the limits in the last partition, "+last.CanonicalName()+" (they then apply by queue path to every partition), or keep one partition",
					"the user and group limits of partition %s never apply: YuniKorn keeps one set of limits for the whole scheduler and replaces it with each partition's in turn, so only the last partition's, %s's, are in force", part.CanonicalName(), last.CanonicalName())
			}
		},
	}
}
