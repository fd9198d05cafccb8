//go:build unix

package engine

import (
	"os"
	"syscall"
)

// fileKey is what makes a file itself on a Unix system: its device and
// inode, as os.SameFile compares them.
type fileKey struct{ dev, ino uint64 }

func keyOf(info os.FileInfo) (fileKey, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileKey{}, false
	}
	return fileKey{uint64(st.Dev), uint64(st.Ino)}, true // their types differ by platform
}
