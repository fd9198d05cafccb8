package yunikorn

import (
	"fmt"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/resources"
)

// parseResource reads a resources map as NewResourceFromConf does. Entries
// that do not parse are left out (invalid-quantity reports them), so the
// comparisons can still run on the rest.
func parseResource(m config.StrMap) (resources.Resource, []string) {
	return resources.FromConf(m.Entries)
}

// keyPos points at a map's key, or at the queue when the key is absent.
func (p *pass) keyPos(m config.StrMap, q *config.Queue) config.Position {
	if m.Key != nil {
		return p.doc.NodePos(m.Key)
	}
	return p.doc.NodePos(q.Name.Node)
}

// ruleInvalidQuantity is the rule invalid-quantity.
func ruleInvalidQuantity() *Rule {
	return &Rule{
		Name:     "invalid-quantity",
		Severity: Error,
		Summary:  "a resource quantity YuniKorn cannot parse",
		Doc: "Quantities are a whole number with an optional SI suffix: `k M G T P E` (powers of 1000) or\n" +
			"`Ki Mi Gi Ti Pi Ei` (powers of 1024); `vcore` also takes `m` for millicores. `1.5G`, `1g`, `-1` and\n" +
			"`500m` memory are rejected (`invalid quantity`, `invalid suffix`), and YuniKorn rejects the config.\n" +
			"This covers `resources`, `limits[].maxresources` and, on parent queues, `childtemplate.resources`.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            resources:
              max: {memory: 1.5G, vcore: 10}
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            resources:
              max: {memory: 1500M, vcore: 10}
`,
		check: func(p *pass) {
			check := func(q *config.Queue, m config.StrMap, where string) {
				_, bad := parseResource(m)
				for _, k := range bad {
					_, err := resources.Parse(k, m.Entries[k])
					p.reportf(p.doc.NodePos(m.Nodes[k]), "write a whole number with an optional suffix: k M G T P E, Ki Mi Gi Ti Pi Ei (vcore also m)",
						"%s %s of %s is %q: YuniKorn cannot parse it (%v) and rejects the config", where, k, q.Path(), m.Entries[k], err)
				}
			}
			for _, part := range p.cfg.Partitions {
				part.Root.Walk(func(q *config.Queue) {
					check(q, q.Guaranteed, "resources.guaranteed")
					check(q, q.Max, "resources.max")
					// YuniKorn parses a parent's childtemplate only when it is not
					// empty (template.FromConf); an empty one is never read
					if !q.IsLeaf() && !q.TemplateEmpty() {
						check(q, q.TemplateGuaranteed, "childtemplate resources.guaranteed")
						check(q, q.TemplateMax, "childtemplate resources.max")
					}
					for _, l := range q.Limits {
						check(q, l.MaxResources, "limit maxresources")
					}
				})
				for _, l := range part.Limits {
					check(part.Root, l.MaxResources, "partition limit maxresources")
				}
			}
		},
	}
}

// resourceWalk mirrors YuniKorn's checkQueueResource: it returns the
// guaranteed resource a queue claims from its parent (its own, or the sum of
// its children's when it sets none) and calls report for each violation.
func (p *pass) resourceWalk(q *config.Queue, parentMax resources.Resource, report func(kind string, q *config.Queue, a, b resources.Resource)) resources.Resource {
	g, _ := parseResource(q.Guaranteed)
	m, _ := parseResource(q.Max)
	if !m.FitInMaxUndef(g) {
		report("guaranteed>max", q, g, m)
	}
	if parentMax != nil && !parentMax.FitInMaxUndef(m) {
		report("max>parent", q, m, parentMax)
	}
	curMax := resources.Min(m, parentMax)
	var sum resources.Resource // nil, as empty, until a child adds to it
	for _, c := range q.Children {
		r := p.resourceWalk(c, curMax, report)
		if len(r) > 0 && sum == nil {
			sum = resources.Resource{}
		}
		sum.Add(r)
	}
	if !g.FitInMaxUndef(sum) {
		report("children>guaranteed", q, sum, g)
	}
	if !curMax.FitInMaxUndef(sum) {
		report("children>max", q, sum, curMax)
	}
	if g.IsZero() {
		return sum
	}
	return g
}

// resourceIssue is one violation found by resourceWalk.
type resourceIssue struct {
	kind string
	q    *config.Queue
	a, b resources.Resource
}

// resourceRule reports the violations of one kind; the walk runs once per
// lint run and is shared by the resource rules.
func (p *pass) resourceRule(kind string, report func(q *config.Queue, a, b resources.Resource)) {
	p.acls.resourcesOnce.Do(func() {
		for _, part := range p.cfg.Partitions {
			p.resourceWalk(part.Root, nil, func(k string, q *config.Queue, a, b resources.Resource) {
				p.acls.resourceIssues = append(p.acls.resourceIssues, resourceIssue{k, q, a, b})
			})
		}
	})
	for _, is := range p.acls.resourceIssues {
		if is.kind == kind {
			report(is.q, is.a, is.b)
		}
	}
}

// ruleGuaranteedAboveMax is the rule guaranteed-above-max.
func ruleGuaranteedAboveMax() *Rule {
	return &Rule{
		Name:     "guaranteed-above-max",
		Severity: Error,
		Summary:  "a queue's guaranteed resources exceed its own max",
		Doc: "YuniKorn rejects a queue whose `resources.guaranteed` is larger than its `resources.max` for any\n" +
			"resource type both define: `guaranteed resource ... is larger than maximum resource ... for queue`.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            resources:
              guaranteed: {memory: 20G}
              max: {memory: 10G}
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            resources:
              guaranteed: {memory: 10G}
              max: {memory: 20G}
`,
		check: func(p *pass) {
			p.resourceRule("guaranteed>max", func(q *config.Queue, g, m resources.Resource) {
				p.reportf(p.keyPos(q.Guaranteed, q), "lower guaranteed or raise max",
					"guaranteed resources of %s are larger than its max (YuniKorn: guaranteed resource %s is larger than maximum resource %s for queue %s)", q.Path(), g, m, q.Name.Value)
			})
		},
	}
}

// ruleMaxAboveParent is the rule max-above-parent.
func ruleMaxAboveParent() *Rule {
	return &Rule{
		Name:     "max-above-parent",
		Severity: Error,
		Summary:  "a queue's max resources exceed its parent's (or an ancestor's) max",
		Doc: "A child cannot be allowed more than its parent: YuniKorn compares each queue's `resources.max`\n" +
			"with the smallest max of its ancestors for every type both define, and rejects the config:\n" +
			"`max resource of parent ... is smaller than maximum resource ... for queue`.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            resources:
              max: {memory: 10G}
            queues:
              - name: nightly
                resources:
                  max: {memory: 20G}
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            resources:
              max: {memory: 10G}
            queues:
              - name: nightly
                resources:
                  max: {memory: 8G}
`,
		check: func(p *pass) {
			p.resourceRule("max>parent", func(q *config.Queue, m, parent resources.Resource) {
				p.reportf(p.keyPos(q.Max, q), "lower the queue's max to fit its parent's, or raise the parent's",
					"max resources of %s are larger than its parent's (YuniKorn: max resource of parent %s is smaller than maximum resource %s for queue %s)", q.Path(), parent, m, q.Name.Value)
			})
		},
	}
}

// ruleChildrenGuaranteedAboveParent is the rule children-guaranteed-above-parent.
func ruleChildrenGuaranteedAboveParent() *Rule {
	return &Rule{
		Name:     "children-guaranteed-above-parent",
		Severity: Error,
		Summary:  "the children's guaranteed resources add up to more than the parent's guaranteed or max",
		Doc: "YuniKorn adds up what the children of a queue guarantee (a child with no guaranteed of its own\n" +
			"counts its children's sum) and rejects the config when the sum is larger than the parent's\n" +
			"guaranteed or max: `guaranteed resource of parent ... is smaller than sum of guaranteed resources\n" +
			"... of the children` (or `max resource ... is smaller than sum ...`).",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            resources:
              guaranteed: {memory: 10G}
            queues:
              - name: a
                resources:
                  guaranteed: {memory: 6G}
              - name: b
                resources:
                  guaranteed: {memory: 6G}
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            resources:
              guaranteed: {memory: 12G}
            queues:
              - name: a
                resources:
                  guaranteed: {memory: 6G}
              - name: b
                resources:
                  guaranteed: {memory: 6G}
`,
		check: func(p *pass) {
			p.resourceRule("children>guaranteed", func(q *config.Queue, sum, g resources.Resource) {
				p.reportf(p.keyPos(q.Guaranteed, q), "raise the parent's guaranteed, or lower the children's",
					"the children of %s guarantee %s together, more than its guaranteed (YuniKorn: guaranteed resource of parent %s is smaller than sum of guaranteed resources %s of the children for queue %s)", q.Path(), sum, g, sum, q.Name.Value)
			})
			p.resourceRule("children>max", func(q *config.Queue, sum, m resources.Resource) {
				p.reportf(p.keyPos(q.Max, q), "raise the parent's max, or lower the children's guaranteed",
					"the children of %s guarantee %s together, more than its max (YuniKorn: max resource %s is smaller than sum of guaranteed resources %s of the children for queue %s)", q.Path(), sum, m, sum, q.Name.Value)
			})
		},
	}
}

// maxAppsRule reports one of checkQueueMaxApplications's two conditions.
func maxAppsRule(p *pass, missing bool) {
	for _, part := range p.cfg.Partitions {
		part.Root.Walk(func(q *config.Queue) {
			if q.MaxApplications == 0 {
				return
			}
			for _, c := range q.Children {
				switch {
				case !missing && c.MaxApplications > q.MaxApplications:
					p.reportf(p.doc.NodePos(c.MaxAppsNode), fmt.Sprintf("set at most %d, the maxapplications of %s", q.MaxApplications, q.Path()),
						"maxapplications %d of %s is larger than its parent's %d (YuniKorn: parent maxApplications must be larger than child maxApplications)", c.MaxApplications, c.Path(), q.MaxApplications)
				case missing && c.MaxApplications == 0:
					p.reportf(p.doc.NodePos(c.Name.Node), fmt.Sprintf("set maxapplications on %s (at most %d)", c.Path(), q.MaxApplications),
						"%s has no maxapplications although its parent %s sets %d (YuniKorn: maxApplications is either undefined or zero, which is not allowed when parent queue's maxApplications is defined)", c.Path(), q.Path(), q.MaxApplications)
				}
			}
		})
	}
}

// ruleMaxapplicationsAboveParent is the rule maxapplications-above-parent.
func ruleMaxapplicationsAboveParent() *Rule {
	return &Rule{
		Name:     "maxapplications-above-parent",
		Severity: Error,
		Summary:  "a child queue's maxapplications above its parent's",
		Doc: "A child may not run more applications than its parent: YuniKorn rejects the config with\n" +
			"`parent maxApplications must be larger than child maxApplications`.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            maxapplications: 10
            queues:
              - name: a
                maxapplications: 20
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            maxapplications: 10
            queues:
              - name: a
                maxapplications: 10
`,
		check: func(p *pass) { maxAppsRule(p, false) },
	}
}

// ruleMaxapplicationsMissing is the rule maxapplications-missing.
func ruleMaxapplicationsMissing() *Rule {
	return &Rule{
		Name:     "maxapplications-missing",
		Severity: Error,
		Summary:  "a child queue without maxapplications under a parent that sets one",
		Doc: "Once a queue sets `maxapplications`, every child must set one too (0 counts as unset):\n" +
			"`maxApplications is either undefined or zero, which is not allowed when parent queue's\n" +
			"maxApplications is defined`.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            maxapplications: 10
            queues:
              - name: a
                maxapplications: 5
              - name: b
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            maxapplications: 10
            queues:
              - name: a
                maxapplications: 5
              - name: b
                maxapplications: 5
`,
		check: func(p *pass) { maxAppsRule(p, true) },
	}
}
