package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/aclint/aclint/internal/systems/yarn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// yarnDiff is diff over two YARN setups: the changes grouped by the ACL
// entry that causes each (in NEW for a gain, in OLD for a loss), as
// YuniKorn's diff groups them, in text, JSON and Markdown; --flat adds
// every (queue, subject) pair.
func yarnDiff(s *streams, args []string, targets []diffOutput, failOnGain, flat bool, commentSize int) error {
	load := func(path string) (*yarn.Setup, error) {
		setup, err := loadYarn(s, []string{path})
		if err != nil {
			return nil, err
		}
		yarn.ReadSiteBeside(setup, path, s.maxInput)
		return setup, nil
	}
	old, err := load(args[0])
	if err != nil {
		return err
	}
	new, err := load(args[1])
	if err != nil {
		return err
	}
	res := yarn.Diff(old, new)
	g := &acl.Grouped{}
	for _, c := range res.Changes {
		g.Add(yarnToACLChange(c))
	}
	g.Merge()
	var files []string
	for _, t := range targets {
		if t.path != "" && t.format != "markdown" {
			files = append(files, fmt.Sprintf("`%s` (%s)", t.path, t.format))
		}
	}
	write := func(w io.Writer, format string) error {
		switch format {
		case "json":
			return writeYarnDiffJSON(w, res, g, flat)
		case "markdown":
			return writeYarnDiffMarkdown(w, args, res, g, commentSize, files)
		}
		return writeYarnDiffText(w, res, g, flat)
	}
	if err := writeDiffTargets(s, targets, write); err != nil {
		return err
	}
	if failOnGain && g.Gains > 0 {
		return &exitError{code: ExitFail}
	}
	return nil
}

// yarnToACLChange puts a YARN change in the neutral shape the grouping
// reads; root's default * has no position, and says so in its ACL's name.
func yarnToACLChange(c yarn.Change) acl.Change {
	who := "everyone"
	if c.Kind != "wildcard" {
		who = c.Kind + ":" + c.Name
	}
	out := acl.Change{Queue: c.Queue, Principal: who, Action: acl.Action(c.Action.String()), Gained: c.Gained}
	if h := c.Via; h != nil {
		name := h.ACL
		if h.Default {
			name += " (not set: root's default *)"
		}
		out.Via = &acl.Holder{Kind: h.Kind, Name: h.Name, Queue: h.Queue, ACL: name, Inherited: h.Inherited,
			Pos: config.Position{File: h.File, Line: h.Pos.Line, Col: h.Pos.Col}}
	}
	return out
}

// yarnVia names a cause's entry.
func yarnVia(h *acl.Holder) string {
	switch {
	case h == nil:
		return "-"
	case h.Queue == "":
		return h.ACL
	case h.Pos.File == "":
		return h.Queue + " " + h.ACL
	}
	return fmt.Sprintf("%s %s %s %q at %s", h.Queue, h.ACL, h.Kind, h.Name, h.Pos)
}

// yarnQueues strips the empty partition from a cause's queues.
func yarnQueues(qs []string) []string {
	out := make([]string, len(qs))
	for i, q := range qs {
		out[i] = strings.TrimPrefix(q, "/")
	}
	return out
}

func yarnDiffSummary(res *yarn.DiffResult, g *acl.Grouped) string {
	return fmt.Sprintf("%d gain(s), %d loss(es), %d queue(s) added, %d removed", g.Gains, g.Losses, len(res.Added), len(res.Removed))
}

func writeYarnDiffText(w io.Writer, res *yarn.DiffResult, g *acl.Grouped, flat bool) error {
	var b strings.Builder
	for _, q := range res.Added {
		fmt.Fprintf(&b, "+ queue %s added\n", q)
	}
	for _, q := range res.Removed {
		fmt.Fprintf(&b, "- queue %s removed\n", q)
	}
	if flat {
		for _, c := range res.Changes {
			b.WriteString(changeLine(c) + "\n")
		}
	} else {
		for _, gained := range []bool{true, false} {
			for _, c := range g.Causes {
				if c.Gained == gained {
					b.WriteString(causeText(c, yarnVia(c.Via), yarnQueues(c.Queues)))
				}
			}
		}
	}
	b.WriteString(yarnDiffSummary(res, g) + "\n")
	writeNotes(&b, res.Notes)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeYarnDiffMarkdown is the pull-request comment: the totals, then one
// line per cause however many queues it reaches, kept under limit
// characters as YuniKorn's comment is.
func writeYarnDiffMarkdown(w io.Writer, args []string, res *yarn.DiffResult, g *acl.Grouped, limit int, full []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### YARN queue access: %s → %s\n\n**%s**\n", mdCode(args[0]), mdCode(args[1]), yarnDiffSummary(res, g))
	for _, n := range res.Notes {
		fmt.Fprintf(&b, "\n> %s\n", mdText(n))
	}
	var blocks []string
	for _, gained := range []bool{true, false} {
		title, first := "Gains", true
		if !gained {
			title = "Losses"
		}
		for _, c := range g.Causes {
			if c.Gained != gained {
				continue
			}
			if first {
				blocks = append(blocks, fmt.Sprintf("\n#### %s, by the ACL entry that causes them\n\n", title))
				first = false
			}
			blocks = append(blocks, mdCauseLine(c, mdCode(yarnVia(c.Via)), yarnQueues(c.Queues)))
		}
	}
	if len(res.Added)+len(res.Removed) > 0 {
		blocks = append(blocks, "\n#### Queues\n\n")
		for _, q := range res.Added {
			blocks = append(blocks, fmt.Sprintf("- added %s\n", mdCode(q)))
		}
		for _, q := range res.Removed {
			blocks = append(blocks, fmt.Sprintf("- removed %s\n", mdCode(q)))
		}
	}
	n := len(g.Causes)
	return writeLimited(w, b.String(), blocks, fmt.Sprintf("%d %s and %d queue %s", n, plural(n, "cause", "causes"),
		len(res.Added)+len(res.Removed), plural(len(res.Added)+len(res.Removed), "change", "changes")), limit, full)
}

// writeYarnDiffJSON has YuniKorn's diff shape: totals and causes, and with
// --flat every pair under "changes".
func writeYarnDiffJSON(w io.Writer, res *yarn.DiffResult, g *acl.Grouped, flat bool) error {
	nz := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	causes := []any{}
	for _, gained := range []bool{true, false} {
		for _, c := range g.Causes {
			if c.Gained != gained {
				continue
			}
			entries := []any{}
			for _, h := range c.Entries {
				if h != nil {
					entries = append(entries, jsonObject{{"kind", h.Kind}, {"name", h.Name}, {"queue", h.Queue}, {"acl", h.ACL},
						{"file", h.Pos.File}, {"line", h.Pos.Line}, {"column", h.Pos.Col}})
				}
			}
			causes = append(causes, jsonObject{{"change", changeWord(c.Gained)}, {"action", string(c.Action)}, {"entries", entries},
				{"subjects", c.Subjects}, {"queues", yarnQueues(c.Queues)}, {"pairs", c.Pairs}})
		}
	}
	out := jsonObject{{"system", "yarn"}, {"added", nz(res.Added)}, {"removed", nz(res.Removed)}, {"notes", nz(res.Notes)},
		{"gains", g.Gains}, {"losses", g.Losses}, {"causes", causes}}
	if !flat {
		return writeJSON(w, out)
	}
	var head bytes.Buffer
	if err := writeJSON(&head, out); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.Write(bytes.TrimSuffix(bytes.TrimSpace(head.Bytes()), []byte("}")))
	bw.WriteString(",\n  \"changes\": [")
	for i, c := range res.Changes {
		if i > 0 {
			bw.WriteByte(',')
		}
		var via any
		if c.Via != nil {
			via = yarnHolderJSON(c.Via)
		}
		bw.WriteString("\n    ")
		bw.Write(bytes.TrimRight(jsonValue(jsonObject{{"queue", c.Queue}, {"action", c.Action.String()}, {"kind", c.Kind}, {"name", c.Name},
			{"gained", c.Gained}, {"via", via}}), "\n"))
	}
	if len(res.Changes) > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("]\n}\n")
	return bw.Flush()
}

func changeLine(c yarn.Change) string {
	sign, verb := "-", "loses"
	if c.Gained {
		sign, verb = "+", "gains"
	}
	who := c.Kind + " " + c.Name
	if c.Kind == "wildcard" {
		who = "everyone"
	}
	return fmt.Sprintf("%s %s: %s %s %s (via %s)", sign, c.Queue, who, verb, c.Action, viaText(c.Via))
}

func viaText(h *yarn.Holder) string {
	switch {
	case h == nil:
		return "-"
	case h.Queue == "":
		return h.ACL
	case h.Default:
		return fmt.Sprintf("%s %s, root's default *", h.Queue, h.ACL)
	}
	return fmt.Sprintf("%s %s %s %q at %s:%d:%d", h.Queue, h.ACL, h.Kind, h.Name, h.File, h.Pos.Line, h.Pos.Col)
}

// yarnHolderJSON is a YARN grant in the JSON of diff.
func yarnHolderJSON(h *yarn.Holder) any {
	type holder struct {
		Kind      string `json:"kind"`
		Name      string `json:"name"`
		Queue     string `json:"queue"`
		ACL       string `json:"acl"`
		Inherited bool   `json:"inherited"`
		Default   bool   `json:"default"`
		File      string `json:"file,omitempty"`
		Line      int    `json:"line,omitempty"`
		Column    int    `json:"column,omitempty"`
	}
	return holder{h.Kind, h.Name, h.Queue, h.ACL, h.Inherited, h.Default, h.File, h.Pos.Line, h.Pos.Col}
}
