package clikit

import (
	"errors"
	"io"
	"strings"
	"testing"
)

func TestStreamNests(t *testing.T) {
	var b strings.Builder
	j := &Stream{W: &b}
	if j.Started() {
		t.Fatal("a stream never opened says it started")
	}
	j.Open("sections", "system", "x")
	j.Open("objects", "section", "a\u202eb")
	j.Item(Fields("object", "q", "n", 1))
	j.Item(Object{{Key: "object", Value: "r"}})
	j.Close()
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	want := "{\"system\": \"x\", \"sections\": [\n  {\"section\": \"a\\u202eb\", \"objects\": [\n    {\"object\":\"q\",\"n\":1},\n    {\"object\":\"r\"}]}]}\n"
	if b.String() != want {
		t.Fatalf("got\n%q\nwant\n%q", b.String(), want)
	}
}

func TestWriteVerdictExitCodes(t *testing.T) {
	text := func(w io.Writer) error { _, err := io.WriteString(w, "denied\n"); return err }
	for _, tc := range []struct {
		v    Verdict
		code int
	}{
		{Verdict{OK: true, Text: text}, ExitOK},
		{Verdict{Text: text}, ExitFail},
		{Verdict{Code: ExitUsage, Text: text}, ExitUsage},
	} {
		var b strings.Builder
		err := WriteVerdict(&b, tc.v, "text", false)
		got := ExitOK
		var ee *ExitError
		if errors.As(err, &ee) {
			got = ee.Code
		}
		if got != tc.code || b.String() != "denied\n" {
			t.Errorf("verdict %+v: exit %d, output %q; want exit %d", tc.v, got, b.String(), tc.code)
		}
	}
	var b strings.Builder
	if err := WriteVerdict(&b, Verdict{OK: true, Text: text}, "text", true); err != nil || b.Len() != 0 {
		t.Errorf("-q wrote %q, err %v", b.String(), err)
	}
}

func TestJoinWords(t *testing.T) {
	for in, want := range map[string]string{"": "", "a": "a", "a,b": "a and b", "a,b,c": "a, b and c"} {
		if got := JoinWords(ParseList(in)); got != want {
			t.Errorf("JoinWords(%q) = %q, want %q", in, got, want)
		}
	}
}
