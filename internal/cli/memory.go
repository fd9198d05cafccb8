package cli

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aclint/aclint/internal/input"
)

// DefaultMaxMemory bounds what one run may use. The largest real configs
// need a few hundred MB (docs/performance.md); an input built to exhaust
// memory gets a message and exit 2 instead of the runtime's crash, whose
// status 2 CI cannot tell from a usage error.
const DefaultMaxMemory int64 = 4 << 30

// memoryGuard watches the memory the runtime holds against a cap. The cap
// is stored before the watcher starts and a cap of 0 means "not set", so
// no schedule of the two goroutines can compare memory with 0: on a busy
// machine the watcher used to run first and stop a small run with "needs
// more than 0 bytes".
type memoryGuard struct {
	once sync.Once
	cap  atomic.Int64
	// held reads the memory the runtime holds; a test replaces it
	held func() (int64, bool)
}

var guard = &memoryGuard{held: heldMemory}

// heldMemory is what the runtime holds from the system, less what it gave
// back; false when the runtime does not report it.
func heldMemory() (int64, bool) {
	sample := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 || sample[1].Value.Kind() != metrics.KindUint64 {
		return 0, false
	}
	return int64(sample[0].Value.Uint64() - sample[1].Value.Uint64()), true
}

// over reports whether the memory held is past the cap; never while no cap
// is set.
func (g *memoryGuard) over() (held, limit int64, past bool) {
	limit = g.cap.Load()
	if limit <= 0 {
		return 0, limit, false
	}
	held, ok := g.held()
	return held, limit, ok && held > limit
}

// guardMemory sets Go's soft memory limit below max, so the collector
// works harder before the limit, and watches the memory the runtime holds:
// past max the run stops with a message on stderr and exit 2. GOMEMLIMIT,
// when set, keeps its own soft limit.
func guardMemory(max int64, stderr io.Writer, exit func(int)) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(max / 10 * 9)
	}
	guard.start(max, 50*time.Millisecond, stderr, exit)
}

// start stores the cap, then starts the watcher once per process.
func (g *memoryGuard) start(max int64, every time.Duration, stderr io.Writer, exit func(int)) {
	g.cap.Store(max)
	g.once.Do(func() {
		go func() {
			for range time.Tick(every) {
				if _, limit, past := g.over(); past {
					fmt.Fprintf(stderr, "aclint: out of memory: this input needs more than %s, aclint's limit; raise it with --max-memory if the input is a real config\n", input.FormatSize(limit))
					exit(ExitUsage)
					return
				}
			}
		}()
	})
}
