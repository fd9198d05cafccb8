package mesos

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// Mesos' parser (stout over picojson 1.3.0) on inputs where it differs from
// a strict JSON parser, with its exact messages.
func TestParseJSONLikeMesos(t *testing.T) {
	for _, c := range []struct {
		in      string
		err     string // Mesos' message; "" when accepted
		off     int    // where aclint points
		invalid bool   // trailing text
	}{
		{in: `{}`},
		{in: " \t\r\n{\"a\": 1}\n\n"},
		{in: `{"a": 01}`},                       // leading zeros
		{in: `{"a": 1.}`},                       // strtod takes "1."
		{in: `{"a": -.5e+3}`},                   // and "-.5e+3"
		{in: `{"a": 99999999999999999999}`},     // beyond int64: a double
		{in: `{"a": 1e-400}`},                   // underflow is 0
		{in: "{\"a\": \"\xff\xfe\x7f\"}"},       // any byte from 0x20 up
		{in: `{"a": "\ud83d\ude00 \u0000 \/"}`}, // surrogate pairs, NUL
		{in: `{"a": 1, "a": 2}`},                // repeated keys
		{in: `{"a": 1e309}`, err: "Value out of range", off: 6},
		{in: `{"a": -1e400}`, err: "Value out of range", off: 6},
		{in: `{"a": 1.2.3}`, err: "syntax error at line 1 near: }", off: 6},
		{in: `{"a": -}`, err: "syntax error at line 1 near: }", off: 6},
		{in: `{"a": 1e}`, err: "syntax error at line 1 near: }", off: 6},
		{in: `{"a": +1}`, err: "syntax error at line 1 near: +1}", off: 6},
		{in: `{"a": .5}`, err: "syntax error at line 1 near: .5}", off: 6},
		{in: `{"a": 1,}`, err: "syntax error at line 1 near: }", off: 8},
		{in: "{\n  \"a\": 1,\n  \"b\" 2\n}", err: "syntax error at line 3 near: 2", off: 18},
		{in: `{"a": tru}`, err: "syntax error at line 1 near: }", off: 9},
		{in: `{'a': 1}`, err: "syntax error at line 1 near: 'a': 1}", off: 1},
		{in: "{\"a\": \"x\ty\"}", err: "syntax error at line 1 near: y\"}", off: 8},
		{in: `{"a": "\x"}`, err: "syntax error at line 1 near: \"}", off: 8},
		{in: `{"a": "\udc00"}`, err: "syntax error at line 1 near: \"}", off: 12},
		{in: `{"a": "\ud800x"}`, err: "syntax error at line 1 near: x\"}", off: 13},
		{in: `{"a": "\u12g4"}`, err: "syntax error at line 1 near: g4\"}", off: 11},
		{in: `{"a": "open`, err: "syntax error at line 1 near: ", off: 11},
		{in: "", err: "syntax error at line 1 near: ", off: 0},
		{in: "{\n", err: "syntax error at line 1 near: ", off: 2},
		{in: "\xef\xbb\xbf{}", err: "syntax error at line 1 near: \xef\xbb\xbf{}", off: 0},
		{in: `{} x`, err: "Parsed JSON included non-whitespace trailing characters:  x", off: 3, invalid: true},
		{in: "{}\n}\n", err: "Parsed JSON included non-whitespace trailing characters: \n}", off: 3, invalid: true},
		{in: `1 `, err: "Parsed JSON included non-whitespace trailing characters: ", off: 1, invalid: true},
		{in: `[1]`}, // any top-level value parses; Decode wants an object
	} {
		_, err := ParseJSON([]byte(c.in))
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%q: Mesos accepts it, got %q", c.in, err.Msg)
		case c.err != "" && err == nil:
			t.Errorf("%q: Mesos says %q, got no error", c.in, c.err)
		case err != nil && (err.Msg != c.err || err.Off != c.off || err.Trailing != c.invalid):
			t.Errorf("%q: got %q at %d (trailing %v), want %q at %d", c.in, err.Msg, err.Off, err.Trailing, c.err, c.off)
		}
	}
}

func TestParseJSONDepth(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("[", n-1) + "{}" + strings.Repeat("]", n-1) }
	if _, err := ParseJSON([]byte(nest(200))); err != nil {
		t.Errorf("200 levels: %v", err.Msg)
	}
	if _, err := ParseJSON([]byte(nest(201))); err == nil || err.Off != 200 {
		t.Errorf("201 levels: want a syntax error at the innermost value, got %v", err)
	}
	// deep nesting costs no stack beyond the limit
	if _, err := ParseJSON([]byte(strings.Repeat("[", 1_000_000))); err == nil {
		t.Error("a million brackets parsed")
	}
}

func TestParseJSONValues(t *testing.T) {
	v, err := ParseJSON([]byte(`{"k": [true, null, "s\n", -1.5], "k": {"x": false}}`))
	if err != nil {
		t.Fatal(err.Msg)
	}
	if len(v.Members()) != 2 || !v.Members()[0].Shadowed || v.Members()[1].Shadowed {
		t.Fatalf("members: %+v", v.Members())
	}
	if m := v.Get("k"); m != v.Members()[1] || m.Value.Kind != JSONObject || m.KeyOff != 33 {
		t.Errorf("Get returns the last: %+v", m)
	}
	arr := v.Members()[0].Value.Elems()
	if len(arr) != 4 || !arr[0].Bool || arr[1].Kind != JSONNull || arr[2].Text != "s\n" || arr[3].Text != "-1.5" || arr[3].Off != 26 {
		t.Errorf("elements: %+v", arr)
	}
}

func TestPositions(t *testing.T) {
	d := Parse("a.json", []byte("{\n  \"é\": \"\xff\", \"b\": 1\n}"))
	if d.Syntax != nil {
		t.Fatal(d.Syntax.Msg)
	}
	b := d.Root.Get("b")
	if p := d.Pos(b.KeyOff); p.Line != 2 || p.Col != 13 {
		t.Errorf("columns count characters, an invalid byte as one: %v", p)
	}
	if p := d.Pos(len(d.Src)); p.Line != 3 || p.Col != 2 {
		t.Errorf("end of file: %v", p)
	}
}

// TestParseJSONVectors replays inputs run through picojson 1.3.0 with
// stout's parse context (depth, int64 numbers, overflow, trailing text),
// built locally from Mesos' 3rdparty sources: mutations of ACL files, with
// the message Mesos gives for each ("OK" when it accepts the JSON; a
// newline in a message is written \n).
func TestParseJSONVectors(t *testing.T) {
	f, err := os.Open("testdata/json-vectors.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var v struct{ Input, Mesos []byte }
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		got := "OK"
		if _, err := ParseJSON(v.Input); err != nil {
			got = strings.ReplaceAll(err.Msg, "\n", `\n`)
		}
		if got != string(v.Mesos) {
			t.Errorf("%q: got %q, Mesos says %q", v.Input, got, v.Mesos)
		}
		n++
	}
	if n < 2000 {
		t.Fatalf("only %d vectors", n)
	}
}
