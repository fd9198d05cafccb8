package engine

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestColumnsAsWalking: on short and long lines of ASCII, accents, CJK,
// astral runes and invalid bytes, ByteOf and ColOf answer what walking
// the line from its start answers, for every column and byte.
func TestColumnsAsWalking(t *testing.T) {
	pieces := []string{"a", "bc", "é", "名", "😀", "\xff", " "}
	rnd := rand.New(rand.NewSource(3))
	for doc := 0; doc < 50; doc++ {
		var b strings.Builder
		for i := rnd.Intn(3000); i > 0; i-- {
			b.WriteString(pieces[rnd.Intn(len(pieces))])
		}
		l := b.String()
		var c Columns
		col := 1
		for i := range l {
			if got := c.ByteOf(7, l, col); got != i {
				t.Fatalf("ByteOf(%d) = %d, want %d", col, got, i)
			}
			if got := c.ColOf(7, l, i); got != col {
				t.Fatalf("ColOf(%d) = %d, want %d", i, got, col)
			}
			col++
		}
		if c.ByteOf(7, l, col+5) != len(l) || c.ColOf(7, l, len(l)+3) != utf8.RuneCountInString(l)+1 || c.ColOf(7, l, -1) != 1 {
			t.Fatal("not clamped to the line")
		}
	}
}
