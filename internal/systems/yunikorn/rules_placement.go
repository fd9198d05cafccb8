package yunikorn

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"

	"gopkg.in/yaml.v3"
)

// YuniKorn's patterns for placement rules and filters.
var (
	ruleNamePattern = regexp.MustCompile(`^[_a-zA-Z][a-zA-Z0-9_]*$`)
	knownRules      = []string{"fixed", "user", "provided", "tag", "test"}
)

// chain is a rule with its parents, parents first, as getRuleChain builds it.
func chain(r *config.PlacementRule) []*config.PlacementRule {
	if r.Parent == nil {
		return []*config.PlacementRule{r}
	}
	return append(chain(r.Parent), r)
}

func namePos(p *pass, r *config.PlacementRule) config.Position {
	if r.Name.Node != nil {
		return p.doc.NodePos(r.Name.Node)
	}
	return p.doc.NodePos(r.Node)
}

// eachRule calls fn for every rule of every partition, parents included.
func (p *pass) eachRule(fn func(part *config.Partition, r *config.PlacementRule)) {
	for _, part := range p.cfg.Partitions {
		for _, top := range part.PlacementRules {
			for _, r := range chain(top) {
				fn(part, r)
			}
		}
	}
}

// rulePlacementRuleName is the rule placement-rule-name.
func rulePlacementRuleName() *Rule {
	return &Rule{
		Name:     "placement-rule-name",
		Severity: Error,
		Summary:  "a placement rule name that is not an identifier",
		Doc: "validate-conf requires rule names to match `^[_a-zA-Z][a-zA-Z0-9_]*$` (`invalid rule name ..., a\n" +
			"name must be a valid identifier`), in parent rules too.",
		Bad: `partitions:
  - name: default
    placementrules:
      - name: tag-rule
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
    queues:
      - name: root
        submitacl: "*"
`,
		check: func(p *pass) {
			p.eachRule(func(_ *config.Partition, r *config.PlacementRule) {
				if !ruleNamePattern.MatchString(r.Name.Value) {
					p.reportf(namePos(p, r), "use one of "+strings.Join(knownRules[:4], ", "),
						"placement rule name %q is not an identifier (YuniKorn: invalid rule name %s, a name must be a valid identifier)", r.Name.Value, r.Name.Value)
				}
			})
		},
	}
}

// rulePlacementRulesUnbuildable is the rule placement-rules-unbuildable.
func rulePlacementRulesUnbuildable() *Rule {
	return &Rule{
		Name:           "placement-rules-unbuildable",
		PassesValidate: true,
		Severity:       Error,
		Summary:        "a placement rule YuniKorn cannot build: at start the partition runs with no rules and rejects every application; as an update the config is refused",
		Doc: "Rule names that pass validation but that YuniKorn does not know (`usr`, `primaryGroup`),\n" +
			"`recovery`, a `fixed` or `tag` rule without a value, a `fixed` value with an invalid queue name,\n" +
			"or a fully qualified `fixed` value with a parent rule: validate-conf accepts them, but building\n" +
			"the rules fails. What happens next depends on when the config arrives:\n\n" +
			"- at start, YuniKorn only logs `Placement manager created without rules: not active`; the\n" +
			"  partition has no rule at all (not even the `root.default` fallback), so every application is\n" +
			"  rejected with `no placement rule matched`;\n" +
			"- applied as a ConfigMap update to a running scheduler, the reload is refused and the old config\n" +
			"  stays.\n\n" +
			"Either way the config does not do what it says, so this is an error. It replaces the warning\n" +
			"`placement-rules-ignored`; settings and suppressions naming the old rule are told so.",
		Bad: `partitions:
  - name: default
    placementrules:
      - name: usr
        create: true
    queues:
      - name: root
        submitacl: "*"
`,
		Good: `partitions:
  - name: default
    placementrules:
      - name: user
        create: true
    queues:
      - name: root
        submitacl: "*"
`,
		check: func(p *pass) {
			// a qualified fixed value after a fixed chain is placement-fixed-qualified:
			// validate-conf rejects the config before the rules are built
			rejected := map[*config.PlacementRule]bool{}
			for _, part := range p.cfg.Partitions {
				for _, top := range part.PlacementRules {
					if _, _, _, bad := staticPath(top); bad != nil {
						rejected[bad] = true
					}
				}
			}
			p.eachRule(func(part *config.Partition, r *config.PlacementRule) {
				if !ruleNamePattern.MatchString(r.Name.Value) || rejected[r] {
					return // placement-rule-name, placement-fixed-qualified: the config is rejected anyway
				}
				why, hint := "", ""
				name := strings.ToLower(r.Name.Value)
				value := strings.ToLower(r.Value.Value)
				switch {
				case name == "recovery":
					why, hint = "the recovery rule cannot be part of the config", "remove it: YuniKorn adds the recovery rule itself"
				case !contains(knownRules, name):
					why, hint = fmt.Sprintf("YuniKorn knows no rule %q", r.Name.Value), "use one of fixed, user, provided or tag"
					if near := config.Nearest(name, knownRules); near != "" {
						hint = "did you mean " + near + "?"
					}
				case (name == "fixed" || name == "tag") && value == "":
					why, hint = "a "+name+" rule needs a value", "set value: to the queue (fixed) or the tag to read (tag)"
				case name == "fixed":
					for _, part := range strings.Split(value, ".") {
						if !acl.ValidQueueName(part) {
							why, hint = fmt.Sprintf("%q in its value is not a valid queue name", part), "use queue names matching "+acl.QueueNamePattern.String()
							break
						}
					}
					if why == "" && strings.HasPrefix(value, "root") && r.Parent != nil {
						why, hint = "a fully qualified fixed queue cannot have a parent rule", "remove the parent rule, or make the value relative"
					}
				}
				if why != "" {
					p.reportf(namePos(p, r), hint,
						"%s, so YuniKorn cannot build the placement rules of partition %s: at start it runs the partition with no rules and rejects every application (no placement rule matched), and as an update it refuses the config", why, part.CanonicalName())
				}
			})
		},
	}
}

func contains(list []string, x string) bool {
	for _, v := range list {
		if v == x {
			return true
		}
	}
	return false
}

// rulePlacementFilterInvalid is the rule placement-filter-invalid.
func rulePlacementFilterInvalid() *Rule {
	return &Rule{
		Name:     "placement-filter-invalid",
		Severity: Error,
		Summary:  "a placement filter YuniKorn rejects: an unknown type, or a single entry that is neither a name nor a regular expression",
		Doc: "A filter `type` must be empty, `allow` or `deny` (validate-conf ignores case here). A `users` or\n" +
			"`groups` list of one entry is read as a name, or else as a regular expression, which must compile\n" +
			"and contain a regexp character: `invalid rule filter user list is not a proper list or regexp`.",
		Bad: `partitions:
  - name: default
    placementrules:
      - name: user
        create: true
        filter:
          type: block
          users: ["dev(ops"]
    queues:
      - name: root
        submitacl: "*"
`,
		Good: `partitions:
  - name: default
    placementrules:
      - name: user
        create: true
        filter:
          type: deny
          users: ["^dev(ops)?$"]
    queues:
      - name: root
        submitacl: "*"
`,
		check: func(p *pass) {
			p.eachRule(func(_ *config.Partition, r *config.PlacementRule) {
				f := r.Filter
				if t := f.Type.Value; t != "" && !strings.EqualFold(t, "allow") && !strings.EqualFold(t, "deny") {
					p.reportf(p.doc.NodePos(f.Type.Node), "write allow or deny",
						"placement filter type %q is not allow or deny (YuniKorn: invalid rule filter type %s, filter type must be either '', allow or deny)", t, t)
				}
				for _, l := range []struct {
					what    string
					list    []config.Str
					pattern *regexp.Regexp
				}{{"user", f.Users, acl.RequestUserPattern}, {"group", f.Groups, acl.ConfigGroupPattern}} {
					if len(l.list) != 1 || l.pattern.MatchString(l.list[0].Value) {
						continue
					}
					v := l.list[0].Value
					if _, err := regexp.Compile(v); err != nil || !acl.SpecialPattern.MatchString(v) {
						why := "it is not a " + l.what + " name and has no regular expression character"
						if err != nil {
							why = fmt.Sprintf("it is not a %s name, and as a regular expression: %v", l.what, err)
						}
						p.reportf(p.doc.NodePos(l.list[0].Node), "write a valid "+l.what+" name, or a regular expression that compiles",
							"the single %s filter entry %q is invalid: %s (YuniKorn: invalid rule filter %s list is not a proper list or regexp)", l.what, v, why, l.what)
					}
				}
			})
		},
	}
}

// rulePlacementFilterTypeCase is the rule placement-filter-type-case.
func rulePlacementFilterTypeCase() *Rule {
	return &Rule{
		Name:     "placement-filter-type-case",
		Severity: Warning,
		Summary:  "a placement filter type not written exactly `allow` or `deny`: at run time it is an allow filter",
		Doc: "validate-conf compares the filter type ignoring case, but the placement code tests for exactly\n" +
			"`deny`: `type: DENY` passes validation and then allows exactly the users it meant to keep out.",
		Bad: `partitions:
  - name: default
    placementrules:
      - name: user
        create: true
        filter:
          type: DENY
          users: [guest]
    queues:
      - name: root
        submitacl: "*"
`,
		Good: `partitions:
  - name: default
    placementrules:
      - name: user
        create: true
        filter:
          type: deny
          users: [guest]
    queues:
      - name: root
        submitacl: "*"
`,
		check: func(p *pass) {
			p.eachRule(func(_ *config.Partition, r *config.PlacementRule) {
				t := r.Filter.Type.Value
				if t == "" || t == "allow" || t == "deny" || (!strings.EqualFold(t, "allow") && !strings.EqualFold(t, "deny")) {
					return
				}
				effect := "it works as an allow filter, which is what it says"
				if strings.EqualFold(t, "deny") {
					effect = "it works as an ALLOW filter: the users and groups it lists are let in, not kept out"
				}
				p.reportf(p.doc.NodePos(r.Filter.Type.Node), "write it in lower case: "+strings.ToLower(t),
					"placement filter type %q is not exactly %q: %s", t, strings.ToLower(t), effect)
			})
		},
	}
}

// rulePlacementFilterRegexp is the rule placement-filter-regexp.
func rulePlacementFilterRegexp() *Rule {
	return &Rule{
		Name:     "placement-filter-regexp",
		Severity: Warning,
		Summary:  "a single-entry placement filter list read as an unanchored regular expression",
		Doc: "A filter list of exactly one entry with a regular expression character is a regular expression, and\n" +
			"it is not anchored: `users: [\"dev|ops\"]` also matches `devops-bot` and `sysops`. Anchor it\n" +
			"(`^(dev|ops)$`), or list the names (two or more entries are always plain names).",
		Bad: `partitions:
  - name: default
    placementrules:
      - name: user
        create: true
        filter:
          type: allow
          users: ["dev|ops"]
    queues:
      - name: root
        submitacl: "*"
`,
		Good: `partitions:
  - name: default
    placementrules:
      - name: user
        create: true
        filter:
          type: allow
          users: [dev, ops]
    queues:
      - name: root
        submitacl: "*"
`,
		check: func(p *pass) {
			p.eachRule(func(_ *config.Partition, r *config.PlacementRule) {
				for _, l := range []struct {
					what string
					list []config.Str
				}{{"user", r.Filter.Users}, {"group", r.Filter.Groups}} {
					if len(l.list) != 1 {
						continue
					}
					v := l.list[0].Value
					if !acl.SpecialPattern.MatchString(v) || (strings.HasPrefix(v, "^") && strings.HasSuffix(v, "$")) {
						continue
					}
					if _, err := regexp.Compile(v); err != nil {
						continue // placement-filter-invalid
					}
					p.reportf(p.doc.NodePos(l.list[0].Node), fmt.Sprintf("anchor it: \"^(%s)$\", or list the %ss as two or more entries", v, l.what),
						"the %s filter %q is one entry, so YuniKorn reads it as a regular expression, and an unanchored one: it matches every %s name that contains a match", l.what, v, l.what)
				}
			})
		},
	}
}

// staticPath mirrors getLongestStaticPath for a top-level rule.
func staticPath(top *config.PlacementRule) (path, ruleChain string, dynamic bool, bad *config.PlacementRule) {
	for _, r := range chain(top) {
		if ruleChain == "" {
			ruleChain = r.Name.Value
		} else {
			ruleChain += "->" + r.Name.Value
		}
		if dynamic {
			continue
		}
		if r.Name.Value != "fixed" { // the validator compares exactly
			if path == "" {
				path = "<dynamic>"
			}
			dynamic = true
			continue
		}
		v := r.Value.Value
		if strings.HasPrefix(v, "root") {
			if path != "" {
				return path, ruleChain, dynamic, r
			}
			path = v
			continue
		}
		if path == "" {
			path = "root"
		}
		path += "." + v
	}
	return path, ruleChain, dynamic, nil
}

// rulePlacementFixedQualified is the rule placement-fixed-qualified.
func rulePlacementFixedQualified() *Rule {
	return &Rule{
		Name:     "placement-fixed-qualified",
		Severity: Error,
		Summary:  "a fully qualified `fixed` value after the first rule of a rule chain",
		Doc: "In a chain of parent rules only the first `fixed` rule may name a full path from `root`:\n" +
			"`illegal fully qualified 'fixed' rule with value root.x`.",
		Bad: `partitions:
  - name: default
    placementrules:
      - name: fixed
        value: root.teams
        parent:
          name: fixed
          value: root.org
    queues:
      - name: root
        submitacl: "*"
`,
		Good: `partitions:
  - name: default
    placementrules:
      - name: fixed
        value: teams
        create: true
        parent:
          name: fixed
          value: root.org
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: org
            parent: true
`,
		check: func(p *pass) {
			for _, part := range p.cfg.Partitions {
				for _, top := range part.PlacementRules {
					if _, _, _, bad := staticPath(top); bad != nil {
						p.reportf(p.doc.NodePos(orStrNode(bad.Value, bad.Node)), "write the value relative to the queue the earlier rule picks",
							"fixed value %q is fully qualified but is not the first rule of its chain (YuniKorn: illegal fully qualified 'fixed' rule with value %s)", bad.Value.Value, bad.Value.Value)
					}
				}
			}
		},
	}
}

func orStrNode(s config.Str, fallback *yaml.Node) *yaml.Node {
	if s.Node != nil {
		return s.Node
	}
	return fallback
}

// rulePlacementPath is the rule placement-path.
func rulePlacementPath() *Rule {
	return &Rule{
		Name:     "placement-path",
		Severity: Error,
		Summary:  "a `fixed` placement path that names a missing queue with `create: false`, a parent where a leaf is needed, or a leaf where a parent is needed",
		Doc: "validate-conf follows the fixed part of each rule chain through the queues, matching names exactly as\n" +
			"written (case-sensitive) and reading the `parent:` flag as written (a queue with children but no\n" +
			"`parent: true` counts as a leaf here). It rejects a path to a missing queue when the rule may not\n" +
			"create it, a path ending on a parent queue when the rule places there, a path that must end on a\n" +
			"parent because a dynamic rule follows it, and a path that goes below a leaf.",
		Bad: `partitions:
  - name: default
    placementrules:
      - name: fixed
        value: root.batch
        create: false
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: adhoc
`,
		Good: `partitions:
  - name: default
    placementrules:
      - name: fixed
        value: root.batch
        create: false
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
`,
		check: func(p *pass) {
			for _, part := range p.cfg.Partitions {
				for i, top := range part.PlacementRules {
					path, ruleChain, dynamic, bad := staticPath(top)
					if bad != nil || strings.Index(path, "root") != 0 {
						continue
					}
					result, last := placementCheck(strings.Split(strings.ToLower(path), "."), top.Create, dynamic, []*config.Queue{part.Root}, nil)
					var msg, hint string
					switch result {
					case "not-leaf":
						msg = fmt.Sprintf("placement rule no. #%d (%s) references a queue (%s) which is not a leaf", i, ruleChain, path)
						hint = "point the rule at a leaf queue, or (if a dynamic rule follows) mark the queue parent: true"
					case "missing":
						msg = fmt.Sprintf("placement rule no. #%d (%s) references non-existing queues (%s) and create is 'false'", i, ruleChain, path)
						hint = "create the queue in the config, or set create: true on the rule"
					case "last-leaf":
						msg = fmt.Sprintf("placement rule no. #%d (%s) references non-existing queues (%s) which cannot be created because the last queue (%s) in the hierarchy is a leaf", i, ruleChain, path, last)
						hint = "mark " + last + " parent: true, or change the path"
					default:
						continue
					}
					p.reportf(p.doc.NodePos(orStrNode(leafFixed(top).Value, top.Node)), hint, "YuniKorn rejects the config: %s", msg)
				}
			}
		},
	}
}

// leafFixed is the rule of a chain that holds the last fixed value.
func leafFixed(top *config.PlacementRule) *config.PlacementRule {
	var last *config.PlacementRule
	for _, r := range chain(top) {
		if r.Name.Value == "fixed" {
			last = r
		}
	}
	if last == nil {
		return top
	}
	return last
}

// placementCheck mirrors checkQueueHierarchyForPlacement.
func placementCheck(path []string, create, dynamic bool, level []*config.Queue, parent *config.Queue) (string, string) {
	if len(level) == 0 {
		if !parent.ParentFlag {
			return "last-leaf", parent.Name.Value
		}
		if !create {
			return "missing", ""
		}
		return "ok", ""
	}
	var q *config.Queue
	for _, c := range level {
		if c.Name.Value == path[0] {
			q = c
			break
		}
	}
	if q == nil {
		if !create {
			return "missing", ""
		}
		return "ok", ""
	}
	if len(path) == 1 {
		if dynamic {
			if q.ParentFlag {
				return "ok", ""
			}
			return "not-leaf", ""
		}
		if q.ParentFlag {
			return "not-leaf", ""
		}
		return "ok", ""
	}
	return placementCheck(path[1:], create, dynamic, q.Children, q)
}

// rulePlacementPathCase is the rule placement-path-case.
func rulePlacementPathCase() *Rule {
	return &Rule{
		Name:     "placement-path-case",
		Severity: Warning,
		Summary:  "a queue whose name differs only in case from a `fixed` placement path",
		Doc: "validate-conf matches fixed placement paths against queue names exactly as written, while the\n" +
			"scheduler lower-cases both. `value: root.dev` against a queue `Dev` is checked as a queue that does\n" +
			"not exist (and rejected when `create: false`), but at run time it is that queue.",
		Bad: `partitions:
  - name: default
    placementrules:
      - name: fixed
        value: root.dev
        create: true
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: Dev
`,
		Good: `partitions:
  - name: default
    placementrules:
      - name: fixed
        value: root.dev
        create: true
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: dev
`,
		check: func(p *pass) {
			for _, part := range p.cfg.Partitions {
				for _, top := range part.PlacementRules {
					path, _, _, bad := staticPath(top)
					if bad != nil || strings.Index(path, "root") != 0 {
						continue
					}
					q := part.Root
					for _, name := range strings.Split(strings.ToLower(path), ".")[1:] {
						next := q.Child(name)
						if next == nil {
							break
						}
						if next.Name.Value != name {
							p.reportf(p.doc.NodePos(next.Name.Node), "write the queue name in lower case, as the path has it",
								"queue %q differs only in case from %q in the placement path %s: validate-conf does not see it as that queue, the scheduler does", next.Name.Value, name, path)
							break
						}
						q = next
					}
				}
			}
		},
	}
}
