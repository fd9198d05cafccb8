package cli

import (
	"io"
	"testing"
	"time"
)

// TestMemoryGuardNeverComparesWithZero: a guard without a cap never stops
// the run, and the cap is in place before the watcher's first look, however
// the goroutines are scheduled. The watcher looked first on busy machines
// and stopped small runs with "needs more than 0 bytes".
func TestMemoryGuardNeverComparesWithZero(t *testing.T) {
	g := &memoryGuard{held: func() (int64, bool) { return 1 << 20, true }}
	if _, _, past := g.over(); past {
		t.Fatal("a guard with no cap set stops the run")
	}
	// the watcher's first look comes before start returns to its caller:
	// with the cap stored first it sees 4 GiB, not 0
	looked := make(chan int64, 1)
	g.held = func() (int64, bool) {
		select {
		case looked <- g.cap.Load():
		default:
		}
		return 1 << 20, true
	}
	exited := make(chan int, 1)
	g.start(4<<30, time.Nanosecond, io.Discard, func(code int) { exited <- code })
	if c := <-looked; c != 4<<30 {
		t.Fatalf("the watcher compared with a cap of %d", c)
	}
	select {
	case code := <-exited:
		t.Fatalf("1 MiB held under a 4 GiB cap stopped the run with exit %d", code)
	case <-time.After(20 * time.Millisecond):
	}
	// and past the cap it stops the run with exit 2
	g.cap.Store(1 << 10)
	if code := <-exited; code != ExitUsage {
		t.Fatalf("past the cap: exit %d, want %d", code, ExitUsage)
	}
}
