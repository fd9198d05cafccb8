package commands_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDriftMarkdownKeepsCommentSize: 600 differing settings fit the
// comment's size (109,787 characters against 60,000 before), counting
// what is left out, at the default and at a smaller --comment-size.
func TestDriftMarkdownKeepsCommentSize(t *testing.T) {
	text, err := os.ReadFile(filepath.Join(restFixtures, "with-extra-config", "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var settings strings.Builder
	for i := 0; i < 600; i++ {
		fmt.Fprintf(&settings, "  service.setting%d: \"value-%d-with-some-length-to-fill-the-comment-up\"\n", i, i)
	}
	cm := filepath.Join(t.TempDir(), "cm.yaml")
	os.WriteFile(cm, []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\ndata:\n"+settings.String()+
		"  queues.yaml: |\n    "+strings.ReplaceAll(strings.TrimSuffix(string(text), "\n"), "\n", "\n    ")+"\n"), 0o644)
	dump := filepath.Join(restFixtures, "with-extra-config", "ws-v1-config.yaml")
	for _, size := range []int{60000, 5000} {
		code, out, errOut := run("drift", cm, "--running", dump, "-o", "markdown", "--comment-size", fmt.Sprint(size))
		if code != 1 || len([]rune(out)) > size || !strings.Contains(out, "more (the comment's size") || !strings.Contains(out, "service.setting1:") {
			t.Errorf("--comment-size %d: exit %d, %d characters\n%.500s%s", size, code, len([]rune(out)), out, errOut)
		}
	}
}
