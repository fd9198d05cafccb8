package commands

import (
	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

// accessPart is YuniKorn's part of access: every queue for USER, or a pod.
func accessPart(s *streams) *clikit.Extension {
	q := &question{s: s}
	return &clikit.Extension{
		Use:     "access USER | access --pod POD.yaml [--namespace NS.yaml] (--submitter USER | --without-admission-controller)",
		Long:    accessLong,
		Example: accessExample,
		Words:   "USER",
		Foreign: func(system string) error {
			if q.req.pod != "" {
				return clikit.Usage("--pod is a Kubernetes pod, which %s never sees: give USER", system)
			}
			return foreign(q.cmd, system, &q.req, q.key)
		},
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 && (q.req.pod == "" || len(args) != 0) {
				return clikit.Usage("access needs USER (USER may be left out with --pod), got %d argument(s)\nrun 'aclint access --help' for usage", len(args))
			}
			return nil
		},
		Flags: func(c *cobra.Command) {
			f := c.Flags()
			f.StringVar(&q.groups, "groups", "", "comma-separated groups as the request carries them (default: the resolver finds them)")
			q.auditFlags(c, "queues where the user has neither submit nor admin", "text, json or csv")
			completeScope(s, c)
			q.req.register(s, f)
			q.resolvers.register(s, c)
		},
		Answers: q,
	}
}

// AccessUsage is how YuniKorn's access reads its words.
func (q *question) AccessUsage() audit.Usage {
	return audit.Usage{Words: "USER", Example: "alice --groups data-eng", Files: "-f queues.yaml"}
}

// Access lists the user's submit and admin access on every queue of
// every partition (or the pod's identity's), and the queue placement
// would create for the user's request, row by row.
func (q *question) Access(m audit.Model, qu audit.Question, scope audit.Scope, out audit.AccessWriter) error {
	l := m.(loaded)
	notes := l.Notes
	var aq acl.Query
	pr, err := askFor(q.cmd, &aq, qu.Words, q.groups, &q.req, &q.resolvers, l.Config.Doc.Settings)
	if err != nil {
		return err
	}
	if q.gate != nil {
		if pr != nil || aq.Tags != nil {
			return clikit.Usage("--pod and --tag describe one request; with %s files, access asks every way the user can create a pod: leave them out", q.gate.Name())
		}
		return q.composedAccess(l, aq, scope, out)
	}
	if pr != nil && !pr.Reaches() {
		g := gated(pr.Gate)
		h := yunikorn.AccessHead(aq.User)
		g.Access = &h
		return g
	}
	if pr != nil {
		notes = append(notes, pr.Notes()...)
	}
	if err := out.Head(yunikorn.AccessHead(aq.User)); err != nil {
		return clikit.Usage("writing output: %w", err)
	}
	grants := yunikorn.Grants{}
	begin := func(res acl.AccessResult) error { return out.Section(yunikorn.AccessSection(res, aq.User, notes)) }
	emit := func(row acl.AccessRow) error { return out.Row(grants.Row(row)) }
	if err := l.Policy.Access(aq, acl.Scope{Partition: scope.Partition, Under: scope.Under}, begin, emit); err != nil {
		return clikit.Usage("%w", err)
	}
	return nil
}

// accessLong is the help of access, as YuniKorn's part of it heads it.
const accessLong = `List every queue of every partition with the user's submit and admin access and the
ACL entry that grants each, like kubectl auth can-i --list. Groups come from --groups,
or from a resolver as in check.

Parent queues are marked: their ACLs answer, but YuniKorn never runs an application
in a parent queue. After the configured queues comes the queue that placement creates
for this user's request when it names no queue (with the request's tags from --tag or
--pod), marked with the rule that creates it, as check answers it. Queues a provided
rule creates for any name asked for are answered by check one at a time.

--partition and --under QUEUE narrow the listing to one partition and one subtree;
--only-access leaves out the queues where the user has neither submit nor admin.

Another system's files (-f) are listed as that system answers: each object its rules
cover, each action it checks there, and the rule that grants each (docs/audits.md has the
table).

--pod lists for a pod's identity as check --pod decides it (USER may be left out).

Exit codes: 0 listed, 1 the pod is rejected by the admission controller, 2 error (a config YuniKorn rejects, unknown partition or queue,
usage).`

// accessExample are the examples of access.
const accessExample = `  aclint access -f queues.yaml alice --groups data-eng
  aclint access -f queues.yaml alice --groups data-eng --under root.prod --only-access
  aclint access bob --resolver file --groups-file people.yaml -o csv`
