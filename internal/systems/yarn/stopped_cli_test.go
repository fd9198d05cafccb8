package yarn_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stoppedTree writes root.ml, a parent with state as given (""; none),
// over the leaf root.ml.x, and root.b; bob is in root.ml's submit ACL.
func stoppedTree(t *testing.T, dir, state string) string {
	t.Helper()
	p := func(k, v string) string {
		return "<property><name>yarn.scheduler.capacity." + k + "</name><value>" + v + "</value></property>\n"
	}
	x := "<configuration>\n" + p("root.queues", "ml,b") + p("root.ml.capacity", "50") + p("root.b.capacity", "50") +
		p("root.ml.queues", "x") + p("root.ml.x.capacity", "100") + p("root.acl_submit_applications", " ") +
		p("root.acl_administer_queue", " ") + p("root.ml.acl_submit_applications", "bob")
	if state != "" {
		x += p("root.ml.state", state)
	}
	x += "</configuration>\n"
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cs := filepath.Join(dir, "capacity-scheduler.xml")
	os.WriteFile(cs, []byte(x), 0o644)
	os.WriteFile(filepath.Join(dir, "yarn-site.xml"), []byte("<configuration><property><name>yarn.acl.enable</name><value>true</value></property></configuration>\n"), 0o644)
	return cs
}

// TestStoppedParentAnsweredByACLs: a STOPPED parent queue is answered by
// its ACLs in every command (Hadoop 3.4.1: only a leaf checks its state,
// AbstractLeafQueue.validateSubmitApplication; a parent refuses any
// submission as a non-leaf queue, whatever its state), and each says which
// check decides; the leaf under it, which takes the parent's state, is
// STOPPED everywhere.
func TestStoppedParentAnsweredByACLs(t *testing.T) {
	dir := t.TempDir()
	cs := stoppedTree(t, filepath.Join(dir, "new"), "STOPPED")
	site := filepath.Join(dir, "new", "yarn-site.xml")
	code, out, errOut := run("check", "-f", cs, "-f", site, "root.ml", "bob")
	if code != 0 || !strings.HasPrefix(out, "allowed: bob may submit to root.ml") || !strings.Contains(out, "non-leaf queue") ||
		!strings.Contains(out, "STOPPED too, which decides nothing here") || strings.Contains(out, "it is STOPPED\n") {
		t.Errorf("check on the parent: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = run("check", "-f", cs, "-f", site, "-o", "json", "root.ml", "bob")
	if code != 0 || !strings.Contains(out, `"allowed": true`) {
		t.Errorf("check -o json on the parent: exit %d\n%s", code, out)
	}
	code, out, _ = run("check", "-f", cs, "-f", site, "root.ml.x", "bob")
	if code != 1 || !strings.Contains(out, "it is STOPPED") || !strings.Contains(out, "validateSubmitApplication") {
		t.Errorf("check on the leaf: exit %d\n%s", code, out)
	}
	code, out, _ = run("who-can", "-f", cs, "-f", site, "root.ml")
	if code != 0 || !strings.Contains(out, "bob") || strings.Contains(out, "nobody's application is accepted") || !strings.Contains(out, "decides nothing here") {
		t.Errorf("who-can on the parent: exit %d\n%s", code, out)
	}
	code, out, _ = run("who-can", "-f", cs, "-f", site, "root.ml.x")
	if code != 0 || !strings.Contains(out, "nobody's application is accepted") {
		t.Errorf("who-can on the leaf: exit %d\n%s", code, out)
	}
	code, out, _ = run("access", "-f", cs, "-f", site, "bob", "--all")
	if code != 0 || !strings.Contains(out, "root.ml (parent)") || !strings.Contains(lineWith(out, "root.ml (parent)"), "submit: user bob") ||
		!strings.Contains(lineWith(out, "root.ml.x"), "submit: -") {
		t.Errorf("access: exit %d\n%s", code, out)
	}
	code, out, _ = run("matrix", "-f", cs, "-f", site)
	if code != 0 || !strings.HasSuffix(strings.TrimSpace(lineWith(out, "default/root.ml ")), "submit") || !strings.HasSuffix(strings.TrimSpace(lineWith(out, "default/root.ml.x")), "stopped") {
		t.Errorf("matrix: exit %d\n%s", code, out)
	}
	// stopping the parent changes nothing on it, and takes submit away on
	// the leaf below
	old := stoppedTree(t, filepath.Join(dir, "old"), "")
	code, out, _ = run("diff", old, cs)
	if code != 0 || !strings.Contains(out, "user bob loses submit on 1 queue") || !strings.Contains(out, "queues: root.ml.x\n") ||
		!strings.Contains(out, "NEW: root.ml.x is STOPPED") {
		t.Errorf("diff: exit %d\n%s", code, out)
	}
}

// lineWith is the first line of out that holds s.
func lineWith(out, s string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}
