package acl

import (
	"math/rand"
	"strings"
	"testing"
)

// TestCountFields holds countFields to strings.Fields, which YuniKorn's
// validator counts with, on every kind of blank and invalid UTF-8.
func TestCountFields(t *testing.T) {
	pieces := []string{"a", "bb", " ", "\t", "\n", "\v", "\f", "\r", "\u0085", "\u00a0", "\u2003", "\u3000", "\xff", "\xe2\x80", ",", "*"}
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for j := rng.Intn(8); j > 0; j-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		s := b.String()
		if got, want := countFields(s), len(strings.Fields(s)); got != want {
			t.Fatalf("countFields(%q) = %d, strings.Fields has %d", s, got, want)
		}
	}
}
