package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"
	"time"
)

func frame(msgs ...map[string]any) []byte {
	var b bytes.Buffer
	for _, m := range msgs {
		m["jsonrpc"] = "2.0"
		body, _ := json.Marshal(m)
		fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	return b.Bytes()
}

// FuzzSession feeds the server arbitrary byte streams, seeded with whole
// sessions (open, edits, every request), as an editor or a broken pipe
// might send them. The server must answer or refuse, never panic, and end
// when its input ends. It must also make progress as a fuzz target: a run's
// coverage may not depend on how goroutines were scheduled.
func FuzzSession(f *testing.F) {
	const uri = "file:///fuzz/queues.yaml"
	text := "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: \"alice  dev\"\n        queues:\n          - name: a\n            adminacl: '*'\n    placementrules:\n      - name: fixed\n        value: root.a\n"
	pos := map[string]any{"line": 4, "character": 20}
	doc := map[string]any{"uri": uri}
	f.Add(frame(
		map[string]any{"id": 1, "method": "initialize", "params": map[string]any{"capabilities": map[string]any{}}},
		map[string]any{"method": "initialized", "params": map[string]any{}},
		map[string]any{"method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": text}}},
		map[string]any{"method": "textDocument/didChange", "params": map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
			"contentChanges": []any{map[string]any{"range": map[string]any{"start": pos, "end": pos}, "text": "x"}}}},
		map[string]any{"id": 2, "method": "textDocument/hover", "params": map[string]any{"textDocument": doc, "position": pos}},
		map[string]any{"id": 3, "method": "textDocument/codeAction", "params": map[string]any{"textDocument": doc,
			"range": map[string]any{"start": pos, "end": pos}, "context": map[string]any{"diagnostics": []any{}}}},
		map[string]any{"id": 4, "method": "textDocument/documentSymbol", "params": map[string]any{"textDocument": doc}},
		map[string]any{"id": 5, "method": "textDocument/definition", "params": map[string]any{"textDocument": doc, "position": map[string]any{"line": 10, "character": 17}}},
		map[string]any{"id": 6, "method": "textDocument/foldingRange", "params": map[string]any{"textDocument": doc}},
		map[string]any{"id": 7, "method": "textDocument/diagnostic", "params": map[string]any{"textDocument": doc}},
		map[string]any{"method": "textDocument/didClose", "params": map[string]any{"textDocument": doc}},
		map[string]any{"id": 8, "method": "shutdown"},
		map[string]any{"method": "exit"},
	))
	f.Add([]byte("Content-Length: 5\r\n\r\n{\"id\"Content-Length: 2\r\n\r\n{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<16 {
			return
		}
		opts := DefaultOptions(testRegistry)
		opts.Debounce = 0
		// lint on the reading goroutine: with the linting goroutine, what
		// one input covered depended on whether it ran before the input
		// ended, so every run looked new, each was minimized for a minute,
		// and fuzzing made 3 executions a minute
		opts.inline = true
		opts.MaxDocumentSize = 1 << 16
		done := make(chan struct{})
		go func() {
			defer close(done)
			_ = Run(context.Background(), bytes.NewReader(data), io.Discard, opts)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("the server did not end with its input")
		}
	})
}
