//go:build unix

package input

import "syscall"

// openNonblock keeps an open from waiting for a FIFO's writer: a FIFO
// swapped in after the look is then found by the second look, not hung on.
const openNonblock = syscall.O_NONBLOCK
