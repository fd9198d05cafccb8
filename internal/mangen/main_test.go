package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The man pages generate, one per command, with the commands' own help,
// each titled by its command, and the usage line's brackets kept.
func TestManPages(t *testing.T) {
	dir := t.TempDir()
	if err := generate(dir, nil); err != nil {
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
	check, _ := os.ReadFile(filepath.Join(dir, "aclint-check.1"))
	for _, want := range []string{`.TH "ACLINT-CHECK" "1"`, `[--namespace NS.yaml]`, `(--submitter USER | --without-admission-controller)`} {
		if !strings.Contains(string(check), want) {
			t.Errorf("aclint-check.1 lacks %q:\n%s", want, check[:min(len(check), 700)])
		}
	}
	if strings.Contains(string(check), `\[la]`) {
		t.Error("aclint-check.1's help reads brackets and parentheses as a link")
	}
	for _, name := range []string{"aclint.bash", "_aclint", "aclint.fish"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || !strings.Contains(string(b), "aclint") {
			t.Errorf("no %s completion: %v", name, err)
		}
	}
}
