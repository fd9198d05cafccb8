package lsp

import (
	"strconv"
	"unicode/utf8"
)

// appendPublishDiagnostics writes the publishDiagnostics notification
// by hand: it is the message a large config sends on every keystroke
// (thousands of diagnostics), where encoding/json's reflection was a
// quarter of the time from a change to its diagnostics. It writes what
// encoding/json writes for the same values, up to the escaping of <, > and
// & (TestAppendPublishDiagnostics decodes both and compares).
func appendPublishDiagnostics(b []byte, p PublishDiagnosticsParams) []byte {
	b = append(b, `{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{"uri":`...)
	b = appendString(b, p.URI)
	if p.Version != nil {
		b = append(b, `,"version":`...)
		b = strconv.AppendInt(b, int64(*p.Version), 10)
	}
	b = append(b, `,"diagnostics":[`...)
	for i, d := range p.Diagnostics {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendDiagnostic(b, &d)
	}
	return append(b, "]}}"...)
}

func appendDiagnostic(b []byte, d *Diagnostic) []byte {
	b = append(b, `{"range":`...)
	b = appendRange(b, d.Range)
	b = append(b, `,"severity":`...)
	b = strconv.AppendInt(b, int64(d.Severity), 10)
	if d.Code != "" {
		b = append(b, `,"code":`...)
		b = appendString(b, d.Code)
	}
	if d.CodeDescription != nil {
		b = append(b, `,"codeDescription":{"href":`...)
		b = appendString(b, d.CodeDescription.Href)
		b = append(b, '}')
	}
	b = append(b, `,"source":`...)
	b = appendString(b, d.Source)
	b = append(b, `,"message":`...)
	b = appendString(b, d.Message)
	if len(d.RelatedInformation) > 0 {
		b = append(b, `,"relatedInformation":[`...)
		for i, r := range d.RelatedInformation {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"location":{"uri":`...)
			b = appendString(b, r.Location.URI)
			b = append(b, `,"range":`...)
			b = appendRange(b, r.Location.Range)
			b = append(b, `},"message":`...)
			b = appendString(b, r.Message)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func appendRange(b []byte, r Range) []byte {
	b = append(b, `{"start":{"line":`...)
	b = strconv.AppendInt(b, int64(r.Start.Line), 10)
	b = append(b, `,"character":`...)
	b = strconv.AppendInt(b, int64(r.Start.Character), 10)
	b = append(b, `},"end":{"line":`...)
	b = strconv.AppendInt(b, int64(r.End.Line), 10)
	b = append(b, `,"character":`...)
	b = strconv.AppendInt(b, int64(r.End.Character), 10)
	return append(b, "}}"...)
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string as encoding/json does: control
// characters escaped, invalid UTF-8 as U+FFFD, U+2028 and U+2029 escaped
// (JavaScript reads them as line ends).
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
