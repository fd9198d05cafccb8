package clikit

import "testing"

// TestMarkdownEscaping: a file name or a message cannot end a code span,
// start a block, make a link or hide a doubled space.
func TestMarkdownEscaping(t *testing.T) {
	for in, want := range map[string]string{
		"queues.yaml":     "`queues.yaml`",
		"a`b":             "``a`b``",
		"`x":              "`` `x ``",
		"a``b":            "```a``b```",
		"two\nlines":      "`two lines`",
		"":                "` `",
		"* not a list \r": "`* not a list  `",
	} {
		if got := MDCode(in); got != want {
			t.Errorf("MDCode(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"plain words":         "plain words",
		"[link](x) <b> *em*":  `\[link\](x) \<b\> \*em\*`,
		"a | b & c_d ~e~ `f`": "a \\| b \\& c\\_d \\~e\\~ \\`f\\`",
		`"a  b"`:              `"a &nbsp;b"`,
		"line\nbreak":         "line break",
		`back\slash`:          `back\\slash`,
	} {
		if got := MDText(in); got != want {
			t.Errorf("MDText(%q) = %q, want %q", in, got, want)
		}
	}
}
