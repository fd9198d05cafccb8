package cli

import (
	"strings"

	"bufio"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

func newAccessCmd(s *streams) *cobra.Command {
	var (
		a         auditFlags
		groups    string
		req       requestFlags
		resolvers resolverFlags
	)
	c := &cobra.Command{
		Use:     "access USER | access --pod POD.yaml [--namespace NS.yaml] (--submitter USER | --without-admission-controller)",
		Short:   "List every queue with USER's submit and admin access and the grant for each",
		Long:    accessLong + "\n\nThe USER of other systems' files:" + strings.TrimPrefix(questionWords(s.reg, accessWords), ";"),
		Example: accessExample,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 && (req.pod == "" || len(args) != 0) {
				return clikit.Usage("access needs USER (USER may be left out with --pod), got %d argument(s)\nrun 'aclint access --help' for usage", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := clikit.CheckOutput(a.output, "text", "json", "csv"); err != nil {
				return err
			}
			if q, err := s.question(a.files); err != nil {
				return err
			} else if q != nil {
				if len(args) == 0 {
					return clikit.Usage("--pod is a Kubernetes pod, which %s never sees: give USER", q.sys.Name())
				}
				return askAccess(s, cmd, q, a, args, groups)
			}
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
				return clikit.WriteVerdict(s.out, gateVerdict(pr.Gate, "rows"), format, false)
			}
			if pr != nil {
				notes = append(notes, pr.Notes()...)
			}
			w := bufio.NewWriter(s.out)
			defer w.Flush()
			r := newAccessRenderer(w, a.output)
			f := &accessFilter{r: r, only: a.onlyAccess}
			if err := r.Head(yunikorn.AccessHead(q.User)); err != nil {
				return clikit.Usage("writing output: %w", err)
			}
			grants := yunikorn.Grants{}
			begin := func(res acl.AccessResult) error { return f.Section(yunikorn.AccessSection(res, q.User, notes)) }
			emit := func(row acl.AccessRow) error { return f.Row(grants.Row(row)) }
			if err := l.Policy.Access(q, a.scope(), begin, emit); err != nil {
				return clikit.Usage("%w", err)
			}
			return r.end()
		},
	}
	f := c.Flags()
	f.StringVar(&groups, "groups", "", "comma-separated groups as the request carries them (default: the resolver finds them)")
	a.register(s, f, "queues where the user has neither submit nor admin", "text, json or csv")
	req.register(s, f)
	resolvers.register(s, c)
	return c
}

func accessWords(sys engine.System) (audit.Usage, bool) {
	if a, ok := sys.(audit.Accesser); ok {
		return a.AccessUsage(), true
	}
	return audit.Usage{}, false
}

// accessLong is newAccessCmd's help.
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

// accessExample are newAccessCmd's examples.
const accessExample = `  aclint access -f queues.yaml alice --groups data-eng
  aclint access -f queues.yaml alice --groups data-eng --under root.prod --only-access
  aclint access bob --resolver file --groups-file people.yaml -o csv`
