package yarn_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// yarnTree writes a capacity-scheduler.xml of 40 departments of 10 queues,
// each ACL naming its own users and groups, root's submit ACL as given,
// and a yarn-site.xml beside it with ACLs on.
func yarnTree(t *testing.T, dir, rootSubmit string) string {
	t.Helper()
	var b strings.Builder
	p := func(k, v string) {
		fmt.Fprintf(&b, "  <property><name>yarn.scheduler.capacity.%s</name><value>%s</value></property>\n", k, v)
	}
	b.WriteString("<configuration>\n")
	var depts []string
	for d := 0; d < 40; d++ {
		depts = append(depts, fmt.Sprintf("d%d", d))
	}
	p("root.queues", strings.Join(depts, ","))
	p("root.acl_submit_applications", rootSubmit)
	p("root.acl_administer_queue", " admins")
	for d, dept := range depts {
		cap := 100 / len(depts)
		p("root."+dept+".capacity", fmt.Sprint(cap+map[bool]int{true: 100 - cap*len(depts), false: 0}[d == 0]))
		var qs []string
		for q := 0; q < 10; q++ {
			qs = append(qs, fmt.Sprintf("q%d", q))
		}
		p("root."+dept+".queues", strings.Join(qs, ","))
		for _, q := range qs {
			p("root."+dept+"."+q+".capacity", "10")
			p("root."+dept+"."+q+".acl_submit_applications", fmt.Sprintf("u%d_%s,v%d_%s g%d_%s", d, q, d, q, d, q))
		}
	}
	b.WriteString("</configuration>\n")
	os.MkdirAll(dir, 0o755)
	cs := filepath.Join(dir, "capacity-scheduler.xml")
	os.WriteFile(cs, []byte(b.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "yarn-site.xml"), []byte("<configuration><property><name>yarn.acl.enable</name><value>true</value></property></configuration>\n"), 0o644)
	return cs
}

// TestYarnDiffAtReviewSize: one change to root's ACL reaches every queue
// of a 441-queue tree for everyone its ACLs name; grouped by the entry that
// causes it, the pull-request comment stays within GitHub's 65,536
// characters, and the text within a screen, while --flat keeps every pair.
func TestYarnDiffAtReviewSize(t *testing.T) {
	dir := t.TempDir()
	old := yarnTree(t, filepath.Join(dir, "old"), " ")
	new := yarnTree(t, filepath.Join(dir, "new"), "*")
	code, md, errOut := run("diff", "-o", "markdown", old, new)
	if code != 0 || utf8.RuneCountInString(md) > 65536 || !strings.Contains(md, "grants **submit** to user `u0_q0`") || !strings.Contains(md, "on 441 queues") {
		t.Fatalf("markdown: exit %d, %d characters\n%s%s", code, utf8.RuneCountInString(md), md[:min(len(md), 2000)], errOut)
	}
	code, text, _ := run("diff", old, new)
	t.Logf("markdown %d characters, text %d", utf8.RuneCountInString(md), len(text))
	if code != 0 || len(text) > 4096 {
		t.Errorf("text %d bytes (exit %d)", len(text), code)
	}
	if testing.Short() {
		return // --flat writes 88 MB here
	}
	flatCode, flat, _ := run("diff", "--flat", old, new)
	if flatCode != 0 || strings.Count(flat, "\n+ root") < 500000 {
		t.Errorf("--flat: exit %d, %d bytes", flatCode, len(flat))
	}
}
