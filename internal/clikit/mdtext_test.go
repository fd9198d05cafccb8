package clikit

import "testing"

// TestMDTextMentions: an @-mention at a word's start notifies nobody
// where a comment is posted; an address keeps its @ as it is.
func TestMDTextMentions(t *testing.T) {
	for in, want := range map[string]string{
		"@team":                   "@&#8203;team",
		"group @org/admins gains": "group @&#8203;org/admins gains",
		"(@alice)":                "(@&#8203;alice)",
		"alice@corp.com":          "alice@corp.com",
		"@ alone":                 "@ alone",
		"@@x":                     "@@&#8203;x",
		"`@team`":                 "\\`@&#8203;team\\`",
	} {
		if got := MDText(in); got != want {
			t.Errorf("MDText(%q) = %q, want %q", in, got, want)
		}
	}
}
