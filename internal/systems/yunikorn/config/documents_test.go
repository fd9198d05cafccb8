package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"testing"

	"gopkg.in/yaml.v3"
)

// readAll reads every document with next, as scanDocuments does, and
// returns them with the error that ended the stream ("" for io.EOF).
func readAll(next func(*yaml.Node) error) ([]*yaml.Node, string) {
	var out []*yaml.Node
	for i := 0; i < 100; i++ {
		var n yaml.Node
		err := next(&n)
		if errors.Is(err, io.EOF) {
			return out, ""
		}
		if err != nil {
			return out, err.Error()
		}
		out = append(out, &n)
	}
	return out, "too many"
}

// FuzzDocuments keeps documents' shortcut (yaml.Unmarshal for a stream
// that cannot hold a second document) equal to reading with yaml.v3's
// decoder: the same nodes, the same error, the same count.
func FuzzDocuments(f *testing.F) {
	for _, s := range []string{"", "\n", "# c\n", "a: 1\n", "---\na: 1\n", "--- |\n x\n", "a: 1\n---\nb: 2\n", "a: 1\n...\n", "[1, 2", "*a", "&a x\n", "a: &x 1\nb: *x\n", "\ufeffa: 1", "%YAML 1.1\n---\na: 1", "a: \"---\"\n", "- - -\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dec := yaml.NewDecoder(bytes.NewReader(data))
		want, werr := readAll(func(n *yaml.Node) error { return dec.Decode(n) })
		got, gerr := readAll(documents(data))
		if gerr != werr {
			t.Fatalf("%q: error %q, the decoder says %q", data, gerr, werr)
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d documents, the decoder reads %d", data, len(got), len(want))
		}
		for i := range got {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("%q: document %d differs:\n%s\nthe decoder's:\n%s", data, i, dump(got[i]), dump(want[i]))
			}
		}
	})
}

func dump(n *yaml.Node) string { return fmt.Sprintf("%+v", *n) }

func TestSingleDocument(t *testing.T) {
	for s, want := range map[string]bool{
		"":                  true,
		"a: 1\n":            true,
		"---\na: 1\n":       true,
		"a: 1\n---\nb: 1\n": false,
		"a: 1\n...\n":       false,
		"a: \"x---y\"\n":    false, // coarse: any "---" sends the file to the decoder
	} {
		if got := singleDocument([]byte(s)); got != want {
			t.Errorf("singleDocument(%q) = %v, want %v", s, got, want)
		}
	}
}
