package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is serve's output, read while it runs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// TestServeRecording: docs/live.md's walk-through serves the shipped
// recording on loopback, answering what was recorded and saying what was
// not; it refuses an address that is not loopback and a missing recording.
func TestServeRecording(t *testing.T) {
	dir := "../../../testdata/yunikorn-rest/why/users-groups-queue/rest/1"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- serve(ctx, dir, "127.0.0.1:0", out) }()
	var url string
	for i := 0; i < 200 && url == ""; i++ {
		time.Sleep(10 * time.Millisecond)
		if s := out.String(); strings.Contains(s, " on http://") {
			url = strings.Fields(s[strings.Index(s, " on http://")+4:])[0]
		}
	}
	if url == "" {
		t.Fatalf("serve said nothing: %q", out.String())
	}
	resp, err := http.Get(url + "/ws/v1/partition/default/application/alice-3")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "alice-3") {
		t.Errorf("alice-3: %d %s", resp.StatusCode, body)
	}
	resp, err = http.Get(url + "/ws/v1/nothing")
	if err == nil {
		resp.Body.Close()
	}
	if err != nil || resp.StatusCode != http.StatusTeapot || !strings.Contains(out.String(), `not recorded: GET "/ws/v1/nothing"`) {
		t.Errorf("an unrecorded request: %v %v\n%s", err, resp, out.String())
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("serve ended with %v", err)
	}
	if err := serve(context.Background(), dir, "0.0.0.0:0", io.Discard); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("a wildcard address: %v", err)
	}
	if err := serve(context.Background(), "no/such/dir", "127.0.0.1:0", io.Discard); err == nil {
		t.Error("a missing recording served")
	}
}
