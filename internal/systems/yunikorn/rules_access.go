package yunikorn

import (
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// ruleShadowedACL is the rule shadowed-acl.
func ruleShadowedACL() *Rule {
	return &Rule{
		Name:     "shadowed-acl",
		Severity: Warning,
		Summary:  "a queue's ACL restricts access, but an ancestor already grants it to everyone",
		Doc: "YuniKorn's ACLs only add access: a queue is open to whoever its own ACLs or any ancestor's ACLs\n" +
			"allow, and nothing below can take a grant away. With `submitacl: \"*\"` on root (YuniKorn's\n" +
			"default config) every submit ACL below is meaningless. Submit access is also granted by\n" +
			"`adminacl`, so `adminacl: \"*\"` opens submission too.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: prod
            submitacl: " prod-team"
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: " "
        queues:
          - name: prod
            submitacl: " prod-team"
`,
		check: func(p *pass) {
			for _, part := range p.cfg.Partitions {
				part.Root.Walk(func(q *config.Queue) {
					if q.Synthetic {
						return
					}
					submit, admin := p.acls.get(q)
					if q.SubmitACL.Set() && !submit.Everyone && submit.Valid() {
						// the queue's own adminacl, then ancestors
						if admin.Everyone {
							p.shadow(q, acl.SubmitField, q.SubmitACL, q, acl.AdminField)
						} else if by, field := p.openAncestor(q, true); by != nil {
							p.shadow(q, acl.SubmitField, q.SubmitACL, by, field)
						}
					}
					if q.AdminACL.Set() && !admin.Everyone && admin.Valid() {
						if by, field := p.openAncestor(q, false); by != nil {
							p.shadow(q, acl.AdminField, q.AdminACL, by, field)
						}
					}
				})
			}
		},
	}
}

// openAncestor finds the nearest ancestor whose ACLs let everyone in for
// submit (submitacl or adminacl) or admin (adminacl).
func (p *pass) openAncestor(q *config.Queue, submit bool) (*config.Queue, string) {
	action := acl.Admin
	if submit {
		action = acl.Submit
	}
	for a := q.Parent; a != nil; a = a.Parent {
		if a.Synthetic {
			continue
		}
		// the same per-level rule the checks walk: submit reads submitacl
		// then adminacl, admin reads adminacl
		lv := p.acls.policy.Level(a, action)
		for _, l := range lv.List() {
			if l.Value.Everyone {
				return a, l.Field
			}
		}
	}
	return nil, ""
}

func (p *pass) shadow(q *config.Queue, field string, s config.Str, by *config.Queue, byField string) {
	what := "submit to"
	if field == acl.AdminField {
		what = "administer"
	}
	where := by.Path() + "'s " + byField
	if by == q {
		where = "its own " + byField
	}
	byNode := by.SubmitACL.Node
	if byField == acl.AdminField {
		byNode = by.AdminACL.Node
	}
	p.reportRelated(p.doc.NodePos(s.Node), p.doc.NodePos(byNode), "the ACL that lets everyone in",
		"remove this ACL, or narrow "+by.Path()+" "+byField+": YuniKorn has no deny, an ancestor's grant cannot be taken away below it",
		"%s of %s has no effect: %s \"*\" already lets everyone %s %s", field, q.Path(), where, what, q.Path())
}

// ruleNoSubmitAccess is the rule no-submit-access.
func ruleNoSubmitAccess() *Rule {
	return &Rule{
		Name:     "no-submit-access",
		Severity: Warning,
		Summary:  "nobody can submit to any queue of a partition",
		Doc: "When no submit or admin ACL of a partition allows anyone (all unset, empty, or made only of\n" +
			"names YuniKorn drops), every application is rejected. Queues created by placement rules have\n" +
			"no ACLs of their own, so they are closed as well.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: ""
        queues:
          - name: batch
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: " batch-users"
        queues:
          - name: batch
`,
		check: func(p *pass) {
			for _, part := range p.cfg.Partitions {
				if !part.QueuesSet {
					continue // missing-queues: one cause, one finding
				}
				open := false
				part.Root.Walk(func(q *config.Queue) {
					s, a := p.acls.get(q)
					// an invalid ACL already makes the config an error; do not pile on
					if !s.Valid() || !s.MatchesNobody() || !a.Valid() || !a.MatchesNobody() {
						open = true
					}
				})
				if open {
					continue
				}
				p.reportf(p.partitionPos(part), "add a submitacl (for example on root) that names the users or groups who run applications",
					"nobody can submit to any queue of partition %s: no submitacl or adminacl in it allows anyone, so YuniKorn rejects every application", part.CanonicalName())
			}
		},
	}
}
