package convert

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/systems/yarn"
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
	)
	c := &cobra.Command{
		Use:     "yarn FILE...",
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
			res, err := FromModel(m, aclEnable)
			if err != nil {
				return clikit.Usage("%w", err)
			}
			for _, t := range targets {
				if err := t.write(env, res); err != nil {
					return err
				}
			}
			report(env.Err(), res)
			if len(res.Differences) > 0 || len(res.Placement) > 0 {
				return &clikit.ExitError{Code: clikit.ExitFail}
			}
			return nil
		},
	}
	c.Flags().StringArrayVarP(&outputs, "output", "o", nil, "output: yaml (the queues.yaml, the default) or json (the whole answer), on standard output or FORMAT=PATH into a file (repeatable)")
	c.Flags().StringVar(&aclEnable, "acl-enable", "", "yarn.acl.enable, when no yarn-site.xml is given: true or false")
	return c
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
name) in both, and prints each kind of application placed differently with an example.
What is not converted (capacities, preemption, queues whose names YuniKorn refuses,
placement rules YuniKorn has none for) is listed.

-o says what goes where, as in lint: -o yaml (the default) writes the queues.yaml to
standard output, -o json the whole answer (the config, every difference, what is not
converted), and -o FORMAT=PATH writes a file instead (repeatable). The report goes to
standard error.

Exit codes: 0 the access and placement are the same, 1 they differ, 2 error (a file
YARN refuses, yarn.acl.enable unknown, a placement policy that comes from a yarn-site.xml
not given, something aclint cannot read as YARN does).`

// convertYarnExample are newConvertYarnCmd's examples.
const convertYarnExample = `  aclint convert yarn capacity-scheduler.xml yarn-site.xml -o yaml=queues.yaml
  aclint convert yarn capacity-scheduler.xml yarn-site.xml -o yaml=queues.yaml -o json=convert.json
  aclint convert yarn fair-scheduler.xml`
