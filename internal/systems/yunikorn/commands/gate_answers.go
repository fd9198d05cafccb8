package commands

// This file answers check, who-can and access through the gate in front
// of YuniKorn (gate.go): a subject reaches a queue when the gate lets it
// create a pod in a namespace, the admission controller gives the pod an
// identity, placement puts it in the queue and the queue's ACLs admit it.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

// reach is how one subject's application gets into a queue: the route,
// and the ACL decision for the identity the core sees; decision is nil
// when no route lands there.
type reach struct {
	route    route
	decision *acl.Decision
	routes   []route
	unknown  []string
}

// reachOf follows a subject to queue: the first route that lands there
// and is admitted, else the first that lands there (denied by the ACLs).
func (t through) reachOf(partition, queue string, sub audit.GateSubject) (reach, error) {
	return t.reachWith(partition, queue, sub, t.creations(sub))
}

// reachWith is reachOf over the subject's creations, found once.
func (t through) reachWith(partition, queue string, sub audit.GateSubject, cs []creation) (reach, error) {
	rs, err := t.routes(partition, sub, cs, queue)
	if err != nil {
		return reach{}, clikit.Usage("%w", err)
	}
	var out reach
	for _, r := range rs {
		switch {
		case r.unknown == "":
			out.routes = append(out.routes, r)
		case r.pr == nil && !slices.Contains(out.unknown, r.unknown):
			out.unknown = append(out.unknown, r.unknown) // it may lead anywhere
		}
	}
	for _, r := range rs {
		if !r.lands(queue) {
			continue
		}
		app := r.pr.App
		d, err := t.l.Policy.Decide(acl.Query{Partition: partition, Queue: queue, User: app.User, Groups: app.Groups, Action: acl.Submit, Tags: app.Tags})
		if err != nil {
			return reach{}, answerErr(err)
		}
		if r.unknown != "" {
			if d.Allowed && !slices.Contains(out.unknown, r.unknown) {
				out.unknown = append(out.unknown, r.unknown) // it would let the subject in
			}
			continue
		}
		if out.decision == nil || d.Allowed && !out.decision.Allowed {
			out.route, out.decision = r, d
		}
	}
	return out, nil
}

// composedCheck answers check for USER through the gate: allowed when
// some route lands in the queue and its ACLs admit the pod's identity.
func (q *question) composedCheck(l loaded, aq acl.Query) (*audit.Verdict, error) {
	if aq.Action != acl.Submit {
		return nil, clikit.Usage("--action %s with %s files: administering a queue is not done through pods, so %s does not gate it; leave the %s files out", aq.Action, q.gate.Name(), q.gate.Name(), q.gate.Name())
	}
	sub := audit.GateSubject{Kind: "User", Name: aq.User, User: aq.User, Groups: aq.Groups}
	rc, err := q.through(l).reachOf(aq.Partition, aq.Queue, sub)
	if err != nil {
		return nil, err
	}
	if rc.decision != nil && rc.decision.Allowed {
		return q.pathVerdict(l, rc, fmt.Sprintf("%s may get an application into %s in partition %s: %s lets them create pods in namespace %s, which land there", aq.User, rc.decision.Queue, rc.decision.Partition, q.gate.Name(), rc.route.ns.Name)), nil
	}
	if len(rc.unknown) > 0 {
		v := &audit.Verdict{System: yunikorn.System, Answer: "unknown", Why: fmt.Sprintf("whether %s may get an application into %s", aq.User, aq.Queue),
			Unknown: strings.Join(rc.unknown, "; "), Notes: l.Notes}
		if len(rc.routes) > 0 {
			v.Context = routeLines(rc.routes)
		}
		return v, nil
	}
	if rc.decision != nil {
		return q.pathVerdict(l, rc, ""), nil // lands there, and the ACLs refuse its identity
	}
	why := fmt.Sprintf("%s may not get an application into %s: %s lets them create pods in no namespace whose pods land there", aq.User, aq.Queue, q.gate.Name())
	return &audit.Verdict{System: yunikorn.System, Answer: "denied", Why: why, Context: routeLines(rc.routes), Notes: l.Notes,
		Detail: []audit.Field{{Key: "routes", Value: len(rc.routes)}}}, nil
}

// pathVerdict is the ACL's verdict on the route that lands in the queue,
// headed by the route; why, when set, says it in place of the ACL's words.
func (q *question) pathVerdict(l loaded, rc reach, why string) *audit.Verdict {
	v := decisionVerdict(rc.decision, nil, q.explain)
	if why != "" {
		v.Why = why
	}
	v.Context = append([]string{"path: " + describeRoute(rc.route)}, v.Context...)
	v.Notes = append(l.Notes, v.Notes...)
	v.Detail = append(v.Detail, routeDetail(rc.route))
	return v
}

// routeLines say every route, for a denial: where the subject may create
// pods and where they land.
func routeLines(rs []route) []string {
	if len(rs) == 0 {
		return []string{"no namespace of the files lets this user create pods"}
	}
	var out []string
	for _, r := range rs {
		out = append(out, "route: "+describeRoute(r))
	}
	return out
}

// routeDetail is a route in the JSON answer's detail.
func routeDetail(r route) audit.Field {
	return audit.Field{Key: "path", Value: map[string]any{"namespace": r.ns.Name, "creates": r.creation.Kind, "allowedBy": r.creation.By,
		"queueLabel": r.named, "user": r.pr.App.User, "groups": r.pr.App.Groups, "queue": r.res.Queue}}
}

// composedWhoCan lists the gate's subjects that can get an application
// into the queue, each with its path, and apart from them those that may
// claim any identity in a namespace whose pods YuniKorn schedules.
func (q *question) composedWhoCan(l loaded, partition, queue string, act acl.Action) (*audit.WhoCan, error) {
	if act != acl.Submit {
		return nil, clikit.Usage("--action %s with %s files: administering a queue is not done through pods; leave the %s files out", act, q.gate.Name(), q.gate.Name())
	}
	ans := &audit.WhoCan{System: yunikorn.System, Action: string(act), Object: queue, By: "YuniKorn", How: "by its path",
		Title:      fmt.Sprintf("submit on %s in partition %s, through %s, the admission controller and placement", queue, partition, q.gate.Name()),
		UsersTitle: "users and service accounts", GroupsTitle: "groups",
		Everyone: []audit.Grant{}, Users: []audit.Grant{}, Groups: []audit.Grant{}, Denied: []audit.Grant{}, Notes: l.Notes}
	t := q.through(l)
	subjects := append([]audit.GateSubject{everyone}, q.gate.Subjects()...)
	claimers := []string{}
	for _, sub := range subjects {
		rc, err := t.reachOf(partition, queue, sub)
		if err != nil {
			return nil, err
		}
		if rc.decision != nil && rc.decision.Allowed {
			g := audit.Grant{Kind: strings.ToLower(sub.Kind), Name: sub.Name, Object: "namespace " + rc.route.ns.Name, Rule: routeRule(rc.route),
				Entry: describeRoute(rc.route), Pos: rc.route.creation.Pos}
			switch sub.Kind {
			case "everyone":
				ans.Everyone = append(ans.Everyone, g)
			case "Group":
				ans.Groups = append(ans.Groups, g)
			default:
				ans.Users = append(ans.Users, g)
			}
		} else if len(rc.unknown) > 0 && ans.Incomplete == "" {
			ans.Incomplete = rc.unknown[0]
		}
		for _, r := range rc.routes {
			if r.named != "" {
				continue
			}
			how, _, ok, err := claims(t.settings, r.ns, r.creation, sub)
			if err != nil {
				return nil, clikit.Usage("%w", err)
			}
			if ok {
				claimers = append(claimers, fmt.Sprintf("%s %s in namespace %s: %s", strings.ToLower(sub.Kind), sub.Name, r.ns.Name, how))
			}
		}
	}
	if len(claimers) > 0 {
		ans.Preamble = append([]string{"may claim any identity (their pods reach YuniKorn as whatever user.info they write), so they reach every queue the ACLs let anyone into:"}, prefixed("  ", claimers)...)
	}
	ans.Detail = []audit.Field{{Key: "claimAnyIdentity", Value: claimers}}
	ans.Notes = append(ans.Notes, "a group is asked as one member no file names; a member the ACLs name by user may reach further")
	return ans, nil
}

func prefixed(p string, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = p + l
	}
	return out
}

// composedAccess lists, for USER, every namespace the gate lets them
// create pods in and the queue a pod naming no queue lands in there, with
// the ACL entry that admits it.
func (q *question) composedAccess(l loaded, aq acl.Query, scope audit.Scope, out audit.AccessWriter) error {
	h := audit.AccessHead{System: yunikorn.System, Subject: aq.User, Actions: []string{"submit"}, SectionWord: "partition", ObjectWord: "namespace", RuleWord: "acl",
		Notes: append([]string{fmt.Sprintf("each row is a namespace %s lets %s create pods in, and the queue a pod of theirs naming no queue lands in there", q.gate.Name(), aq.User)}, l.Notes...)}
	if scope.Under != "" {
		return clikit.Usage("--under narrows a listing of queues; with %s files access lists namespaces: leave it out", q.gate.Name())
	}
	if err := out.Head(h); err != nil {
		return clikit.Usage("writing output: %w", err)
	}
	sub := audit.GateSubject{Kind: "User", Name: aq.User, User: aq.User, Groups: aq.Groups}
	t := q.through(l)
	cs := t.creations(sub)
	for _, p := range l.Config.Partitions {
		part := p.CanonicalName()
		if scope.Partition != "" && !strings.EqualFold(scope.Partition, part) {
			continue
		}
		rs, err := t.routes(part, sub, cs, "")
		if err != nil {
			return clikit.Usage("%w", err)
		}
		if err := out.Section(audit.AccessSection{Name: part, Title: fmt.Sprintf("partition %s: user %s, groups [%s] (--groups, with what every request carries)", part, aq.User, strings.Join(apiGroups(sub), ", "))}); err != nil {
			return err
		}
		for _, r := range rs {
			if r.pr != nil && r.unknown != "" && (r.res == nil || !r.res.Placed) {
				continue // whether or not it may, its pod is placed nowhere
			}
			if err := out.Row(q.accessRow(l, part, r)); err != nil {
				return err
			}
		}
	}
	return nil
}

// accessRow is one route as a row: the namespace, the queue, and the ACL
// entry that admits the pod's identity there.
func (q *question) accessRow(l loaded, part string, r route) audit.AccessRow {
	row := audit.AccessRow{Section: part, Object: r.ns.Name, Kind: "namespace", Cells: []audit.Cell{{Unknown: r.pr == nil}}}
	if r.res == nil || !r.res.Placed {
		return row
	}
	if r.unknown != "" {
		row.Cells[0].Unknown = true // placed, if the gate lets the subject create it
		return row
	}
	app := r.pr.App
	d, err := l.Policy.Decide(acl.Query{Partition: part, Queue: r.res.Queue, User: app.User, Groups: app.Groups, Action: acl.Submit, Tags: app.Tags})
	if err == nil && d.Allowed && d.DecidedBy != nil {
		g := decisionVerdict(d, nil, false).By
		row.Cells[0].By = g
	}
	return row
}

// routeRule says what a route creates and how its pod asks: "pods naming
// no queue", "jobs.batch labelled queue: root.prod".
func routeRule(r route) string {
	if r.named == "" {
		return r.creation.Kind + " naming no queue"
	}
	return r.creation.Kind + " labelled queue: " + r.named
}
