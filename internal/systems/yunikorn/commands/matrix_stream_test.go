package commands_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/cli"
	"github.com/aclint/aclint/internal/gen"
	"github.com/aclint/aclint/internal/systems"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// liveHeap is what is still reachable after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// meter counts what matrix writes and samples the live heap while it writes.
type meter struct {
	bytes, writes int
	peak          uint64
}

func (m *meter) Write(p []byte) (int, error) {
	m.bytes += len(p)
	m.writes++
	if m.writes == 1 || m.writes%2000 == 0 {
		m.peak = max(m.peak, liveHeap())
	}
	return len(p), nil
}

// TestMatrixStreams: `matrix -o csv` writes row by row, and while it writes
// the live heap stays near what the loaded config itself takes, far below
// the matrix (20,000 queues x 4,000 users and groups: 80 million cells).
func TestMatrixStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("streaming test skipped in -short mode")
	}
	cfgFile := filepath.Join(t.TempDir(), "queues.yaml")
	data := gen.AuditConfig(20000, 4000, false)
	if err := os.WriteFile(cfgFile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	base := liveHeap()
	loaded := acl.NewPolicy(config.Decode(config.Parse(cfgFile, data)))
	loaded.NamedPrincipals()
	configLive := liveHeap() - base
	runtime.KeepAlive(loaded)
	loaded = nil

	m := &meter{}
	var errOut strings.Builder
	base = liveHeap()
	if code := cli.Execute(systems.New(), []string{"matrix", "-f", cfgFile, "-o", "csv"}, strings.NewReader(""), m, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	cells := int64(20000 * 4000)
	grew := int64(m.peak) - int64(base)
	t.Logf("wrote %d MB in %d writes; live heap at most %d MB above the start, the loaded config takes %d MB, the matrix has %d M cells",
		m.bytes>>20, m.writes, grew>>20, configLive>>20, cells/1e6)
	if m.writes < 1000 {
		t.Errorf("only %d writes: the matrix was not streamed", m.writes)
	}
	if grew > 2*int64(configLive)+cells/8 {
		t.Errorf("the live heap grew by %d MB: the matrix is being held in memory", grew>>20)
	}
}
