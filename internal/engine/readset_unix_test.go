//go:build unix

package engine

import (
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/aclint/aclint/internal/budget"
)

// statInfo is a file's information with only its device and inode.
type statInfo struct {
	os.FileInfo
	st *syscall.Stat_t
}

func (s statInfo) Sys() any { return s.st }

// TestReadSetLinear: a run that reads 32,000 files remembers them in time
// linear in their number (each compared with every earlier one, as before,
// 64,000 took 16 s); the same inode on another device is another file.
func TestReadSetLinear(t *testing.T) {
	fill := func(n int) time.Duration {
		infos := make([]os.FileInfo, n)
		for i := range infos {
			infos[i] = statInfo{st: &syscall.Stat_t{Dev: 7, Ino: uint64(i)}}
		}
		return budget.Best(2, func() {
			var s ReadSet
			for _, info := range infos {
				s.Add(info)
				s.Add(info)
			}
			if len(s.keyed) != n {
				t.Fatalf("%d files remembered as %d", n, len(s.keyed))
			}
		})
	}
	small, large := fill(8000), fill(32000)
	ratio := float64(large) / float64(max(small, time.Millisecond))
	t.Logf("8,000 files %v, 32,000 files %v: %.1fx", small, large, ratio)
	if ratio > budget.Limit(6) && large > 50*time.Millisecond {
		t.Errorf("four times the files cost %.1f times the CPU: each compared with every other?", ratio)
	}
	var s ReadSet
	s.Add(statInfo{st: &syscall.Stat_t{Dev: 1, Ino: 5}})
	if k, _ := keyOf(statInfo{st: &syscall.Stat_t{Dev: 2, Ino: 5}}); s.keyed[k] {
		t.Error("inode 5 on device 2 taken for inode 5 on device 1")
	}
}
