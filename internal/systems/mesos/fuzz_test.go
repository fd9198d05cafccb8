package mesos

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func seeds(f *testing.F) {
	for _, r := range Rules().All() {
		f.Add([]byte(r.Bad))
		f.Add([]byte(r.Good))
	}
	files, _ := filepath.Glob("../../../testdata/script/mesos-*.txtar")
	for _, p := range files {
		b, _ := os.ReadFile(p)
		for _, part := range strings.Split(string(b), "\n-- ") {
			if _, body, ok := strings.Cut(part, " --\n"); ok && strings.HasPrefix(body, "{") {
				f.Add([]byte(body))
			}
		}
	}
}

// bigNumber finds numbers that overflow a double, which Mesos refuses and
// encoding/json does not.
var bigNumber = regexp.MustCompile(`[0-9][eE]\+?[0-9]{3,}`)

// surrogateEscape finds a \u escape of a UTF-16 surrogate: picojson refuses
// one that is not a high surrogate followed by a low one, where
// encoding/json writes U+FFFD (FuzzParseJSON found "\uD800").
var surrogateEscape = regexp.MustCompile(`(?i)\\u[d][89a-f][0-9a-f]{2}`)

// FuzzParseJSON: the parser never panics, points inside the input, and
// accepts every document encoding/json accepts unless Mesos' own limits
// (200 levels, numbers that overflow, a top-level number) refuse it.
func FuzzParseJSON(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseJSON(data)
		if err != nil {
			if err.Off < 0 || err.Off > len(data) || err.Msg == "" {
				t.Fatalf("error %+v outside a %d-byte input", err, len(data))
			}
			// a top-level number is "trailing" with a blank after it (stout
			// compares against where picojson stopped, one byte late)
			top := strings.TrimLeft(string(data), " \t\r\n")
			scalarNumber := top != "" && (top[0] == '-' || top[0] >= '0' && top[0] <= '9')
			if json.Valid(data) && depth(data) <= maxDepth && !bigNumber.Match(data) && !scalarNumber && !surrogateEscape.Match(data) {
				t.Fatalf("encoding/json accepts %q, Mesos' parser would too; got %q", data, err.Msg)
			}
			return
		}
		if v == nil {
			t.Fatal("no value and no error")
		}
		d := Parse("f.json", data)
		d.Pos(v.Off)
	})
}

// depth is the nesting of arrays and objects outside strings.
func depth(data []byte) int {
	max, cur, inStr, esc := 0, 0, false, false
	for _, c := range data {
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case !inStr && (c == '[' || c == '{'):
			cur++
			max = maxInt(max, cur)
		case !inStr && (c == ']' || c == '}'):
			cur--
		}
	}
	return max
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// FuzzLint: any input lints without a panic, findings point inside the file
// and name registered rules, and ACLs Mesos accepts answer every kind.
func FuzzLint(f *testing.F) {
	seeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		d := Parse("f.json", data)
		lines := len(d.Lines())
		rules := Rules()
		for _, x := range Lint(d) {
			if x.Pos.Line < 1 || x.Pos.Line > lines || x.Pos.Col < 1 || x.Message == "" || x.Hint == "" {
				t.Fatalf("bad finding %+v in a %d-line file", x, lines)
			}
			if rules.Lookup(x.Rule) == nil {
				t.Fatalf("a finding of an unknown rule %q", x.Rule)
			}
		}
		a := Decode(d)
		if a.Errors() != nil {
			return
		}
		for _, k := range Kinds {
			for _, req := range []Request{{Kind: k}, {Kind: k, Principal: p("a"), Objects: []string{"a/b"}}} {
				dec, err := a.Authorize(req)
				if err != nil {
					t.Fatal(err)
				}
				if c := dec.DecidedBy(); c == nil || c.Allowed != dec.Allowed && len(dec.Checks) == 1 {
					t.Fatalf("%s: decision %+v", k.Key, dec)
				}
			}
		}
	})
}
