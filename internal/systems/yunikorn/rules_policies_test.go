package yunikorn

import (
	"sort"
	"testing"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// The decoder's list of property names (for its "move it under
// properties:" hint) and the properties this package checks are one list.
func TestPropertyNamesAgree(t *testing.T) {
	var a, b []string
	for k := range queueProperties {
		a = append(a, k)
	}
	b = append(b, config.PropertyNames...)
	sort.Strings(a)
	sort.Strings(b)
	if len(a) != len(b) {
		t.Fatalf("checked %v, decoder knows %v", a, b)
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("checked %v, decoder knows %v", a, b)
		}
	}
}
