//go:build !unix

package safewrite

import (
	"io/fs"
	"os"
)

// meta: where the system has no owner or link count to keep (Windows),
// nothing; the size, modification time and mode still tell edits apart.
type meta struct {
	ok         bool
	nlink      uint64
	uid, gid   int
	ctimeNanos int64
}

func metaOf(fs.FileInfo) meta { return meta{} }

// writable opens the file for writing, without changing it.
func writable(path string) bool {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return false
	}
	f.Close()
	return true
}
