//go:build unix

package safewrite

import (
	"io/fs"
	"syscall"
)

// meta is what --fix keeps of a file and compares between two looks at it,
// where the system has it: links, owner, group and the change time.
type meta struct {
	ok         bool
	nlink      uint64
	uid, gid   int
	ctimeNanos int64
}

func metaOf(info fs.FileInfo) meta {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return meta{}
	}
	return meta{ok: true, nlink: uint64(st.Nlink), uid: int(st.Uid), gid: int(st.Gid), ctimeNanos: ctime(st)}
}

// writable asks the kernel whether this process may write the file (root
// may write a file whose mode says read-only; the mode is checked first).
func writable(path string) bool {
	return syscall.Access(path, 2 /* W_OK */) == nil
}
