package lsp

import (
	"strings"
)

// A document request is answered by a typed handler: its params decoded
// into their own type (one generic path, as Regal's handler.WithParams),
// the document they name looked up, and the answer computed by the
// request goroutine against the analysis of that version.

// documentParams are the params of a request about one document.
type documentParams interface {
	TextDocumentPositionParams | CodeActionParams | DocumentParams
	document() string
}

func (p TextDocumentPositionParams) document() string { return p.TextDocument.URI }
func (p CodeActionParams) document() string           { return p.TextDocument.URI }
func (p DocumentParams) document() string             { return p.TextDocument.URI }

// handler makes a request a call.
type handler func(s *Server, m *message) (*call, *respError)

// withParams is the one way a document request is read: its params as P
// (an object, or invalid params), then answer over the document's
// analysis.
func withParams[P documentParams](answer func(s *Server, p P, d *document, an *analysis) any) handler {
	return func(s *Server, m *message) (*call, *respError) {
		var p P
		if err := decode(m.Params, &p); err != nil {
			return nil, errf(codeInvalidParams, "%s: %v", strings.TrimPrefix(m.Method, "textDocument/"), err)
		}
		c := &call{id: m.ID, method: m.Method, uri: p.document()}
		c.run = func(d *document, an *analysis) any { return answer(s, p, d, an) }
		s.mu.Lock()
		if d := s.docs[c.uri]; d != nil {
			c.version = d.version
		}
		s.mu.Unlock()
		return c, nil
	}
}

// documentRequest is the handler of a document request's method, nil for
// a method the server does not answer.
func documentRequest(method string) handler {
	switch method {
	case "textDocument/hover":
		return withParams(func(_ *Server, p TextDocumentPositionParams, _ *document, an *analysis) any {
			return an.hover(p.Position)
		})
	case "textDocument/codeAction":
		return withParams(func(_ *Server, p CodeActionParams, d *document, an *analysis) any {
			return an.codeActions(d, p)
		})
	case "textDocument/documentSymbol":
		return withParams(func(_ *Server, _ DocumentParams, _ *document, an *analysis) any {
			return an.symbols()
		})
	case "textDocument/definition":
		return withParams(func(_ *Server, p TextDocumentPositionParams, d *document, an *analysis) any {
			return an.definition(d.uri, p.Position)
		})
	case "textDocument/foldingRange":
		return withParams(func(_ *Server, _ DocumentParams, _ *document, an *analysis) any {
			return an.folding()
		})
	case "textDocument/diagnostic":
		return withParams(func(s *Server, _ DocumentParams, d *document, an *analysis) any {
			return map[string]any{"kind": "full", "items": an.diagnostics(d, s.opts.RulesURL)}
		})
	}
	return nil
}
