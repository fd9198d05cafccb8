// Package budget times code for the scale tests, which hold aclint's hot
// paths to a multiple of a yardstick measured in the same process.
//
// Time is the process's CPU time (user and system), not wall time: another
// program keeping the machine busy does not make a run look slow. The
// limits make test checks are a loose guard (twice the budget), so a busy
// machine never fails it; ACLINT_STRICT_BUDGET=1 applies the budget itself,
// for a quick look by hand. The targets are checked by make bench, on whole
// processes as a user runs aclint (internal/bench).
package budget

import (
	"os"
	"time"
)

// Best runs f n times and returns the least CPU time one run took: the
// least disturbed by other work in the process.
func Best(n int, f func()) time.Duration {
	best := time.Duration(1<<63 - 1)
	for i := 0; i < n; i++ {
		start := cpuTime()
		f()
		if d := cpuTime() - start; d < best {
			best = d
		}
	}
	return best
}

// Limit is the multiple a test allows: the real budget under make bench
// (ACLINT_STRICT_BUDGET=1), twice it otherwise.
func Limit(budget float64) float64 {
	if os.Getenv("ACLINT_STRICT_BUDGET") == "1" {
		return budget
	}
	return 2 * budget
}
