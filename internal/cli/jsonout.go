package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"github.com/aclint/aclint/internal/engine"
)

// writeJSON writes one JSON document the way every command does
// (engine.WriteJSON).
func writeJSON(w io.Writer, v any) error { return engine.WriteJSON(w, v) }

// jsonValue encodes one value on one line, as the streaming outputs
// (access, matrix) write each row, escaped as writeJSON escapes.
func jsonValue(v any) []byte {
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

// jsonStream writes a JSON document whose lists are too long to hold: an
// object's fields, then one list member whose items are written as they
// come, possibly nested one level (access: partitions, each with its
// queues). Every key and value goes through jsonValue, so the document is
// as valid and as escaped as writeJSON's.
type jsonStream struct {
	w     io.Writer
	items []int // items written in each open list, innermost last
	err   error
}

// open starts an object (a list item when a list is open) with the given
// fields, in order, and opens its list named list.
func (j *jsonStream) open(list string, fields ...any) {
	j.itemSep("\n" + strings.Repeat("  ", len(j.items)))
	j.write("{")
	for i := 0; i+1 < len(fields); i += 2 {
		j.write(string(jsonValue(fields[i])) + ": " + string(jsonValue(fields[i+1])) + ", ")
	}
	j.write(string(jsonValue(list)) + ": [")
	j.items = append(j.items, 0)
}

// item writes one item of the innermost open list.
func (j *jsonStream) item(v any) {
	j.itemSep("\n" + strings.Repeat("  ", len(j.items)))
	j.write(string(jsonValue(v)))
}

// close ends the innermost list and its object; the last close ends the
// document.
func (j *jsonStream) close() error {
	j.items = j.items[:len(j.items)-1]
	j.write("]}")
	if len(j.items) == 0 {
		j.write("\n")
	}
	return j.err
}

func (j *jsonStream) itemSep(indent string) {
	if n := len(j.items); n > 0 {
		if j.items[n-1] > 0 {
			j.write(",")
		}
		j.items[n-1]++
		j.write(indent)
	}
}

func (j *jsonStream) write(s string) {
	if j.err == nil {
		_, j.err = io.WriteString(j.w, s)
	}
}

// jsonField is one member of a jsonObject.
type jsonField struct {
	key   string
	value any
}

// jsonObject is a JSON object whose members keep their order, for
// documents built on the spot (who-can's answer) rather than declared as a
// struct.
type jsonObject []jsonField

// MarshalJSON writes the members in order, each value through the one
// encoder.
func (o jsonObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(jsonValue(f.key))
		b.WriteByte(':')
		b.Write(jsonValue(f.value))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// fields builds a jsonObject from alternating keys and values.
func fields(kv ...any) jsonObject {
	o := make(jsonObject, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		o = append(o, jsonField{kv[i].(string), kv[i+1]})
	}
	return o
}
