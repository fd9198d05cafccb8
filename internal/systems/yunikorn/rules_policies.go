package yunikorn

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// ruleNodeSortPolicy is the rule node-sort-policy.
func ruleNodeSortPolicy() *Rule {
	return &Rule{
		Name:     "node-sort-policy",
		Severity: Error,
		Summary:  "a node sort policy YuniKorn does not know, or a negative resource weight",
		Doc: "`nodesortpolicy.type` must be exactly `fair`, `binpacking` or empty (`undefined policy`), and\n" +
			"`resourceweights` may not be negative (`negative resource weight for ... is not allowed`).",
		Bad: `partitions:
  - name: default
    nodesortpolicy:
      type: BinPacking
      resourceweights: {memory: -1.0}
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: default
`,
		Good: `partitions:
  - name: default
    nodesortpolicy:
      type: binpacking
      resourceweights: {memory: 1.0}
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: default
`,
		check: func(p *pass) {
			for _, part := range p.cfg.Partitions {
				if t := part.NodeSortPolicy; t.Value != "" && t.Value != "fair" && t.Value != "binpacking" {
					hint := "write fair or binpacking, in lower case"
					if strings.EqualFold(t.Value, "fair") || strings.EqualFold(t.Value, "binpacking") {
						hint = "write " + strings.ToLower(t.Value) + " in lower case: the policy name is matched exactly"
					}
					p.reportf(p.doc.NodePos(t.Node), hint, "node sort policy %q is not one YuniKorn knows (YuniKorn: undefined policy: %s)", t.Value, t.Value)
				}
				names := make([]string, 0, len(part.ResourceWeights))
				for k := range part.ResourceWeights {
					names = append(names, k)
				}
				sort.Strings(names)
				for _, k := range names {
					if w := part.ResourceWeights[k]; w < 0 {
						p.reportf(p.doc.NodePos(part.ResourceWeightNodes[k]), "use a weight of 0 or more",
							"resource weight %v for %s is negative (YuniKorn: negative resource weight for %s is not allowed)", w, k, k)
					}
				}
			}
		},
	}
}

// usesDefault completes a reason that does not say what YuniKorn uses.
func usesDefault(why string) string {
	if strings.Contains(why, "uses") {
		return why
	}
	return why + "; YuniKorn ignores the value and uses the default"
}

// propertyCheck says why YuniKorn ignores a queue property value, or "".
type propertyCheck func(q *config.Queue, v string) string

// delay mirrors convertDelay: a value that is not a positive Go duration is
// replaced by def, which the message names. Where the default is 0 (quota
// preemption off), a zero or negative delay is replaced by that same 0, so
// it means what it says and is no finding.
func delay(v string, def time.Duration, what string) string {
	d, err := time.ParseDuration(v)
	uses := fmt.Sprintf("YuniKorn uses the default %s (%s)", def, what)
	switch {
	case err != nil:
		return fmt.Sprintf("it is not a Go duration such as 30s or 5m (%v), so %s", err, uses)
	case d <= 0 && def > 0:
		return "a delay must be positive, so " + uses
	}
	return ""
}

func oneOfFold(v string, allowed ...string) string {
	for _, a := range allowed {
		if strings.EqualFold(v, a) {
			return ""
		}
	}
	return "it is not one of " + strings.Join(allowed[1:], ", ")
}

// queueProperties are the properties YuniKorn reads (UpdateQueueProperties),
// with the checks its parsers make.
var queueProperties = map[string]propertyCheck{
	"application.sort.policy": func(q *config.Queue, v string) string {
		switch v {
		case "", "fifo", "fair":
			return ""
		case "stateaware":
			return "stateaware is deprecated and YuniKorn uses fifo"
		}
		return "it is not fifo or fair (matched exactly, in lower case), so YuniKorn uses fifo"
	},
	"application.sort.priority": func(q *config.Queue, v string) string { return oneOfFold(v, "", "enabled", "disabled") },
	"priority.offset": func(q *config.Queue, v string) string {
		if _, err := strconv.ParseInt(v, 10, 32); err != nil {
			return "it is not a whole number that fits in 32 bits, so YuniKorn uses 0"
		}
		return ""
	},
	"priority.policy":   func(q *config.Queue, v string) string { return oneOfFold(v, "", "default", "fence") },
	"preemption.policy": func(q *config.Queue, v string) string { return oneOfFold(v, "", "default", "fence", "disabled") },
	"preemption.delay": func(q *config.Queue, v string) string {
		return delay(v, 30*time.Second, "preemption after 30 seconds")
	},
	"application.unschedasks.backoff": func(q *config.Queue, v string) string {
		if _, err := strconv.ParseUint(v, 10, 64); err != nil {
			return "it is not a whole number of 0 or more"
		}
		return ""
	},
	"application.unschedasks.backoff.delay": func(q *config.Queue, v string) string {
		return delay(v, 30*time.Second, "a 30 second back-off")
	},
	// 0 is the default: no quota preemption
	"quota.preemption.delay": func(q *config.Queue, v string) string { return delay(v, 0, "no quota preemption") },
}

// ruleQueuePropertyIgnored is the rule queue-property-ignored.
func ruleQueuePropertyIgnored() *Rule {
	return &Rule{
		Name:     "queue-property-ignored",
		Severity: Warning,
		Summary:  "a queue property YuniKorn does not know, or a value it cannot read and replaces with the default",
		Doc: "Queue properties never reject a config: YuniKorn logs a bad value at debug level and uses the\n" +
			"default, and skips properties it does not know. `application.sort.policy: FIFO` or\n" +
			"`preemption.delay: 30` (no unit) silently do nothing. A parent's `childtemplate` properties are\n" +
			"checked too: YuniKorn copies them to every queue it creates under the parent.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            properties:
              application.sort.policy: FAIR
              preemption.delay: "30"
              application.sort.prio: enabled
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            properties:
              application.sort.policy: fair
              preemption.delay: 30s
              application.sort.priority: enabled
`,
		check: func(p *pass) {
			known := make([]string, 0, len(queueProperties))
			for k := range queueProperties {
				known = append(known, k)
			}
			sort.Strings(known)
			// a parent's childtemplate properties are copied to every queue
			// YuniKorn creates under it (template.FromConf), and read there
			props := func(q *config.Queue, m config.StrMap, where string) {
				keys := make([]string, 0, len(m.Entries))
				for k := range m.Entries {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				for _, k := range keys {
					v := m.Entries[k]
					pos := p.doc.NodePos(m.Nodes[k])
					check, ok := queueProperties[k]
					if !ok {
						hint := "known properties: " + strings.Join(known, ", ")
						if near := config.Nearest(k, known); near != "" {
							hint = "did you mean " + near + "?"
						}
						p.reportf(pos, hint, "property %q of %s is not one YuniKorn reads: it is skipped", k, where)
						continue
					}
					if why := check(q, v); why != "" {
						p.reportf(pos, "write a value YuniKorn reads, or remove the property to use the default",
							"property %s of %s is %q: %s", k, where, v, usesDefault(why))
					}
				}
			}
			for _, part := range p.cfg.Partitions {
				part.Root.Walk(func(q *config.Queue) {
					props(q, q.Properties, q.Path())
					if q.Template != nil && !q.IsLeaf() {
						props(q, q.TemplateProperties, "the childtemplate of "+q.Path()+" (copied to every queue created under it)")
					}
				})
			}
		},
	}
}
