package commands

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/limits"
)

// checkPart is YuniKorn's part of check: QUEUE USER, or a pod.
func checkPart(s *streams) *clikit.Extension {
	q := &question{s: s, onePath: true}
	return &clikit.Extension{
		Use:      "check QUEUE USER [--partition P] | check QUEUE --pod POD.yaml [--namespace NS.yaml] (--submitter USER | --without-admission-controller)",
		Long:     checkLong,
		Example:  checkExample,
		Words:    "QUEUE USER",
		Complete: partitionQueueArgs(s, true),
		Foreign:  func(system string) error { return foreign(q.cmd, system, &q.req, q.key) },
		Flags: func(c *cobra.Command) {
			f := c.Flags()
			q.configFlags(c)
			partitionFlag(f)
			completeScope(s, c)
			f.StringVar(&q.groups, "groups", "", "comma-separated groups as the request carries them, used exactly as given")
			f.String("action", "submit", "access to check: submit or admin")
			var output string
			var quiet bool
			clikit.VerdictFlags(f, &output, &quiet, "the decision, every ACL consulted and the notes")
			q.req.register(s, f)
			f.BoolVarP(&q.verbose, "verbose", "v", false, "also show the limits on an application of the user in the queue (submit only), as aclint limits gives them")
			f.BoolVar(&q.explain, "explain", false, "also show how the groups were found (for LDAP: the filter sent and each memberOf value)")
			q.resolvers.register(s, c)
		},
		Answers: q,
	}
}

// CheckUsage is how YuniKorn's check reads its words.
func (q *question) CheckUsage() audit.Usage {
	return audit.Usage{Words: "QUEUE USER", Example: "root.prod.etl alice", Files: "-f queues.yaml"}
}

// Check decides an access question as YuniKorn does: the request as the
// flags describe it (a pod through the admission controller), the ACLs
// from the queue up to root, and with -v the limits on the user's
// applications there.
func (q *question) Check(m audit.Model, qu audit.Question) (*audit.Verdict, error) {
	l := m.(loaded)
	args, err := q.words("check", qu.Words)
	if err != nil {
		return nil, err
	}
	act, err := action(qu.Action)
	if err != nil {
		return nil, err
	}
	aq := acl.Query{Partition: args[0], Queue: args[1], Action: act}
	pr, err := askFor(q.cmd, &aq, args[2:], q.groups, &q.req, &q.resolvers, l.Config.Doc.Settings)
	if err != nil {
		return nil, err
	}
	if pr != nil && !pr.Reaches() {
		return gateCheck(pr.Gate), nil
	}
	if q.gate != nil {
		if pr != nil {
			return nil, clikit.Usage("--pod asks about one pod as written; with %s files, check asks every way the user can create one: leave out --pod", q.gate.Name())
		}
		return q.composedCheck(l, aq)
	}
	d, err := l.Policy.Decide(aq)
	if err != nil {
		return nil, answerErr(err)
	}
	d.Notes = append(l.Notes, d.Notes...)
	if pr != nil {
		d.Notes = append(d.Notes, pr.Notes()...)
	}
	var lim *limits.Answer
	if q.verbose && act == acl.Submit && d.Reason == "" && !d.Parent {
		if lim, err = limits.New(l.Config).Decided(l.Policy, d, aq.Tags); err != nil {
			return nil, clikit.Usage("%w", err)
		}
	}
	return decisionVerdict(d, lim, q.explain), nil
}

// checkLong is the help of check, as YuniKorn's part of it heads it.
const checkLong = `Answer an access question exactly as YuniKorn decides it: submit access comes from
submitacl or adminacl of the queue or any ancestor, admin access from adminacl of
the queue or any ancestor. The answer names the ACL entry that granted access, or
lists every ACL consulted up to root when access is denied.

Without -f, ./queues.yaml is used when present, otherwise YuniKorn's built-in
default config. -f may be given twice for the yunikorn-defaults and
yunikorn-configs ConfigMaps; they are merged as YuniKorn merges them.

Without --groups, the user's groups come from the partition's usergroupresolver,
as they do in YuniKorn for requests that carry no groups.

A queue that does not exist is answered only when a placement rule creates exactly
it for this request. The request's tags (--tag namespace=team-a, or --pod with
--namespace, which read them as the Kubernetes shim does) decide what tag rules
create; without them, a queue only a tag rule creates is not answered, and the error
names the tags that would create it.

--pod asks for a pod as place does: the admission controller's checks in its own
order (a pod it refuses is "rejected" with its reason), then the identity the core
sees (the pod's user.info annotation when the controller keeps it, else the
submitter's); USER may then be left out, and a USER that is not the pod's is an
error.

Exit codes: 0 allowed, 1 denied (or the pod rejected by the admission controller),
2 error (a config YuniKorn rejects, unknown partition or queue, a pod YuniKorn does
not schedule, usage).`

// checkExample are the examples of check.
const checkExample = `  aclint check -f queues.yaml root.prod.etl alice --groups data-eng
  aclint check -f yunikorn-defaults.yaml -f yunikorn-configs.yaml root.dev bob --action admin
  aclint check -f queues.yaml root.teams.team-a alice --tag namespace=team-a --tag namespace.parentqueue=root.teams`

// decisionVerdict is check's answer in the shape every system's check
// has (rendered once, by the command line): the decision, the request as
// YuniKorn built it, the ACLs consulted on a denial, and with -v the
// limits on the user's applications in the queue. YuniKorn's own fields
// are the JSON's detail.
func decisionVerdict(d *acl.Decision, lim *limits.Answer, explain bool) *audit.Verdict {
	v := &audit.Verdict{System: yunikorn.System, Allowed: d.Allowed, Answer: "denied", Notes: d.Notes,
		Why: decisionWhy(d), Detail: decisionDetail(d, lim)}
	if d.Allowed {
		v.Answer = "allowed"
	}
	groups := engine.Printable(acl.Names(d.Groups))
	ctx := fmt.Sprintf("%s on %s in partition %s for user %s, groups %s", d.Query.Action, d.Queue, d.Partition, d.Query.User, groups)
	if d.GroupsSource != "" {
		ctx += " (" + d.GroupsSource + ")"
	}
	v.Context = []string{ctx}
	if explain {
		v.Context = append(v.Context, "groups: "+groups)
		if d.GroupsSource != "" {
			v.Context = append(v.Context, "groups from: "+d.GroupsSource)
		}
		for _, l := range d.GroupsDetails {
			v.Context = append(v.Context, "  "+l)
		}
	}
	if g := d.DecidedBy; g != nil && d.Reason == "" {
		what := fmt.Sprintf("%s %q", g.Kind, g.Entry)
		kind, name := g.Kind, g.Entry
		if g.Kind == "wildcard" {
			what, kind, name = `wildcard "*"`, "everyone", "*"
		}
		v.By = &audit.Grant{Kind: kind, Name: name, Object: g.Queue, Rule: g.ACL, Entry: what, Inherited: !strings.EqualFold(g.Queue, d.Queue), Pos: g.Pos}
	}
	if !d.Allowed && d.Reason == "" {
		v.ConsultedTitle = "consulted, from the queue up to root"
		for _, c := range d.Consulted {
			v.Consulted = append(v.Consulted, audit.Consulted{Object: c.Queue, Rule: c.ACL, Value: c.Value, Set: c.Set, Pos: c.Pos, Holder: "queue", Result: c.Result})
		}
	}
	if lim != nil {
		var b strings.Builder
		writeLimitsFigures(&b, lim, "")
		v.Sections = []audit.Section{{Title: fmt.Sprintf("limits on %s (aclint limits shows every level)", lim.Queue), Lines: strings.Split(strings.TrimRight(b.String(), "\n"), "\n")}}
	}
	return v
}

// decisionWhy says the decision in one sentence.
func decisionWhy(d *acl.Decision) string {
	if d.Reason != "" {
		return d.Reason
	}
	may := "may"
	if !d.Allowed {
		may = "may not"
	}
	what := "submit to"
	if d.Query.Action == acl.Admin {
		what = "administer"
	}
	return fmt.Sprintf("%s %s %s %s in partition %s", d.Query.User, may, what, d.Queue, d.Partition)
}
