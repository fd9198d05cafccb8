package cli

import (
	"io"
	"os"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/progress"
)

// progressDelay is how long a command runs before it shows progress: a
// quick run prints nothing extra.
var progressDelay = time.Second

// progressTick is how often the line is redrawn.
var progressTick = 250 * time.Millisecond

// liveWriter stops the progress line before anything else is written, so
// that output and the line never share a row of the terminal. It keeps the
// file's descriptor visible for terminal detection (--color auto).
type liveWriter struct {
	w    io.Writer
	file io.Writer // the file underneath, for its descriptor
	s    *streams
	stop bool // writing ends the progress line (a terminal)
}

func (l liveWriter) Write(p []byte) (int, error) {
	if l.stop {
		l.s.stopProgress()
	}
	return l.w.Write(p)
}

// Fd is the descriptor of the file underneath, for isatty.
func (l liveWriter) Fd() uintptr {
	if f, ok := l.file.(interface{ Fd() uintptr }); ok {
		return f.Fd()
	}
	return ^uintptr(0)
}

func (s *streams) stopProgress() {
	if s.meter != nil {
		s.meter.Stop()
	}
}

// startProgress starts the progress line on standard error when a person
// is watching it: a terminal (not a pipe, not a file, not TERM=dumb), no CI,
// and neither --no-progress nor the command's -q. The line is plain text
// redrawn with a carriage return: no colour or escape sequences.
func (s *streams) startProgress(c *cobra.Command) {
	if !progressWanted(c, s.rawErr) {
		return
	}
	progress.Reset()
	s.meter = progress.Start(s.rawErr, progressDelay, progressTick)
}

func progressWanted(c *cobra.Command, w io.Writer) bool {
	if off, _ := c.Flags().GetBool("no-progress"); off {
		return false
	}
	if q := c.Flags().Lookup("quiet"); q != nil && q.Value.String() == "true" {
		return false
	}
	if os.Getenv("CI") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	return isTerminal(w)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && isatty.IsTerminal(f.Fd())
}
