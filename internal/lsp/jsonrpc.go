package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The transport is written here rather than taken from a library: the
// protocol's base layer is a header and a JSON body, and the maintained Go
// packages for it (go.lsp.dev/jsonrpc2, golang.org/x/tools' internal
// jsonrpc2) either bring a logging stack and generated types for all of
// LSP, or are not importable. What aclint needs from it is what they do not
// offer: a bound on every message's size that holds before the body is
// read, and a reader that survives any byte sequence an editor or a broken
// pipe sends.

// JSON-RPC and LSP error codes.
const (
	codeParseError           = -32700
	codeInvalidRequest       = -32600
	codeMethodNotFound       = -32601
	codeInvalidParams        = -32602
	codeInternalError        = -32603
	codeServerNotInitialized = -32002
	codeRequestCancelled     = -32800
	codeContentModified      = -32801
)

// idPattern finds a request's id at the start of a body that is not valid
// JSON, so the error can be the answer to that request.
var idPattern = regexp.MustCompile(`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?[0-9]{1,18}|"[^"\\]{0,64}")`)

// maxHeaderLine bounds one header line: real headers are a few dozen bytes.
const maxHeaderLine = 4096

// message is one JSON-RPC message as read: a request (ID and Method), a
// notification (Method only) or a response (ID only).
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *respError      `json:"error,omitempty"`
}

func (m *message) isRequest() bool { return len(m.ID) > 0 && m.Method != "" }

type respError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *respError) Error() string { return e.Message }

// errf is a JSON-RPC error with a code.
func errf(code int, format string, args ...any) *respError {
	return &respError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// frameError is a message that could not be framed or decoded, but after
// which the stream can still be read: the server answers it and goes on.
type frameError struct {
	code int
	msg  string
	id   json.RawMessage
	// reply: the body was read, and JSON-RPC has an unreadable message
	// answered (with a null id when its own cannot be read); a body too
	// large to read is logged instead
	reply bool
}

func (e *frameError) Error() string { return e.msg }

// reader reads LSP base-protocol frames.
type reader struct {
	r   *bufio.Reader
	max int64
}

func newReader(r io.Reader, max int64) *reader {
	return &reader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// read returns the next message. A frameError means this message was bad
// and skipped; any other error ends the stream.
func (rd *reader) read() (*message, error) {
	length := int64(-1)
	sawHeader := false
	for {
		line, err := rd.line()
		if err != nil {
			if err == io.EOF && sawHeader {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if line == "" {
			if !sawHeader {
				continue // stray blank lines between messages
			}
			break
		}
		sawHeader = true
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("malformed header line %q", printableHead(line))
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("invalid Content-Length %q", printableHead(value))
			}
			length = n
		}
	}
	if length < 0 {
		return nil, errors.New("a message without Content-Length")
	}
	if length > rd.max {
		// skip the body without holding it: the stream stays in step
		if _, err := io.CopyN(io.Discard, rd.r, length); err != nil {
			return nil, unexpected(err)
		}
		return nil, &frameError{code: codeInvalidRequest, msg: fmt.Sprintf("message of %d bytes is larger than the limit of %d bytes (--max-input-size)", length, rd.max)}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(rd.r, body); err != nil {
		// a header with no body after it is a broken stream, not its end
		return nil, unexpected(err)
	}
	return decodeMessage(body)
}

// unexpected makes the end of input inside a message an error of its own:
// only the end of input between messages ends a session cleanly.
func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// rawMessage is a message's members before their types are checked, so
// that a member of the wrong type is an invalid request (-32600), not a
// parse error.
type rawMessage struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// decodeMessage reads one body as JSON-RPC 2.0 and LSP define a message:
// JSON that does not parse is -32700; valid JSON that is not a message
// object (a batch, a string), a jsonrpc other than "2.0", a method that is
// not a string, or an id that is not an integer or a string (LSP's
// integer | string: an object, an array, a boolean, a fraction, null) is
// -32600, answered with the id when the id itself is valid and with null
// otherwise.
func decodeMessage(body []byte) (*message, error) {
	trimmed := bytes.TrimLeft(body, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		if json.Valid(body) {
			return nil, &frameError{code: codeInvalidRequest, msg: "not a JSON-RPC message: a message is one JSON object (batches are not part of LSP)", reply: true}
		}
		return nil, &frameError{code: codeParseError, msg: "invalid JSON", reply: true}
	}
	var r rawMessage
	if err := json.Unmarshal(body, &r); err != nil {
		fe := &frameError{code: codeParseError, msg: "invalid JSON: " + err.Error(), reply: true}
		// answer a request whose id can still be read
		if m := idPattern.FindSubmatch(body[:min(len(body), 256)]); m != nil {
			fe.id = json.RawMessage(m[1])
		}
		return nil, fe
	}
	m := &message{ID: r.ID, Params: r.Params, Result: r.Result}
	// a response to an unreadable message has a null id; a request may not
	responseToUnreadable := string(r.ID) == "null" && r.Method == nil
	if r.ID != nil && !validID(r.ID) && !responseToUnreadable {
		return nil, &frameError{code: codeInvalidRequest, msg: fmt.Sprintf("invalid id %s: an id is an integer or a string", printableHead(string(r.ID))), reply: true}
	}
	if string(r.JSONRPC) != `"2.0"` {
		return nil, &frameError{code: codeInvalidRequest, msg: "not a JSON-RPC 2.0 message (jsonrpc must be \"2.0\")", id: r.ID, reply: true}
	}
	if r.Method != nil {
		if err := json.Unmarshal(r.Method, &m.Method); err != nil || m.Method == "" {
			return nil, &frameError{code: codeInvalidRequest, msg: "the method must be a string that is not empty", id: r.ID, reply: true}
		}
	}
	if m.Method == "" && r.ID == nil {
		return nil, &frameError{code: codeInvalidRequest, msg: "a message without a method or an id", reply: true}
	}
	if r.Error != nil && string(r.Error) != "null" {
		m.Error = &respError{}
		if err := json.Unmarshal(r.Error, m.Error); err != nil {
			return nil, &frameError{code: codeInvalidRequest, msg: "a response's error must be an object with a code and a message", id: r.ID, reply: true}
		}
	}
	m.JSONRPC = "2.0"
	return m, nil
}

// validID reports whether an id is one LSP allows: a string, or an
// integer written without a fraction or an exponent.
func validID(id json.RawMessage) bool {
	switch {
	case len(id) == 0:
		return false
	case id[0] == '"':
		var s string
		return json.Unmarshal(id, &s) == nil
	}
	digits := id
	if digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 18 {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// line reads one header line, bounded.
func (rd *reader) line() (string, error) {
	var b []byte
	for {
		chunk, err := rd.r.ReadSlice('\n')
		b = append(b, chunk...)
		if len(b) > maxHeaderLine {
			return "", fmt.Errorf("header line longer than %d bytes", maxHeaderLine)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if err == io.EOF && len(b) > 0 {
				return "", io.ErrUnexpectedEOF
			}
			return "", err
		}
		return string(bytes.TrimRight(b, "\r\n")), nil
	}
}

func printableHead(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return strings.ToValidUTF8(s, "?")
}

// writer writes frames; safe for concurrent use (diagnostics are published
// from the linting goroutine while requests are answered).
type writer struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (wr *writer) write(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return wr.writeBody(body)
}

// publish sends diagnostics, encoded by hand (appendPublishDiagnostics).
func (wr *writer) publish(p PublishDiagnosticsParams) error {
	return wr.writeBody(appendPublishDiagnostics(make([]byte, 0, 256+len(p.Diagnostics)*320), p))
}

func (wr *writer) writeBody(body []byte) error {
	wr.mu.Lock()
	defer wr.mu.Unlock()
	if wr.err != nil {
		return wr.err
	}
	if _, err := fmt.Fprintf(wr.w, "Content-Length: %d\r\n\r\n", len(body)); err != nil {
		wr.err = err
		return err
	}
	if _, err := wr.w.Write(body); err != nil {
		wr.err = err
		return err
	}
	return nil
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result"`
	Error   *respError      `json:"error,omitempty"`
}

// errorResponse leaves out the result: JSON-RPC has a response carry one
// or the other.
type errorResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *respError      `json:"error"`
}

type notification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

func (wr *writer) reply(id json.RawMessage, result any, rerr *respError) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	if rerr != nil {
		return wr.write(errorResponse{JSONRPC: "2.0", ID: id, Error: rerr})
	}
	return wr.write(response{JSONRPC: "2.0", ID: id, Result: result})
}

func (wr *writer) notify(method string, params any) error {
	return wr.write(notification{JSONRPC: "2.0", Method: method, Params: params})
}
