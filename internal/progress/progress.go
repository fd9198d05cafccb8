// Package progress counts what aclint has read (files, bytes, queues) and
// shows it on a terminal while a long command runs. The input pipeline
// advances the counters; a command starts a Meter, which stays silent for
// the first second so quick runs print nothing.
package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var files, nbytes, queues, answered atomic.Int64

// File counts one input file of size bytes read.
func File(size int) {
	files.Add(1)
	nbytes.Add(int64(size))
}

// Queues counts n queues decoded.
func Queues(n int) { queues.Add(int64(n)) }

// Answered counts one queue answered by an audit that streams its rows
// (access, matrix).
func Answered() { answered.Add(1) }

// Line is what the meter shows: the counts so far.
func Line() string {
	f, b, q := files.Load(), nbytes.Load(), queues.Load()
	s := fmt.Sprintf("aclint: read %s %s (%s)", group(f), plural(f, "file", "files"), size(b))
	if q > 0 {
		s += fmt.Sprintf(", %s %s", group(q), plural(q, "queue", "queues"))
	}
	if a := answered.Load(); a > 0 {
		s += fmt.Sprintf(", %s answered", group(a))
	}
	return s
}

// Meter redraws Line on one terminal line of w every tick, once delay has
// passed, until Stop erases it.
type Meter struct {
	w        io.Writer
	stop     chan struct{}
	done     chan struct{}
	once     sync.Once
	mu       sync.Mutex
	shown    int    // width of the line on screen
	last     string // the line on screen, redrawn only when it changes
	finished bool
}

// Start starts a meter on w; a nil w gives a meter that never shows.
func Start(w io.Writer, delay, tick time.Duration) *Meter {
	m := &Meter{w: w, stop: make(chan struct{}), done: make(chan struct{})}
	if w == nil {
		close(m.done)
		return m
	}
	go m.run(delay, tick)
	return m
}

func (m *Meter) run(delay, tick time.Duration) {
	defer close(m.done)
	t := time.NewTimer(delay)
	defer t.Stop()
	select {
	case <-m.stop:
		return
	case <-t.C:
	}
	m.draw()
	k := time.NewTicker(tick)
	defer k.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-k.C:
			m.draw()
		}
	}
}

func (m *Meter) draw() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.finished {
		return
	}
	line := Line()
	if line == m.last {
		return
	}
	m.last = line
	// plain carriage return and blanks: no escape sequences, so the line is
	// the same with NO_COLOR and on any terminal
	pad := max(m.shown-len(line), 0)
	fmt.Fprintf(m.w, "\r%s%s", line, strings.Repeat(" ", pad))
	m.shown = len(line)
}

// Stop stops the meter and erases its line, so that what the command
// prints next starts on a clean line. It may be called more than once.
func (m *Meter) Stop() {
	m.once.Do(func() {
		close(m.stop)
		<-m.done
		m.mu.Lock()
		defer m.mu.Unlock()
		m.finished = true
		if m.shown > 0 {
			fmt.Fprintf(m.w, "\r%s\r", strings.Repeat(" ", m.shown))
		}
	})
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// group writes n with thousands separators: 1,000,000.
func group(n int64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func size(b int64) string {
	switch {
	case b >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(b)/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(b)/1e3)
	}
	return fmt.Sprintf("%d bytes", b)
}

// Reset zeroes the counters (for tests).
func Reset() {
	files.Store(0)
	nbytes.Store(0)
	queues.Store(0)
	answered.Store(0)
}
