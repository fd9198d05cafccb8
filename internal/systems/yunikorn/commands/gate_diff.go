package commands

// This file answers diff through the gates in front of both configs
// (gate.go): who gains or loses a way to get an application into a
// queue, end to end, and which step of the path the change is in.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// composedDiff compares what each side's subjects reach: in every
// partition both configs have, for everyone and every subject either
// side's gate names, every leaf queue of either config and every queue a
// pod of theirs naming no queue lands in (one placement creates), whether
// the subject gets an application there on each side. A pair whose
// answer is not known on a side makes the whole answer not known: a
// diff that leaves it out would say "the same" by guess.
func composedDiff(o, n through) (*audit.Diff, error) {
	d := diffOf(o.l.Loaded, n.l.Loaded)
	d.RuleWord = "step"
	d.Notes = append(d.Notes, fmt.Sprintf("each change is a subject gaining or losing a way to get an application into a queue through %s, the admission controller, placement and the queue's ACLs; its cause is the first step of that path the change is in", n.g.Name()),
		"a group is asked as one member no file names; a member the ACLs name by user may reach further")
	var changes []audit.Change
	var unknown []string
	claimed := map[string][]string{"gained": {}, "lost": {}}
	for _, p := range n.l.Config.Partitions {
		part := p.CanonicalName()
		op := o.l.Config.Partition(part)
		if op == nil {
			continue // a partition added: diffOf says so
		}
		leaves := leafPaths(op, p)
		for _, sub := range diffSubjects(o.g, n.g) {
			before, err := o.reaches(part, sub, leaves)
			if err != nil {
				return nil, err
			}
			after, err := n.reaches(part, sub, leaves)
			if err != nil {
				return nil, err
			}
			changes = append(changes, pathChanges(part, sub, [2]reached{before, after}, [2]through{o, n}, &unknown)...)
			gained, lost := claimChanges(part, sub, before, after)
			d.Warnings = append(append(d.Warnings, gained...), lost...)
			claimed["gained"], claimed["lost"] = append(claimed["gained"], gained...), append(claimed["lost"], lost...)
			d.Widens, d.Narrows = d.Widens+len(gained), d.Narrows+len(lost)
		}
	}
	if len(unknown) > 0 {
		return nil, clikit.Usage("what the change grants or takes away is not known: %s", strings.Join(unknown, "; "))
	}
	d.Changes = audit.Replay(changes)
	d.Detail = append(d.Detail, audit.Field{Key: "claimAnyIdentity", Value: claimed})
	return d, nil
}

// reached is where one subject gets on one side: each queue with its
// reach, in the order found, and the namespaces where it may claim any
// identity (with how).
type reached struct {
	queues []string
	at     map[string]reach
	claims map[string]string
}

// reaches follows sub to every queue of leaves and every queue its pods
// naming no queue land in.
func (t through) reaches(part string, sub audit.GateSubject, leaves leafSet) (reached, error) {
	cs := t.creations(sub)
	out := reached{at: map[string]reach{}, claims: map[string]string{}}
	rs, err := t.routes(part, sub, cs, "")
	if err != nil {
		return out, clikit.Usage("%w", err)
	}
	queues := slices.Clone(leaves.paths)
	for _, r := range rs {
		if r.unknown == "" && r.res != nil && r.res.Placed && !leaves.has[r.res.Queue] && !slices.Contains(queues[len(leaves.paths):], r.res.Queue) {
			queues = append(queues, r.res.Queue)
		}
		if r.unknown != "" || r.pr == nil {
			continue
		}
		how, _, ok, err := claims(t.settings, r.ns, r.creation, sub)
		if err != nil {
			return out, clikit.Usage("%w", err)
		}
		if ok {
			out.claims[r.ns.Name] = how
		}
	}
	for _, queue := range queues {
		rc, err := t.reachWith(part, queue, sub, cs)
		if err != nil {
			return out, err
		}
		out.queues = append(out.queues, queue)
		out.at[queue] = rc
	}
	return out, nil
}

// allowed says the reach lets the subject in.
func (rc reach) allowed() bool { return rc.decision != nil && rc.decision.Allowed }

// notKnown says whether it does is not known.
func (rc reach) notKnown() bool { return !rc.allowed() && len(rc.unknown) > 0 }

// pathChanges are the queues sub gains or loses, each with its cause; a
// pair not known on either side is counted in unknown instead.
func pathChanges(part string, sub audit.GateSubject, sides [2]reached, ts [2]through, unknown *[]string) []audit.Change {
	before, after := sides[0], sides[1]
	var out []audit.Change
	queues := slices.Clone(after.queues)
	for _, q := range before.queues {
		if _, ok := after.at[q]; !ok {
			queues = append(queues, q)
		}
	}
	for _, queue := range queues {
		b, a := before.at[queue], after.at[queue]
		if b.notKnown() || a.notKnown() {
			// either way it may change: the same files may lead to another ACL
			for _, rc := range []reach{b, a} {
				if rc.notKnown() && len(*unknown) < 3 && !slices.Contains(*unknown, rc.unknown[0]) {
					*unknown = append(*unknown, rc.unknown[0])
				}
			}
			continue
		}
		if b.allowed() == a.allowed() {
			continue
		}
		c := audit.Change{Section: part, Object: queue, Subject: subjectName(sub), Action: string(acl.Submit), Gained: a.allowed()}
		if c.Gained {
			c.Via = causeOf(sub, a, b, ts[0])
		} else {
			c.Via = causeOf(sub, b, a, ts[1])
		}
		out = append(out, c)
	}
	return out
}

// causeOf is the first step of the path that lets the subject in on one
// side (in) that the other side (out, through other) does not take: the
// ACL entry when the other side's ACLs refuse the same identity there
// (placement checks them too), the placement rule when the same route
// lands elsewhere, else what lets the subject create the pod in that
// namespace.
func causeOf(sub audit.GateSubject, in, out reach, other through) *audit.Grant {
	r := in.route
	i := slices.IndexFunc(out.routes, func(o route) bool {
		return o.ns.Name == r.ns.Name && o.creation.Workload == r.creation.Workload && o.named == r.named
	})
	if i < 0 {
		return &audit.Grant{Kind: strings.ToLower(sub.Kind), Name: sub.Name, Object: "namespace " + r.ns.Name, Rule: r.creation.Kind + " by " + r.creation.Binding, Pos: r.creation.Pos}
	}
	app := r.pr.App
	d, err := other.l.Policy.Decide(acl.Query{Partition: in.decision.Partition, Queue: in.decision.Queue, User: app.User, Groups: app.Groups, Action: acl.Submit, Tags: app.Tags})
	if err != nil || !d.Allowed || out.routes[i].lands(in.decision.Queue) {
		return decisionVerdict(in.decision, nil, false).By
	}
	g := &audit.Grant{Kind: strings.ToLower(sub.Kind), Name: sub.Name, Object: "placement", Rule: "fallback to root.default"}
	for _, st := range r.res.Rules {
		if st.Result == "placed" {
			g.Rule, g.Pos = fmt.Sprintf("rule %d (%s)", st.Index, st.Rule), st.Pos
		}
	}
	return g
}

// claimChanges say where sub gains or loses the power to claim any
// identity: its pods then reach every queue the ACLs let anyone into.
func claimChanges(part string, sub audit.GateSubject, before, after reached) (gained, lost []string) {
	for _, side := range []struct {
		has, other map[string]string
		verb       string
		out        *[]string
	}{{after.claims, before.claims, "now may", &gained}, {before.claims, after.claims, "no longer may", &lost}} {
		var names []string
		for ns := range side.has {
			if _, ok := side.other[ns]; !ok {
				names = append(names, ns)
			}
		}
		slices.Sort(names)
		for _, ns := range names {
			*side.out = append(*side.out, fmt.Sprintf("%s %s %s claim any identity in namespace %s (partition %s): %s; its pods reach every queue the ACLs let anyone into", strings.ToLower(sub.Kind), sub.Name, side.verb, ns, part, side.has[ns]))
		}
	}
	return gained, lost
}

// diffSubjects are everyone and every subject either gate names, once.
func diffSubjects(o, n audit.Gate) []audit.GateSubject {
	out := []audit.GateSubject{everyone}
	seen := map[string]bool{}
	for _, sub := range append(n.Subjects(), o.Subjects()...) {
		if sub.Kind == "Group" && sub.Name == "system:authenticated" {
			continue // everyone is it
		}
		if k := sub.Kind + "/" + sub.Name; !seen[k] {
			seen[k] = true
			out = append(out, sub)
		}
	}
	return out
}

// everyone is the subject every authenticated request is: a user no
// binding names.
var everyone = audit.GateSubject{Kind: "everyone", Name: "*", User: "aclint:any-authenticated-user"}

// subjectName is a subject as a diff names it: "everyone", "user:alice",
// "group:data", "serviceaccount:ci:ci-bot".
func subjectName(sub audit.GateSubject) string {
	if sub.Kind == "everyone" {
		return "everyone"
	}
	return strings.ToLower(sub.Kind) + ":" + sub.Name
}

// leafSet are the leaf queues of both sides' partition, each once, as
// YuniKorn stores their paths.
type leafSet struct {
	paths []string
	has   map[string]bool
}

func leafPaths(ps ...*config.Partition) leafSet {
	out := leafSet{has: map[string]bool{}}
	for _, p := range ps {
		if p.Root == nil {
			continue
		}
		p.Root.Walk(func(q *config.Queue) {
			if path := strings.ToLower(q.Path()); q.IsLeaf() && !out.has[path] {
				out.has[path] = true
				out.paths = append(out.paths, path)
			}
		})
	}
	return out
}
