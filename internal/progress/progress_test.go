package progress

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestQuickRunPrintsNothing(t *testing.T) {
	Reset()
	var b syncBuffer
	m := Start(&b, time.Hour, time.Millisecond)
	File(100)
	m.Stop()
	m.Stop() // twice is fine
	if b.String() != "" {
		t.Fatalf("a run shorter than the delay printed %q", b.String())
	}
}

func TestMeterShowsCountsAndErasesItsLine(t *testing.T) {
	Reset()
	var b syncBuffer
	File(8_100_000)
	Queues(102051)
	m := Start(&b, 0, time.Millisecond)
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(b.String(), "102,051 queues") && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	Answered()
	for !strings.Contains(b.String(), "1 answered") && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	m.Stop()
	out := b.String()
	want := "\raclint: read 1 file (8.1 MB), 102,051 queues"
	if !strings.HasPrefix(out, want) {
		t.Fatalf("meter printed %q, want it to start with %q", out, want)
	}
	last := "aclint: read 1 file (8.1 MB), 102,051 queues, 1 answered"
	if !strings.HasSuffix(out, "\r"+strings.Repeat(" ", len(last))+"\r") {
		t.Fatalf("Stop did not erase the line: %q", out)
	}
	if strings.Contains(out, "\x1b") {
		t.Fatalf("meter wrote an escape sequence: %q", out)
	}
	if n := strings.Count(out, "1 answered"); n != 1 {
		t.Fatalf("an unchanged line was redrawn: %d times", n)
	}
	Start(nil, 0, time.Millisecond).Stop() // no writer: never shows, stops at once
}

func TestLine(t *testing.T) {
	Reset()
	File(999)
	File(1)
	if got, want := Line(), "aclint: read 2 files (1.0 kB)"; got != want {
		t.Fatalf("Line() = %q, want %q", got, want)
	}
	Reset()
	File(12)
	Queues(1_000_000)
	if got, want := Line(), "aclint: read 1 file (12 bytes), 1,000,000 queues"; got != want {
		t.Fatalf("Line() = %q, want %q", got, want)
	}
}
