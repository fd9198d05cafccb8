package commands_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/budget"
	"github.com/aclint/aclint/internal/cli"
	"github.com/aclint/aclint/internal/gen"
)

// diffPair writes a generated config and the same config with one
// department's submitacl replaced, and returns their paths.
func diffPair(t *testing.T, queues, subjects int, dept, acl string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	old := string(gen.AuditConfig(queues, subjects, false))
	line := fmt.Sprintf("- name: %s\n            submitacl: \"", dept)
	i := strings.Index(old, line)
	if i < 0 {
		t.Fatalf("no %s in the generated config", dept)
	}
	start := i + len(line)
	end := start + strings.IndexByte(old[start:], '"')
	new := old[:start] + acl + old[end:]
	op, np := filepath.Join(dir, "old.yaml"), filepath.Join(dir, "new.yaml")
	for p, d := range map[string]string{op: old, np: new} {
		if err := os.WriteFile(p, []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return op, np
}

// TestDiffAtScale: diff is grouped by the ACL entry that causes each change
// and streams its pairs, so the two changes stay small. A
// department of a 20,000-queue config (4,000 named users and groups) opened
// to "*" is 1.76 million (queue, subject) pairs: its JSON stays under 2 MB
// and the live heap far under 400 MB; 100 users granted on a 200-queue
// department stay under 100 KB of JSON. --flat writes every pair without
// holding them.
func TestDiffAtScale(t *testing.T) {
	if testing.Short() {
		t.Skip("scale test skipped in -short mode")
	}
	op, np := diffPair(t, 20000, 4000, "dept7", "*")
	base := budget.LiveHeap()
	for _, c := range []struct {
		format string
		most   int
	}{{"json", 2 << 20}, {"text", 64 << 10}, {"markdown", 65536}} {
		m := &budget.Meter{}
		var errOut strings.Builder
		if code := cli.Execute(testRegistry, []string{"diff", "-o", c.format, op, np}, strings.NewReader(""), m, &errOut); code != 0 {
			t.Fatalf("%s: exit %d: %s", c.format, code, errOut.String())
		}
		t.Logf("20,000 queues, a department opened to *: %s is %d bytes", c.format, m.Bytes)
		if m.Bytes > c.most {
			t.Errorf("%s: %d bytes, want at most %d", c.format, m.Bytes, c.most)
		}
	}
	m := &budget.Meter{}
	var errOut strings.Builder
	if code := cli.Execute(testRegistry, []string{"diff", "--flat", "-o", "json", op, np}, strings.NewReader(""), m, &errOut); code != 0 {
		t.Fatalf("--flat: exit %d: %s", code, errOut.String())
	}
	grew := int64(m.Peak) - int64(base)
	t.Logf("--flat: %d MB in %d writes, live heap at most %d MB above the start", m.Bytes>>20, m.Writes, grew>>20)
	if m.Bytes < 100<<20 || m.Writes < 1000 {
		t.Errorf("--flat wrote %d bytes in %d writes: every pair, streamed, is expected", m.Bytes, m.Writes)
	}
	if grew > 400<<20 {
		t.Errorf("the live heap grew by %d MB while --flat wrote: the pairs are being held", grew>>20)
	}

	users := make([]string, 100)
	for i := range users {
		users[i] = fmt.Sprintf("new-user-%d", i)
	}
	op, np = diffPair(t, 10000, 400, "dept0", "u0,"+strings.Join(users, ",")+" g0")
	m = &budget.Meter{}
	if code := cli.Execute(testRegistry, []string{"diff", "-o", "json", op, np}, strings.NewReader(""), m, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	t.Logf("200-queue department, 100 users granted: json is %d bytes", m.Bytes)
	if m.Bytes > 100<<10 {
		t.Errorf("json: %d bytes, want under 100 KB", m.Bytes)
	}
}
