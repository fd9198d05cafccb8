package running

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aclint/aclint/internal/budget"
)

// TestFindPassesChildrenInPlace: finding a queue among 40,000 tracked
// children costs about the same for a path 200 levels deep as for one 2
// levels deep (the path was lower-cased again for every child passed: 11 s
// against a 200-level queue), and finds the same node either way.
func TestFindPassesChildrenInPlace(t *testing.T) {
	tree := func(levels int) (*UsageNode, string) {
		path := "root" + strings.Repeat(".Level", levels-1)
		n := &UsageNode{Queue: "root"}
		for i := 0; i < 40000; i++ {
			n.Children = append(n.Children, &UsageNode{Queue: "root.c" + strconv.Itoa(i)})
		}
		n.Children = append(n.Children, &UsageNode{Queue: strings.ToLower(path)})
		return n, path
	}
	cost := func(levels int) time.Duration {
		n, path := tree(levels)
		return budget.Best(3, func() {
			for i := 0; i < 20; i++ {
				if f := n.Find(path); f == nil || !strings.EqualFold(f.Queue, path) {
					t.Fatalf("%d levels: found %v", levels, f)
				}
			}
		})
	}
	short, deep := cost(2), cost(200)
	ratio := float64(deep) / float64(max(short, time.Millisecond))
	t.Logf("40,000 children: a 2-level path %v, a 200-level path %v: %.1fx", short, deep, ratio)
	if ratio > budget.Limit(3) && deep > 100*time.Millisecond {
		t.Errorf("a deep path costs %.1f times a short one among the same children: lower-cased per child?", ratio)
	}
}
