//go:build unix

package cli

import "golang.org/x/sys/unix"

// terminalColumns asks the terminal on fd for its width; 0 when it cannot.
func terminalColumns(fd uintptr) int {
	ws, err := unix.IoctlGetWinsize(int(fd), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
