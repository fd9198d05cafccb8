package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/aclint/aclint/internal/budget"
	"github.com/aclint/aclint/internal/gen"
)

// apply is the reference for one content change: a whole new text, or a
// range replaced at the offsets text.offset reads. The server's buffer
// must agree with it on every edit.
func (t *text) apply(c TextDocumentContentChangeEvent) string {
	if c.Range == nil {
		return c.Text
	}
	from, to := t.offset(c.Range.Start), t.offset(c.Range.End)
	if to < from {
		from, to = to, from
	}
	return t.s[:from] + c.Text + t.s[to:]
}

// TestBufferMatchesText: the gap buffer applies random edits (positions
// past line ends and past the last line, negative ones, inside surrogate
// pairs, around \r\n, whole-text replacements) exactly as rebuilding the
// text and its line index after each edit does, in all three encodings.
func TestBufferMatchesText(t *testing.T) {
	pieces := []string{"a", "bc", "\n", "\r\n", "\r", "😀", "é", "名", "  ", "x: y\n", ""}
	rnd := rand.New(rand.NewSource(1))
	word := func() string {
		var b strings.Builder
		for i := rnd.Intn(4); i > 0; i-- {
			b.WriteString(pieces[rnd.Intn(len(pieces))])
		}
		return b.String()
	}
	for _, enc := range []string{encUTF16, encUTF8, encUTF32} {
		for doc := 0; doc < 300; doc++ {
			var init strings.Builder
			for i := rnd.Intn(30); i > 0; i-- {
				init.WriteString(word())
			}
			ref := newText(init.String(), enc)
			buf := newBuffer(init.String(), enc)
			for e := 0; e < 40; e++ {
				lines := len(ref.starts)
				pos := func() Position {
					return Position{Line: rnd.Intn(lines+2) - 1, Character: rnd.Intn(8) - 1}
				}
				c := TextDocumentContentChangeEvent{Range: &Range{pos(), pos()}, Text: word()}
				if rnd.Intn(25) == 0 {
					c.Range = nil
				}
				want := ref.apply(c)
				work := 0
				if err := buf.apply(c, &work, 1<<30, 1<<30); err != nil {
					t.Fatal(err)
				}
				if got := buf.String(); got != want {
					t.Fatalf("%s: %q after %+v %q: buffer %q, want %q", enc, ref.s, c.Range, c.Text, got, want)
				}
				ref = newText(want, enc)
			}
		}
	}
}

// TestManyEditsInOneChange: 20,000 one-character edits of a 1 MB document
// in one didChange (a replace-all sends them so, last place first) are one
// pass over the document, not 20,000 rebuilds of it and its line index
// (48 s before); edits that jump about the document are refused past a
// bound on the work, which the editor is told, instead of holding the
// server.
func TestManyEditsInOneChange(t *testing.T) {
	doc := strings.Repeat("          - name: queue-with-a-long-name\n", 25000) // 1 MB
	edits := make([]TextDocumentContentChangeEvent, 0, 20000)
	for i := 19999; i >= 0; i-- {
		p := Position{Line: i, Character: 18}
		edits = append(edits, TextDocumentContentChangeEvent{Range: &Range{p, Position{Line: i, Character: 19}}, Text: "Q"})
	}
	var got string
	// the best of three: one run may meet a collection or a busy core; the
	// quadratic reading this guards against took 48 s, four orders of
	// magnitude above the bound
	cpu := budget.Best(3, func() {
		buf := newBuffer(doc, encUTF16)
		work := 0
		for _, c := range edits {
			if err := buf.apply(c, &work, MaxEditWork+8*len(doc), 1<<30); err != nil {
				t.Fatal(err)
			}
		}
		got = buf.String()
	})
	if want := strings.Replace(doc, "queue", "Queue", 20000); got != want {
		t.Fatal("the edits were not applied as written")
	}
	floor := budget.Best(3, func() { newText(doc, encUTF16) })
	if limit := budget.Limit(100) * float64(floor); float64(cpu) > limit {
		t.Errorf("20,000 edits of a 1 MB document: %v of CPU, over %v (100x indexing the document once, %v)", cpu, time.Duration(limit), floor)
	}
	// the same edits in a scattered order: past the work bound, refused
	rnd := rand.New(rand.NewSource(2))
	rnd.Shuffle(len(edits), func(i, j int) { edits[i], edits[j] = edits[j], edits[i] })
	o := testOptions()
	c := start(t, o)
	c.initialize()
	uri := "file:///tmp/big.yaml"
	c.open(uri, doc)
	c.diagnostics(uri)
	c.send("textDocument/didChange", 0, map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2}, "contentChanges": edits})
	for {
		m := c.read()
		if m.Method == "window/showMessage" {
			if !strings.Contains(string(m.Params), "20000 edits spread over the document") {
				t.Fatalf("scattered edits: %s", m.Params)
			}
			break
		}
	}
	if p := c.diagnostics(uri); len(p.Diagnostics) != 0 {
		t.Errorf("a dropped document keeps diagnostics: %+v", p)
	}
	c.stop()
}

// TestOpenBytesCapOnChange: what open documents hold is bounded on every
// change, not only at didOpen: documents grown by didChange past the cap
// are dropped, and the editor is told.
func TestOpenBytesCapOnChange(t *testing.T) {
	o := testOptions()
	o.MaxOpenBytes = 1 << 20
	c := start(t, o)
	c.initialize()
	for i := 0; i < 3; i++ {
		uri := fmt.Sprintf("file:///tmp/grow%d.yaml", i)
		c.open(uri, wildcard)
		c.diagnostics(uri)
		c.send("textDocument/didChange", 0, map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
			"contentChanges": []any{map[string]any{"range": Range{Position{0, 0}, Position{0, 0}}, "text": "#" + strings.Repeat("x", 400<<10) + "\n"}}})
	}
	dropped := ""
	for dropped == "" {
		m := c.read()
		if m.Method == "window/showMessage" {
			dropped = string(m.Params)
		}
	}
	if !strings.Contains(dropped, "grow2.yaml is no longer linted") || !strings.Contains(dropped, "the most aclint lsp keeps is 1048576") {
		t.Fatalf("growing past the cap: %s", dropped)
	}
	c.stop()
}

// TestBurstCostsItsLastVersion: a burst of one-character changes (debounced
// as an editor's typing is) costs about what linting its last version
// costs: each change is a small edit of the buffer, and the text and its
// line index are built for the version linted only. Before, each change
// copied the document and indexed it again.
func TestBurstCostsItsLastVersion(t *testing.T) {
	doc := string(gen.AuditConfig(10000, 100, false))
	o := testOptions()
	o.Debounce = time.Hour // the request below lints the last version
	c := start(t, o)
	c.initialize()
	uri := "file:///tmp/burst.yaml"
	c.open(uri, doc)
	c.diagnostics(uri)
	lines := strings.Count(doc, "\n")
	var frames bytes.Buffer
	for i := 0; i < 2000; i++ {
		p := Position{Line: lines / 2, Character: 0}
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": map[string]any{
			"textDocument": map[string]any{"uri": uri, "version": i + 2}, "contentChanges": []any{map[string]any{"range": Range{p, p}, "text": "#"}}}})
		fmt.Fprintf(&frames, "Content-Length: %d\r\n\r\n%s", len(body), body)
	}
	cpu := budget.Best(1, func() {
		c.in.Write(frames.Bytes())
		if r := c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": uri}}); r.Error != nil {
			t.Fatal(r.Error)
		}
	})
	final := strings.Split(doc, "\n")
	final[lines/2] = strings.Repeat("#", 2000) + final[lines/2]
	last := strings.Join(final, "\n")
	floor := budget.Best(3, func() { analyze("/tmp/burst.yaml", newText(last, encUTF16), 1, newSettingsCache(testRegistry, 0), nil) })
	if limit := budget.Limit(3) * float64(floor); float64(cpu) > limit {
		t.Errorf("2,000 changes then diagnostics: %v of CPU, over %v (3x linting the last version, %v)", cpu, time.Duration(limit), floor)
	}
	c.stop()
}

// TestEmptyURI: a didOpen with an empty URI is not kept, and never stops
// the diagnostics of other documents (the lint loop used "" for "nothing
// pending").
func TestEmptyURI(t *testing.T) {
	c := start(t, testOptions())
	c.initialize()
	for i := 0; i < 20; i++ {
		c.open("", wildcard)
		uri := fmt.Sprintf("file:///tmp/after-empty%d.yaml", i)
		c.open(uri, wildcard)
		if p := c.diagnostics(uri); len(p.Diagnostics) == 0 {
			t.Fatalf("no diagnostics for %s", uri)
		}
	}
	c.stop()
}

// TestJSONRPCValidity: the message rules of JSON-RPC 2.0 and LSP.
func TestJSONRPCValidity(t *testing.T) {
	c := start(t, testOptions())
	c.initialize()
	for _, tc := range []struct {
		body string
		code int
		id   string
	}{
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"textDocument/hover","params":{}}`, codeInvalidRequest, "null"},
		{`{"jsonrpc":"2.0","id":[1],"method":"textDocument/hover","params":{}}`, codeInvalidRequest, "null"},
		{`{"jsonrpc":"2.0","id":true,"method":"textDocument/hover","params":{}}`, codeInvalidRequest, "null"},
		{`{"jsonrpc":"2.0","id":1.5,"method":"textDocument/hover","params":{}}`, codeInvalidRequest, "null"},
		{`{"jsonrpc":"2.0","id":null,"method":"textDocument/hover","params":{}}`, codeInvalidRequest, "null"},
		{`[{"jsonrpc":"2.0","id":1,"method":"shutdown"}]`, codeInvalidRequest, "null"},
		{`"a string"`, codeInvalidRequest, "null"},
		{`{"jsonrpc":"2.0","id":5,"method":5}`, codeInvalidRequest, "5"},
		{`{"jsonrpc":"1.0","id":6,"method":"shutdown"}`, codeInvalidRequest, "6"},
		{`{"jsonrpc":"2.0"}`, codeInvalidRequest, "null"},
		{`{"jsonrpc":"2.0","id":7,"method":"textDocument/hover"`, codeParseError, "7"},
	} {
		c.raw(tc.body)
		m := c.read()
		if m.Error == nil || m.Error.Code != tc.code || string(m.ID) != tc.id {
			t.Errorf("%s: answered %+v (error %+v), want %d with id %s", tc.body, m, m.Error, tc.code, tc.id)
		}
	}
	// a string id is answered with it
	c.raw(`{"jsonrpc":"2.0","id":"abc","method":"workspace/symbol","params":{}}`)
	if m := c.read(); string(m.ID) != `"abc"` || m.Error == nil || m.Error.Code != codeMethodNotFound {
		t.Errorf("string id: %+v", m)
	}
	c.stop()
}

// TestBrokenStreams: input that ends inside a message (after a header, in
// a body) is a broken stream, an error; input that ends between messages
// is the end of the session.
func TestBrokenStreams(t *testing.T) {
	for _, tc := range []struct {
		in     string
		broken bool
	}{
		{"Content-Length: 50\r\n\r\n", true},
		{"Content-Length: 50\r\n", true},
		{"Content-Length: 50", true},
		{"Content-Length: 50\r\n\r\n{\"jsonrpc\"", true},
		{"Content-Length: 9000000\r\n\r\n", true}, // past the limit, skipped: still broken
		{"", false},
		{"\r\n", false},
		{string(frame(map[string]any{"method": "initialized"})), false},
	} {
		o := testOptions()
		o.MaxDocumentSize = 1 << 20
		err := Run(context.Background(), strings.NewReader(tc.in), io.Discard, o)
		if (err != nil) != tc.broken {
			t.Errorf("%q: %v, want broken %v", tc.in, err, tc.broken)
		}
	}
}

// TestNothingAppliedAfterShutdown: after shutdown, notifications change
// nothing: no document is opened and nothing is published.
func TestNothingAppliedAfterShutdown(t *testing.T) {
	c := start(t, testOptions())
	c.initialize()
	c.call("shutdown", nil)
	uri := "file:///tmp/after-shutdown.yaml"
	c.open(uri, wildcard)
	c.send("exit", 0, nil)
	if err := <-c.done; err != nil {
		t.Fatal(err)
	}
	for m := range c.msgs {
		if m.Method == "textDocument/publishDiagnostics" {
			t.Fatalf("a document opened after shutdown was linted: %s", m.Params)
		}
	}
}

// TestCancelRequest: $/cancelRequest for a request still waiting or
// running answers it RequestCancelled (-32800), once; its own answer is
// dropped; a request already answered is left alone.
func TestCancelRequest(t *testing.T) {
	o := testOptions()
	hold, held := make(chan struct{}), make(chan string, 10)
	o.beforeRequest = func(method string) {
		if method == "textDocument/hover" {
			held <- method
			<-hold
		}
	}
	c := start(t, o)
	c.initialize()
	uri := "file:///tmp/cancel.yaml"
	c.open(uri, wildcard)
	c.diagnostics(uri)
	pos := map[string]any{"textDocument": map[string]any{"uri": uri}, "position": Position{4, 20}}
	c.send("textDocument/hover", 100, pos) // running, held
	<-held
	c.send("textDocument/documentSymbol", 101, map[string]any{"textDocument": map[string]any{"uri": uri}}) // waiting behind it
	c.send("$/cancelRequest", 0, map[string]any{"id": 100})
	c.send("$/cancelRequest", 0, map[string]any{"id": 101})
	answers := map[string]*message{}
	for len(answers) < 2 {
		m := c.read()
		if m.Method == "" {
			answers[string(m.ID)] = m
		}
	}
	for _, id := range []string{"100", "101"} {
		if m := answers[id]; m == nil || m.Error == nil || m.Error.Code != codeRequestCancelled {
			t.Errorf("request %s cancelled: %+v", id, m)
		}
	}
	close(hold)
	// the next request is answered, and nothing more for 100 or 101
	if r := c.call("textDocument/foldingRange", map[string]any{"textDocument": map[string]any{"uri": uri}}); r.Error != nil {
		t.Fatal(r.Error)
	}
	c.send("$/cancelRequest", 0, map[string]any{"id": c.next}) // already answered: nothing
	c.stop()
	for _, m := range c.notes {
		if m.Method == "" {
			t.Errorf("an extra answer: %+v", m)
		}
	}
}
