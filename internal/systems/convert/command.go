package convert

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/input"
	"github.com/aclint/aclint/internal/systems/yarn"
	"github.com/aclint/aclint/internal/systems/yunikorn/commands"
)

// Commands are the conversions between systems as commands
// (clikit.Commander): aclint convert yarn. The conversion is neither
// system's: it reads both, and neither imports it; the registry offers
// its commands (internal/systems.New).
type Commands struct{}

// Commands is convert: other schedulers' queue access into a YuniKorn
// queues.yaml.
func (Commands) Commands(env clikit.Env) []*cobra.Command {
	c := &cobra.Command{
		Use:   "convert",
		Short: "Convert another scheduler's queue access into a YuniKorn queues.yaml, and prove what it kept",
	}
	c.AddCommand(newConvertYarnCmd(env))
	return []*cobra.Command{env.Group(c)}
}

func newConvertYarnCmd(env clikit.Env) *cobra.Command {
	var (
		outputs   []string
		aclEnable string
		accept    string
		resolvers *commands.ResolverFlags
	)
	c := &cobra.Command{
		Use:     "yarn -f FILE...",
		Short:   "Convert YARN queues, their submit and admin ACLs and their placement into a YuniKorn queues.yaml",
		Long:    convertYarnLong,
		Example: convertYarnExample,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return clikit.Usage("convert yarn needs the YARN files: capacity-scheduler.xml (or an allocation file) and yarn-site.xml")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			targets, err := parseTargets(outputs)
			if err != nil {
				return err
			}
			system, m, err := env.Load(args)
			if err != nil {
				return err
			}
			if system != yarn.System {
				return clikit.Usage("convert yarn reads Hadoop YARN files: capacity-scheduler.xml (or an allocation file) and yarn-site.xml; %s is not one", strings.Join(args, ", "))
			}
			opts := Options{ACLEnable: aclEnable}
			if opts.Resolver, err = resolvers.Resolver(cmd); err != nil {
				return err
			}
			if opts.Accepted, err = readAccepted(env, accept); err != nil {
				return err
			}
			res, err := FromModel(m, opts)
			if err != nil {
				return clikit.Usage("%w", err)
			}
			for _, t := range targets {
				if err := t.write(env, res); err != nil {
					return err
				}
			}
			if quiet, _ := cmd.Flags().GetBool("quiet"); !quiet { // -q, which every command takes
				report(env.Err(), res)
			}
			if !res.Same() && !res.AllAccepted() {
				return &clikit.ExitError{Code: clikit.ExitFail}
			}
			return nil
		},
	}
	c.Flags().StringArrayVarP(&outputs, "output", "o", nil, "output: yaml (the queues.yaml, the default) or json (the whole answer), on standard output or FORMAT=PATH into a file (repeatable)")
	c.Flags().StringVar(&aclEnable, "acl-enable", "", "yarn.acl.enable, when no yarn-site.xml is given: true or false")
	c.Flags().StringVar(&accept, "accept", "", "file of the differences the team accepts, each a cause with a reason (docs/migration.md): exit 0 when only those remain")
	resolvers = commands.RegisterResolverFlags(env, c)
	clikit.FilesFlag(c, "a YARN file: capacity-scheduler.xml or an allocation file, yarn-site.xml, core-site.xml (repeatable; the same as naming it as an argument)")
	return c
}

// readAccepted reads --accept's file; nil when none is given.
func readAccepted(env clikit.Env, path string) (*Accepted, error) {
	if path == "" {
		return nil, nil
	}
	data, err := input.ReadFile(path, env.MaxInput(), env.Seen())
	if err != nil {
		return nil, clikit.Usage("--accept: %w", err)
	}
	a, err := ParseAccepted(path, data)
	if err != nil {
		return nil, clikit.Usage("--accept: %w", err)
	}
	return a, nil
}

// convertYarnLong is newConvertYarnCmd's help.
const convertYarnLong = `Convert a YARN scheduler's queues and their ACLs into a YuniKorn queues.yaml: the
queue tree as one partition, default, and every queue's submit and admin ACL as YARN
reads it (root's default * written out, names YuniKorn's ACL parser would drop left
out). FILE is capacity-scheduler.xml or a Fair Scheduler allocation file, with
yarn-site.xml for yarn.acl.enable (or --acl-enable).

The placement rules are carried as YuniKorn placement rules: the Capacity Scheduler's
u: and g: mappings and the Fair Scheduler's queuePlacementPolicy become provided,
user and fixed rules with filters and parents; a rule that places by group, which
YuniKorn has no rule for, becomes one fixed rule per queue with a group filter.

aclint then asks both systems every access question that can tell them apart (each
queue, submit and admin, every user and group any ACL names, and someone no ACL
names) and prints each answer that differs; and it places every application that can
tell the two placements apart (the users, groups and queues the rules, ACLs and tree
name) in both. The report gives one line per cause of difference (no-groups,
yarn-rejects-unknown-queue, ...: what each system does by design), with its count and
an example. What is not converted (capacities, preemption, queues whose names YuniKorn
refuses, placement rules YuniKorn has none for) is listed.

--accept FILE reads the differences the team accepts: each a cause, optionally scoped
to queues and users, with a reason (docs/migration.md). --groups-file and the resolver
flags (as check takes them) prove under the cluster's groups: a request without groups
is asked with its user's groups, in both systems.

-o says what goes where, as in lint: -o yaml (the default) writes the queues.yaml to
standard output, -o json the whole answer (the config, every difference, what is not
converted), and -o FORMAT=PATH writes a file instead (repeatable). The report goes to
standard error.

Exit codes: 0 the access and placement are the same, or every difference is accepted,
1 they differ, 2 error (a file YARN refuses, yarn.acl.enable unknown, a placement policy
that comes from a yarn-site.xml not given, an accepted file convert cannot read, a
resolver without an answer, something aclint cannot read as YARN does).`

// convertYarnExample are newConvertYarnCmd's examples.
const convertYarnExample = `  aclint convert yarn -f capacity-scheduler.xml -f yarn-site.xml -o yaml=queues.yaml
  aclint convert yarn -f capacity-scheduler.xml -f yarn-site.xml -o yaml=queues.yaml --accept convert-accepted.yaml
  aclint convert yarn -f capacity-scheduler.xml -f yarn-site.xml --groups-file groups.yaml
  aclint convert yarn -f capacity-scheduler.xml -f yarn-site.xml -o yaml=queues.yaml -o json=convert.json
  aclint convert yarn -f fair-scheduler.xml`
