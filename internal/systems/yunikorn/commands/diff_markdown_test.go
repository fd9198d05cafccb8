package commands_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aclint/aclint/internal/clikit"
)

// bigConfig is 20,000 leaf queues under 100 parents; extra is written into
// each parent (an ACL line, or nothing).
func bigConfig(rootACL string, leafACL func(p, q int) string) string {
	var b strings.Builder
	b.WriteString("partitions:\n  - name: default\n    queues:\n      - name: root\n")
	if rootACL != "" {
		fmt.Fprintf(&b, "        adminacl: %q\n", rootACL)
	}
	b.WriteString("        queues:\n")
	for p := 0; p < 100; p++ {
		fmt.Fprintf(&b, "          - name: p%d\n            queues:\n", p)
		for q := 0; q < 200; q++ {
			fmt.Fprintf(&b, "              - name: q%d\n", q)
			if a := leafACL(p, q); a != "" {
				fmt.Fprintf(&b, "                submitacl: %q\n", a)
			}
		}
	}
	return b.String()
}

// TestMarkdownAtScale: the pull-request comment of a change on 20,000
// queues fits in a GitHub comment (65,536 characters). One entry added to
// root's adminacl is one line however many queues it reaches; 20,000
// entries changed one per queue are cut at --comment-size, counted, and the
// comment points at the full report the same run wrote.
func TestMarkdownAtScale(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(s), 0o644)
		return p
	}
	none := func(p, q int) string { return "" }
	old := write("old.yaml", bigConfig("", none))
	root := write("root.yaml", bigConfig(" platform-admins", none))
	each := write("each.yaml", bigConfig("", func(p, q int) string { return fmt.Sprintf("user%d_%d", p, q) }))

	code, out, errOut := run("diff", "-o", "markdown", old, root)
	if code != 0 || len(out) > 2000 || !strings.Contains(out, "grants **admin** to group `platform-admins` on 20101 queues") ||
		!strings.Contains(out, "**Verdict: access widens** (40202 gains") {
		t.Errorf("one entry on root: exit %d, %d bytes\n%s%s", code, len(out), out, errOut)
	}

	full := filepath.Join(dir, "full.txt")
	code, out, errOut = run("diff", "-o", "markdown", "-o", "text="+full, "-o", "json="+filepath.Join(dir, "full.json"), old, each)
	n := utf8.RuneCountInString(out)
	if code != 0 || n > clikit.DefaultCommentSize || n < clikit.DefaultCommentSize/2 {
		t.Fatalf("20,000 entries: exit %d, %d characters\n%s", code, n, errOut)
	}
	for _, want := range []string{"**Verdict: access widens** (20000 gains", "more lines not shown** (the comment is limited to 60000 characters; 20000 causes",
		"The full report: this run also wrote `" + full + "` (text) and `" + filepath.Join(dir, "full.json") + "` (json)."} {
		if !strings.Contains(out, want) {
			t.Errorf("the cut comment lacks %q", want)
		}
	}
	if b, _ := os.ReadFile(full); strings.Count(string(b), "\n    queues: default/root.p") != 20000 {
		t.Errorf("the full text report does not list the 20,000 causes")
	}
	// no limit: every cause
	code, out, _ = run("diff", "-o", "markdown", "--comment-size", "0", old, each)
	if code != 0 || strings.Count(out, "\n- submitacl of ") != 20000 {
		t.Errorf("--comment-size 0 lists %d causes", strings.Count(out, "\n- submitacl of "))
	}
}
