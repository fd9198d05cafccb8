//go:build !unix

package cli

// terminalColumns does not know the width here: wrapWidth falls back to 80.
func terminalColumns(uintptr) int { return 0 }
