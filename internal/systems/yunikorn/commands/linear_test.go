package commands_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aclint/aclint/internal/budget"
)

// TestLinearDecodes: a pod of many annotations, labels or top-level keys
// (yaml.v3 checked a mapping's keys pair by pair: 100,000 took 42 s) and a
// file of many ConfigMap documents (each split the whole file again: 4,000
// took 22 s) cost CPU in proportion to their size. Four times the input
// must cost well under sixteen times the CPU, what a quadratic path costs;
// the small size is large enough that the ratio is not noise.
func TestLinearDecodes(t *testing.T) {
	dir := t.TempDir()
	queues := filepath.Join(dir, "queues.yaml")
	os.WriteFile(queues, []byte("partitions: [{name: default, placementrules: [{name: provided, create: true}], queues: [{name: root, submitacl: \"*\"}]}]\n"), 0o644)
	pod := func(n int, where string) string {
		var b strings.Builder
		b.WriteString("apiVersion: v1\nkind: Pod\nspec: {schedulerName: yunikorn}\n")
		switch where {
		case "top":
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "k%d: v\n", i)
			}
			b.WriteString("metadata:\n  name: p\n  labels: {queue: root.a}\n")
		default:
			b.WriteString("metadata:\n  name: p\n  labels:\n    queue: root.a\n")
			if where == "annotations" {
				b.WriteString("  annotations:\n")
			}
			for i := 0; i < n; i++ {
				fmt.Fprintf(&b, "    k%d: v%d\n", i, i)
			}
		}
		p := filepath.Join(dir, fmt.Sprintf("pod-%s-%d.yaml", where, n))
		os.WriteFile(p, []byte(b.String()), 0o644)
		return p
	}
	configMaps := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other-%d\ndata:\n  queues.yaml: |\n    partitions:\n      - name: default\n        queues:\n          - name: root\n            submitacl: \"*\"\n", i)
		}
		p := filepath.Join(dir, fmt.Sprintf("cms-%d.yaml", n))
		os.WriteFile(p, []byte(b.String()), 0o644)
		return p
	}
	for _, tc := range []struct {
		what string
		n    int
		args func(n int) []string
		code int
	}{
		{"annotations", 12000, func(n int) []string {
			return []string{"place", "-f", queues, "default", "--pod", pod(n, "annotations"), "--without-admission-controller"}
		}, 0},
		{"labels", 12000, func(n int) []string {
			return []string{"place", "-f", queues, "default", "--pod", pod(n, "labels"), "--without-admission-controller"}
		}, 0},
		{"top-level keys", 12000, func(n int) []string {
			return []string{"place", "-f", queues, "default", "--pod", pod(n, "top"), "--without-admission-controller"}
		}, 0},
		{"ConfigMap documents", 1200, func(n int) []string { return []string{"lint", configMaps(n)} }, 1},
	} {
		var cpu [2]time.Duration
		for i, n := range []int{tc.n, 4 * tc.n} {
			args := tc.args(n)
			var code int
			var out, errOut string
			cpu[i] = budget.Best(2, func() { code, out, errOut = run(args...) })
			if code != tc.code {
				t.Fatalf("%s, %d: exit %d\n%.600s\n%.600s", tc.what, n, code, out, errOut)
			}
		}
		ratio := float64(cpu[1]) / float64(max(cpu[0], time.Millisecond))
		t.Logf("%s: %v for %d, %v for %d: %.1fx", tc.what, cpu[0], tc.n, cpu[1], 4*tc.n, ratio)
		if ratio > 8 && cpu[1] > 500*time.Millisecond {
			t.Errorf("%s: four times the input costs %.1f times the CPU (%v, %v): quadratic again?", tc.what, ratio, cpu[0], cpu[1])
		}
	}
}

// TestPartitionNotFoundIsShort: a partition that is not there is answered
// with the first partitions, their count and the nearest name, not with
// every name (1.7 MB for 200,000).
func TestPartitionNotFoundIsShort(t *testing.T) {
	var b strings.Builder
	b.WriteString("partitions:\n")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, "  - name: part%d\n    queues: [{name: root, submitacl: \"*\"}]\n", i)
	}
	p := filepath.Join(t.TempDir(), "queues.yaml")
	os.WriteFile(p, []byte(b.String()), 0o644)
	code, _, errOut := run("check", "-f", p, "part4999x", "root", "alice")
	if code != 2 || len(errOut) > 1000 || !strings.Contains(errOut, "5000 partitions, part0, part1") || !strings.Contains(errOut, "and 4990 more; did you mean part4999?") {
		t.Errorf("exit %d, %d bytes:\n%.1500s", code, len(errOut), errOut)
	}
}
