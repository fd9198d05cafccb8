package main

import (
	"github.com/aclint/aclint/internal/systems"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra/doc"

	"github.com/aclint/aclint/internal/cli"
)

// The man pages generate, one per command, with the commands' own help.
func TestManPages(t *testing.T) {
	dir := t.TempDir()
	root := cli.NewRoot(systems.New(), os.Stdin, io.Discard, io.Discard)
	root.DisableAutoGenTag = true
	root.InitDefaultCompletionCmd()
	if err := doc.GenManTree(root, &doc.GenManHeader{Title: "ACLINT", Section: "1"}, dir); err != nil {
		t.Fatal(err)
	}
	for _, page := range []string{"aclint.1", "aclint-lint.1", "aclint-check.1", "aclint-rules.1", "aclint-version.1", "aclint-completion.1"} {
		b, err := os.ReadFile(filepath.Join(dir, page))
		if err != nil {
			t.Errorf("missing man page %s", page)
			continue
		}
		if !strings.Contains(string(b), ".SH NAME") {
			t.Errorf("%s has no NAME section", page)
		}
	}
	lint, _ := os.ReadFile(filepath.Join(dir, "aclint-lint.1"))
	if !strings.Contains(string(lint), `\fB--fail-on\fP`) {
		t.Error("aclint-lint.1 does not document --fail-on")
	}
}
