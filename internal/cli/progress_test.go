//go:build linux

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/aclint/aclint/internal/gen"
)

// openPTY opens a pseudo-terminal pair with the kernel's /dev/ptmx, so the
// test sees what a person at a terminal sees.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	var unlock int32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Skipf("unlockpt: %v", e)
	}
	var n uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, m.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Skipf("ptsname: %v", e)
	}
	s, err := os.OpenFile(filepath.Join("/dev/pts", itoa(int(n))), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pts: %v", err)
	}
	t.Cleanup(func() { m.Close(); s.Close() })
	return m, s
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// TestProgressOnTerminalOnly runs a command with standard error on a
// terminal and on a pipe: the progress line shows on the terminal alone,
// and --no-progress, -q and CI turn it off.
func TestProgressOnTerminalOnly(t *testing.T) {
	oldDelay, oldTick := progressDelay, progressTick
	progressDelay, progressTick = 0, time.Millisecond
	t.Cleanup(func() { progressDelay, progressTick = oldDelay, oldTick })
	t.Setenv("CI", "")
	t.Setenv("TERM", "xterm")
	cfg := filepath.Join(t.TempDir(), "queues.yaml")
	if err := os.WriteFile(cfg, gen.AuditConfig(20000, 500, false), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(stderr *os.File, args ...string) {
		t.Helper()
		var out bytes.Buffer
		Execute(testRegistry, args, strings.NewReader(""), &out, stderr)
	}
	m, s := openPTY(t)
	// the terminal is read all along, as a person's terminal is: a full
	// pty buffer would block the writer
	var mu sync.Mutex
	var screen bytes.Buffer
	go func() {
		buf := make([]byte, 1<<16)
		for {
			n, err := m.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	// read returns what reached the terminal since the last read: a marker
	// written after the run is waited for, so the answer never depends on
	// how soon the reading goroutine ran on a busy machine
	marks := 0
	read := func(*os.File) string {
		t.Helper()
		marks++
		mark := "@@end-of-run-" + itoa(marks) + "@@"
		s.WriteString(mark + "\n")
		deadline := time.Now().Add(2 * time.Minute)
		for {
			mu.Lock()
			out := screen.String()
			if i := strings.Index(out, mark); i >= 0 {
				screen.Reset()
				screen.WriteString(out[i+len(mark):])
				mu.Unlock()
				return out[:i]
			}
			mu.Unlock()
			if time.Now().After(deadline) {
				t.Fatalf("the terminal never showed %s: %q", mark, out)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	run(s, "matrix", "-f", cfg, "-o", "csv")
	if got := read(m); !strings.Contains(got, "aclint: read 1 file") || !strings.Contains(got, " queues") {
		t.Errorf("no progress on a terminal: %q", got)
	}
	for _, args := range [][]string{
		{"matrix", "--no-progress", "-f", cfg, "-o", "csv"},
		{"check", "-q", "-f", cfg, "default", "root.dept1.team1.q1", "u1"},
	} {
		run(s, args...)
		if got := read(m); strings.Contains(got, "aclint: read") {
			t.Errorf("%v: progress shown: %q", args, got)
		}
	}
	t.Setenv("CI", "true")
	run(s, "matrix", "-f", cfg, "-o", "csv")
	if got := read(m); strings.Contains(got, "aclint: read") {
		t.Errorf("progress shown under CI: %q", got)
	}
	t.Setenv("CI", "")

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	run(w, "matrix", "-f", cfg, "-o", "csv")
	w.Close()
	var piped bytes.Buffer
	piped.ReadFrom(r)
	if strings.Contains(piped.String(), "aclint: read") {
		t.Errorf("progress shown on a pipe: %q", piped.String())
	}
}
