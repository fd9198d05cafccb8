package cmd

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/aclint/aclint/pkg/acl"
)

// writeDiffMarkdown writes the diff as a pull-request comment: gains, then
// losses, each grouped by queue with the ACL and the line that causes it,
// then the queues and partitions added and removed, what the reload does
// beyond access, and a one-line verdict.
func writeDiffMarkdown(s *streams, old, new *side, res *acl.DiffResult) error {
	w := bufio.NewWriter(s.out)
	defer w.Flush()
	fmt.Fprintf(w, "### aclint: access changes from %s to %s\n", mdCode(old.name), mdCode(new.name))
	if res == nil {
		for _, sd := range []*side{old, new} {
			if sd.accepted {
				continue
			}
			label := "the new config"
			if sd == old {
				label = "the old config"
			}
			fmt.Fprintf(w, "\n**Verdict: %s (%s) is rejected by YuniKorn**", label, mdCode(sd.name))
			if sd == new {
				fmt.Fprint(w, ": on a reload YuniKorn keeps running the old one")
			}
			fmt.Fprint(w, "\n\n")
			for _, f := range sd.errors {
				fmt.Fprintf(w, "- %s %s (%s)\n", mdCode(f.Pos.String()), mdText(f.Message), mdCode(f.Rule))
			}
		}
		fmt.Fprintln(w, "\nAccess is compared only between two configs YuniKorn accepts.")
		return nil
	}
	var gains, losses []acl.Change
	for _, c := range res.Changes {
		if c.Gained {
			gains = append(gains, c)
		} else {
			losses = append(losses, c)
		}
	}
	added, removed := countQueues(res, true), countQueues(res, false)
	changed := len(res.Changes)+len(res.Queues)+len(res.PartitionsAdded)+len(res.PartitionsRemoved) > 0
	mdChanges(w, "Gains", gains)
	mdChanges(w, "Losses", losses)
	if len(res.Queues) > 0 {
		fmt.Fprint(w, "\n#### Queues\n\n")
		for _, q := range res.Queues {
			verb := "removed"
			if q.Added {
				verb = "added"
			}
			fmt.Fprintf(w, "- %s %s\n", verb, mdCode(q.Partition+"/"+q.Queue))
		}
	}
	if len(res.PartitionsAdded)+len(res.PartitionsRemoved) > 0 {
		fmt.Fprint(w, "\n#### Partitions\n\n")
		for _, p := range res.PartitionsAdded {
			fmt.Fprintf(w, "- added %s\n", mdCode(p))
		}
		for _, p := range res.PartitionsRemoved {
			fmt.Fprintf(w, "- removed %s\n", mdCode(p))
		}
	}
	for _, m := range res.Warnings {
		fmt.Fprintf(w, "\n> [!WARNING]\n> %s\n", mdText(m))
	}
	fmt.Fprintln(w)
	switch {
	case !changed:
		fmt.Fprint(w, "**Verdict: no change in access.**\n")
	case len(gains) > 0:
		fmt.Fprintf(w, "**Verdict: access widens** (%s).\n", diffCounts(len(gains), len(losses), added, removed))
	default:
		fmt.Fprintf(w, "**Verdict: nobody gains access** (%s).\n", diffCounts(len(gains), len(losses), added, removed))
	}
	return nil
}

func diffCounts(gains, losses, added, removed int) string {
	return fmt.Sprintf("%d %s, %d %s, %d %s added, %d removed", gains, plural(gains, "gain", "gains"), losses, plural(losses, "loss", "losses"),
		added, plural(added, "queue", "queues"), removed)
}

// mdChanges writes one section of changes, a heading per queue in the
// order the diff walked them (parents first).
func mdChanges(w *bufio.Writer, title string, cs []acl.Change) {
	if len(cs) == 0 {
		return
	}
	fmt.Fprintf(w, "\n#### %s\n", title)
	last := ""
	for _, c := range cs {
		q := c.Partition + "/" + c.Queue
		if q != last {
			fmt.Fprintf(w, "\n%s\n", mdCode(q))
			last = q
		}
		who := "everyone"
		if c.Principal != "everyone" {
			kind, name, _ := strings.Cut(c.Principal, ":")
			who = kind + " " + mdCode(name)
		}
		verb, via := "gains", "granted by"
		if !c.Gained {
			verb, via = "loses", "was granted by"
		}
		fmt.Fprintf(w, "- %s %s **%s**, %s %s\n", who, verb, c.Action, via, mdHolder(c.Via))
	}
}

// mdHolder names the ACL entry that decides: the queue, the field, the
// entry and where it is written.
func mdHolder(h *acl.Holder) string {
	if h == nil {
		return "no ACL"
	}
	what := h.Kind + " " + mdCode(h.Name)
	if h.Kind == "wildcard" {
		what = mdCode("*")
	}
	return fmt.Sprintf("%s of %s (%s at %s)", h.ACL, mdCode(h.Queue), what, mdCode(h.Pos.String()))
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
