package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

func newWhoCanCmd(s *streams) *cobra.Command {
	var (
		files               []string
		action, key, output string
		req                 requestFlags
		resolvers           resolverFlags
	)
	c := &cobra.Command{
		Use:               "who-can PARTITION QUEUE",
		Short:             "List every user and group that may submit to (or administer) a queue, and the ACL that grants each",
		Long:              whoCanLong,
		Example:           whoCanExample,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: partitionQueueArgs(s, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := clikit.CheckOutput(output, "text", "json", "csv"); err != nil {
				return err
			}
			if q, err := s.question(files); err != nil || q != nil {
				if err != nil {
					return err
				}
				if err := req.none(q.sys.Name()); err != nil {
					return err
				}
				return askWhoCan(s, cmd, q, args, action, output)
			}
			if len(args) != 2 {
				return clikit.Usage("who-can needs PARTITION QUEUE")
			}
			act, err := acl.ParseAction(action)
			if err != nil {
				return clikit.Usage("invalid --action: %w", err)
			}
			l, err := load(s, files, key, nil)
			if err != nil {
				return err
			}
			q := acl.Query{Partition: args[0]}
			pr, err := askFor(cmd, &q, nil, "", &req, &resolvers, l.Config.Doc.Settings)
			if err != nil {
				return err
			}
			if pr != nil && !pr.Reaches() {
				format := output
				if format == "csv" {
					format = "text"
				}
				return clikit.WriteVerdict(s.out, gateVerdict(pr.Gate, "allowed"), format, false)
			}
			var sub *acl.Subject
			if pr != nil {
				if sub, err = podSubject(l.Policy, args[0], q); err != nil {
					return err
				}
			}
			r, err := l.Policy.WhoCanFor(args[0], args[1], act, sub, q.Tags)
			if err != nil {
				return answerErr(err)
			}
			r.Notes = append(l.Notes, r.Notes...)
			if pr != nil {
				r.Notes = append(r.Notes, pr.Notes()...)
			}
			return writeWhoCan(s, yunikorn.WhoCanAnswer(r), output)
		},
	}
	f := c.Flags()
	s.configFlags(f, &files, &key)
	f.StringVar(&action, "action", "submit", "access to list: submit or admin")
	f.StringVarP(&output, "output", "o", "text", "output format: text, json or csv")
	req.register(s, f)
	resolvers.register(s, c)
	return c
}

// holderLine is one grant of a who-can list: who, by which queue's ACL,
// and where that is written.
type holderLine struct {
	name, queue, acl, where string
	inherited               bool
}

// writeHolders writes a who-can list's everyone, users and groups
// sections, as every system's who-can prints them.
func writeHolders(b *strings.Builder, r *audit.WhoCan, everyone, users, groups []holderLine) {
	if len(everyone) > 0 {
		b.WriteString("everyone:\n")
		writeHolderLines(b, r.How, everyone)
	} else {
		b.WriteString("everyone: no\n")
	}
	for _, sec := range []struct {
		name, title string
		hs          []holderLine
	}{{"users", r.UsersTitle, users}, {"groups", r.GroupsTitle, groups}} {
		if sec.title == "-" {
			continue
		}
		if sec.title != "" {
			sec.name = sec.title
		}
		if len(sec.hs) == 0 {
			fmt.Fprintf(b, "%s: none\n", sec.name)
			continue
		}
		fmt.Fprintf(b, "%s:\n", sec.name)
		writeHolderLines(b, r.How, sec.hs)
	}
}

// writeHolderLines writes one line per grant: who, where it is granted
// and by which rule, and where that rule is written.
func writeHolderLines(b *strings.Builder, how string, hs []holderLine) {
	for _, h := range hs {
		how := how
		if h.inherited {
			how = "inherited"
		}
		what := h.acl
		if h.queue != "" {
			what = h.queue + " " + h.acl
		}
		fmt.Fprintf(b, "  %-24s %s (%s)%s\n", h.name, what, how, h.where)
	}
}

// whoCanLong is newWhoCanCmd's help.
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
yarn-site.xml), it lists who YARN lets in, with the same walk up the queue's path:
PARTITION is then default.

Exit codes: 0 answered, 2 error (a config YuniKorn rejects, unknown partition or queue, usage).`

// whoCanExample are newWhoCanCmd's examples.
const whoCanExample = `  aclint who-can -f queues.yaml default root.prod.etl
  aclint who-can default root.prod --action admin -o csv`

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
