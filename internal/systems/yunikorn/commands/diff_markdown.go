package commands

import (
	"fmt"
	"io"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
)

// writeDiffMarkdown writes the diff as a pull-request comment: the verdict
// and the totals first, then gains and losses grouped by the ACL entry that
// causes them (one line per entry, however many queues it reaches), the
// queues and partitions added and removed, and what the reload does beyond
// access. The comment stays under limit characters (0: no limit): past it
// the causes that do not fit are counted, and the comment points at the
// full report (the other outputs of this run, or the command that writes
// it).
func writeDiffMarkdown(w io.Writer, d *diffRun, limit int, full []string) error {
	old, new, res := d.old, d.new, d.res
	var b strings.Builder
	fmt.Fprintf(&b, "### aclint: access changes from %s to %s\n", clikit.MDCode(old.name), clikit.MDCode(new.name))
	if res == nil {
		writeRejectedMarkdown(&b, d)
		return clikit.WriteLimited(w, b.String(), nil, "", limit, full)
	}
	gains, losses := d.grouped.Gains, d.grouped.Losses
	added, removed := countQueues(res, true), countQueues(res, false)
	changed := gains+losses+len(res.Queues)+len(res.PartitionsAdded)+len(res.PartitionsRemoved) > 0
	counts := clikit.DiffCounts(gains, losses, added, removed)
	switch {
	case !changed:
		fmt.Fprint(&b, "\n**Verdict: no change in access.**\n")
	case gains > 0:
		fmt.Fprintf(&b, "\n**Verdict: access widens** (%s).\n", counts)
	default:
		fmt.Fprintf(&b, "\n**Verdict: nobody gains access** (%s).\n", counts)
	}
	for _, m := range res.Warnings {
		fmt.Fprintf(&b, "\n> [!WARNING]\n> %s\n", clikit.MDText(m))
	}
	// the body: one block per line, so the limit can cut between them
	causes := d.grouped.Causes
	blocks := clikit.MDCauseBlocks(causes, "ACL entry", func(c *audit.Cause) string { return clikit.MDCauseLine(c, clikit.MDHolder(c.Via), c.Objects, "queue") })
	if len(res.Queues) > 0 {
		blocks = append(blocks, "\n#### Queues\n\n")
		for _, q := range res.Queues {
			verb := "removed"
			if q.Added {
				verb = "added"
			}
			blocks = append(blocks, fmt.Sprintf("- %s %s\n", verb, clikit.MDCode(q.Partition+"/"+q.Queue)))
		}
	}
	if len(res.PartitionsAdded)+len(res.PartitionsRemoved) > 0 {
		blocks = append(blocks, "\n#### Partitions\n\n")
		for _, p := range res.PartitionsAdded {
			blocks = append(blocks, fmt.Sprintf("- added %s\n", clikit.MDCode(p)))
		}
		for _, p := range res.PartitionsRemoved {
			blocks = append(blocks, fmt.Sprintf("- removed %s\n", clikit.MDCode(p)))
		}
	}
	return clikit.WriteLimited(w, b.String(), blocks, fmt.Sprintf("%d %s and %d queue or partition %s", len(causes), clikit.Plural(len(causes), "cause", "causes"),
		len(res.Queues)+len(res.PartitionsAdded)+len(res.PartitionsRemoved), clikit.Plural(len(res.Queues)+len(res.PartitionsAdded)+len(res.PartitionsRemoved), "change", "changes")), limit, full)
}

// writeRejectedMarkdown is the comment's verdict when a config is rejected:
// which, with its errors; nothing is compared.
func writeRejectedMarkdown(b *strings.Builder, d *diffRun) {
	for _, sd := range []*side{d.old, d.new} {
		if sd.accepted {
			continue
		}
		label := "the new config"
		if sd == d.old {
			label = "the old config"
		}
		fmt.Fprintf(b, "\n**Verdict: %s (%s) is rejected by YuniKorn**", label, clikit.MDCode(sd.name))
		if sd == d.new {
			fmt.Fprint(b, ": on a reload YuniKorn keeps running the old one")
		}
		fmt.Fprint(b, "\n\n")
		for _, f := range sd.errors {
			fmt.Fprintf(b, "- %s %s (%s)\n", clikit.MDCode(f.Pos.String()), clikit.MDText(f.Message), clikit.MDCode(f.Rule))
		}
	}
	fmt.Fprintln(b, "\nAccess is compared only between two configs YuniKorn accepts.")
}
