package yunikorn

import (
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/placement"
)

// The rules in this file follow from YuniKorn's placement (internal/systems/yunikorn/placement):
// what a rule can produce, and what PlaceApplication does with it.

// builtRules pairs each configured top-level rule with its built form; nil
// when the partition's rules cannot be built (placement-rules-unbuildable).
func builtRules(part *config.Partition) []*placement.Rule {
	rules, err := placement.Build(part)
	if err != nil || len(part.PlacementRules) == 0 {
		return nil
	}
	return rules[:len(rules)-1] // without the implicit recovery rule
}

// shimTags are the application tags the Kubernetes shim sets.
var shimTags = []string{"namespace", "namespace.parentqueue", "namespace.resourcequota", "namespace.resourceguaranteed", "namespace.resourcemaxapps"}

// rulePlacementRuleCrash is the rule placement-rule-crash.
func rulePlacementRuleCrash() *Rule {
	return &Rule{
		Name:           "placement-rule-crash",
		PassesValidate: true,
		Severity:       Error,
		Summary:        "a placement rule that returns a queue name without a dot that does not exist: the scheduler panics on the first application it reaches",
		Doc: "PlaceApplication walks up from a queue that does not exist by cutting the name at its last dot.\n" +
			"A name without a dot has none, and the scheduler process dies (slice bounds out of range; nothing in\n" +
			"yunikorn-core recovers). Two rules produce such names, and validate-conf accepts both: the `test`\n" +
			"rule at the top level (it returns `test`, or the requested queue with its dots replaced, unqualified),\n" +
			"and a `fixed` rule with `create: true` whose value starts with `root` but not `root.` (`rootx`,\n" +
			"`rootq.leaf`: YuniKorn calls any value starting with `root` qualified).",
		Bad: `partitions:
  - name: default
    placementrules:
      - name: fixed
        value: rootq.batch
        create: true
    queues:
      - name: root
        submitacl: "*"
`,
		Good: `partitions:
  - name: default
    placementrules:
      - name: fixed
        value: root.batch
        create: true
    queues:
      - name: root
        submitacl: "*"
`,
		check: func(p *pass) {
			for _, part := range p.cfg.Partitions {
				for i, r := range builtRules(part) {
					switch {
					case r.Name == "test":
						p.reportf(namePos(p, r.Conf), "remove the test rule: it exists for YuniKorn's own unit tests",
							"placement rule %d is the test rule at the top level: it returns an unqualified queue name that does not exist, and YuniKorn's scheduler panics placing the first application that reaches it", i+1)
					case r.Name == "fixed" && r.Qualified && r.Create && r.Value != "root" && !strings.HasPrefix(r.Value, "root."):
						p.reportf(p.doc.NodePos(orStrNode(r.Conf.Value, r.Conf.Node)), "write the queue as root."+strings.TrimPrefix(r.Value, "root")+" or as a name relative to root",
							"fixed value %q starts with root but not root., so YuniKorn takes it as qualified and returns it as is; it does not exist and has no parent to walk up to, so with create: true the scheduler panics placing the first application that reaches this rule", r.Conf.Value.Value)
					}
				}
			}
		},
	}
}

// rulePlacementRuleNeverPlaces is the rule placement-rule-never-places.
func rulePlacementRuleNeverPlaces() *Rule {
	return &Rule{
		Name:     "placement-rule-never-places",
		Severity: Warning,
		Summary:  "a placement rule that can never place an application: shadowed by an earlier rule, a tag the Kubernetes shim never sets, or a fixed parent queue",
		Doc: "Placement tries the rules in order and stops at the first that places the application. A rule\n" +
			"never places anything when:\n\n" +
			"- an earlier rule places every application: a `fixed` rule without a filter whose queue exists as a\n" +
			"  leaf (or is created) and lets everyone submit, or a `user` rule without a filter that creates\n" +
			"  `root.<user>` where everyone may submit; every later rule, and the `root.default` fallback, is\n" +
			"  dead;\n" +
			"- it is a `tag` rule on a tag the Kubernetes shim never sets (it sends `namespace` and, from the\n" +
			"  namespace's annotations, `namespace.parentqueue` and the namespace quota tags);\n" +
			"- it is a `fixed` rule whose queue is an existing parent queue: applications go to leaf queues only,\n" +
			"  so PlaceApplication moves on to the next rule every time.",
		Bad: `partitions:
  - name: default
    placementrules:
      - name: fixed
        value: batch
        create: true
      - name: tag
        value: namespace
        create: true
    queues:
      - name: root
        submitacl: "*"
`,
		Good: `partitions:
  - name: default
    placementrules:
      - name: tag
        value: namespace
        create: true
      - name: fixed
        value: batch
        create: true
    queues:
      - name: root
        submitacl: "*"
`,
		check: func(p *pass) {
			policy := p.acls.policy
			for _, part := range p.cfg.Partitions {
				rules := builtRules(part)
				shadow := -1
				for i, r := range rules {
					if shadow >= 0 {
						p.reportf(namePos(p, r.Conf), fmt.Sprintf("move it before rule %d, or give rule %d a filter", shadow+1, shadow+1),
							"placement rule %d (%s) never places anything: rule %d (%s) places every application first", i+1, r.Describe(), shadow+1, rules[shadow].Describe())
						continue
					}
					for t := r; t != nil; t = t.Parent {
						if t.Name == "tag" && !contains(shimTags, t.Value) && !strings.HasPrefix(t.Value, "yunikorn.apache.org/") {
							p.reportf(p.doc.NodePos(orStrNode(t.Conf.Value, t.Conf.Node)), "use a tag the shim sets, such as namespace or namespace.parentqueue",
								"placement rule %d reads tag %q, which the Kubernetes shim never sets (it sends namespace and, from the namespace's annotations, namespace.parentqueue and the namespace quota tags): on Kubernetes the rule never places", i+1, t.Value)
						}
					}
					if r.Name == "fixed" && r.Qualified {
						if q := findQueue(part, r.Value); q != nil && !q.IsLeaf() && q != part.Root {
							p.reportf(p.doc.NodePos(orStrNode(r.Conf.Value, r.Conf.Node)), "name a leaf queue, or a queue under this one (with create: true)",
								"placement rule %d (fixed %s) names a parent queue: applications go to leaf queues only, so the rule never places", i+1, r.Value)
						}
					}
					if placesAll(policy, part, r) {
						shadow = i
					}
				}
			}
		},
	}
}

// placesAll reports whether a top-level rule places every application, so
// that no later rule is ever tried.
func placesAll(policy *acl.Policy, part *config.Partition, r *placement.Rule) bool {
	if !r.Filter.Empty || r.Parent != nil {
		return false
	}
	everyone := func(q *config.Queue) bool {
		return policy.CheckAt(part.CanonicalName(), q, acl.Subject{User: "\x00"}, acl.Submit).Allowed
	}
	switch r.Name {
	case "fixed":
		name := r.Value
		if !r.Qualified {
			name = "root." + name
		}
		if !strings.HasPrefix(name, "root.") {
			return false
		}
		if q := findQueue(part, name); q != nil {
			return q.IsLeaf() && everyone(q)
		}
		if !r.Create {
			return false
		}
		anc, missing, err := acl.FindQueue(part.Root, name)
		if err != nil || anc.IsLeaf() || !everyone(anc) {
			return false
		}
		for _, m := range missing {
			if m == "@recovery@" {
				return false
			}
		}
		return true
	case "user":
		if !r.Create || !everyone(part.Root) {
			return false
		}
		for _, c := range part.Root.Children {
			if !c.IsLeaf() {
				return false // root.<that name> is a parent: its user goes on to the next rule
			}
		}
		return true
	}
	return false
}

func findQueue(part *config.Partition, name string) *config.Queue {
	q, missing, err := acl.FindQueue(part.Root, name)
	if err != nil || len(missing) > 0 {
		return nil
	}
	return q
}

// rulePlacementUserRejects is the rule placement-user-rejects.
func rulePlacementUserRejects() *Rule {
	return &Rule{
		Name:     "placement-user-rejects",
		Severity: Info,
		Summary:  "a `user` rule that rejects an application outright when the user name is not a valid queue name",
		Doc: "The `user` rule makes the queue name from the user name, with each `.` replaced by `_dot_`. A\n" +
			"name that is then not a valid queue name (`^[a-zA-Z0-9_:#/@-]{1,64}$`) makes the rule fail, and a\n" +
			"rule that fails rejects the application at once: no later rule and no `root.default` fallback is\n" +
			"tried (aclint says so only when there is a later rule or a `root.default` queue that could have\n" +
			"placed it). User names allowed by YuniKorn that fail here end in `$` or are longer than 64 characters\n" +
			"once dots are replaced; a request without groups is not checked at all, so any name (with a space,\n" +
			"say) reaches the rule. Give the rule a filter that lists the users it is for.",
		Bad: `partitions:
  - name: default
    placementrules:
      - name: user
        create: false
      - name: fixed
        value: root.default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: default
`,
		Good: `partitions:
  - name: default
    placementrules:
      - name: user
        create: false
        filter:
          users: [alice, bob]
      - name: fixed
        value: root.default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: default
`,
		check: func(p *pass) {
			for _, part := range p.cfg.Partitions {
				rules := builtRules(part)
				for i, top := range rules {
					if i == len(rules)-1 && findQueue(part, "root.default") == nil {
						continue // nothing after it: a rejection and no match end alike
					}
					for r := top; r != nil; r = r.Parent {
						if r.Name != "user" || safeUserFilter(r.Filter) {
							continue
						}
						p.reportf(namePos(p, r.Conf), "add a filter listing the users this rule is for (users: [alice, bob]), or put the rule last",
							"placement rule %d uses the user name as a queue name: a user ending in $, or longer than 64 characters once dots become _dot_ (or, for a request without groups, any name that is not a valid queue name), makes the rule fail, which rejects the application without trying later rules or root.default", i+1)
					}
				}
			}
		},
	}
}

// safeUserFilter reports whether a filter lets only users whose names are
// valid queue names through: an allow list of such names.
func safeUserFilter(f placement.Filter) bool {
	if f.Empty || !f.Allow || f.UserRE != nil || len(f.Users) == 0 || f.GroupRE != nil || len(f.Groups) > 0 {
		return false
	}
	for u := range f.Users {
		if !acl.ValidQueueName(strings.ReplaceAll(u, ".", "_dot_")) {
			return false
		}
	}
	return true
}

// rulePlacementNothingPlaced is the rule placement-nothing-placed.
func rulePlacementNothingPlaced() *Rule {
	return &Rule{
		Name:     "placement-nothing-placed",
		Severity: Warning,
		Summary:  "a partition where no application can ever be placed: no leaf queue and no rule that creates one",
		Doc: "Applications run in leaf queues. A partition whose queues are all parents (or only `root`) and\n" +
			"whose placement rules never create a queue (none has `create: true`; without rules the implicit\n" +
			"`provided` rule has `create: false`) rejects every application with `no placement rule matched`.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: teams
            parent: true
`,
		Good: `partitions:
  - name: default
    placementrules:
      - name: tag
        value: namespace
        create: true
        parent:
          name: fixed
          value: teams
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: teams
            parent: true
`,
		check: func(p *pass) {
			for _, part := range p.cfg.Partitions {
				if !part.QueuesSet {
					continue
				}
				if _, err := placement.Build(part); err != nil {
					continue // placement-rules-unbuildable
				}
				leaf := false
				part.Root.Walk(func(q *config.Queue) { leaf = leaf || q.IsLeaf() })
				creates := false
				for _, r := range part.PlacementRules {
					creates = creates || r.Create
				}
				if leaf || creates {
					continue
				}
				p.reportf(p.partitionPos(part), "add a leaf queue, or a placement rule with create: true",
					"no application can be placed in partition %s: it has no leaf queue and no placement rule creates one, so YuniKorn rejects every application (no placement rule matched)", part.CanonicalName())
			}
		},
	}
}
