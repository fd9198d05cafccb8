// Package lsp is aclint's language server: the Language Server Protocol
// (3.17) over a byte stream, for every system aclint reads. Diagnostics are
// the findings `aclint lint` reports for the same bytes and settings; hover,
// symbols, go to definition and folding are the document's system's answers
// (audit.Hoverer, audit.Navigator: YuniKorn's model of a queue config). The
// server knows no system by name: they arrive in Options.Registry; the
// command line only starts it. It never writes a file: fixes are workspace
// edits the editor applies.
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

	"github.com/aclint/aclint/internal/engine"
	// the server reads every system aclint lints: importing the registry
	// registers them, whoever starts the server
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
	// Registry is the systems the server reads documents for, and their
	// rules (required).
	Registry *engine.Registry

	// tests: inline lints on the reading goroutine as each change
	// arrives, so that a fuzzed session's coverage does not depend on
	// how the goroutines were scheduled; beforeRequest runs before each
	// request is answered
	inline        bool
	beforeRequest func(method string)
}

// MaxEditWork bounds the bytes one didChange may make the server step over
// and copy, past the text it inserts: a document's size eight times, plus
// this. Edits in document order (a replace-all of thousands of places) cost
// one pass; edits that jump to and fro over a large document past it drop
// the document, said to the editor, instead of holding the server.
const MaxEditWork = 64 << 20

// DefaultOptions are the bounds `aclint lsp` starts with.
func DefaultOptions(reg *engine.Registry) Options {
	return Options{
		Registry:        reg,
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

	// requests run on their own goroutine, in the order they came, so
	// that $/cancelRequest can reach one still waiting or running;
	// notifications are applied on the reading goroutine, in order
	calls   chan *call
	callsMu sync.Mutex
	running map[string]*call // by id
}

// call is one request waiting for, or in, the request goroutine.
type call struct {
	id     json.RawMessage
	method string
	// uri and version: the document the request reads and its version
	// when the request came; a request that finds a newer version
	// answers ContentModified, as its positions are the older text's
	uri     string
	version int
	run     func(*document, *analysis) any
	// answered is set under callsMu by whichever answers first: the
	// request goroutine, or a cancellation
	answered bool
}

// document is one open document.
type document struct {
	uri, path string
	version   int
	// buf holds the text as edits leave it; text is the version's text
	// with its line index, built when it is first needed (nil until then)
	buf   *buffer
	text  *text
	timer *time.Timer
	// the analysis of one version, computed once and shared by
	// diagnostics and requests; busy is closed when the analysis under
	// way (of version busyFor) ends, so that a request and the
	// diagnostics never lint the same version twice at once (which held
	// two parses of a large document)
	an      *analysis
	busy    chan struct{}
	busyFor int
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
		settings: newSettingsCache(opts.Registry, opts.MaxDocumentSize),
		lintq:    make(chan string, 1),
		pending:  map[string]bool{},
		calls:    make(chan *call, 64),
		running:  map[string]*call{},
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
	s.wg.Add(2)
	go s.linter(ctx)
	go s.requests(ctx)
	rd := newReader(in, opts.MaxDocumentSize+1<<20) // the document plus its JSON and escapes
	for {
		m, err := rd.read()
		var fe *frameError
		switch {
		case errors.As(err, &fe):
			if fe.reply || len(fe.id) > 0 {
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

// handle takes one message: a notification or a session request
// (initialize, shutdown) is handled here, in the order the messages came; a
// document request goes to the request goroutine. A panic in a handler
// becomes an internal error for that request, never the end of the session.
func (s *Server) handle(ctx context.Context, m *message) {
	defer s.recoverIn(m)
	if m.Method == "" {
		return // a response to a request of ours: none are sent that need one
	}
	s.mu.Lock()
	init, down := s.initialized, s.shutdown
	s.mu.Unlock()
	var result any
	var rerr *respError
	switch {
	case m.Method == "initialize":
		if init {
			rerr = errf(codeInvalidRequest, "initialize was already received")
		} else {
			result, rerr = s.initialize(m.Params)
		}
	case !init:
		if !m.isRequest() {
			return // notifications before initialize are dropped
		}
		rerr = errf(codeServerNotInitialized, "the server is not initialized: send initialize first")
	case down:
		if !m.isRequest() {
			return // after shutdown only exit is applied
		}
		rerr = errf(codeInvalidRequest, "the server is shut down: only exit is accepted")
	case !m.isRequest():
		s.notification(m)
		return
	case m.Method == "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
	default:
		var c *call
		c, rerr = s.request(m)
		if rerr == nil && s.opts.inline {
			result, rerr = s.runCall(c)
			break
		}
		if rerr == nil {
			s.callsMu.Lock()
			s.running[string(c.id)] = c
			s.callsMu.Unlock()
			select {
			case s.calls <- c:
				return
			case <-ctx.Done():
				return
			}
		}
		_ = s.out.reply(m.ID, nil, rerr)
		return
	}
	if m.isRequest() {
		_ = s.out.reply(m.ID, result, rerr)
	}
}

func (s *Server) recoverIn(m *message) {
	if p := recover(); p != nil {
		msg := fmt.Sprintf("aclint lsp: internal error in %s: %v", m.Method, p)
		if m.isRequest() {
			_ = s.out.reply(m.ID, nil, errf(codeInternalError, "%s", msg))
		} else {
			s.log(messageError, msg+"\n"+string(debug.Stack()))
		}
	}
}

// notification applies one notification.
func (s *Server) notification(m *message) {
	switch m.Method {
	case "$/cancelRequest":
		var p struct {
			ID json.RawMessage `json:"id"`
		}
		if decode(m.Params, &p) == nil && validID(p.ID) {
			s.cancel(p.ID)
		}
	case "textDocument/didOpen":
		var p DidOpenParams
		if err := decode(m.Params, &p); err != nil {
			s.log(messageError, "didOpen: "+err.Error())
			return
		}
		s.open(p)
	case "textDocument/didChange":
		var p DidChangeParams
		if err := decode(m.Params, &p); err != nil {
			s.log(messageError, "didChange: "+err.Error())
			return
		}
		s.change(p)
	case "textDocument/didSave":
		var p DidSaveParams
		if err := decode(m.Params, &p); err != nil {
			s.log(messageError, "didSave: "+err.Error())
			return
		}
		s.save(p)
	case "textDocument/didClose":
		var p DidCloseParams
		if err := decode(m.Params, &p); err != nil {
			s.log(messageError, "didClose: "+err.Error())
			return
		}
		s.close(p.TextDocument.URI)
	}
	// initialized, $/setTrace, workspace/didChange*, and unknown
	// notifications are ignored, as the protocol asks
}

// request reads a document request's params and makes it a call, noting
// the document's version now: through the method's typed handler.
func (s *Server) request(m *message) (*call, *respError) {
	h := documentRequest(m.Method)
	if h == nil {
		return nil, errf(codeMethodNotFound, "aclint lsp does not handle %s", m.Method)
	}
	return h(s, m)
}

// requests answers the calls one at a time, in the order they came.
func (s *Server) requests(ctx context.Context) {
	defer s.wg.Done()
	for {
		select {
		case <-ctx.Done():
			return
		case c := <-s.calls:
			if s.opts.beforeRequest != nil {
				s.opts.beforeRequest(c.method)
			}
			s.callsMu.Lock()
			skip := c.answered // cancelled while it waited
			s.callsMu.Unlock()
			if skip {
				continue
			}
			result, rerr := s.runCall(c)
			s.callsMu.Lock()
			mine := !c.answered
			c.answered = true
			if s.running[string(c.id)] == c {
				delete(s.running, string(c.id))
			}
			s.callsMu.Unlock()
			if mine {
				_ = s.out.reply(c.id, result, rerr)
			}
		}
	}
}

// runCall runs one request against its document, turning a panic into an
// internal error.
func (s *Server) runCall(c *call) (result any, rerr *respError) {
	defer func() {
		if p := recover(); p != nil {
			result, rerr = nil, errf(codeInternalError, "aclint lsp: internal error in %s: %v", c.method, p)
		}
	}()
	d, an := s.analyze(c.uri)
	if an == nil {
		return nil, nil // not open: null, as clients expect of a closed document
	}
	if an.version != c.version {
		return nil, errf(codeContentModified, "%s changed since the request was sent", d.path)
	}
	return c.run(d, an), nil
}

// cancel answers a request that is waiting or running with
// RequestCancelled; its own answer, when it comes, is dropped. A request
// already answered, or an id never seen, is left alone.
func (s *Server) cancel(id json.RawMessage) {
	s.callsMu.Lock()
	c := s.running[string(id)]
	cancelled := c != nil && !c.answered
	if cancelled {
		c.answered = true
		delete(s.running, string(id))
	}
	s.callsMu.Unlock()
	if cancelled {
		_ = s.out.reply(c.id, nil, errf(codeRequestCancelled, "%s was cancelled", c.method))
	}
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
	if uri == "" {
		s.log(messageError, "didOpen: a document without a URI is not kept")
		return
	}
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
	d := &document{uri: uri, path: pathOf(uri), version: p.TextDocument.Version, buf: newBuffer(p.TextDocument.Text, s.enc)}
	s.docs[uri] = d
	s.openBytes += size
	s.mu.Unlock()
	s.enqueue(uri)
}

// change applies one didChange: its edits on the document's buffer, then
// one new version. The size of the document, what all open documents
// hold, and the work of the edits are bounded on every change; past one,
// the document is dropped and the editor told why.
func (s *Server) change(p DidChangeParams) {
	uri := p.TextDocument.URI
	s.mu.Lock()
	d := s.docs[uri]
	if d == nil {
		s.mu.Unlock()
		return // a document not open, or not kept: nothing to update
	}
	before := int64(d.buf.size())
	work, budget := 0, MaxEditWork+8*d.buf.size()
	var err error
	for _, c := range p.ContentChanges {
		if err = d.buf.apply(c, &work, budget, int(s.opts.MaxDocumentSize)); err != nil {
			break
		}
	}
	grown := int64(d.buf.size()) - before
	why := ""
	switch {
	case err == errTooLarge:
		why = fmt.Sprintf("%s grew past %d bytes (--max-input-size): it is no longer linted", d.path, s.opts.MaxDocumentSize)
	case err == errTooMuchWork:
		why = fmt.Sprintf("a change of %s has %d edits spread over the document, more than aclint lsp applies in one message: it is no longer linted (close and reopen it)", d.path, len(p.ContentChanges))
	case grown > 0 && s.openBytes+grown > s.opts.MaxOpenBytes:
		why = fmt.Sprintf("the open documents would hold %d bytes, the most aclint lsp keeps is %d (close some): %s is no longer linted", s.openBytes+grown, s.opts.MaxOpenBytes, d.path)
	}
	if why != "" {
		s.openBytes += grown // what dropLocked takes off is the buffer's size now
		s.dropLocked(d)
		s.mu.Unlock()
		_ = s.out.notify("window/showMessage", ShowMessageParams{Type: messageWarning, Message: "aclint: " + why})
		_ = s.out.publish(PublishDiagnosticsParams{URI: uri, Diagnostics: []Diagnostic{}})
		return
	}
	s.openBytes += grown
	if d.an != nil {
		d.previous = d.an.parsed
	}
	d.text, d.version, d.an = nil, p.TextDocument.Version, nil
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
	s.openBytes -= int64(d.buf.size())
	delete(s.docs, d.uri)
	delete(s.pending, d.uri)
}

// enqueue asks the linting goroutine for a document's diagnostics; asking
// twice before it runs lints once.
func (s *Server) enqueue(uri string) {
	if s.opts.inline {
		s.publish(uri)
		return
	}
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
			uri, ok := "", false
			for u := range s.pending {
				uri, ok = u, true
				break
			}
			if !ok {
				s.mu.Unlock()
				break
			}
			delete(s.pending, uri)
			s.mu.Unlock()
			s.publish(uri)
		}
	}
}

// log sends a message to the client's log.
func (s *Server) log(typ int, msg string) {
	_ = s.out.notify("window/logMessage", ShowMessageParams{Type: typ, Message: strings.ToValidUTF8(msg, "?")})
}
