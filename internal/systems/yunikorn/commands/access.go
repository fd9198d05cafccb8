package commands

import (
	"github.com/aclint/aclint/internal/clikit"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

// accessPart is YuniKorn's part of access: every queue for USER, or a pod.
func accessPart(s *streams) *clikit.Extension {
	var (
		a         auditFlags
		groups    string
		req       requestFlags
		resolvers resolverFlags
	)
	return &clikit.Extension{
		Use:     "access USER | access --pod POD.yaml [--namespace NS.yaml] (--submitter USER | --without-admission-controller)",
		Long:    accessLong,
		Example: accessExample,
		Words:   "USER",
		Foreign: func(system string) error {
			if req.pod != "" {
				return clikit.Usage("--pod is a Kubernetes pod, which %s never sees: give USER", system)
			}
			return foreign(system, &req, a.key)
		},
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 && (req.pod == "" || len(args) != 0) {
				return clikit.Usage("access needs USER (USER may be left out with --pod), got %d argument(s)\nrun 'aclint access --help' for usage", len(args))
			}
			return nil
		},
		Flags: func(c *cobra.Command) {
			f := c.Flags()
			f.StringVar(&groups, "groups", "", "comma-separated groups as the request carries them (default: the resolver finds them)")
			a.register(s, f, "queues where the user has neither submit nor admin", "text, json or csv")
			completeScope(s, c)
			req.register(s, f)
			resolvers.register(s, c)
		},
		Run: func(cmd *cobra.Command, args []string) error {
			l, err := load(s, a.files, a.key, nil)
			if err != nil {
				return err
			}
			notes := l.Notes
			var q acl.Query
			pr, err := askFor(cmd, &q, args, groups, &req, &resolvers, l.Config.Doc.Settings)
			if err != nil {
				return err
			}
			if pr != nil && !pr.Reaches() {
				format := a.output
				if format == "csv" {
					format = "text"
				}
				return clikit.WriteVerdict(s.env.Out(), gateVerdict(pr.Gate, "rows"), format, false)
			}
			if pr != nil {
				notes = append(notes, pr.Notes()...)
			}
			f, end := s.env.Access(a.output, a.onlyAccess)
			if err := f.Head(yunikorn.AccessHead(q.User)); err != nil {
				end()
				return clikit.Usage("writing output: %w", err)
			}
			grants := yunikorn.Grants{}
			begin := func(res acl.AccessResult) error { return f.Section(yunikorn.AccessSection(res, q.User, notes)) }
			emit := func(row acl.AccessRow) error { return f.Row(grants.Row(row)) }
			if err := l.Policy.Access(q, a.scope(), begin, emit); err != nil {
				end()
				return clikit.Usage("%w", err)
			}
			return end()
		},
	}
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
