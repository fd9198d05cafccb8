package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMakeReleaseVersionRunsNothing: VERSION reaches the recipe through the
// environment, never inside its shell text, and make never expands it: a
// tag such as v1";touch${IFS}/tmp/x;" (a valid git tag name), $(...) and
// backticks run nothing, and mkrelease refuses anything but vX.Y.Z.
func TestMakeReleaseVersionRunsNothing(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	dir := t.TempDir()
	marks := []string{"a", "b", "c", "d"}
	for i, v := range []string{
		`v1";touch${IFS}` + filepath.Join(dir, "a") + `;"`,
		"v1`touch " + filepath.Join(dir, "b") + "`",
		"v1$(touch " + filepath.Join(dir, "c") + ")",
		"$(shell touch " + filepath.Join(dir, "d") + ")",
	} {
		cmd := exec.Command("make", "-s", "release", "VERSION="+v)
		cmd.Dir = repoRoot(t)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "give VERSION=vX.Y.Z") {
			t.Errorf("VERSION=%s: %v\n%s", v, err, out)
		}
		if _, err := os.Stat(filepath.Join(dir, marks[i])); err == nil {
			t.Errorf("VERSION=%s ran its command", v)
		}
	}
}

// TestMakeMarksADirtyTree: a binary built from a tree whose tracked files
// changed is labelled COMMIT-dirty, never with the clean commit.
func TestMakeMarksADirtyTree(t *testing.T) {
	for _, tool := range []string{"make", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip("no " + tool)
		}
	}
	dir := t.TempDir()
	mk, err := os.ReadFile(filepath.Join(repoRoot(t), "Makefile"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "Makefile"), mk, 0o644)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644)
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "x")
	head := git("rev-parse", "HEAD")
	build := func() string {
		cmd := exec.Command("make", "-n", "build")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("make -n build: %v\n%s", err, out)
		}
		return string(out)
	}
	if out := build(); !strings.Contains(out, "cli.commit="+head+"\"") {
		t.Errorf("a clean tree:\n%s", out)
	}
	os.WriteFile(filepath.Join(dir, "untracked.txt"), []byte("x"), 0o644)
	if out := build(); !strings.Contains(out, "cli.commit="+head+"\"") {
		t.Errorf("an untracked file leaves the tree clean:\n%s", out)
	}
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n// changed\n"), 0o644)
	if out := build(); !strings.Contains(out, "cli.commit="+head+"-dirty\"") {
		t.Errorf("a changed tracked file:\n%s", out)
	}
}
