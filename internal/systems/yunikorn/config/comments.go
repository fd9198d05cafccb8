package config

import (
	"github.com/aclint/aclint/internal/engine"

	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Comment is a YAML comment of a document's config text.
type Comment struct {
	Line int    // line in the config text
	Text string // after the '#', trimmed
	// Trailing is true when the comment follows content on its line.
	Trailing bool
	Pos      Position // where the '#' is, in the outer file
}

// Comments returns every comment in the config text, in order. Text inside
// block scalars and quoted strings is not a comment.
func (d *Document) Comments() []Comment {
	lines := d.splits.of(d.parsed)
	inBlock := map[int]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil {
			return
		}
		if n.Kind == yaml.ScalarNode && (n.Style == yaml.LiteralStyle || n.Style == yaml.FoldedStyle) {
			for l := n.Line + 1; l <= n.Line+strings.Count(n.Value, "\n")+1; l++ {
				inBlock[l] = true
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(d.Root)
	var out []Comment
	for i, l := range lines {
		if inBlock[i+1] {
			continue
		}
		at := commentStart(l)
		if at < 0 {
			continue
		}
		col := 1 + utf8.RuneCountInString(l[:at])
		out = append(out, Comment{
			Line:     i + 1,
			Text:     strings.TrimSpace(l[at+1:]),
			Trailing: strings.TrimSpace(l[:at]) != "",
			Pos:      d.Pos(i+1, col),
		})
	}
	return out
}

// commentStart finds the '#' that starts a comment on a YAML line: at the
// start or after a blank, and outside quotes.
func commentStart(l string) int {
	var quote byte
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case quote == '"' && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				if quote == '\'' && i+1 < len(l) && l[i+1] == '\'' {
					i++
					continue
				}
				quote = 0
			}
		case c == '#' && (i == 0 || l[i-1] == ' ' || l[i-1] == '\t'):
			return i
		case (c == '"' || c == '\'') && (i == 0 || strings.IndexByte(" \t:[{,-", l[i-1]) >= 0):
			quote = c
		}
	}
	return -1
}

// LintComments returns the comments in the engine's form, for inline
// suppressions.
func (d *Document) LintComments() []engine.Comment {
	cs := d.Comments()
	out := make([]engine.Comment, len(cs))
	for i, c := range cs {
		out[i] = engine.Comment{Text: c.Text, Pos: c.Pos}
	}
	return out
}
