package commands_test

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/vectors"
)

// vector is one line of a conformance file: a config, YuniKorn's verdict on
// it, and access questions with YuniKorn's answers.
type vector struct {
	Name    string `json:"name"`
	Config  string `json:"config"`
	Valid   bool   `json:"valid"`
	Error   string `json:"error"`
	Queries []struct {
		Partition string    `json:"partition"`
		Queue     string    `json:"queue"`
		User      string    `json:"user"`
		Groups    *[]string `json:"groups"`
		Action    string    `json:"action"`
		Expect    string    `json:"expect"`
	} `json:"queries"`
}

// TestConformance runs every vector in testdata/conformance through the real
// command entry point, as the README there prescribes.
func TestConformance(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	total := 0
	eachVector(t, "../../../../testdata/conformance/*.jsonl", "ACLINT_CONFORMANCE", func(file string, n int, v *vector) {
		name := fmt.Sprintf("%s#%d", filepath.Base(file), n)
		if v.Name != "" {
			name += " (" + v.Name + ")"
		}
		path := filepath.Join(dir, fmt.Sprintf("c%d.yaml", n))
		if err := os.WriteFile(path, []byte(v.Config), 0o644); err != nil {
			t.Fatal(err)
		}
		wantLint := 0
		if !v.Valid {
			wantLint = 1
		}
		code, out, errOut := run("lint", "--fail-on", "error", "--color", "never", path)
		total++
		if code != wantLint {
			t.Errorf("%s: lint exit %d, want %d (YuniKorn: valid=%v %s)\n%s%s\nconfig:\n%s", name, code, wantLint, v.Valid, v.Error, out, errOut, v.Config)
		}
		for i, q := range v.Queries {
			args := []string{"check", "-f", path, q.Partition, q.Queue, q.User, "--action", q.Action}
			if q.Groups != nil {
				args = append(args, "--groups", strings.Join(*q.Groups, ","))
			}
			want := map[string]int{"allow": 0, "deny": 1, "error": 2}[q.Expect]
			code, out, errOut := run(args...)
			total++
			if code != want {
				t.Errorf("%s query %d: %v: exit %d, want %d (%s)\n%s%s", name, i, args[3:], code, want, q.Expect, out, errOut)
			}
		}
	})
	t.Logf("%d conformance verdicts checked", total)
}

// eachVector calls fn with every line of the JSONL files glob matches, and
// of those the environment variable env names (a larger set kept outside
// the repository); env set to a glob that matches nothing fails.
func eachVector[T any](t *testing.T, glob, env string, fn func(file string, n int, v *T)) {
	t.Helper()
	globs := []string{glob}
	if extra := os.Getenv(env); extra != "" {
		globs = append(globs, extra)
	}
	vectors.Each(t, globs, fn)
}

// tagArgs writes a request's tags as --tag flags, in key order.
func tagArgs(tags map[string]string) []string {
	var args []string
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		args = append(args, "--tag", k+"="+tags[k])
	}
	return args
}
