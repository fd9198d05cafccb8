package commands

import (
	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"

	"github.com/aclint/aclint/internal/systems/yunikorn"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// diffPart is YuniKorn's part of diff: two queue configs, partition by
// partition and queue by queue. A config YuniKorn rejects is a side of the
// answer, not an error: a change that makes YuniKorn reject its config
// fails the gate.
func diffPart(s *streams) *clikit.Extension {
	q := &question{s: s, refusedSides: true}
	return &clikit.Extension{
		Long:    diffLong,
		Example: diffExample,
		Foreign: func(system string) error { return foreign(q.cmd, system, nil, q.key) },
		Flags: func(c *cobra.Command) {
			q.cmd = c
			c.Flags().StringVar(&q.key, "key", config.DefaultKey, "ConfigMap data key holding the queue config")
		},
		Answers: q,
	}
}

// Diff compares access between two configs YuniKorn accepts: for every
// partition and queue in both, who gains or loses submit or admin, with
// the ACL entry that grants (NEW) or granted (OLD) it. With a gate in
// front of both sides, who gains or loses a way in, end to end.
func (q *question) Diff(old, new audit.Model, sides audit.DiffSides) (*audit.Diff, error) {
	if sides.OldGate != nil {
		return composedDiff(throughOf(sides.OldGate, old.(loaded)), throughOf(sides.NewGate, new.(loaded)))
	}
	return diffOf(old.(loaded).Loaded, new.(loaded).Loaded), nil
}

// diffOf is the diff between two configs YuniKorn accepts, in every
// system's shape (diff, and drift's from what runs).
func diffOf(o, n *yunikorn.Loaded) *audit.Diff {
	res := yunikorn.DiffTo(o.Policy, n.Policy, func(audit.Change) {})
	d := &audit.Diff{System: yunikorn.System, By: "YuniKorn", ObjectWord: "queue", SectionWord: "partition", RuleWord: "ACL entry",
		Old: o.Config.Doc.Describe(), New: n.Config.Doc.Describe(), Warnings: res.Warnings,
		SectionsAdded: res.PartitionsAdded, SectionsRemoved: res.PartitionsRemoved,
		Changes: func(emit func(audit.Change)) { yunikorn.DiffTo(o.Policy, n.Policy, emit) },
		Detail:  []audit.Field{{Key: "partitionsAdded", Value: nonNil(res.PartitionsAdded)}, {Key: "partitionsRemoved", Value: nonNil(res.PartitionsRemoved)}}}
	for _, c := range res.Queues {
		if c.Added {
			d.Added = append(d.Added, audit.Object{Section: c.Partition, Name: c.Queue})
		} else {
			d.Removed = append(d.Removed, audit.Object{Section: c.Partition, Name: c.Queue})
		}
	}
	return d
}

// diffLong is the help of diff, as YuniKorn's part of it heads it.
const diffLong = `Compare access between two configs (any input form; - reads one of them from standard
input). For each partition and queue: which users, groups and everyone gain or lose submit
or admin access, including changes that come from an ancestor's ACL, with the ACL that
grants (for a gain) or granted (for a loss) it; queues and partitions added and removed;
and a config that stops being accepted.

Two directories that both hold Kubernetes RBAC manifests beside the ConfigMap (two
checkouts of a GitOps repository) are compared end to end: who gains or loses a way to get
an application into a queue through RBAC, the admission controller, placement and the
ACLs, each change with the step it is in (docs/kubernetes.md).

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

Exit codes: 0 compared; 1 with --fail-on gain when anyone gains access (--fail-on change:
anyone gains or loses access), or when NEW is rejected by YuniKorn and OLD was not; 2 bad
input or usage, or nothing could be compared: both configs are rejected, or (with
--fail-on) OLD is rejected, so what NEW grants cannot be told from it.`

// diffExample are the examples of diff.
const diffExample = `  aclint diff old/queues.yaml queues.yaml
  git show main:queues.yaml | aclint diff - queues.yaml --fail-on gain
  aclint diff -o markdown base.yaml queues.yaml > comment.md   # for a pull-request comment
  aclint diff -o markdown=comment.md -o text=access-diff.txt -o json=access-diff.json base.yaml queues.yaml`
