package expect

import (
	"bufio"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/limits"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
	"github.com/aclint/aclint/internal/systems/yunikorn/resources"
)

// leafTarget is a queue of a partition a snapshot asks about.
type leafTarget struct {
	part  *config.Partition
	queue string
}

// limitPrincipals are the users and groups the config's limits name, in
// name order: the subjects of the limits snapshot.
func limitPrincipals(cfg *config.Config) []acl.Principal {
	type key struct{ kind, name string }
	seen := map[key]bool{}
	add := func(ls []*config.Limit) {
		for _, l := range ls {
			for _, u := range l.Users {
				if u.Value != "" && u.Value != "*" {
					seen[key{"user", u.Value}] = true
				}
			}
			for _, g := range l.Groups {
				if g.Value != "" && g.Value != "*" {
					seen[key{"group", g.Value}] = true
				}
			}
		}
	}
	for _, p := range cfg.Partitions {
		p.Root.Walk(func(q *config.Queue) { add(p.LimitsOf(q)) })
	}
	out := make([]acl.Principal, 0, len(seen))
	for k := range seen {
		out = append(out, acl.Principal{Kind: k.kind, Name: k.name})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Kind != out[j].Kind {
			return out[i].Kind > out[j].Kind // users first
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// generateLimits writes today's limits for every user and group a limit
// names, and for a user no limit names, on every leaf queue.
func generateLimits(bw *bufio.Writer, p *acl.Policy, md *limits.Model, leaves []leafTarget, named []acl.Principal, member, first string) error {
	fmt.Fprintln(bw, "  # limits: what each user and group a limit names may run on each leaf queue,")
	fmt.Fprintf(bw, "  # and %s, whom no limit names (aclint limits explains each figure)\n", member)
	subjects := append(append([]acl.Principal{}, named...), acl.Principal{Kind: "user", Name: member})
	for _, pr := range subjects {
		for _, t := range leaves {
			q := acl.Query{Partition: t.part.CanonicalName(), Queue: t.queue, Action: acl.Submit, Resolver: resolve.None{}}
			if pr.Kind == "user" {
				q.User = pr.Name
			} else {
				q.User, q.Groups = member, []string{pr.Name}
			}
			a, _, err := md.Ask(p, q)
			var qe *acl.QueryError
			if errors.As(err, &qe) {
				continue // a user YuniKorn rejects runs nothing: no case to record
			}
			if err != nil {
				return err
			}
			var b strings.Builder
			fmt.Fprintf(&b, "  - {user: %s", yamlScalar(q.User))
			if q.Groups != nil {
				fmt.Fprintf(&b, ", groups: [%s]", yamlScalar(pr.Name))
			}
			if q.Partition != first {
				fmt.Fprintf(&b, ", partition: %s", yamlScalar(q.Partition))
			}
			submit := ""
			if a.SubmitAllowed != nil && !*a.SubmitAllowed {
				// the user may not submit: today's answer is the denial, and
				// a case without it would fail
				submit = "submit: denied, "
			}
			fmt.Fprintf(&b, ", queue: %s, limits: {%smaxApplications: %s, maxResources: %s, trackedGroup: %s}}\n",
				yamlScalar(t.queue), submit, appsWord(a.MaxApplications), confResources(a.MaxResources), yamlGroup(a.TrackedGroup))
			bw.WriteString(b.String())
		}
	}
	return nil
}

// confResources writes a resource back in queues.yaml's syntax, each
// quantity in its shortest exact spelling (resources.Quantity: 10Gi, 2, 500m).
func confResources(r resources.Resource) string {
	if r == nil {
		return "none"
	}
	keys := r.Names()
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = yamlScalar(k) + ": " + resources.Quantity(k, r[k])
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func yamlGroup(g string) string {
	if g == "" {
		return "none"
	}
	return yamlScalar(g)
}
