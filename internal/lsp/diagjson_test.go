package lsp

import (
	"encoding/json"
	"reflect"
	"testing"
)

func checkPublishJSON(t *testing.T, p PublishDiagnosticsParams) {
	t.Helper()
	got := appendPublishDiagnostics(nil, p)
	want, err := json.Marshal(notification{JSONRPC: "2.0", Method: "textDocument/publishDiagnostics", Params: p})
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("the hand-written JSON does not parse: %v\n%s", err, got)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("hand-written:\n%s\nencoding/json:\n%s", got, want)
	}
}

// TestAppendPublishDiagnostics: the hand-written notification decodes to
// what encoding/json writes, for every field and the strings that need
// escaping.
func TestAppendPublishDiagnostics(t *testing.T) {
	v := 7
	rng := Range{Start: Position{Line: 1, Character: 2}, End: Position{Line: 3, Character: 40}}
	for _, p := range []PublishDiagnosticsParams{
		{URI: "file:///a.yaml", Diagnostics: []Diagnostic{}},
		{URI: "file:///a b/\"q\".yaml", Version: &v, Diagnostics: []Diagnostic{
			{Range: rng, Severity: 1, Source: "aclint", Message: "plain"},
			{Range: rng, Severity: 2, Code: "acl-stray-space", CodeDescription: &CodeDescription{Href: "https://x/rules.md#a&b<c>"}, Source: "aclint",
				Message: "quote \" backslash \\ tab \t newline \n cr \r nul \x00 bell \x07 unicode é 漢 \u2028 \u2029 invalid \xff\xfe end",
				RelatedInformation: []DiagnosticRelatedInformation{
					{Location: Location{URI: "file:///a.yaml", Range: rng}, Message: "first"},
					{Location: Location{URI: "file:///b.yaml", Range: rng}, Message: "\x1f"},
				}},
		}},
	} {
		checkPublishJSON(t, p)
	}
}

func FuzzAppendPublishDiagnostics(f *testing.F) {
	f.Add("file:///q.yaml", "rule", "message \" \\ \n", "related", 3)
	f.Add("\xff", "", "\u2028\x00", "\xed\xa0\x80", -1)
	f.Fuzz(func(t *testing.T, uri, code, msg, related string, n int) {
		d := Diagnostic{Range: Range{Start: Position{Line: n, Character: n}}, Severity: 1, Code: code, Source: "aclint", Message: msg}
		if n%2 == 0 {
			d.CodeDescription = &CodeDescription{Href: uri}
			d.RelatedInformation = []DiagnosticRelatedInformation{{Location: Location{URI: uri}, Message: related}}
		}
		checkPublishJSON(t, PublishDiagnosticsParams{URI: uri, Version: &n, Diagnostics: []Diagnostic{d, d}})
	})
}
