package yunikorn

import (
	"fmt"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/resources"
)

// templatePos points at a childtemplate map's key, else at the template.
func (p *pass) templatePos(m config.StrMap, q *config.Queue) config.Position {
	if m.Key != nil {
		return p.doc.NodePos(m.Key)
	}
	return p.doc.NodePos(q.ChildTemplate)
}

// ruleChildtemplateLimits is the rule childtemplate-limits.
func ruleChildtemplateLimits() *Rule {
	return &Rule{
		Name:     "childtemplate-limits",
		Severity: Warning,
		Summary:  "a childtemplate gives every queue created under it resources or maxapplications no configured queue there could have",
		Doc: "YuniKorn copies a parent's `childtemplate` to every queue a placement rule creates under it\n" +
			"(`applyTemplate`), without the checks a configured queue goes through. A template whose\n" +
			"`resources.guaranteed` is above its `resources.max`, whose max is above the parent's (or an\n" +
			"ancestor's) max, whose guaranteed is above the parent's guaranteed or max, or whose\n" +
			"`maxapplications` is above the parent's (or an ancestor's) is accepted, and every created queue\n" +
			"then carries a figure that can never hold: a guarantee the parent cannot give, a max or a limit\n" +
			"the parent caps first. A configured child with the same values would be refused.",
		Bad: `partitions:
  - name: default
    placementrules:
      - name: tag
        value: namespace
        create: true
        parent: {name: fixed, value: root.tenants}
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: tenants
            parent: true
            maxapplications: 50
            resources:
              max: {memory: 64Gi, vcore: 32}
            childtemplate:
              maxapplications: 100
              resources:
                max: {memory: 128Gi}
`,
		Good: `partitions:
  - name: default
    placementrules:
      - name: tag
        value: namespace
        create: true
        parent: {name: fixed, value: root.tenants}
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: tenants
            parent: true
            maxapplications: 50
            resources:
              max: {memory: 64Gi, vcore: 32}
            childtemplate:
              maxapplications: 10
              resources:
                max: {memory: 16Gi}
`,
		check: func(p *pass) {
			for _, part := range p.cfg.Partitions {
				part.Root.Walk(func(q *config.Queue) { p.templateLimits(q) })
			}
		},
	}
}

// templateLimits checks one parent's childtemplate against itself and the
// queues above the queues it creates, as checkQueueResource and
// checkQueueMaxApplications would check a configured child.
func (p *pass) templateLimits(q *config.Queue) {
	if q.IsLeaf() || q.TemplateEmpty() {
		return
	}
	where := "the childtemplate of " + q.Path() + " (copied to every queue created under it)"
	tg, badG := parseResource(q.TemplateGuaranteed)
	tm, badM := parseResource(q.TemplateMax)
	if len(badG)+len(badM) == 0 {
		if !tm.FitInMaxUndef(tg) {
			p.reportf(p.templatePos(q.TemplateGuaranteed, q), "lower the template's guaranteed or raise its max",
				"guaranteed resources %s of %s are larger than its max %s: YuniKorn would refuse a configured queue with them (guaranteed resource is larger than maximum resource), and gives them to every created queue unchecked", tg.DescribeAll(), where, tm.DescribeAll())
		}
		var maxAbove resources.Resource
		var maxFrom *config.Queue
		for a := q; a != nil; a = a.Parent {
			m, bad := parseResource(a.Max)
			if len(bad) > 0 || m.IsZero() {
				continue
			}
			if maxAbove == nil || !maxAbove.FitInMaxUndef(m) {
				maxAbove, maxFrom = resources.Min(m, maxAbove), a
			}
		}
		if maxAbove != nil && !maxAbove.FitInMaxUndef(tm) {
			p.reportf(p.templatePos(q.TemplateMax, q), "lower the template's max to fit the max of "+maxFrom.Path(),
				"max resources %s of %s are larger than the max %s of %s: a created queue can never use them, and YuniKorn would refuse a configured child with them (max resource of parent is smaller than maximum resource)", tm.DescribeAll(), where, maxAbove.DescribeAll(), maxFrom.Path())
		}
		g, bad := parseResource(q.Guaranteed)
		switch {
		case len(bad) == 0 && !g.IsZero() && !g.FitInMaxUndef(tg):
			p.reportf(p.templatePos(q.TemplateGuaranteed, q), "lower the template's guaranteed to fit the parent's",
				"guaranteed resources %s of %s are larger than the guaranteed %s of %s: one created queue already claims more than its parent is guaranteed", tg.DescribeAll(), where, g.DescribeAll(), q.Path())
		case maxAbove != nil && !maxAbove.FitInMaxUndef(tg):
			p.reportf(p.templatePos(q.TemplateGuaranteed, q), "lower the template's guaranteed to fit the max of "+maxFrom.Path(),
				"guaranteed resources %s of %s are larger than the max %s of %s: no created queue can be given them", tg.DescribeAll(), where, maxAbove.DescribeAll(), maxFrom.Path())
		}
	}
	if q.TemplateMaxApps == 0 {
		return
	}
	for a := q; a != nil; a = a.Parent {
		if a.MaxApplications != 0 && q.TemplateMaxApps > a.MaxApplications {
			p.reportf(p.doc.NodePos(q.TemplateMaxAppsNode), fmt.Sprintf("set at most %d, the maxapplications of %s", a.MaxApplications, a.Path()),
				"maxapplications %d of %s is larger than the maxapplications %d of %s, which caps every created queue first; YuniKorn would refuse a configured child with it (parent maxApplications must be larger than child maxApplications)", q.TemplateMaxApps, where, a.MaxApplications, a.Path())
			return
		}
	}
}
