package lsp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestNeovim runs a real editor's LSP client against aclint lsp: Neovim,
// headless, opens a queue config with an unquoted wildcard, receives the
// diagnostic, applies the preferred quick fix the server offers, and the
// buffer then lints clean (testdata/neovim/fix.lua). The file on disk is
// never written: the fix is an edit of the buffer.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("nvim is missing in CI: .ci/run installs Debian's neovim package")
		}
		t.Skip("nvim is not installed: the real-editor LSP test is skipped (apt-get install neovim, or run .ci/run)")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "aclint")
	build := exec.Command("go", "build", "-o", bin, "github.com/aclint/aclint")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building aclint: %v\n%s", err, out)
	}
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(filepath.Join(work, ".git"), 0o755); err != nil { // no .aclint.yaml above it is read
		t.Fatal(err)
	}
	fixture, err := os.ReadFile("testdata/neovim/queues.yaml")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(work, "queues.yaml")
	if err := os.WriteFile(file, fixture, 0o644); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs("testdata/neovim/fix.lua")
	result := filepath.Join(dir, "result.json")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-u", "NONE", "-c", "luafile "+script)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "ACLINT_BIN="+bin, "ACLINT_FIXTURE="+file, "ACLINT_RESULT="+result, "HOME="+dir, "XDG_STATE_HOME="+dir, "XDG_DATA_HOME="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, out)
	}
	raw, err := os.ReadFile(result)
	if err != nil {
		t.Fatalf("nvim wrote no result: %v\n%s", err, out)
	}
	var r struct {
		Steps  []string `json:"steps"`
		Error  string   `json:"error"`
		Before []struct {
			Code string `json:"code"`
			Line int    `json:"line"`
			Col  int    `json:"col"`
		} `json:"before"`
		Actions   []string `json:"actions"`
		FixedLine string   `json:"fixed_line"`
		Hover     string   `json:"hover"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("result %s: %v", raw, err)
	}
	if r.Error != "" {
		t.Fatalf("in Neovim, after steps %v: %s", r.Steps, r.Error)
	}
	if !slices.Equal(r.Steps, []string{"attached", "diagnostics", "applied", "clean", "hover"}) {
		t.Fatalf("steps: %v", r.Steps)
	}
	if len(r.Before) != 1 || r.Before[0].Code != "unquoted-wildcard" || r.Before[0].Line != 4 || r.Before[0].Col != 19 {
		t.Errorf("diagnostics Neovim received: %+v", r.Before)
	}
	if r.FixedLine != `        submitacl: "*"` {
		t.Errorf("the fixed line is %q", r.FixedLine)
	}
	if !strings.Contains(r.Hover, "- everyone (`*`)") {
		t.Errorf("hover on the fixed ACL: %q", r.Hover)
	}
	if after, _ := os.ReadFile(file); string(after) != string(fixture) {
		t.Errorf("the server or the test wrote the file:\n%s", after)
	}
}
