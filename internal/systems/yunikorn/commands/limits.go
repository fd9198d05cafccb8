package commands

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/limits"
	"github.com/aclint/aclint/internal/systems/yunikorn/placement"
	"github.com/aclint/aclint/internal/systems/yunikorn/running"
)

func newLimitsCmd(s *streams) *cobra.Command {
	var (
		files       []string
		groups, key string
		output      string
		resolvers   resolverFlags
		req         requestFlags
	)
	c := &cobra.Command{
		Use:     "limits QUEUE USER [--partition P] | limits QUEUE --pod POD.yaml [--namespace NS.yaml] (--submitter USER | --without-admission-controller)",
		Short:   "Answer how many applications and resources USER may run in QUEUE, and which limit sets each figure",
		Long:    limitsLong,
		Example: limitsExample,
		Args: func(cmd *cobra.Command, args []string) error {
			_, err := partitioned(cmd, "limits", "QUEUE USER (USER may be left out with --pod)", args, req.pod != "")
			return err
		},
		ValidArgsFunction: partitionQueueArgs(s, true),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := clikit.CheckOutput(output, "text", "json"); err != nil {
				return err
			}
			l, err := loadOne(s, files, key, nil)
			if err != nil {
				return err
			}
			args, err = partitioned(cmd, "limits", "", args, req.pod != "")
			if err != nil {
				return err
			}
			q := acl.Query{Partition: args[0], Queue: args[1], Action: acl.Submit}
			pr, err := askFor(cmd, &q, args[2:], groups, &req, &resolvers, l.Config.Doc.Settings)
			if err != nil {
				return err
			}
			if pr != nil && !pr.Reaches() {
				return s.env.Gated(gated(pr.Gate), "submitAllowed", output)
			}
			a, err := answerLimits(l.Config, l.Policy, q)
			if err != nil {
				return err
			}
			if pr != nil && req.ns == "" && a.Dynamic() {
				return clikit.Usage("%s is created for this pod, and the namespace's quota annotations (%s, %s) would set its limits: give the namespace with --namespace NS.yaml", a.Queue, placement.AnnotationQuota, placement.AnnotationMaxApps)
			}
			a.Notes = append(append([]string{}, l.Notes...), a.Notes...)
			if pr != nil {
				a.Notes = append(a.Notes, pr.Notes()...)
			}
			return s.writeLimits(a, liveServer(files), output)
		},
	}
	f := c.Flags()
	s.configFlags(f, &files, &key)
	partitionFlag(f)
	completeScope(s, c)
	f.StringVar(&groups, "groups", "", "comma-separated groups as the request carries them, used exactly as given")
	f.StringVarP(&output, "output", "o", "text", "output format: text, or json (the figures, every level and the notes)")
	req.register(s, f)
	resolvers.register(s, c)
	return c
}

// writeLimits writes a limits answer, with what the scheduler at server
// (when one is named) counts running under each limit.
func (s *streams) writeLimits(a *limits.Answer, server, output string) error {
	var live []liveCount
	if server != "" {
		var err error
		if live, err = s.liveLimits(server, a); err != nil {
			return err
		}
	}
	return clikit.WriteVerdict(s.env.Out(), clikit.Verdict{OK: true,
		Text: func(w io.Writer) error {
			if err := writeLimitsText(w, a); err != nil || server == "" {
				return err
			}
			return writeLive(w, running.Label(server), live)
		},
		JSON: func() any {
			v := limitsJSON(a)
			if server == "" {
				return v
			}
			if live == nil {
				live = []liveCount{}
			}
			return append(v.(clikit.Object), clikit.Field{Key: "live", Value: live}, clikit.Field{Key: "source", Value: running.Label(server)})
		}}, output, false)
}

// placedLimits are the limits on the application place placed; nil when
// it was not placed. The user and groups are the converted ones placement
// used, the queue the one it landed in.
func placedLimits(cfg *config.Config, policy *acl.Policy, r *placement.Result, tags map[string]string) (*limits.Answer, error) {
	if !r.Placed || r.Crash != "" {
		return nil, nil
	}
	part, err := policy.FindPartition(r.Partition)
	if err != nil {
		return nil, err
	}
	a, err := limits.New(cfg).Answer(limits.Request{Partition: part, Queue: r.Queue, User: r.User, Groups: r.Groups, Tags: tags})
	if err != nil {
		return nil, clikit.Usage("%w", err)
	}
	placed := true // placement admits an application only where its user may submit
	a.SubmitAllowed = &placed
	return a, nil
}

// answerLimits is the limits command's answer; a denied user's
// application never runs, whatever its limits, and a note says so.
func answerLimits(cfg *config.Config, policy *acl.Policy, q acl.Query) (*limits.Answer, error) {
	a, d, err := limits.New(cfg).Ask(policy, q)
	if err != nil {
		return nil, answerErr(err)
	}
	a.Notes = append(append([]string{}, d.Notes...), a.Notes...)
	return a, nil
}

// limitsLong is newLimitsCmd's help.
const limitsLong = `Answer "why is my application accepted but not running?" from the config alone, as
yunikorn-core's user and group manager and its queues decide it on a freshly
started scheduler: the user's limits at each level of the queue's path (a named
user limit, else the wildcard user limit), the limits of the one group the
application is tracked under (searched from the queue up to root, config order
first), and the queues' own maxapplications and resources.max. The answer is the
most applications and resources, the entry that binds each, and every level from
root down.

Resources are written as queues.yaml writes them, next to YuniKorn's internal
units, as its REST API shows them: memory 10Gi (10737418240 bytes), vcore 2 (2000
millicores), other resources as counts; -o json gives the internal units.

A queue that does not exist is answered as check answers it: through placement,
with the request's tags (--tag, or --pod with --namespace). A queue placement
creates gets its ancestors' limits and its parent's childtemplate, and the
namespace quota tags (namespace.resourcequota, namespace.resourcemaxapps) as
YuniKorn applies them to a dynamic queue.

--pod answers for a pod as place does: the identity the core sees (its user.info
annotation when the admission controller keeps it, else the submitter's) with its
groups, for the user limits and the group the application is tracked under; USER may
then be left out, and a USER that is not the pod's is an error.

With --server, the figures are read from the config the scheduler runs, and each is counted
against what runs now, from the scheduler's own usage (usage/user/U, the tracked group's, each
queue): "alice: 2 of 2 running in root.analytics (alice-1, alice-2), 0 more". A user or group
without tracked usage has nothing running. aclint why APP_ID says what holds one application.

Exit codes: 0 answered, 1 the pod is rejected by the admission controller, 2 error (a config YuniKorn rejects, unknown partition, a
queue that neither exists nor is created, a parent queue, a user YuniKorn
rejects, a failing resolver).`

// limitsExample are newLimitsCmd's examples.
const limitsExample = `  aclint limits -f queues.yaml root.prod.etl alice --groups data-eng
  aclint limits -f queues.yaml root.teams.team-a bob --tag namespace=team-a -o json`
