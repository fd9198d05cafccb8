package commands_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/budget"
	"github.com/aclint/aclint/internal/cli"
	"github.com/aclint/aclint/internal/gen"
	"github.com/aclint/aclint/internal/systems"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

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
	base := budget.LiveHeap()
	loaded := acl.NewPolicy(config.Decode(config.Parse(cfgFile, data)))
	loaded.NamedPrincipals()
	configLive := budget.LiveHeap() - base
	runtime.KeepAlive(loaded)
	loaded = nil

	m := &budget.Meter{}
	var errOut strings.Builder
	base = budget.LiveHeap()
	if code := cli.Execute(systems.New(), []string{"matrix", "-f", cfgFile, "-o", "csv"}, strings.NewReader(""), m, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	cells := int64(20000 * 4000)
	grew := int64(m.Peak) - int64(base)
	t.Logf("wrote %d MB in %d writes; live heap at most %d MB above the start, the loaded config takes %d MB, the matrix has %d M cells",
		m.Bytes>>20, m.Writes, grew>>20, configLive>>20, cells/1e6)
	if m.Writes < 1000 {
		t.Errorf("only %d writes: the matrix was not streamed", m.Writes)
	}
	if grew > 2*int64(configLive)+cells/8 {
		t.Errorf("the live heap grew by %d MB: the matrix is being held in memory", grew>>20)
	}
}
