// Package lsp is aclint's language server: the Language Server Protocol
// (3.17) over a byte stream, for every system aclint reads. Diagnostics are
// the findings `aclint lint` reports for the same bytes and settings; hover,
// symbols, go to definition and folding answer from YuniKorn's model of a
// queue config. The server stands on the systems (pkg/lint, pkg/yunikorn,
// pkg/acl, pkg/limits); cmd only starts it. It never writes a file: fixes
// are workspace edits the editor applies.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	// the server reads every system aclint lints: importing the registry
	// registers them, whoever starts the server
	_ "github.com/aclint/aclint/pkg/systems"
)

// Options bound the server and tune it.
type Options struct {
	// MaxDocumentSize is the largest document (and message) accepted, in
	// bytes: aclint's --max-input-size.
	MaxDocumentSize int64
	// MaxDocuments and MaxOpenBytes bound what open documents hold: past
	// either, a newly opened document is not kept (the editor is told).
	MaxDocuments int
	MaxOpenBytes int64
	// Debounce is how long after the last change a document is linted.
	Debounce time.Duration
	// RulesURL is where a rule's documentation is, the rule name appended
	// as the fragment.
	RulesURL string
	// Version is aclint's version, said at initialize.
	Version string
}

// DefaultOptions are the bounds `aclint lsp` starts with.
func DefaultOptions() Options {
	return Options{
		MaxDocumentSize: 64 << 20,
		MaxDocuments:    1000,
		MaxOpenBytes:    512 << 20,
		Debounce:        150 * time.Millisecond,
		RulesURL:        "https://github.com/aclint/aclint/blob/main/docs/rules.md",
	}
}

// Server is one language server session.
type Server struct {
	opts Options
	out  *writer

	mu          sync.Mutex
	docs        map[string]*document
	openBytes   int64
	enc         string
	initialized bool
	shutdown    bool
	settings    *settingsCache

	lintq   chan string
	pending map[string]bool
	wg      sync.WaitGroup
}

// document is one open document.
type document struct {
	uri, path string
	version   int
	text      *text
	timer     *time.Timer
	// the analysis of one version, computed once and shared by
	// diagnostics and requests
	an *analysis
	// what the system parsed for the last analysed version, kept from a
	// change until the next analysis, which may build on it
	previous any
}

// ErrNoShutdown is Run's error when exit came without shutdown: the
// protocol has the server then exit with code 1.
var ErrNoShutdown = errors.New("exit without shutdown")

// Run serves one session on in and out until exit or the end of in.
func Run(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	s := &Server{
		opts:     opts,
		out:      &writer{w: out},
		docs:     map[string]*document{},
		enc:      encUTF16,
		settings: newSettingsCache(),
		lintq:    make(chan string, 1),
		pending:  map[string]bool{},
	}
	ctx, cancel := context.WithCancel(ctx)
	defer func() {
		cancel()
		s.mu.Lock()
		for _, d := range s.docs {
			if d.timer != nil {
				d.timer.Stop()
			}
		}
		s.mu.Unlock()
		s.wg.Wait()
	}()
	s.wg.Add(1)
	go s.linter(ctx)
	rd := newReader(in, opts.MaxDocumentSize+1<<20) // the document plus its JSON and escapes
	for {
		m, err := rd.read()
		var fe *frameError
		switch {
		case errors.As(err, &fe):
			if len(fe.id) > 0 {
				_ = s.out.reply(fe.id, nil, errf(fe.code, "%s", fe.msg))
			} else {
				s.log(messageError, fe.msg)
			}
			continue
		case err == io.EOF:
			return nil
		case err != nil:
			return fmt.Errorf("reading the client's messages: %w", err)
		}
		if m.Method == "exit" {
			s.mu.Lock()
			down := s.shutdown
			s.mu.Unlock()
			if !down {
				return ErrNoShutdown
			}
			return nil
		}
		s.handle(ctx, m)
	}
}

// handle answers one message; a panic in a handler becomes an internal
// error for that request, never the end of the session.
func (s *Server) handle(ctx context.Context, m *message) {
	defer func() {
		if p := recover(); p != nil {
			msg := fmt.Sprintf("aclint lsp: internal error in %s: %v", m.Method, p)
			if m.isRequest() {
				_ = s.out.reply(m.ID, nil, errf(codeInternalError, "%s", msg))
			} else {
				s.log(messageError, msg+"\n"+string(debug.Stack()))
			}
		}
	}()
	if m.Method == "" {
		return // a response to a request of ours: none are sent that need one
	}
	result, rerr := s.dispatch(ctx, m)
	if m.isRequest() {
		_ = s.out.reply(m.ID, result, rerr)
	}
}

func (s *Server) dispatch(ctx context.Context, m *message) (any, *respError) {
	s.mu.Lock()
	init, down := s.initialized, s.shutdown
	s.mu.Unlock()
	switch {
	case m.Method == "initialize":
		if init {
			return nil, errf(codeInvalidRequest, "initialize was already received")
		}
		return s.initialize(m.Params)
	case !init:
		if m.isRequest() {
			return nil, errf(codeServerNotInitialized, "the server is not initialized: send initialize first")
		}
		return nil, nil // notifications before initialize are dropped
	case down && m.isRequest():
		return nil, errf(codeInvalidRequest, "the server is shut down: only exit is accepted")
	}
	switch m.Method {
	case "initialized", "$/cancelRequest", "$/setTrace", "workspace/didChangeConfiguration", "workspace/didChangeWatchedFiles":
		return nil, nil
	case "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		return nil, nil
	case "textDocument/didOpen":
		var p DidOpenParams
		if err := decode(m.Params, &p); err != nil {
			s.log(messageError, "didOpen: "+err.Error())
			return nil, nil
		}
		s.open(p)
		return nil, nil
	case "textDocument/didChange":
		var p DidChangeParams
		if err := decode(m.Params, &p); err != nil {
			s.log(messageError, "didChange: "+err.Error())
			return nil, nil
		}
		s.change(p)
		return nil, nil
	case "textDocument/didSave":
		var p DidSaveParams
		if err := decode(m.Params, &p); err != nil {
			s.log(messageError, "didSave: "+err.Error())
			return nil, nil
		}
		s.save(p)
		return nil, nil
	case "textDocument/didClose":
		var p DidCloseParams
		if err := decode(m.Params, &p); err != nil {
			s.log(messageError, "didClose: "+err.Error())
			return nil, nil
		}
		s.close(p.TextDocument.URI)
		return nil, nil
	case "textDocument/hover":
		var p TextDocumentPositionParams
		if err := decode(m.Params, &p); err != nil {
			return nil, errf(codeInvalidParams, "hover: %v", err)
		}
		return s.withDoc(p.TextDocument.URI, func(d *document, an *analysis) any { return an.hover(p.Position) })
	case "textDocument/codeAction":
		var p CodeActionParams
		if err := decode(m.Params, &p); err != nil {
			return nil, errf(codeInvalidParams, "codeAction: %v", err)
		}
		return s.withDoc(p.TextDocument.URI, func(d *document, an *analysis) any { return an.codeActions(d, p) })
	case "textDocument/documentSymbol":
		var p DocumentParams
		if err := decode(m.Params, &p); err != nil {
			return nil, errf(codeInvalidParams, "documentSymbol: %v", err)
		}
		return s.withDoc(p.TextDocument.URI, func(d *document, an *analysis) any { return an.symbols() })
	case "textDocument/definition":
		var p TextDocumentPositionParams
		if err := decode(m.Params, &p); err != nil {
			return nil, errf(codeInvalidParams, "definition: %v", err)
		}
		return s.withDoc(p.TextDocument.URI, func(d *document, an *analysis) any { return an.definition(d.uri, p.Position) })
	case "textDocument/foldingRange":
		var p DocumentParams
		if err := decode(m.Params, &p); err != nil {
			return nil, errf(codeInvalidParams, "foldingRange: %v", err)
		}
		return s.withDoc(p.TextDocument.URI, func(d *document, an *analysis) any { return an.folding() })
	case "textDocument/diagnostic":
		var p DocumentParams
		if err := decode(m.Params, &p); err != nil {
			return nil, errf(codeInvalidParams, "diagnostic: %v", err)
		}
		return s.withDoc(p.TextDocument.URI, func(d *document, an *analysis) any {
			return map[string]any{"kind": "full", "items": an.diagnostics(d, s.opts.RulesURL)}
		})
	}
	if m.isRequest() {
		return nil, errf(codeMethodNotFound, "aclint lsp does not handle %s", m.Method)
	}
	return nil, nil // unknown notifications are ignored, as the protocol asks
}

// decode reads a request's params, refusing what is not an object.
func decode(raw json.RawMessage, v any) error {
	if len(raw) == 0 || raw[0] != '{' {
		return errors.New("params must be an object")
	}
	return json.Unmarshal(raw, v)
}

func (s *Server) initialize(raw json.RawMessage) (any, *respError) {
	var p InitializeParams
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, errf(codeInvalidParams, "initialize: %v", err)
		}
	}
	enc := encUTF16
	for _, e := range p.Capabilities.General.PositionEncodings {
		if e == encUTF8 || e == encUTF32 {
			enc = e // no conversion to UTF-16 at all: the client's choice
			break
		}
	}
	s.mu.Lock()
	s.initialized = true
	s.enc = enc
	if o := p.InitializationOptions; o != nil && o.DebounceMS != nil && *o.DebounceMS >= 0 {
		s.opts.Debounce = time.Duration(*o.DebounceMS) * time.Millisecond
	}
	s.mu.Unlock()
	return map[string]any{
		"capabilities": map[string]any{
			"positionEncoding": enc,
			"textDocumentSync": map[string]any{
				"openClose": true,
				"change":    2, // incremental
				"save":      map[string]any{"includeText": false},
			},
			"hoverProvider":          true,
			"codeActionProvider":     map[string]any{"codeActionKinds": []string{"quickfix"}},
			"documentSymbolProvider": true,
			"definitionProvider":     true,
			"foldingRangeProvider":   true,
		},
		"serverInfo": map[string]any{"name": "aclint", "version": s.opts.Version},
	}, nil
}

// pathOf is the file a document URI names, for settings and messages;
// other schemes (untitled:) keep the URI.
func pathOf(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return uri
	}
	return filepath.FromSlash(u.Path)
}

func (s *Server) open(p DidOpenParams) {
	uri := p.TextDocument.URI
	size := int64(len(p.TextDocument.Text))
	s.mu.Lock()
	if old := s.docs[uri]; old != nil {
		s.dropLocked(old)
	}
	refuse := ""
	switch {
	case size > s.opts.MaxDocumentSize:
		refuse = fmt.Sprintf("%s is %d bytes, more than aclint reads (%d bytes, --max-input-size): it is not linted", pathOf(uri), size, s.opts.MaxDocumentSize)
	case len(s.docs) >= s.opts.MaxDocuments:
		refuse = fmt.Sprintf("%d documents are open, the most aclint lsp keeps (close some): %s is not linted", len(s.docs), pathOf(uri))
	case s.openBytes+size > s.opts.MaxOpenBytes:
		refuse = fmt.Sprintf("the open documents hold %d bytes, the most aclint lsp keeps is %d (close some): %s is not linted", s.openBytes, s.opts.MaxOpenBytes, pathOf(uri))
	}
	if refuse != "" {
		s.mu.Unlock()
		_ = s.out.notify("window/showMessage", ShowMessageParams{Type: messageWarning, Message: "aclint: " + refuse})
		return
	}
	d := &document{uri: uri, path: pathOf(uri), version: p.TextDocument.Version, text: newText(p.TextDocument.Text, s.enc)}
	s.docs[uri] = d
	s.openBytes += size
	s.mu.Unlock()
	s.enqueue(uri)
}

func (s *Server) change(p DidChangeParams) {
	uri := p.TextDocument.URI
	s.mu.Lock()
	d := s.docs[uri]
	if d == nil {
		s.mu.Unlock()
		return // a document not open, or not kept: nothing to update
	}
	t := d.text
	for _, c := range p.ContentChanges {
		next := t.apply(c)
		if int64(len(next)) > s.opts.MaxDocumentSize {
			s.dropLocked(d)
			s.mu.Unlock()
			_ = s.out.notify("window/showMessage", ShowMessageParams{Type: messageWarning,
				Message: fmt.Sprintf("aclint: %s grew past %d bytes (--max-input-size): it is no longer linted", d.path, s.opts.MaxDocumentSize)})
			_ = s.out.publish(PublishDiagnosticsParams{URI: uri, Diagnostics: []Diagnostic{}})
			return
		}
		t = newText(next, s.enc)
	}
	s.openBytes += int64(len(t.s) - len(d.text.s))
	if d.an != nil {
		d.previous = d.an.parsed
	}
	d.text, d.version, d.an = t, p.TextDocument.Version, nil
	if d.timer != nil {
		d.timer.Stop()
	}
	if s.opts.Debounce <= 0 {
		s.mu.Unlock()
		s.enqueue(uri)
		return
	}
	d.timer = time.AfterFunc(s.opts.Debounce, func() { s.enqueue(uri) })
	s.mu.Unlock()
}

func (s *Server) save(p DidSaveParams) {
	s.mu.Lock()
	d := s.docs[p.TextDocument.URI]
	if d != nil && d.timer != nil {
		d.timer.Stop()
	}
	if d != nil && d.an != nil {
		d.previous = d.an.parsed
		d.an = nil // the settings next to it may have changed with it
	}
	s.mu.Unlock()
	if d != nil {
		s.settings.forget()
		s.enqueue(p.TextDocument.URI)
	}
}

func (s *Server) close(uri string) {
	s.mu.Lock()
	d := s.docs[uri]
	if d != nil {
		s.dropLocked(d)
	}
	s.mu.Unlock()
	if d != nil {
		_ = s.out.publish(PublishDiagnosticsParams{URI: uri, Diagnostics: []Diagnostic{}})
	}
}

func (s *Server) dropLocked(d *document) {
	if d.timer != nil {
		d.timer.Stop()
	}
	s.openBytes -= int64(len(d.text.s))
	delete(s.docs, d.uri)
}

// enqueue asks the linting goroutine for a document's diagnostics; asking
// twice before it runs lints once.
func (s *Server) enqueue(uri string) {
	s.mu.Lock()
	s.pending[uri] = true
	s.mu.Unlock()
	select {
	case s.lintq <- uri:
	default: // the linter is already woken
	}
}

// linter publishes diagnostics for the documents enqueued, one at a time,
// each for its latest version.
func (s *Server) linter(ctx context.Context) {
	defer s.wg.Done()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.lintq:
		}
		for {
			s.mu.Lock()
			var uri string
			for u := range s.pending {
				uri = u
				break
			}
			if uri == "" {
				s.mu.Unlock()
				break
			}
			delete(s.pending, uri)
			s.mu.Unlock()
			s.publish(uri)
		}
	}
}

// publish lints a document's current version and publishes its
// diagnostics, unless a newer version came meanwhile (its own turn
// publishes).
func (s *Server) publish(uri string) {
	d, an := s.analyze(uri)
	if an == nil {
		return
	}
	diags := an.diagnostics(d, s.opts.RulesURL)
	s.mu.Lock()
	current := s.docs[uri] == d && d.version == an.version
	s.mu.Unlock()
	if !current {
		return
	}
	v := an.version
	_ = s.out.publish(PublishDiagnosticsParams{URI: uri, Version: &v, Diagnostics: diags})
}

// analyze returns a document and the analysis of its current version,
// computing it when needed; nil when the document is not open.
func (s *Server) analyze(uri string) (*document, *analysis) {
	s.mu.Lock()
	d := s.docs[uri]
	if d == nil {
		s.mu.Unlock()
		return nil, nil
	}
	if an := d.an; an != nil && an.version == d.version {
		s.mu.Unlock()
		return d, an
	}
	t, version := d.text, d.version
	previous := d.previous // the last version's parse, for an edit inside a value
	s.mu.Unlock()
	an := analyze(d.path, t, version, s.settings, previous)
	s.mu.Lock()
	if d.version == version {
		d.an, d.previous = an, nil
	}
	s.mu.Unlock()
	return d, an
}

// withDoc runs a request against a document's current analysis; a
// document that is not open answers null, as LSP clients expect of a
// closed or unknown document.
func (s *Server) withDoc(uri string, fn func(*document, *analysis) any) (any, *respError) {
	d, an := s.analyze(uri)
	if an == nil {
		return nil, nil
	}
	return fn(d, an), nil
}

// log sends a message to the client's log.
func (s *Server) log(typ int, msg string) {
	_ = s.out.notify("window/logMessage", ShowMessageParams{Type: typ, Message: strings.ToValidUTF8(msg, "?")})
}
