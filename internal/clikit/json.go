package clikit

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"github.com/aclint/aclint/internal/engine"
)

// WriteJSON writes one JSON document the way every command does
// (engine.WriteJSON).
func WriteJSON(w io.Writer, v any) error { return engine.WriteJSON(w, v) }

// JSONValue encodes one value on one line, as the streaming outputs
// (access, matrix) write each row, escaped as WriteJSON escapes.
func JSONValue(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// only values aclint builds itself reach here: strings, numbers,
		// slices and maps of them, which always encode
		panic(err)
	}
	return engine.EscapeJSON(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// Stream writes a JSON document whose lists are too long to hold: an
// object's fields, then one list member whose items are written as they
// come, possibly nested one level (access: sections, each with its
// objects). Every key and value goes through JSONValue, so the document is
// as valid and as escaped as WriteJSON's.
type Stream struct {
	W     io.Writer
	items []int // items written in each open list, innermost last
	err   error
}

// Open starts an object (a list item when a list is open) with the given
// fields, in order, and opens its list named list.
func (j *Stream) Open(list string, fields ...any) {
	j.itemSep("\n" + strings.Repeat("  ", len(j.items)))
	j.write("{")
	for i := 0; i+1 < len(fields); i += 2 {
		j.write(string(JSONValue(fields[i])) + ": " + string(JSONValue(fields[i+1])) + ", ")
	}
	j.write(string(JSONValue(list)) + ": [")
	j.items = append(j.items, 0)
}

// Item writes one item of the innermost open list.
func (j *Stream) Item(v any) {
	j.itemSep("\n" + strings.Repeat("  ", len(j.items)))
	j.write(string(JSONValue(v)))
}

// Close ends the innermost list and its object; the last Close ends the
// document.
func (j *Stream) Close() error {
	j.items = j.items[:len(j.items)-1]
	j.write("]}")
	if len(j.items) == 0 {
		j.write("\n")
	}
	return j.err
}

func (j *Stream) itemSep(indent string) {
	if n := len(j.items); n > 0 {
		if j.items[n-1] > 0 {
			j.write(",")
		}
		j.items[n-1]++
		j.write(indent)
	}
}

func (j *Stream) write(s string) {
	if j.err == nil {
		_, j.err = io.WriteString(j.W, s)
	}
}

// Field is one member of an Object.
type Field struct {
	Key   string
	Value any
}

// Object is a JSON object whose members keep their order, for documents
// built on the spot (who-can's answer) rather than declared as a struct.
type Object []Field

// MarshalJSON writes the members in order, each value through the one
// encoder.
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(JSONValue(f.Key))
		b.WriteByte(':')
		b.Write(JSONValue(f.Value))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Fields builds an Object from alternating keys and values.
func Fields(kv ...any) Object {
	o := make(Object, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		o = append(o, Field{kv[i].(string), kv[i+1]})
	}
	return o
}

// NonNil is a list as JSON writes it: [] rather than null when empty.
func NonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Err is the first error writing failed with; nil while all went well.
func (j *Stream) Err() error { return j.err }

// Started says whether the document was begun (Open was called): a stream
// never opened has nothing to close.
func (j *Stream) Started() bool { return j.items != nil }

// NullIfEmpty is a string as JSON writes one that may be absent: null
// when empty.
func NullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
