package commands

import (
	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/audit"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

// whoCanPart is YuniKorn's part of who-can: QUEUE, or a pod.
func whoCanPart(s *streams) *clikit.Extension {
	q := &question{s: s, onePath: true}
	return &clikit.Extension{
		Use:      "who-can QUEUE [--partition P]",
		Long:     whoCanLong,
		Example:  whoCanExample,
		Words:    "QUEUE",
		Complete: partitionQueueArgs(s, true),
		Foreign:  func(system string) error { return foreign(q.cmd, system, &q.req, q.key) },
		Flags: func(c *cobra.Command) {
			f := c.Flags()
			q.configFlags(c)
			partitionFlag(f)
			completeScope(s, c)
			f.String("action", "submit", "access to list: submit or admin")
			f.StringP("output", "o", "text", "output format: text, json or csv")
			q.req.register(s, f)
			q.resolvers.register(s, c)
		},
		Answers: q,
	}
}

// WhoCanUsage is how YuniKorn's who-can reads its words.
func (q *question) WhoCanUsage() audit.Usage {
	return audit.Usage{Words: "QUEUE", Example: "root.prod.etl", Files: "-f queues.yaml"}
}

// WhoCan lists who YuniKorn lets do the action on a queue, or on one that
// placement would create; with --pod, only the pod's own request.
func (q *question) WhoCan(m audit.Model, qu audit.Question) (*audit.WhoCan, error) {
	l := m.(loaded)
	args, err := q.words("who-can", qu.Words)
	if err != nil {
		return nil, err
	}
	act, err := action(qu.Action)
	if err != nil {
		return nil, err
	}
	aq := acl.Query{Partition: args[0]}
	if q.gate != nil {
		if q.req.pod != "" || len(q.req.tags) > 0 {
			return nil, clikit.Usage("--pod and --tag describe one request; with %s files, who-can asks every way each subject can create a pod: leave them out", q.gate.Name())
		}
		return q.composedWhoCan(l, args[0], args[1], act)
	}
	pr, err := askFor(q.cmd, &aq, nil, "", &q.req, &q.resolvers, l.Config.Doc.Settings)
	if err != nil {
		return nil, err
	}
	if pr != nil && !pr.Reaches() {
		g := gated(pr.Gate)
		g.WhoCan = &audit.WhoCan{System: yunikorn.System, Action: string(act), Object: args[1]}
		return nil, g
	}
	var sub *acl.Subject
	if pr != nil {
		if sub, err = podSubject(l.Policy, args[0], aq); err != nil {
			return nil, err
		}
	}
	r, err := l.Policy.WhoCanFor(args[0], args[1], act, sub, aq.Tags)
	if err != nil {
		return nil, answerErr(err)
	}
	r.Notes = append(l.Notes, r.Notes...)
	if pr != nil {
		r.Notes = append(r.Notes, pr.Notes()...)
	}
	return yunikorn.WhoCanAnswer(r), nil
}

// whoCanLong is the help of who-can, as YuniKorn's part of it heads it.
const whoCanLong = `List who has access to a queue, like kubectl-who-can: everyone (*), users and groups,
each with the queue and ACL that grants it (on the queue itself, or inherited from an
ancestor), and the ACL entries YuniKorn drops on the way.

A queue that does not exist is answered when placement can create it: every rule
that can, in rule order, with what a request needs for each (the tags a tag rule
reads, the user a user rule reads, the queue a provided rule reads, the rule's
filter); a rule is reached only when the rules before it place nothing. --tag
narrows this to requests with those tags; --pod to the pod's own request, with the
identity the admission controller gives it (as check --pod decides it).

With Hadoop YARN files (-f capacity-scheduler.xml or an allocation file, and
yarn-site.xml), it lists who YARN lets in, with the same walk up the queue's path
(YARN has no partitions).

Exit codes: 0 answered, 2 error (a config YuniKorn rejects, unknown partition or queue, usage).`

// whoCanExample are the examples of who-can.
const whoCanExample = `  aclint who-can -f queues.yaml root.prod.etl
  aclint who-can root.prod --action admin -o csv`

// podSubject is the subject of a pod's request in a partition, as the
// partition's resolver sees it.
func podSubject(p *acl.Policy, partition string, q acl.Query) (*acl.Subject, error) {
	part, err := p.FindPartition(partition)
	if err != nil {
		return nil, clikit.Usage("%w", err)
	}
	rs, err := p.ResolveSubject(part, q)
	if err != nil {
		return nil, clikit.Usage("%w", err)
	}
	return &rs, nil
}
