package config

import (
	"bytes"
	"unicode/utf16"
	"unicode/utf8"
)

// normalize returns data as UTF-8 without a byte order mark. yaml.v3 reads
// UTF-16 (with a BOM) and skips a UTF-8 BOM; converting first keeps every
// line and column aclint reports equal to what the parser counted.
func normalize(data []byte) []byte {
	out, stripped := data, false
	switch {
	case bytes.HasPrefix(data, utf8BOM):
		out, stripped = data[3:], true
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		if u, ok := fromUTF16(data[2:], true); ok {
			out, stripped = u, true
		}
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		if u, ok := fromUTF16(data[2:], false); ok {
			out, stripped = u, true
		}
	}
	// broken UTF-16 stays as it is, so that yaml.v3 reports it as YuniKorn would
	if stripped && bytes.HasPrefix(out, utf8BOM) {
		// a second byte order mark: the parser takes the first for the
		// encoding's and skips one more at the start of the stream, so
		// stripping the first would let it skip a third. Keep one in front,
		// as the original stream had (found by FuzzDecodeParity).
		return append(append([]byte(nil), utf8BOM...), out...)
	}
	return out
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// fromUTF16 decodes UTF-16; it reports false for an odd number of bytes or
// an unpaired surrogate, which yaml.v3 rejects.
func fromUTF16(b []byte, bigEndian bool) ([]byte, bool) {
	if len(b)%2 != 0 {
		return nil, false
	}
	units := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		if bigEndian {
			units = append(units, uint16(b[i])<<8|uint16(b[i+1]))
		} else {
			units = append(units, uint16(b[i+1])<<8|uint16(b[i]))
		}
	}
	for i := 0; i < len(units); i++ {
		switch u := units[i]; {
		case u >= 0xD800 && u < 0xDC00:
			if i+1 >= len(units) || units[i+1] < 0xDC00 || units[i+1] >= 0xE000 {
				return nil, false
			}
			i++
		case u >= 0xDC00 && u < 0xE000:
			return nil, false
		}
	}
	out := make([]byte, 0, len(b))
	for _, r := range utf16.Decode(units) {
		out = utf8.AppendRune(out, r)
	}
	return out, true
}

// Normalize is what aclint reads a file's bytes as (UTF-8 without a byte
// order mark): --fix compares it with what it read to tell an encoding it
// cannot keep from a file that changed meanwhile.
func Normalize(data []byte) []byte { return normalize(data) }
