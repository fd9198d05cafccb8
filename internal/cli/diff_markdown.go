package cli

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
)

// mdListed is how many principals and queues a cause names before it
// counts the rest.
const mdListed = 8

// DefaultCommentSize keeps a comment under GitHub's 65,536 characters for a
// comment body, with room for what a workflow adds around it.
const DefaultCommentSize = 60000

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
	fmt.Fprintf(&b, "### aclint: access changes from %s to %s\n", mdCode(old.name), mdCode(new.name))
	if res == nil {
		writeRejectedMarkdown(&b, d)
		return writeLimited(w, b.String(), nil, "", limit, full)
	}
	gains, losses := d.grouped.Gains, d.grouped.Losses
	added, removed := countQueues(res, true), countQueues(res, false)
	changed := gains+losses+len(res.Queues)+len(res.PartitionsAdded)+len(res.PartitionsRemoved) > 0
	counts := diffCounts(gains, losses, added, removed)
	switch {
	case !changed:
		fmt.Fprint(&b, "\n**Verdict: no change in access.**\n")
	case gains > 0:
		fmt.Fprintf(&b, "\n**Verdict: access widens** (%s).\n", counts)
	default:
		fmt.Fprintf(&b, "\n**Verdict: nobody gains access** (%s).\n", counts)
	}
	for _, m := range res.Warnings {
		fmt.Fprintf(&b, "\n> [!WARNING]\n> %s\n", mdText(m))
	}
	// the body: one block per line, so the limit can cut between them
	causes := d.grouped.Causes
	blocks := mdCauseBlocks(causes, "ACL entry", func(c *audit.Cause) string { return mdCauseLine(c, mdHolder(c.Via), c.Objects, "queue") })
	if len(res.Queues) > 0 {
		blocks = append(blocks, "\n#### Queues\n\n")
		for _, q := range res.Queues {
			verb := "removed"
			if q.Added {
				verb = "added"
			}
			blocks = append(blocks, fmt.Sprintf("- %s %s\n", verb, mdCode(q.Partition+"/"+q.Queue)))
		}
	}
	if len(res.PartitionsAdded)+len(res.PartitionsRemoved) > 0 {
		blocks = append(blocks, "\n#### Partitions\n\n")
		for _, p := range res.PartitionsAdded {
			blocks = append(blocks, fmt.Sprintf("- added %s\n", mdCode(p)))
		}
		for _, p := range res.PartitionsRemoved {
			blocks = append(blocks, fmt.Sprintf("- removed %s\n", mdCode(p)))
		}
	}
	return writeLimited(w, b.String(), blocks, fmt.Sprintf("%d %s and %d queue or partition %s", len(causes), clikit.Plural(len(causes), "cause", "causes"),
		len(res.Queues)+len(res.PartitionsAdded)+len(res.PartitionsRemoved), clikit.Plural(len(res.Queues)+len(res.PartitionsAdded)+len(res.PartitionsRemoved), "change", "changes")), limit, full)
}

// writeLimited writes head and as many blocks as fit in limit characters
// (0: all), then, when some were left out, how many and where the full
// report is.
func writeLimited(w io.Writer, head string, blocks []string, total string, limit int, full []string) error {
	var b strings.Builder
	b.WriteString(head)
	pointer := "\n> The full report: "
	if len(full) > 0 {
		pointer += "this run also wrote " + strings.Join(full, " and ") + "."
	} else {
		pointer += "run `aclint diff OLD NEW` (text) or `aclint diff -o json OLD NEW`, or add `-o text=FILE` to this command and keep the file."
	}
	pointer += "\n"
	shown := 0
	for _, blk := range blocks {
		// room for the note on what is left out
		if limit > 0 && utf8.RuneCountInString(b.String())+utf8.RuneCountInString(blk)+len(pointer)+200 > limit {
			break
		}
		b.WriteString(blk)
		shown++
	}
	if shown < len(blocks) {
		fmt.Fprintf(&b, "\n**%d more %s not shown** (the comment is limited to %d characters; %s in all).\n%s", len(blocks)-shown, clikit.Plural(len(blocks)-shown, "line", "lines"), limit, total, pointer)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdCauseLine is one cause: the entry (holder, already Markdown), what it
// grants or took away, to whom, and where.
func mdCauseLine(c *audit.Cause, holder string, queues []string, word string) string {
	verb, tail := "grants", ""
	if !c.Gained {
		verb, tail = "granted", ", and no longer does"
	}
	who := make([]string, 0, mdListed+1)
	for _, p := range c.Subjects[:min(len(c.Subjects), mdListed)] {
		if p == "everyone" {
			who = append(who, "everyone")
			continue
		}
		kind, name, _ := strings.Cut(p, ":")
		who = append(who, kind+" "+mdCode(name))
	}
	if more := len(c.Subjects) - len(who); more > 0 {
		who = append(who, fmt.Sprintf("%d more", more))
	}
	where := make([]string, 0, mdListed)
	for _, q := range queues[:min(len(queues), mdListed)] {
		where = append(where, mdCode(q))
	}
	list := strings.Join(where, ", ")
	if more := len(queues) - len(where); more > 0 {
		list += fmt.Sprintf(" and %d more", more)
	}
	return fmt.Sprintf("- %s%s %s **%s** to %s on %d %s%s: %s\n", holder, moreEntries(c), verb, c.Action, strings.Join(who, ", "),
		len(queues), clikit.Plural(len(queues), word, word+"s"), tail, list)
}

func diffCounts(gains, losses, added, removed int) string {
	return fmt.Sprintf("%d %s, %d %s, %d %s added, %d removed", gains, clikit.Plural(gains, "gain", "gains"), losses, clikit.Plural(losses, "loss", "losses"),
		added, clikit.Plural(added, "queue", "queues"), removed)
}

// mdHolder names the ACL entry that decides: the queue, the field, the
// entry and where it is written.
func mdHolder(h *audit.Grant) string {
	if h == nil {
		return "no ACL"
	}
	what := h.Kind + " " + mdCode(h.Name)
	if h.Kind == "wildcard" {
		what = mdCode("*")
	}
	return fmt.Sprintf("%s of %s (%s at %s)", h.Rule, mdCode(h.Object), what, mdCode(h.Pos.String()))
}

// mdCode writes s as a Markdown code span, whatever it holds: the fence is
// one backtick longer than the longest run of backticks inside, and a line
// break becomes a space, so a name cannot end the span or start a block.
func mdCode(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	run, longest := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if s == "" {
		return "` `"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// mdText escapes the characters that Markdown or HTML would read inside a
// line of text (a finding's message), so that it shows as written: links
// and images need "[", emphasis "*", "_" and "~", code "`", tables "|",
// HTML "<" and "&". Blanks are kept as non-breaking where two follow each
// other, so a doubled space in a quoted ACL stays visible.
func mdText(s string) string {
	var b strings.Builder
	for _, r := range strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s) {
		if strings.ContainsRune("\\`*_[]<>|~&", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return strings.ReplaceAll(b.String(), "  ", " &nbsp;")
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
		fmt.Fprintf(b, "\n**Verdict: %s (%s) is rejected by YuniKorn**", label, mdCode(sd.name))
		if sd == d.new {
			fmt.Fprint(b, ": on a reload YuniKorn keeps running the old one")
		}
		fmt.Fprint(b, "\n\n")
		for _, f := range sd.errors {
			fmt.Fprintf(b, "- %s %s (%s)\n", mdCode(f.Pos.String()), mdText(f.Message), mdCode(f.Rule))
		}
	}
	fmt.Fprintln(b, "\nAccess is compared only between two configs YuniKorn accepts.")
}

// mdCauseBlocks are the comment's gains, then its losses, a line per
// cause under a heading that names what causes them ("ACL entry", "rule"):
// one block per line, so the comment's limit can cut between them.
func mdCauseBlocks(causes []*audit.Cause, what string, line func(*audit.Cause) string) []string {
	var blocks []string
	for _, gained := range []bool{true, false} {
		title := "Gains"
		if !gained {
			title = "Losses"
		}
		first := true
		for _, c := range causes {
			if c.Gained != gained {
				continue
			}
			if first {
				blocks = append(blocks, fmt.Sprintf("\n#### %s, by the %s that causes them\n\n", title, what))
				first = false
			}
			blocks = append(blocks, line(c))
		}
	}
	return blocks
}
