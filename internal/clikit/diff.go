package clikit

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/safewrite"
)

// This file holds what every diff writes alike, whichever system it
// compares: its -o targets, the text of a cause and a change, the JSON of
// a grant and the markdown comment kept under a size.

func ChangeText(c audit.Change) string {
	verb, via := "gains", "via"
	if !c.Gained {
		verb, via = "loses", "was granted by"
	}
	who := c.Subject
	if who != "everyone" {
		who = strings.Replace(who, ":", " ", 1)
	}
	return fmt.Sprintf("%s %s %s (%s %s)", who, verb, c.Action, via, DescribeGrant(c.Via))
}

// TextListed is how many subjects and queues a cause names in text before
// it counts the rest; --flat lists every pair.
const TextListed = 8

// Listed names the first TextListed of list, then counts the rest.
func Listed(list []string, name func(string) string) string {
	out := make([]string, 0, TextListed+1)
	for _, e := range list[:min(len(list), TextListed)] {
		out = append(out, name(e))
	}
	if more := len(list) - len(out); more > 0 {
		out = append(out, fmt.Sprintf("%d more", more))
	}
	return strings.Join(out, ", ")
}

func SubjectText(p string) string {
	if p == "everyone" {
		return p
	}
	return strings.Replace(p, ":", " ", 1)
}

// CauseText is one cause: who gains or loses what on how many queues, the
// entry (via, as the system names it), and the queues.
func CauseText(c *audit.Cause, via string, queues []string, word string) string {
	mark, verb, how := "+", "gain", "via"
	if !c.Gained {
		mark, verb, how = "-", "lose", "was granted by"
	}
	if len(c.Subjects) == 1 {
		verb += "s"
	}
	return fmt.Sprintf("%s %s %s %s on %d %s (%s %s%s)\n    %ss: %s\n", mark, Listed(c.Subjects, SubjectText), verb, c.Action,
		len(queues), Plural(len(queues), word, word+"s"), how, via, MoreEntries(c), word, Listed(queues, func(q string) string { return q }))
}

// MoreEntries counts the other entries of the same ACL a cause stands for.
func MoreEntries(c *audit.Cause) string {
	if n := len(c.Entries) - 1; n > 0 {
		return fmt.Sprintf(" and %d more %s of it", n, Plural(n, "entry", "entries"))
	}
	return ""
}

// DiffOutput is one -o of diff: a format and where it goes ("" for
// standard output).
type DiffOutput struct{ Format, Path string }

func ParseDiffOutputs(values []string) ([]DiffOutput, error) {
	return ParseOutputs(values, "text", "json", "markdown")
}

// ParseOutputs reads repeatable -o values, each FORMAT or FORMAT=PATH, of
// the formats given: at most one goes to standard output.
func ParseOutputs(values []string, formats ...string) ([]DiffOutput, error) {
	var out []DiffOutput
	toStdout := 0
	for _, v := range values {
		f, path, hasPath := strings.Cut(v, "=")
		if err := CheckOutput(f, formats...); err != nil {
			return nil, err
		}
		if hasPath && path == "" {
			return nil, Usage("invalid -o %q: give a file after =", v)
		}
		if !hasPath {
			toStdout++
		}
		out = append(out, DiffOutput{Format: f, Path: path})
	}
	if toStdout > 1 {
		return nil, Usage("only one -o may go to standard output; give the others a file: -o FORMAT=PATH")
	}
	return out, nil
}

// WriteDiffTargets writes every -o of a diff, YuniKorn's or YARN's: to
// standard output, or to its file through safewrite.
func WriteDiffTargets(out io.Writer, seen *engine.ReadSet, targets []DiffOutput, write func(w io.Writer, format string) error) error {
	for _, t := range targets {
		var err error
		if t.Path == "" {
			err = write(out, t.Format)
		} else {
			err = safewrite.Output(t.Path, seen, func(w io.Writer) error { return write(w, t.Format) })
		}
		if err != nil {
			where := "standard output"
			if t.Path != "" {
				where = t.Path
			}
			return Usage("writing %s output to %s: %w", t.Format, where, err)
		}
	}
	return nil
}

func ChangeWord(gained bool) string {
	if gained {
		return "gained"
	}
	return "lost"
}

// DescribeGrant names the rule that decides: where it is, the entry and
// where it is written (YuniKorn's "root.a submitacl user "bob" at
// f:3:9"); a default says so, and a rule no file holds is its name.
func DescribeGrant(g *audit.Grant) string {
	switch {
	case g == nil:
		return "-"
	case g.Default && g.Note != "":
		return strings.TrimPrefix(g.Object+" "+g.Rule, " ") + ", " + g.Note
	case g.Pos.File == "":
		return strings.TrimPrefix(g.Object+" "+g.Rule, " ")
	}
	what := fmt.Sprintf("%s %q", g.Kind, g.Name)
	if g.Kind == "wildcard" || g.Kind == "everyone" {
		what = `"*"`
	}
	return fmt.Sprintf("%s %s at %s", strings.TrimPrefix(g.Object+" "+g.Rule, " "), what, g.Pos)
}

// WriteWithChanges writes head, a JSON object, with one more member,
// "changes", whose items walk writes one per line as it goes: a diff
// reaching millions of pairs is never held.
func WriteWithChanges(w io.Writer, head any, walk func(emit func(any))) error {
	var b bytes.Buffer
	if err := WriteJSON(&b, head); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	// the head without its closing brace, then the pairs, one per line
	bw.Write(bytes.TrimSuffix(bytes.TrimSpace(b.Bytes()), []byte("}")))
	bw.WriteString(",\n  \"changes\": [")
	first := true
	walk(func(v any) {
		if !first {
			bw.WriteByte(',')
		}
		first = false
		bw.WriteString("\n    ")
		bw.Write(JSONValue(v))
	})
	if !first {
		bw.WriteString("\n  ")
	}
	bw.WriteString("]\n}\n")
	return bw.Flush()
}

// MDListed is how many principals and queues a cause names before it
// counts the rest.
const MDListed = 8

// DefaultCommentSize keeps a comment under GitHub's 65,536 characters for a
// comment body, with room for what a workflow adds around it.
const DefaultCommentSize = 60000

// WriteLimited writes head and as many blocks as fit in limit characters
// (0: all), then, when some were left out, how many and where the full
// report is.
func WriteLimited(w io.Writer, head string, blocks []string, total string, limit int, full []string) error {
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
		fmt.Fprintf(&b, "\n**%d more %s not shown** (the comment is limited to %d characters; %s in all).\n%s", len(blocks)-shown, Plural(len(blocks)-shown, "line", "lines"), limit, total, pointer)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// MDCauseLine is one cause: the entry (holder, already Markdown), what it
// grants or took away, to whom, and where.
func MDCauseLine(c *audit.Cause, holder string, queues []string, word string) string {
	verb, tail := "grants", ""
	if !c.Gained {
		verb, tail = "granted", ", and no longer does"
	}
	who := make([]string, 0, MDListed+1)
	for _, p := range c.Subjects[:min(len(c.Subjects), MDListed)] {
		if p == "everyone" {
			who = append(who, "everyone")
			continue
		}
		kind, name, _ := strings.Cut(p, ":")
		who = append(who, kind+" "+MDCode(name))
	}
	if more := len(c.Subjects) - len(who); more > 0 {
		who = append(who, fmt.Sprintf("%d more", more))
	}
	where := make([]string, 0, MDListed)
	for _, q := range queues[:min(len(queues), MDListed)] {
		where = append(where, MDCode(q))
	}
	list := strings.Join(where, ", ")
	if more := len(queues) - len(where); more > 0 {
		list += fmt.Sprintf(" and %d more", more)
	}
	return fmt.Sprintf("- %s%s %s **%s** to %s on %d %s%s: %s\n", holder, MoreEntries(c), verb, c.Action, strings.Join(who, ", "),
		len(queues), Plural(len(queues), word, word+"s"), tail, list)
}

// MDHolder names the ACL entry that decides: the queue, the field, the
// entry and where it is written.
func MDHolder(h *audit.Grant) string {
	if h == nil {
		return "no ACL"
	}
	what := h.Kind + " " + MDCode(h.Name)
	if h.Kind == "wildcard" {
		what = MDCode("*")
	}
	return fmt.Sprintf("%s of %s (%s at %s)", h.Rule, MDCode(h.Object), what, MDCode(h.Pos.String()))
}

// MDCode writes s as a Markdown code span, whatever it holds: the fence is
// one backtick longer than the longest run of backticks inside, and a line
// break becomes a space, so a name cannot end the span or start a block.
func MDCode(s string) string {
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

// MDText escapes the characters that Markdown or HTML would read inside a
// line of text (a finding's message), so that it shows as written: links
// and images need "[", emphasis "*", "_" and "~", code "`", tables "|",
// HTML "<" and "&"; an @-mention ("@org/team" at a word's start) is kept
// from notifying anyone. Blanks are kept as non-breaking where two follow each
// other, so a doubled space in a quoted ACL stays visible.
func MDText(s string) string {
	var b strings.Builder
	last, mention := ' ', false
	for _, r := range strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s) {
		if strings.ContainsRune("\\`*_[]<>|~&", r) {
			b.WriteByte('\\')
		}
		if mention && wordRune(r) {
			// "@team" would notify a team where a comment is posted: a
			// zero-width space after the @ keeps it text
			b.WriteString("&#8203;")
		}
		b.WriteRune(r)
		mention = r == '@' && !wordRune(last) // alice@corp is an address, not a mention
		last = r
	}
	return strings.ReplaceAll(b.String(), "  ", " &nbsp;")
}

// MDCauseBlocks are the comment's gains, then its losses, a line per
// cause under a heading that names what causes them ("ACL entry", "rule"):
// one block per line, so the comment's limit can cut between them.
func MDCauseBlocks(causes []*audit.Cause, what string, line func(*audit.Cause) string) []string {
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

// wordRune is a rune of a GitHub user or team name.
func wordRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-'
}
