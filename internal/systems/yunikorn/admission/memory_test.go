package admission

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/budget"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// TestPatternsHoldNoRegexps: 100,000 externalUsers patterns (an 1.8 MB
// ConfigMap) kept their compiled regexps for the whole run, 1 GB; the
// settings now hold the patterns' text, bounded by the input, and still
// match as the admission controller does.
func TestPatternsHoldNoRegexps(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&b, "^user%d[a-z]+$,", i)
	}
	before := budget.LiveHeap()
	s := Read(map[string]config.Setting{KeyExternalUsers: {Value: b.String()}})
	live := budget.LiveHeap() - min(before, budget.LiveHeap())
	if len(s.ExternalUsers.Patterns) != 100000 || s.ExternalUsers.Invalid != "" {
		t.Fatalf("%d patterns, invalid %q", len(s.ExternalUsers.Patterns), s.ExternalUsers.Invalid)
	}
	if live > 64<<20 {
		t.Errorf("the settings hold %d MB live for a 1.8 MB list", live>>20)
	}
	if p, ok := s.ExternalUsers.matches("user99999abc"); !ok || p.Text != "^user99999[a-z]+$" {
		t.Errorf("user99999abc: %v %v", p, ok)
	}
	if _, ok := s.ExternalUsers.matches("user99999"); ok {
		t.Error("user99999 matches no pattern")
	}
	runtime.KeepAlive(s)
}
