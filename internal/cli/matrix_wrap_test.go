package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMatrixListWraps: the list layout wraps a long line after a comma at
// --width, each further line indented, and a level everyone gains says
// everyone, not every subject after it (361 subjects were one line of
// 4,943 characters).
func TestMatrixListWraps(t *testing.T) {
	var b strings.Builder
	b.WriteString("partitions:\n  - name: default\n    queues:\n      - name: root\n        queues:\n")
	for i := 0; i < 40; i++ {
		var us []string
		for j := 0; j < 9; j++ {
			us = append(us, fmt.Sprintf("user%d_%d", i, j))
		}
		fmt.Fprintf(&b, "          - name: q%d\n            submitacl: %q\n", i, strings.Join(us, ","))
	}
	b.WriteString("          - name: open\n            adminacl: \"*\"\n")
	p := filepath.Join(t.TempDir(), "q.yaml")
	os.WriteFile(p, []byte(b.String()), 0o644)
	code, out, errOut := run("matrix", "-f", p, "--layout", "list", "--width", "80")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n")[1:] {
		if len(l) > 80 {
			t.Errorf("a line of %d characters past --width 80: %q", len(l), l)
		}
	}
	if !strings.Contains(out, "default/root.q0  submit: user:user0_0, user:user0_1, user:user0_2,\n    user:user0_3") {
		t.Errorf("not wrapped after a comma, indented:\n%s", out[:min(len(out), 800)])
	}
	if !strings.Contains(out, "default/root.open  admin: everyone\n") {
		t.Errorf("a queue everyone administers does not say just everyone:\n%s", out)
	}
}
