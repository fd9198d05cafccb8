package commands

import (
	"fmt"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"

	"github.com/aclint/aclint/internal/systems/yunikorn"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// side is one config of a diff.
type side struct {
	name     string
	cfg      *config.Config
	policy   *acl.Policy
	accepted bool
	errors   []engine.Finding
}

func loadSide(s *streams, path, key string) (*side, error) {
	docs, err := loadInputs(s, []string{path}, key, false)
	if err != nil {
		return nil, err
	}
	l := yunikorn.Accept(docs, nil)
	for _, w := range l.Warnings {
		fmt.Fprintln(s.env.Err(), "aclint: "+engine.Printable(w))
	}
	return &side{name: l.Config.Doc.Describe(), cfg: l.Config, policy: l.Policy, accepted: len(l.Errors) == 0, errors: l.Errors}, nil
}

// diffPart is YuniKorn's part of diff: two queue configs, partition by
// partition and queue by queue.
func diffPart(s *streams) *clikit.Extension {
	var key string
	return &clikit.Extension{
		Long:    diffLong,
		Example: diffExample,
		Foreign: func(system string) error { return foreign(system, nil, key) },
		Flags: func(c *cobra.Command) {
			c.Flags().StringVar(&key, "key", config.DefaultKey, "ConfigMap data key holding the queue config")
		},
		Run: func(cmd *cobra.Command, args []string) error {
			f := cmd.Flags()
			outputs, _ := f.GetStringArray("output")
			targets, err := clikit.ParseDiffOutputs(outputs)
			if err != nil {
				return err
			}
			commentSize, _ := f.GetInt("comment-size")
			flat, _ := f.GetBool("flat")
			failOnGain, _ := f.GetBool("fail-on-gain")
			// the two configs load at the same time: they are independent
			type loaded struct {
				sd  *side
				err error
			}
			oldc := make(chan loaded, 1)
			go func() {
				sd, err := loadSide(s, args[0], key)
				oldc <- loaded{sd, err}
			}()
			new, err := loadSide(s, args[1], key)
			o := <-oldc
			if o.err != nil {
				return o.err
			}
			if err != nil {
				return err
			}
			old := o.sd
			d := &diffRun{old: old, new: new, grouped: &audit.Grouped{}, flat: flat}
			if old.accepted && new.accepted {
				d.res = yunikorn.DiffTo(old.policy, new.policy, d.grouped.Add)
				d.grouped.Merge()
			}
			if err := writeDiffOutputs(s, targets, d, commentSize); err != nil {
				return err
			}
			gains := d.grouped.Gains
			switch {
			case old.accepted && !new.accepted:
				return &clikit.ExitError{Code: clikit.ExitFail}
			case !old.accepted && !new.accepted:
				// a gate that compared nothing must not pass
				return clikit.Usage("both configs are rejected by YuniKorn: nothing was compared; fix them first (aclint lint %s %s)", args[0], args[1])
			case !old.accepted && failOnGain:
				return clikit.Usage("OLD is rejected by YuniKorn, so nothing was compared and --fail-on-gain cannot tell what NEW grants; review NEW's access with aclint access or aclint matrix")
			case failOnGain && gains > 0:
				return &clikit.ExitError{Code: clikit.ExitFail}
			}
			return nil
		},
	}
}

// diffLong is the help of diff, as YuniKorn's part of it heads it.
const diffLong = `Compare access between two configs (any input form; - reads one of them from standard
input). For each partition and queue: which users, groups and everyone gain or lose submit
or admin access, including changes that come from an ancestor's ACL, with the ACL that
grants (for a gain) or granted (for a loss) it; queues and partitions added and removed;
and a config that stops being accepted.

Two files of another system (YARN, Mesos, YTsaurus) are compared as that system answers:
every object both have, every subject either names and everyone else, each answer the
system's own check (docs/audits.md).

Changes are grouped by the ACL entry that causes them (in NEW for a gain, in OLD for a
loss): one entry per cause, with the subjects and queues it reaches and the number of
(queue, subject) pairs, in text and JSON alike. --flat adds every (queue, subject) pair,
streamed: text lists the pairs instead of the causes, JSON adds "changes".

-o markdown writes a pull-request comment: the verdict first, then one line per ACL
entry that causes a change, however many queues it reaches, kept under --comment-size
characters; -o FORMAT=PATH writes a format to a file, and the comment names those files
as the full report.

Exit codes: 0 compared; 1 with --fail-on-gain when anyone gains access, or when NEW is
rejected by YuniKorn and OLD was not; 2 bad input or usage, or nothing could be compared:
both configs are rejected, or (with --fail-on-gain) OLD is rejected, so what NEW grants
cannot be told from it.`

// diffExample are the examples of diff.
const diffExample = `  aclint diff old/queues.yaml queues.yaml
  git show main:queues.yaml | aclint diff - queues.yaml --fail-on-gain
  aclint diff -o markdown base.yaml queues.yaml > comment.md   # for a pull-request comment
  aclint diff -o markdown=comment.md -o text=access-diff.txt -o json=access-diff.json base.yaml queues.yaml`
