package commands

import (
	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/placement"
)

// placePart is YuniKorn's part of place: its question (USER,
// or a pod) and its flags. A freshly started scheduler runs a partition
// whose rules cannot be built, so that error does not refuse the config.
func placePart(s *streams) *clikit.Extension {
	q := &question{s: s, onePath: true, tolerate: func(f engine.Finding) bool { return f.Rule == "placement-rules-unbuildable" }}
	return &clikit.Extension{
		Use:      "place [-f FILE] USER [--partition P] [--groups g1,g2] [--queue NAME] [--tag KEY=VALUE]... | place --pod POD.yaml [--namespace NS.yaml] (--submitter USER | --without-admission-controller)",
		Long:     placeLong,
		Example:  placeExample,
		Words:    "USER",
		Complete: partitionQueueArgs(s, false),
		Foreign: func(system string) error {
			if q.forced {
				return clikit.Usage("--forced tags a YuniKorn application (application.create.force); a %s question has no such tag: leave it out", system)
			}
			return foreign(q.cmd, system, &q.req, q.key)
		},
		Flags: func(c *cobra.Command) {
			f := c.Flags()
			q.configFlags(c)
			partitionFlag(f)
			completeScope(s, c)
			f.StringVar(&q.groups, "groups", "", "comma-separated groups as the request carries them (YuniKorn: default none, so the resolver runs; YARN: in order, the first is the primary group)")
			f.StringVar(&q.queue, "queue", "", "the queue the application asks for (default: none)")
			f.BoolVar(&q.forced, "forced", false, "the application is forced (tag application.create.force=true), as on recovery")
			q.req.register(s, f)
			var output string
			var quiet bool
			clikit.VerdictFlags(f, &output, &quiet, "the application, every rule's result, the queue and the submit decision")
			q.resolvers.register(s, c)
		},
		Answers: q,
	}
}

// PlaceUsage is how YuniKorn's place reads its words.
func (q *question) PlaceUsage() audit.Usage {
	return audit.Usage{Words: "USER", Example: "alice --groups dev --tag namespace=team-a", Files: "-f queues.yaml"}
}

// Place runs YuniKorn's placement for one application (the words and
// flags', or a pod's as the admission controller and the shim make it),
// with the submit check on the queue and the limits there.
func (q *question) Place(m audit.Model, qu audit.Question) (*audit.Placement, error) {
	l := m.(loaded)
	args, err := q.words("place", qu.Words)
	if err != nil {
		return nil, err
	}
	var aq acl.Query
	if err := q.resolvers.subject(q.cmd, &aq, ""); err != nil {
		return nil, err
	}
	tags, pr, err := q.req.read(l.Config.Doc.Settings)
	if err != nil {
		return nil, err
	}
	if pr != nil && (q.cmd.Flags().Changed("queue") || q.cmd.Flags().Changed("groups")) {
		return nil, clikit.Usage("--pod gives the queue, user, groups and tags: leave out --queue and --groups")
	}
	if pr != nil && !pr.Reaches() {
		return gatePlacement(pr.Gate), nil
	}
	app, derived := placeApp(args, pr, tags, q.queue, q.groups)
	if q.forced {
		app.Tags["application.create.force"] = "true"
	}
	app.Resolvers, app.Resolver = aq.Resolvers, aq.Resolver
	res, err := l.Placer.Place(app)
	if err != nil {
		return nil, clikit.Usage("%w", err)
	}
	res.Notes = append(l.Notes, res.Notes...)
	if derived != nil {
		res.Notes = append(res.Notes, derived.Notes...)
	}
	lim, err := placedLimits(l.Config, l.Policy, res, app.Tags)
	if err != nil {
		return nil, err
	}
	if lim != nil && derived != nil && q.req.ns == "" && lim.Dynamic() {
		lim.Notes = append(lim.Notes, "the namespace was not given (--namespace): its quota annotations would set the new queue's limits, so the limits shown leave them out")
		res.Notes = append(res.Notes, "the limits shown for the new queue leave out the namespace's quota annotations, which were not given (--namespace NS.yaml)")
	}
	return placeAnswer(app, res, derived, lim), nil
}

// placeLong is YuniKorn's help of place.
const placeLong = `Run YuniKorn's placement for one application as a freshly started scheduler does:
each placement rule in order (its filter, parent rules, the queue name it makes),
the checks on that queue (it must be a leaf, or be created under a parent queue,
and the user must pass the submit ACLs), then the root.default fallback. The
answer is the queue, whether it is created and under which queue, and the submit
decision explained as check explains it.

The input is what the Kubernetes shim sends: the requested queue (--queue, empty
when the pod names none), the user and groups, and tags such as namespace and
namespace.parentqueue. --pod reads them from a pod manifest the way the shim does
(and --namespace adds the namespace's annotations); a Job, CronJob, Deployment,
StatefulSet, DaemonSet or ReplicaSet is read through its pod template, as the shim
sees the pods it creates. With YuniKorn's admission controller in the path, the core
sees the Kubernetes user who creates the pod unless the pod carries the user.info
annotation: name that user with --submitter, or say --without-admission-controller;
otherwise place cannot know the user and exits 2.

Exit codes: 0 placed, 1 rejected, 2 error (a config YuniKorn rejects, an unknown
partition, bad input, a pod whose submitter is not given).`

// placeExample are YuniKorn's examples of place.
const placeExample = `  aclint place -f queues.yaml alice --groups dev --tag namespace=team-a
  aclint place -f queues.yaml bob --queue root.prod.etl -o json
  aclint place -f queues.yaml --pod pod.yaml --namespace ns.yaml --submitter alice
  aclint place -f queues.yaml --pod job.yaml --without-admission-controller`

// placeApp is the application place asks about: the pod's as the
// admission controller derives it, or the words and flags.
func placeApp(args []string, pr *placement.PodRequest, tags map[string]string, queue, groups string) (placement.App, *placement.Derivation) {
	if pr != nil {
		app := pr.App
		if len(args) == 1 {
			app.Partition = args[0]
		}
		return app, &pr.Derivation
	}
	app := placement.App{Tags: map[string]string{}, Partition: args[0], User: args[1], Queue: queue, Groups: clikit.ParseList(groups)}
	if tags != nil {
		app.Tags = tags
	}
	return app, nil
}
