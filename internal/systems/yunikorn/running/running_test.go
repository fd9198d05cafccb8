package running

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestReadBodyDoesNotDouble: a body is read into a buffer near its size
// (io.ReadAll doubles, so a 64 MiB answer could hold 128 MiB), exactly its
// size when the length is known, and never past max+1.
func TestReadBodyDoesNotDouble(t *testing.T) {
	const n = 10 << 20
	data := bytes.Repeat([]byte("x"), n)
	got, err := readBody(struct{ io.Reader }{bytes.NewReader(data)}, -1, 64<<20)
	if err != nil || len(got) != n {
		t.Fatalf("read %d bytes, %v", len(got), err)
	}
	if cap(got) > n+n/4+64<<10 {
		t.Errorf("a %d-byte body without a length took a %d-byte buffer", n, cap(got))
	}
	got, _ = readBody(bytes.NewReader(data), n, 64<<20)
	if cap(got) != n+1 {
		t.Errorf("a %d-byte body of known length took a %d-byte buffer", n, cap(got))
	}
	got, _ = readBody(bytes.NewReader(data), -1, 1<<20)
	if len(got) != 1<<20+1 || cap(got) > 1<<20+1 {
		t.Errorf("past the limit: read %d into %d", len(got), cap(got))
	}
}

// TestLabelHidesSecrets: what aclint prints of a --server URL.
func TestLabelHidesSecrets(t *testing.T) {
	for in, want := range map[string]string{
		"http://admin:pw@host:9080/?token=abc": "http://host:9080/?token=xxxxx",
		"http://T0K3NUSER@host:9080":           "http://host:9080",
		"https://T0K3NUSER:@host":              "https://host",
		"http://T%30K3N:p%40ss@host/a%20b":     "http://host/a%20b",
		"https://host/ws/v1/config":            "https://host/ws/v1/config",
		"http://host:9080":                     "http://host:9080",
		"http://a b:pw@host%zz":                "http://...",
	} {
		if got := Label(in); got != want {
			t.Errorf("Label(%q) = %q, want %q", in, got, want)
		}
	}
	target, label, err := endpoint("http://u:pw@h:1/base/?token=abc", ConfigPath)
	if err != nil || target != "http://u:pw@h:1/base/ws/v1/config?token=abc" || strings.Contains(label, "pw") || strings.Contains(label, "abc") || strings.Contains(label, "u@") {
		t.Errorf("endpoint: %q %q %v", target, label, err)
	}
}

// TestParseVerdict: validate-conf's answer, read strictly.
func TestParseVerdict(t *testing.T) {
	for body, want := range map[string]string{
		`{"allowed":true}`:                       "true",
		`{"allowed":false,"reason":"no"}`:        "false no",
		` {"reason":"x", "allowed": false} `:     "false x",
		`{"allowed":true,"other":1}`:             "true",
		`{"allowed":null}`:                       "",
		`{"allowed":true,"allowed":false}`:       "",
		`{"allowed":"true"}`:                     "",
		`{"reason":"x"}`:                         "",
		`{"allowed":true}{"allowed":false}`:      "",
		`{"allowed":true,"reason":{"a":1}}`:      "",
		`{"allowed":true,"extra":{"allowed":1}}`: "",
		`[true]`:                                 "",
		``:                                       "",
	} {
		v, ok := parseVerdict([]byte(body))
		got := ""
		if ok {
			got = strings.TrimSpace(map[bool]string{true: "true", false: "false"}[v.Allowed] + " " + v.Reason)
		}
		if got != want {
			t.Errorf("%s: %q, want %q", body, got, want)
		}
	}
}

// TestEndpointEscapes: a name in a route is one path segment, escaped
// once; a route's query joins the URL's own.
func TestEndpointEscapes(t *testing.T) {
	target, _, err := endpoint("http://h:1/p%20q/?token=x", "/ws/v1/partition/default/usage/user/"+seg("a b/c")+"?count=5")
	if err != nil || target != "http://h:1/p%20q/ws/v1/partition/default/usage/user/a%20b%2Fc?token=x&count=5" {
		t.Errorf("%q %v", target, err)
	}
}
