package commands

import (
	"io"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/placement"
)

func newPlaceCmd(s *streams) *cobra.Command {
	var (
		files              []string
		groups, queue, key string
		output             string
		req                requestFlags
		forced, quiet      bool
		resolvers          resolverFlags
	)
	c := &cobra.Command{
		Use:               "place [-f FILE] PARTITION USER [--groups g1,g2] [--queue NAME] [--tag KEY=VALUE]... | place --pod POD.yaml [--namespace NS.yaml] (--submitter USER | --without-admission-controller)",
		Short:             "Answer where YuniKorn places an application, whether the queue is created, and why it is rejected",
		Long:              placeLong,
		Example:           placeExample,
		Args:              placeArgs(&req),
		ValidArgsFunction: partitionQueueArgs(s, false),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := clikit.CheckOutput(output, "text", "json"); err != nil {
				return err
			}
			var q acl.Query
			if err := resolvers.subject(cmd, &q, ""); err != nil {
				return err
			}
			l, err := loadOne(s, files, key, func(f engine.Finding) bool { return f.Rule == "placement-rules-unbuildable" })
			if err != nil {
				return err
			}
			tags, pr, err := req.read(l.Config.Doc.Settings)
			if err != nil {
				return err
			}
			if pr != nil && (cmd.Flags().Changed("queue") || cmd.Flags().Changed("groups")) {
				return clikit.Usage("--pod gives the queue, user, groups and tags: leave out --queue and --groups")
			}
			if pr != nil && !pr.Reaches() {
				return clikit.WriteVerdict(s.env.Out(), gateVerdict(pr.Gate, "placed"), output, quiet)
			}
			app, derived := placeApp(args, pr, tags, queue, groups)
			if forced {
				app.Tags["application.create.force"] = "true"
			}
			app.Resolvers, app.Resolver = q.Resolvers, q.Resolver
			res, err := l.Placer.Place(app)
			if err != nil {
				return clikit.Usage("%w", err)
			}
			res.Notes = append(l.Notes, res.Notes...)
			if derived != nil {
				res.Notes = append(res.Notes, derived.Notes...)
			}
			lim, err := placedLimits(l.Config, l.Policy, res, app.Tags)
			if err != nil {
				return err
			}
			if lim != nil && derived != nil && req.ns == "" && lim.Dynamic() {
				lim.Notes = append(lim.Notes, "the namespace was not given (--namespace): its quota annotations would set the new queue's limits, so the limits shown leave them out")
				res.Notes = append(res.Notes, "the limits shown for the new queue leave out the namespace's quota annotations, which were not given (--namespace NS.yaml)")
			}
			v := clikit.Verdict{OK: res.Placed && res.Crash == "",
				Text: func(w io.Writer) error { return writePlaceText(w, app, res, derived, lim) },
				JSON: func() any { return placeJSON(app, res, lim) }}
			if res.Crash != "" {
				v.Code = clikit.ExitUsage
			}
			return clikit.WriteVerdict(s.env.Out(), v, output, quiet)
		},
	}
	f := c.Flags()
	s.configFlags(f, &files, &key)
	f.StringVar(&groups, "groups", "", "comma-separated groups as the request carries them (default: none, so the resolver runs)")
	f.StringVar(&queue, "queue", "", "the queue the application asks for (default: none)")
	f.BoolVar(&forced, "forced", false, "the application is forced (tag application.create.force=true), as on recovery")
	req.register(s, f)
	clikit.VerdictFlags(f, &output, &quiet, "the application, every rule's result, the queue and the submit decision")
	resolvers.register(s, c)
	return c
}

// placeLong is newPlaceCmd's help.
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

// placeExample are newPlaceCmd's examples.
const placeExample = `  aclint place -f queues.yaml default alice --groups dev --tag namespace=team-a
  aclint place -f queues.yaml default bob --queue root.prod.etl -o json
  aclint place -f queues.yaml --pod pod.yaml --namespace ns.yaml --submitter alice
  aclint place -f queues.yaml --pod job.yaml --without-admission-controller`

// placeArgs checks place's words: PARTITION USER, or with --pod at most
// PARTITION.
func placeArgs(req *requestFlags) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if req.pod != "" {
			if len(args) > 1 {
				return clikit.Usage("with --pod, place takes at most PARTITION, got %d arguments", len(args))
			}
			return nil
		}
		if len(args) != 2 {
			return clikit.Usage("place needs PARTITION USER (or --pod POD.yaml), got %d argument(s)\nrun 'aclint place --help' for usage", len(args))
		}
		return nil
	}
}

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
