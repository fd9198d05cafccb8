//go:build unix && !linux && !darwin && !freebsd && !netbsd

package safewrite

import "syscall"

// ctime: the other systems' Stat_t name it differently, and the size and
// modification time still tell most edits apart.
func ctime(*syscall.Stat_t) int64 { return 0 }
