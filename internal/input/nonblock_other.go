//go:build !unix

package input

// openNonblock: elsewhere a FIFO cannot be opened as a path, nothing to add.
const openNonblock = 0
