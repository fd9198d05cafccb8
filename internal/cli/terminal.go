package cli

import (
	"io"
	"os"
	"strconv"
)

// wrapWidth is the width to wrap long lines at when w is a terminal: the
// COLUMNS variable, else the terminal's own size, else 80. Anything else (a
// pipe, a file, a CI log) gets 0: lines stay whole, one per record, to grep.
func wrapWidth(w io.Writer) int {
	if !isTerminal(w) {
		return 0
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 20 {
		return n
	}
	if f, ok := w.(interface{ Fd() uintptr }); ok {
		if n := terminalColumns(f.Fd()); n > 20 {
			return n
		}
	}
	return 80
}
