package engine

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func safe(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r != '\n' && unsafeRune(r) {
			return false
		}
	}
	return true
}

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain":               "plain",
		"a\nb":                `a\nb`,
		"\x1b[2J":             `\x1b[2J`,
		"x\r\n::error::y":     `x\r\n::error::y`,
		"\u202eevil":          `\u202eevil`,
		"\xff\xfe":            `\xff\xfe`,
		"tab\tkept":           "tab\tkept",
		"nel\u0085":           `nel\u0085`,
		"é and 名前 stay as is": "é and 名前 stay as is",
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Displayable("a\x1bb\xffc"); got != "a\ufffdb\ufffdc" {
		t.Errorf("Displayable: %q", got)
	}
}

// FuzzSafeWriter: whatever is written, in whatever pieces, what comes out
// is valid UTF-8 with no unsafe rune but the newline, the same as one
// write of it all, and it keeps every safe line of the input as it was.
func FuzzSafeWriter(f *testing.F) {
	f.Add([]byte("ok\n\x1b[2J\n::error::x\n名前\n"), 3)
	f.Add([]byte("\xe5\x90\x8d\xe5"), 1)
	f.Fuzz(func(t *testing.T, data []byte, cut int) {
		var whole, pieces bytes.Buffer
		w := &SafeWriter{W: &whole}
		w.Write(data)
		w.Flush()
		p := &SafeWriter{W: &pieces}
		if cut < 1 {
			cut = 1
		}
		for i := 0; i < len(data); i += cut {
			p.Write(data[i:min(len(data), i+cut)])
		}
		p.Flush()
		if whole.String() != pieces.String() {
			t.Fatalf("pieces of %d give %q, one write %q", cut, pieces.String(), whole.String())
		}
		if !safe(whole.String()) {
			t.Fatalf("unsafe output %q", whole.String())
		}
		if s := string(data); safe(s) && whole.String() != s {
			t.Fatalf("safe input %q changed to %q", s, whole.String())
		}
		if strings.Count(whole.String(), "\n") != bytes.Count(data, []byte("\n")) {
			t.Fatalf("lines changed: %q -> %q", data, whole.String())
		}
	})
}

// TestSafeBytesWords: the eight-bytes-at-a-time scan finds every byte the
// byte loop finds, at every position of a word.
func TestSafeBytesWords(t *testing.T) {
	ref := func(b []byte) bool {
		if !utf8.Valid(b) {
			return false
		}
		for _, r := range string(b) {
			if r != '\n' && unsafeRune(r) {
				return false
			}
		}
		return true
	}
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 17; pos++ {
			b := []byte(strings.Repeat("a", 17))
			b[pos] = byte(c)
			if safeBytes(b) != ref(b) {
				t.Errorf("byte %#x at %d: safeBytes %v, want %v", c, pos, safeBytes(b), ref(b))
			}
		}
	}
}

// TestPlainASCII: the word scan agrees with a byte loop at every position.
func TestPlainASCII(t *testing.T) {
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 17; pos++ {
			b := []byte(strings.Repeat("a", 17))
			b[pos] = byte(c)
			want := c >= 0x20 && c < 0x7f
			if plainASCII(string(b)) != want {
				t.Errorf("byte %#x at %d: plainASCII %v", c, pos, !want)
			}
		}
	}
}

// FuzzWriteJSON: whatever a name holds, WriteJSON writes valid JSON that
// reads back as the same value (invalid UTF-8 as U+FFFD, as encoding/json
// reads it), and passing it through SafeWriter changes nothing: JSON output
// never has anything for the output filter to rewrite.
func FuzzWriteJSON(f *testing.F) {
	f.Add("plain")
	f.Add("a\x01b\x7fc\u0085d\u202ee\u2028f\xff")
	f.Add("<&>\"\\")
	f.Add("\xff\xfe\xe5\x90")
	f.Fuzz(func(t *testing.T, s string) {
		var b bytes.Buffer
		if err := WriteJSON(&b, map[string][]string{s: {s, "x" + s}}); err != nil {
			t.Fatal(err)
		}
		if !json.Valid(b.Bytes()) {
			t.Fatalf("not valid JSON: %q", b.String())
		}
		var back map[string][]string
		if err := json.Unmarshal(b.Bytes(), &back); err != nil {
			t.Fatal(err)
		}
		// encoding/json writes U+FFFD for each byte that is not UTF-8
		var vb strings.Builder
		for _, r := range s {
			vb.WriteRune(r)
		}
		want := vb.String()
		if got, ok := back[want]; !ok || len(got) != 2 || got[0] != want {
			t.Fatalf("%q read back as %q", s, back)
		}
		var filtered bytes.Buffer
		w := &SafeWriter{W: &filtered}
		w.Write(b.Bytes())
		w.Flush()
		if !bytes.Equal(filtered.Bytes(), b.Bytes()) {
			t.Fatalf("the output filter rewrote JSON:\n%q\n%q", b.String(), filtered.String())
		}
	})
}
