// Package budget times code for the scale tests, which hold aclint's hot
// paths to a multiple of a yardstick measured in the same process.
package budget

import "time"

// Best runs f n times and returns the shortest run: the least disturbed by
// other work on the machine.
func Best(n int, f func()) time.Duration {
	best := time.Duration(1<<63 - 1)
	for i := 0; i < n; i++ {
		start := time.Now()
		f()
		if d := time.Since(start); d < best {
			best = d
		}
	}
	return best
}
