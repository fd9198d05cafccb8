package engine

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// The files aclint reads are untrusted: a name, a key or a line of source
// may carry an escape sequence that rewrites the terminal, a newline that
// starts a GitHub Actions workflow command (::error::, ::add-mask::), or a
// bidirectional override that makes text read other than it is. Printable
// and Displayable are the two ways such text reaches a person.

// unsafeRune reports a rune that must not reach a terminal or a CI log
// as itself: C0 controls but tab, DEL, C1 controls, the line and
// paragraph separators, and the bidirectional embeddings, overrides and
// isolates.
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20 && r != '\t', r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == 0x2028 || r == 0x2029, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e || r == 0x200f, r == 0x061c:
		return true
	}
	return false
}

// Printable escapes what must not be printed as itself: newlines and
// carriage returns as \n and \r, other ASCII controls as \xNN, unsafe runes
// past ASCII as \uNNNN (which JSON reads back as the same rune), bytes that
// are not UTF-8 as \xNN. Everything else is kept.
//
// It also keeps the text from reading as a GitHub Actions workflow command
// wherever a layout puts it (commandSafe).
func Printable(s string) string {
	return commandSafe(printable(s))
}

// commandSafe keeps s from reading as a GitHub Actions workflow command
// wherever a line puts it: the runner takes "::" at a line's start after
// blanks (ActionCommand.TryParseV2 trims them: a name a listing indents is
// at a line's start), and "##[" anywhere in a line (the legacy
// ActionCommand.TryParse). The first ':' becomes \x3a, the '[' \x5b.
func commandSafe(s string) string {
	if t := strings.TrimLeft(s, " \t"); strings.HasPrefix(t, "::") {
		i := len(s) - len(t)
		s = s[:i] + `\x3a` + s[i+1:]
	}
	if strings.Contains(s, "##[") {
		s = strings.ReplaceAll(s, "##[", `##\x5b`)
	}
	return s
}

func printable(s string) string {
	if plainASCII(s) {
		return s // the usual case: every finding's message goes through here
	}
	clean := true
	for i, r := range s {
		if unsafeRune(r) || r == utf8.RuneError && isBadByte(s, i) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && isBadByte(s, i):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case unsafeRune(r) && r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isBadByte(s string, i int) bool {
	_, size := utf8.DecodeRuneInString(s[i:])
	return size <= 1
}

// Displayable replaces each unsafe rune and each byte that is not UTF-8
// by U+FFFD, one for one, so that a source line keeps its columns and a
// caret under it still points at the right character.
func Displayable(s string) string {
	if strings.Contains(s, "##[") {
		// the legacy workflow command reads "##[" anywhere in a line: its
		// '[' is replaced, one for one
		s = strings.ReplaceAll(s, "##[", "##\uFFFD")
	}
	if plainASCII(s) {
		return s
	}
	var b strings.Builder
	changed := false
	for i, r := range s {
		if unsafeRune(r) || r == utf8.RuneError && isBadByte(s, i) {
			if !changed {
				b.Grow(len(s))
				b.WriteString(s[:i])
				changed = true
			}
			b.WriteRune(utf8.RuneError)
			continue
		}
		if changed {
			b.WriteRune(r)
		}
	}
	if !changed {
		return s
	}
	return b.String()
}

// SafeWriter passes text to w with every unsafe rune escaped as Printable
// escapes it, except newlines and tabs, which are the writer's own layout.
// It is the last guard on standard output and standard error: whatever
// reaches it from a file aclint read cannot move the cursor, retitle the
// terminal or hide text. A rune split across writes is held until it is
// whole.
type SafeWriter struct {
	W       io.Writer
	pending []byte
}

func (s *SafeWriter) Write(p []byte) (int, error) {
	data := p
	if len(s.pending) > 0 {
		data = append(s.pending, p...)
		s.pending = nil
	}
	// keep an incomplete rune at the end for the next write
	if n := len(data); n > 0 {
		for k := 1; k <= 3 && k <= n; k++ {
			c := data[n-k]
			if c < 0x80 {
				break
			}
			if utf8.RuneStart(c) {
				if !utf8.FullRune(data[n-k:]) {
					s.pending = append([]byte(nil), data[n-k:]...)
					data = data[:n-k]
				}
				break
			}
		}
	}
	if safeBytes(data) {
		// the usual case, checked without a copy: a matrix is a gigabyte
		if _, err := s.W.Write(data); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	str := string(data)
	var b strings.Builder
	start := 0
	for i := 0; i <= len(str); i++ {
		if i < len(str) && str[i] != '\n' {
			continue
		}
		b.WriteString(printable(str[start:i]))
		if i < len(str) {
			b.WriteByte('\n')
		}
		start = i + 1
	}
	if _, err := io.WriteString(s.W, b.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes a rune that never completed, escaped.
func (s *SafeWriter) Flush() error {
	if len(s.pending) == 0 {
		return nil
	}
	p := s.pending
	s.pending = nil
	_, err := io.WriteString(s.W, Printable(string(p)))
	return err
}

// safeBytes reports whether data holds nothing SafeWriter must escape.
func safeBytes(data []byte) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	for i := 0; i < len(data); {
		// eight plain ASCII bytes at a time: none >= 0x80, none < 0x20
		// (a newline or tab among them takes the byte loop), none 0x7f
		if i+8 <= len(data) {
			w := binary.LittleEndian.Uint64(data[i:])
			if w&hi == 0 && (w-0x20*lo)&^w&hi == 0 && ((w^0x7f*lo)-lo)&^(w^0x7f*lo)&hi == 0 {
				i += 8
				continue
			}
		}
		c := data[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 || unsafeRune(r) {
			return false
		}
		i += size
	}
	return true
}

// plainASCII reports whether s is printable ASCII only (no control
// character, not even a tab or a newline), eight bytes at a time.
func plainASCII(s string) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if w&hi != 0 || (w-0x20*lo)&^w&hi != 0 || ((w^0x7f*lo)-lo)&^(w^0x7f*lo)&hi != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// EscapeJSON rewrites, in encoded JSON, every rune that unsafeRune reports
// (DEL, C1 controls, bidirectional controls: encoding/json leaves them as
// they are) as a \uNNNN escape. In encoded JSON such runes only stand inside
// strings, so the result is the same JSON value, and SafeWriter has nothing
// left to rewrite in it: JSON output stays valid JSON whatever the names
// hold.
func EscapeJSON(b []byte) []byte {
	if plainASCII(string(b)) {
		return b
	}
	var out []byte
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		// C0 controls are escaped inside strings by encoding/json already;
		// outside them a newline is the document's own layout
		if r >= 0x20 && unsafeRune(r) {
			if out == nil {
				out = append(make([]byte, 0, len(b)+16), b[:i]...)
			}
			out = fmt.Appendf(out, `\u%04x`, r)
		} else if out != nil {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	if out == nil {
		return b
	}
	return out
}

// WriteJSON writes v as one indented JSON document, with <, > and & as
// written and every rune a terminal must not see as itself escaped
// (EscapeJSON): the one JSON writer of every command and report format, so
// that SafeWriter never has anything to rewrite in JSON and the document
// stays valid whatever the names in it hold.
func WriteJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(EscapeJSON(b.Bytes()))
	return err
}

// Quote is s as a JSON string, its control and bidirectional characters
// escaped (EscapeJSON): how text outputs name a value from a file, so that
// "admins " and "admins" read apart and nothing drives the terminal.
func Quote(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return string(EscapeJSON([]byte(strings.TrimSuffix(b.String(), "\n"))))
}

// Fprintf is fmt.Fprintf for text output: the format is aclint's own
// layout and keeps its newlines, while every argument, a name or a value
// read from a file, is made Printable after it is formatted. So a user
// "ali\nce\n::error::x" from a pod's annotation prints as one line in
// every renderer that writes through here, whatever verb names it. %q
// and %x already escape what they print and are left as fmt writes them.
func Fprintf(w io.Writer, format string, args ...any) (int, error) {
	wrapped := make([]any, len(args))
	for i, a := range args {
		switch a.(type) {
		case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64, bool:
			wrapped[i] = a // a number prints nothing to escape, and %*s takes its width as an int
		default:
			wrapped[i] = textArg{a}
		}
	}
	return fmt.Fprintf(w, format, wrapped...)
}

// textArg formats its value as fmt would, then escapes the result.
type textArg struct{ v any }

func (a textArg) Format(f fmt.State, verb rune) {
	switch verb {
	case 'q', 'x', 'X':
		fmt.Fprintf(f, fmt.FormatString(f, verb), a.v)
	default:
		io.WriteString(f, Printable(fmt.Sprintf(fmt.FormatString(f, verb), a.v)))
	}
}
