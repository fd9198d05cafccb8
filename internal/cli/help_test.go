package cli

import (
	"strings"
	"testing"
)

// TestHelpNamesEverySystem: the help of check, who-can and access gives
// every system's question with an example each, and each example runs
// (exit 0 or 1: an answer) on the repository's own example files.
func TestHelpNamesEverySystem(t *testing.T) {
	files := map[string]string{"acls.json": "../../examples/mesos-acls.json", "tree.yaml": "../../examples/ytsaurus-tree.yaml",
		"capacity-scheduler.xml": "../../examples/yarn/capacity-scheduler.xml", "yarn-site.xml": "../../examples/yarn/yarn-site.xml",
		"queues.yaml": "../../examples/queues.yaml", "rbac.yaml": "../../examples/kubernetes/rbac/analytics.yaml"}
	for _, cmd := range []string{"check", "who-can", "access"} {
		_, help, _ := run(cmd, "--help")
		ran := 0
		for _, sys := range testRegistry.Systems() {
			if !strings.Contains(help, "\n  "+sys.Name()+" ") {
				t.Errorf("%s --help does not name %s:\n%s", cmd, sys.Name(), help)
			}
		}
		for _, line := range strings.Split(help, "\n") {
			_, ex, ok := strings.Cut(line, "e.g. aclint ")
			if !ok {
				continue
			}
			args := strings.Fields(ex)
			for i, a := range args {
				if f, ok := files[a]; ok && i > 0 && args[i-1] == "-f" {
					args[i] = f
				}
			}
			ran++
			if code, out, errOut := run(args...); code == 2 {
				t.Errorf("%s --help's example %q: exit 2\n%s%s", cmd, ex, out, errOut)
			}
		}
		if ran != len(testRegistry.Systems()) {
			t.Errorf("%s --help: %d examples, want one per system (%d)", cmd, ran, len(testRegistry.Systems()))
		}
	}
}
