package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/gen"
)

// client drives a server in-process over pipes, as an editor would: it
// reads the server's messages all the time, so the server never blocks on
// a full pipe.
type client struct {
	t    *testing.T
	in   *io.PipeWriter
	msgs chan *message
	next int
	// notifications seen while waiting for responses
	notes []*message
	done  chan error
}

func start(t *testing.T, opts Options) *client {
	t.Helper()
	cr, cw := io.Pipe() // client -> server
	sr, sw := io.Pipe() // server -> client
	c := &client{t: t, in: cw, msgs: make(chan *message, 100000), done: make(chan error, 1)}
	go func() {
		err := Run(context.Background(), cr, sw, opts)
		sw.Close()
		c.done <- err
	}()
	go func() {
		rd := newReader(sr, 256<<20)
		for {
			m, err := rd.read()
			if err != nil {
				close(c.msgs)
				return
			}
			c.msgs <- m
		}
	}()
	t.Cleanup(func() { cw.Close() })
	return c
}

func testOptions() Options {
	o := DefaultOptions(testRegistry)
	o.Debounce = 0
	return o
}

func (c *client) raw(body string) {
	c.t.Helper()
	if _, err := fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.t.Fatal(err)
	}
}

func (c *client) send(method string, id int, params any) {
	c.t.Helper()
	m := map[string]any{"jsonrpc": "2.0", "method": method}
	if id != 0 {
		m["id"] = id
	}
	if params != nil {
		m["params"] = params
	}
	b, _ := json.Marshal(m)
	c.raw(string(b))
}

// read returns the next message, failing the test after a timeout (a
// hang is a failure, not a stuck test run).
func (c *client) read() *message {
	c.t.Helper()
	select {
	case m, ok := <-c.msgs:
		if !ok {
			c.t.Fatal("the server closed its output")
		}
		return m
	case <-time.After(60 * time.Second):
		c.t.Fatal("no message from the server in 60s")
	}
	return nil
}

// call sends a request and returns its response, keeping notifications.
func (c *client) call(method string, params any) *message {
	c.t.Helper()
	c.next++
	id := c.next
	c.send(method, id, params)
	for {
		m := c.read()
		if m.Method != "" {
			c.notes = append(c.notes, m)
			continue
		}
		if string(m.ID) != fmt.Sprint(id) {
			c.t.Fatalf("response to id %s while waiting for %d", m.ID, id)
		}
		return m
	}
}

// diagnostics waits for the diagnostics of uri.
func (c *client) diagnostics(uri string) PublishDiagnosticsParams {
	c.t.Helper()
	for {
		var m *message
		if len(c.notes) > 0 {
			m, c.notes = c.notes[0], c.notes[1:]
		} else {
			m = c.read()
		}
		if m.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p PublishDiagnosticsParams
		if err := json.Unmarshal(m.Params, &p); err != nil {
			c.t.Fatal(err)
		}
		if p.URI == uri {
			return p
		}
	}
}

func (c *client) initialize() {
	c.t.Helper()
	r := c.call("initialize", map[string]any{"processId": nil, "capabilities": map[string]any{}})
	if r.Error != nil {
		c.t.Fatalf("initialize: %v", r.Error)
	}
	c.send("initialized", 0, map[string]any{})
}

func (c *client) open(uri, text string) {
	c.send("textDocument/didOpen", 0, map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
}

func (c *client) stop() {
	c.t.Helper()
	if r := c.call("shutdown", nil); r.Error != nil {
		c.t.Fatal(r.Error)
	}
	c.send("exit", 0, nil)
	select {
	case err := <-c.done:
		if err != nil {
			c.t.Fatalf("exit after shutdown: %v", err)
		}
	case <-time.After(60 * time.Second):
		c.t.Fatal("the server did not end after exit")
	}
}

const wildcard = `partitions:
  - name: default
    queues:
      - name: root
        submitacl: *
        queues:
          - name: default
`

func fileURI(t *testing.T, name, content string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return "file://" + filepath.ToSlash(p), p
}

// lintFile is what `aclint lint` finds in the same bytes.
func lintFile(t *testing.T, path, content string) []engine.Finding {
	t.Helper()
	in := &engine.Input{Path: path, Data: []byte(content), Explicit: true, Arg: path}
	rep, err := testRegistry.SystemFor(in).Lint(in, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Findings
}

func TestDiagnosticsAreLintFindings(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/script/rule-*.txtar")
	if len(files) < 50 {
		t.Fatalf("only %d rule testscripts found", len(files))
	}
	c := start(t, testOptions())
	c.initialize()
	checked, yarnChecked, ytChecked := 0, 0, 0
	for _, f := range files {
		raw, _ := os.ReadFile(f)
		// the document a rule's script lints: a YuniKorn config, Mesos
		// ACLs, YARN's capacity-scheduler.xml, a YTsaurus tree, RBAC manifests or the ConfigMap of a rule judged with RBAC beside it, alone (the LDAP
		// rules lint a mounted directory, no document an editor opens)
		var body, name string
		ok := false
		for _, n := range []string{"queues.yaml", "acls.json", "capacity-scheduler.xml", "tree.yaml", "fair-scheduler.xml",
			"yarn-site.xml", "cs/capacity-scheduler.xml", "rbac.yaml", "bad/yunikorn-configs.yaml"} {
			if body, ok = section(string(raw), n); ok {
				name = path.Base(n)
				break
			}
		}
		if !ok {
			continue
		}
		uri, path := fileURI(t, name, body)
		want := lintFile(t, path, body)
		c.open(uri, body)
		got := c.diagnostics(uri)
		if len(got.Diagnostics) != len(want) {
			t.Errorf("%s: %d diagnostics, aclint lint finds %d", f, len(got.Diagnostics), len(want))
			continue
		}
		sameAsLint(t, f, body, got.Diagnostics, want)
		c.send("textDocument/didClose", 0, map[string]any{"textDocument": map[string]any{"uri": uri}})
		if got := c.diagnostics(uri); len(got.Diagnostics) != 0 {
			t.Errorf("%s: closing did not clear the diagnostics", f)
		}
		checked++
		switch name {
		case "capacity-scheduler.xml", "fair-scheduler.xml", "yarn-site.xml":
			yarnChecked++
		case "tree.yaml":
			ytChecked++
		}
	}
	t.Logf("%d of %d rule scripts' documents compared (%d YARN, %d YTsaurus)", checked, len(files), yarnChecked, ytChecked)
	if checked < len(files)-2 {
		t.Fatalf("only %d documents compared: every rule script but the two LDAP ones, which lint a mounted directory, has one", checked)
	}
	if yarnChecked == 0 || ytChecked == 0 {
		t.Fatalf("YARN documents compared: %d, YTsaurus trees: %d", yarnChecked, ytChecked)
	}
	c.stop()
}

// sameAsLint requires the diagnostics of text to be the findings of lint.
func sameAsLint(t *testing.T, what, text string, got []Diagnostic, want []engine.Finding) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d diagnostics, aclint lint finds %d", what, len(got), len(want))
		return
	}
	tx := newText(text, encUTF16)
	for i, w := range want {
		d := got[i]
		if d.Code != w.Rule || d.Range.Start != tx.pos(w.Pos.Line, w.Pos.Col) || !strings.HasPrefix(d.Message, w.Message) || d.Severity != severity(w.Severity) {
			t.Errorf("%s: diagnostic %d is %s at %v %q, lint says %s at %v %q", what, i, d.Code, d.Range.Start, d.Message, w.Rule, w.Pos, w.Message)
		}
		if d.CodeDescription == nil || !strings.HasSuffix(d.CodeDescription.Href, "rules.md#"+w.Rule) {
			t.Errorf("%s: diagnostic %d has no link to its rule", what, i)
		}
	}
}

// TestTypingMatchesLint types into a config character by character, in
// values (where the server builds on the last parse) and across lines
// (where it parses again), and after every keystroke requires the
// diagnostics to be what aclint lint finds in the same text.
func TestTypingMatchesLint(t *testing.T) {
	c := start(t, testOptions())
	c.initialize()
	text := string(gen.EditorConfig(120, true))
	uri, path := fileURI(t, "queues.yaml", text)
	c.open(uri, text)
	sameAsLint(t, "opened", text, c.diagnostics(uri).Diagnostics, lintFile(t, path, text))
	tx := newText(text, encUTF16)
	version := 1
	typeAt := func(line, col int, s string) {
		for _, r := range s {
			version++
			pos := Position{Line: line, Character: col}
			c.send("textDocument/didChange", 0, map[string]any{
				"textDocument":   map[string]any{"uri": uri, "version": version},
				"contentChanges": []any{map[string]any{"range": Range{Start: pos, End: pos}, "text": string(r)}},
			})
			off := tx.offset(pos)
			text = text[:off] + string(r) + text[off:]
			tx = newText(text, encUTF16)
			if r == '\n' {
				line, col = line+1, 0
			} else {
				col++
			}
			sameAsLint(t, fmt.Sprintf("after typing %q", r), text, c.diagnostics(uri).Diagnostics, lintFile(t, path, text))
		}
	}
	// into dept1's submitacl, after "lead1": a service account, then a
	// second space (two findings appear and go)
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.Contains(l, `"lead1 dept1"`) {
			typeAt(i, strings.Index(l, "lead1")+5, ",system:x y")
			break
		}
	}
	// a new queue after q0 of the first team: lines change
	for i, l := range strings.Split(text, "\n") {
		if strings.HasSuffix(l, "- name: q0") {
			indent := strings.Repeat(" ", len(l)-len("- name: q0"))
			typeAt(i+1, 0, indent+"- name: q0\n")
			break
		}
	}
	c.stop()
}

// section is one file of a txtar archive.
func section(archive, name string) (string, bool) {
	_, rest, ok := strings.Cut(archive, "\n-- "+name+" --\n")
	if !ok {
		return "", false
	}
	if i := strings.Index(rest, "\n-- "); i >= 0 {
		rest = rest[:i+1]
	}
	return rest, true
}

func TestQuickFixThenClean(t *testing.T) {
	c := start(t, testOptions())
	c.initialize()
	uri, _ := fileURI(t, "queues.yaml", wildcard)
	c.open(uri, wildcard)
	d := c.diagnostics(uri)
	if len(d.Diagnostics) != 1 || d.Diagnostics[0].Code != "unquoted-wildcard" {
		t.Fatalf("diagnostics: %+v", d.Diagnostics)
	}
	r := c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": d.Diagnostics[0].Range,
		"context": map[string]any{"diagnostics": d.Diagnostics}})
	var actions []CodeAction
	if err := json.Unmarshal(r.Result, &actions); err != nil || len(actions) != 1 {
		t.Fatalf("code actions: %s (%v)", r.Result, err)
	}
	a := actions[0]
	if !a.IsPreferred || a.Kind != "quickfix" || strings.Contains(a.Title, "changes who has access") {
		t.Fatalf("a safe fix must be the preferred quick fix: %+v", a)
	}
	edits := a.Edit.Changes[uri]
	if len(edits) != 1 {
		t.Fatalf("edits: %+v", a.Edit)
	}
	tx := newText(wildcard, encUTF16)
	fixed := tx.apply(TextDocumentContentChangeEvent{Range: &edits[0].Range, Text: edits[0].NewText})
	if !strings.Contains(fixed, `submitacl: "*"`) {
		t.Fatalf("the fix gives:\n%s", fixed)
	}
	c.send("textDocument/didChange", 0, map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"range": edits[0].Range, "text": edits[0].NewText}}})
	if d := c.diagnostics(uri); len(d.Diagnostics) != 0 || d.Version == nil || *d.Version != 2 {
		t.Fatalf("after the fix: %+v", d)
	}
	c.stop()
}

func TestUnsafeFixIsNotPreferred(t *testing.T) {
	const comma = "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: \"alice, bob\"\n        queues:\n          - name: default\n"
	c := start(t, testOptions())
	c.initialize()
	uri, _ := fileURI(t, "queues.yaml", comma)
	c.open(uri, comma)
	d := c.diagnostics(uri)
	r := c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": Range{Position{4, 0}, Position{4, 30}}, "context": map[string]any{"diagnostics": d.Diagnostics}})
	var actions []CodeAction
	_ = json.Unmarshal(r.Result, &actions)
	if len(actions) == 0 {
		t.Fatalf("no action for %+v", d.Diagnostics)
	}
	for _, a := range actions {
		if a.IsPreferred || !strings.Contains(a.Title, "changes who has access") {
			t.Errorf("an unsafe fix must say it changes access and not be preferred: %+v", a)
		}
	}
	c.stop()
}

const tree = `partitions:
  - name: default
    placementrules:
      - name: fixed
        value: root.prod.etl
    queues:
      - name: root
        submitacl: " admins"
        queues:
          - name: prod
            submitacl: "alice,system:serviceaccount:ns:sa etl"
            queues:
              - name: etl
                limits:
                  - limit: cap
                    users: [alice]
                    maxapplications: 3
          - name: dev
            adminacl: "*"
`

func TestHoverSymbolsDefinitionFolding(t *testing.T) {
	c := start(t, testOptions())
	c.initialize()
	uri, _ := fileURI(t, "queues.yaml", tree)
	c.open(uri, tree)
	c.diagnostics(uri)
	hover := func(line, char int) string {
		r := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": Position{line, char}})
		var h *Hover
		_ = json.Unmarshal(r.Result, &h)
		if h == nil {
			return ""
		}
		return h.Contents.Value
	}
	acl := hover(10, 25)
	for _, want := range []string{"**submitacl** of `root.prod`", "users: `alice`", "groups: `etl`", "dropped: `system:serviceaccount:ns:sa`", "Who may submit to `root.prod`", "`admins` (root submitacl)"} {
		if !strings.Contains(acl, want) {
			t.Errorf("ACL hover lacks %q:\n%s", want, acl)
		}
	}
	q := hover(12, 24)
	for _, want := range []string{"**root.prod.etl** — leaf queue", "Who may administer `root.prod.etl`", `"cap": user ` + "`alice`" + `: maxapplications 3`} {
		if !strings.Contains(q, want) {
			t.Errorf("queue hover lacks %q:\n%s", want, q)
		}
	}
	if h := hover(0, 0); h != "" {
		t.Errorf("hover on a key: %q", h)
	}
	r := c.call("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": Position{4, 20}})
	var locs []Location
	_ = json.Unmarshal(r.Result, &locs)
	if len(locs) != 1 || locs[0].Range.Start != (Position{12, 22}) {
		t.Errorf("definition of root.prod.etl: %s", r.Result)
	}
	r = c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}})
	var syms []DocumentSymbol
	_ = json.Unmarshal(r.Result, &syms)
	if len(syms) != 1 || syms[0].Name != "default" || len(syms[0].Children) != 1 || syms[0].Children[0].Name != "root" ||
		len(syms[0].Children[0].Children) != 2 || syms[0].Children[0].Children[0].Children[0].Name != "etl" {
		t.Fatalf("symbols: %s", r.Result)
	}
	if prod := syms[0].Children[0].Children[0]; prod.Range.Start.Line != 9 || prod.Range.End.Line != 16 {
		t.Errorf("root.prod spans %+v, want lines 9 to 16", prod.Range)
	}
	r = c.call("textDocument/foldingRange", map[string]any{"textDocument": map[string]any{"uri": uri}})
	var folds []FoldingRange
	_ = json.Unmarshal(r.Result, &folds)
	if len(folds) != 5 { // partition, root, prod, etl, dev
		t.Errorf("folds: %s", r.Result)
	}
	c.stop()
}

func TestRobustness(t *testing.T) {
	o := testOptions()
	o.MaxDocumentSize = 1 << 16
	o.MaxDocuments = 3
	c := start(t, o)
	// before initialize a request is refused, a notification dropped
	if r := c.call("textDocument/hover", map[string]any{}); r.Error == nil || r.Error.Code != codeServerNotInitialized {
		t.Fatalf("request before initialize: %+v", r)
	}
	c.initialize()
	// malformed JSON with a readable id is answered with it; without one,
	// with a null id (JSON-RPC 2.0, 5.1)
	c.raw(`{"jsonrpc":"2.0","id":77,"method":"textDocument/hover","params":{"textDocument":`)
	if m := c.read(); m.Error == nil || m.Error.Code != codeParseError {
		t.Fatalf("malformed JSON: %+v", m)
	}
	c.raw(`}}}`)
	if m := c.read(); m.Error == nil || m.Error.Code != codeParseError || string(m.ID) != "null" {
		t.Fatalf("garbage: %+v", m)
	}
	// an oversized message is skipped without being held
	c.raw(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"x":"` + strings.Repeat("a", 2<<20) + `"}}`)
	if m := c.read(); m.Method != "window/logMessage" || !strings.Contains(string(m.Params), "larger than the limit") {
		t.Fatalf("oversized: %+v", m)
	}
	// unknown request and notification; wrong params
	if r := c.call("workspace/symbol", map[string]any{}); r.Error == nil || r.Error.Code != codeMethodNotFound {
		t.Fatalf("unknown method: %+v", r)
	}
	c.send("$/unknownNotification", 0, map[string]any{})
	if r := c.call("textDocument/hover", []int{1}); r.Error == nil || r.Error.Code != codeInvalidParams {
		t.Fatalf("array params: %+v", r)
	}
	// every document request reads its params through its one typed
	// handler: the wrong shape of any field is invalid params, named by
	// the method
	for _, m := range []string{"textDocument/hover", "textDocument/definition", "textDocument/documentSymbol", "textDocument/codeAction", "textDocument/foldingRange", "textDocument/diagnostic"} {
		for _, params := range []any{"x", map[string]any{"textDocument": 5}, map[string]any{"textDocument": map[string]any{"uri": 7}}} {
			r := c.call(m, params)
			if r.Error == nil || r.Error.Code != codeInvalidParams || !strings.HasPrefix(r.Error.Message, strings.TrimPrefix(m, "textDocument/")+": ") {
				t.Errorf("%s with %v: %+v", m, params, r.Error)
			}
		}
	}
	if r := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///x.yaml"}, "position": "top"}); r.Error == nil || r.Error.Code != codeInvalidParams {
		t.Errorf("hover with a position that is not one: %+v", r.Error)
	}
	// requests for documents never opened or closed answer null or empty
	for _, m := range []string{"textDocument/hover", "textDocument/definition", "textDocument/documentSymbol", "textDocument/codeAction", "textDocument/foldingRange"} {
		r := c.call(m, map[string]any{"textDocument": map[string]any{"uri": "file:///nowhere.yaml"}, "position": Position{}, "range": Range{}, "context": map[string]any{}})
		if r.Error != nil || string(r.Result) != "null" {
			t.Errorf("%s on a closed document: %s %v", m, r.Result, r.Error)
		}
	}
	// half-typed documents: diagnostics, and every request answers
	for i, doc := range []string{"partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: \"*\n", "partitions:\n  - name: default\n    queues:\n      - name: ro", "", "\x00\xff\xfe", "partitions: [", "{\"permissive\": "} {
		uri := fmt.Sprintf("file:///tmp/half%d.yaml", i)
		c.open(uri, doc)
		c.diagnostics(uri)
		for _, m := range []string{"textDocument/hover", "textDocument/definition", "textDocument/documentSymbol", "textDocument/codeAction", "textDocument/foldingRange"} {
			r := c.call(m, map[string]any{"textDocument": map[string]any{"uri": uri}, "position": Position{3, 14}, "range": Range{End: Position{9, 0}}, "context": map[string]any{}})
			if r.Error != nil {
				t.Errorf("%s on %q: %v", m, doc, r.Error)
			}
		}
		c.send("textDocument/didClose", 0, map[string]any{"textDocument": map[string]any{"uri": uri}})
		c.diagnostics(uri)
	}
	// a change range past the end, and a document grown past the limit
	uri := "file:///tmp/grow.yaml"
	c.open(uri, wildcard)
	c.diagnostics(uri)
	c.send("textDocument/didChange", 0, map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"range": Range{Position{90, 4}, Position{95, 0}}, "text": "# end\n"}}})
	c.diagnostics(uri)
	c.send("textDocument/didChange", 0, map[string]any{"textDocument": map[string]any{"uri": uri, "version": 3},
		"contentChanges": []any{map[string]any{"text": strings.Repeat("#", 1<<17)}}})
	found := false
	for i := 0; i < 3 && !found; i++ {
		m := c.read()
		found = m.Method == "window/showMessage" && strings.Contains(string(m.Params), "no longer linted")
	}
	if !found {
		t.Fatal("a document past the size limit is not reported")
	}
	// bounded number of documents
	for i := 0; i < 4; i++ {
		c.open(fmt.Sprintf("file:///tmp/many%d.yaml", i), wildcard)
	}
	refused := false
	for i := 0; i < 12 && !refused; i++ {
		m := c.read()
		refused = m.Method == "window/showMessage" && strings.Contains(string(m.Params), "documents are open")
	}
	if !refused {
		t.Fatal("opening more documents than the bound is not refused")
	}
	c.stop()
}

func TestExitWithoutShutdown(t *testing.T) {
	c := start(t, testOptions())
	c.initialize()
	c.send("exit", 0, nil)
	select {
	case err := <-c.done:
		if err != ErrNoShutdown {
			t.Fatalf("exit without shutdown: %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("exit did not end the server")
	}
}

func TestRequestsAfterShutdown(t *testing.T) {
	c := start(t, testOptions())
	c.initialize()
	c.call("shutdown", nil)
	if r := c.call("textDocument/hover", map[string]any{}); r.Error == nil || r.Error.Code != codeInvalidRequest {
		t.Fatalf("request after shutdown: %+v", r)
	}
	c.send("exit", 0, nil)
	if err := <-c.done; err != nil {
		t.Fatal(err)
	}
}

// TestSettingsAndSuppressions: the nearest .aclint.yaml turns rules off and
// ignores files; an inline suppression hides its finding, as in lint.
func TestSettingsAndSuppressions(t *testing.T) {
	dir := t.TempDir()
	_ = os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, ".aclint.yaml"), []byte("rules:\n  no-submit-access: off\nignore:\n  - skipped/**\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	closed := "partitions:\n  - name: default\n    queues:\n      - name: root\n        queues:\n          - name: a\n"
	c := start(t, testOptions())
	c.initialize()
	uri := "file://" + filepath.ToSlash(filepath.Join(dir, "queues.yaml"))
	c.open(uri, closed)
	if d := c.diagnostics(uri); len(d.Diagnostics) != 0 {
		t.Errorf("a rule turned off in .aclint.yaml still reports: %+v", d.Diagnostics)
	}
	uri2 := "file://" + filepath.ToSlash(filepath.Join(dir, "skipped", "x", "queues.yaml"))
	c.open(uri2, wildcard)
	if d := c.diagnostics(uri2); len(d.Diagnostics) != 0 {
		t.Errorf("an ignored file has diagnostics: %+v", d.Diagnostics)
	}
	sup := strings.Replace(wildcard, "submitacl: *", "submitacl: * # aclint:ignore unquoted-wildcard", 1)
	uri3 := "file://" + filepath.ToSlash(filepath.Join(dir, "sup.yaml"))
	c.open(uri3, sup)
	want := lintFile(t, filepath.Join(dir, "sup.yaml"), sup)
	if d := c.diagnostics(uri3); len(d.Diagnostics) != len(want) {
		t.Errorf("suppressed: %d diagnostics, lint finds %d", len(d.Diagnostics), len(want))
	}
	// an invalid settings file is said, not taken as clean
	if err := os.WriteFile(filepath.Join(dir, ".aclint.yaml"), []byte("rules:\n  no-such-rule: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.send("textDocument/didSave", 0, map[string]any{"textDocument": map[string]any{"uri": uri}})
	if d := c.diagnostics(uri); len(d.Diagnostics) != 1 || !strings.Contains(d.Diagnostics[0].Message, "settings are invalid") {
		t.Errorf("invalid settings: %+v", d.Diagnostics)
	}
	c.stop()
}

// TestConfigMapPositions: findings in a ConfigMap point into the outer file.
func TestConfigMapPositions(t *testing.T) {
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yunikorn-configs\ndata:\n  queues.yaml: |\n    partitions:\n      - name: default\n        queues:\n          - name: root\n            submitacl: \"alice, bob\"\n"
	c := start(t, testOptions())
	c.initialize()
	uri, _ := fileURI(t, "cm.yaml", cm)
	c.open(uri, cm)
	d := c.diagnostics(uri)
	found := false
	for _, dg := range d.Diagnostics {
		if dg.Code == "comma-space" {
			found = true
			if dg.Range.Start != (Position{10, 30}) {
				t.Errorf("comma-space in the ConfigMap at %+v, want line 11 of the outer file, character 31", dg.Range.Start)
			}
		}
	}
	if !found {
		t.Fatalf("ConfigMap diagnostics: %+v", d.Diagnostics)
	}
	c.stop()
}

func TestUTF16Positions(t *testing.T) {
	tx := newText("a: \"😀x\"\n", encUTF16)
	if p := tx.pos(1, 6); p.Character != 6 { // a, :, space, ", 😀 (2 units), then x
		t.Fatalf("UTF-16 column: %+v", p)
	}
	if l, col := tx.column(Position{0, 6}); l != 1 || col != 6 {
		t.Fatalf("back to a character column: %d:%d", l, col)
	}
	tx8 := newText("a: \"😀x\"\n", encUTF8)
	if p := tx8.pos(1, 6); p.Character != 8 {
		t.Fatalf("UTF-8 column: %+v", p)
	}
}

func TestReaderBounds(t *testing.T) {
	for _, in := range []string{
		"Content-Length: x\r\n\r\n{}",
		"X-Other: 1\r\n\r\n{}",
		strings.Repeat("H", 10000) + "\r\n\r\n",
		"Content-Length: 10\r\n\r\n{}",
	} {
		rd := newReader(strings.NewReader(in), 1<<20)
		if _, err := rd.read(); err == nil {
			t.Errorf("%.30q read without error", in)
		}
	}
}
