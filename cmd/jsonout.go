package cmd

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/aclint/aclint/pkg/lint"
)

// writeJSON writes one JSON document the way every command does
// (lint.WriteJSON).
func writeJSON(w io.Writer, v any) error { return lint.WriteJSON(w, v) }

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
	return lint.EscapeJSON(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}
