package cmd

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/aclint/aclint/pkg/input"
)

// DefaultMaxMemory bounds what one run may use. The largest real configs
// need a few hundred MB (docs/performance.md); an input built to exhaust
// memory gets a message and exit 2 instead of the runtime's crash, whose
// status 2 CI cannot tell from a usage error.
const DefaultMaxMemory int64 = 4 << 30

var (
	guardOnce sync.Once
	memoryCap atomic.Int64
)

// guardMemory sets Go's soft memory limit below max, so the collector
// works harder before the limit, and watches the memory the runtime holds:
// past max the run stops with a message on stderr and exit 2. GOMEMLIMIT,
// when set, keeps its own soft limit.
func guardMemory(max int64, stderr io.Writer, exit func(int)) {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(max / 10 * 9)
	}
	guardOnce.Do(func() {
		// what the runtime holds from the system, less what it gave back
		sample := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
		go func() {
			for range time.Tick(50 * time.Millisecond) {
				metrics.Read(sample)
				if sample[0].Value.Kind() != metrics.KindUint64 || sample[1].Value.Kind() != metrics.KindUint64 {
					return
				}
				if int64(sample[0].Value.Uint64()-sample[1].Value.Uint64()) > memoryCap.Load() {
					fmt.Fprintf(stderr, "aclint: out of memory: this input needs more than %s, aclint's limit; raise it with --max-memory if the input is a real config\n", input.FormatSize(memoryCap.Load()))
					exit(ExitUsage)
				}
			}
		}()
	})
	memoryCap.Store(max)
}
