package config

import (
	"bytes"
	"regexp"

	"gopkg.in/yaml.v3"
)

// Reparse returns the document data parses to, built from prev (an earlier
// version of the same raw file) without parsing data again, or nil when it
// cannot prove the result is the one a full parse gives; the caller then
// parses. It is the language server's path for typing inside a value: a
// 10,000-queue file is about 40 ms of yaml.v3, the edit a microsecond.
//
// The proof is local. The two texts differ inside one line, which in both
// reads `key: value` (same indentation, item dashes and key; a plain,
// single- or double-quoted scalar without escapes, tabs or comments), below
// the top level (the keys that decide what kind of file this is stay as
// they are). prev is one clean document without anchors, aliases, tags or
// flow collections, so no other node depends on the line; its tree has the
// key and value exactly there, and that line parsed alone gives the old
// value, so the scalar is the line's whole value; the next line that is
// not blank is not indented past the key, so the new value cannot run on
// into it. Then the new line's value, parsed alone, is the value in
// context: a scalar's value, tag and style depend only on its own text.
// prev is not changed: the nodes from the root to the value are copied.
func Reparse(prev *Document, data []byte) *Document {
	if !reusable(prev) || len(data) == 0 || data[0] == 0xEF || data[0] == 0xFE || data[0] == 0xFF {
		return nil
	}
	old := prev.Text
	// the changed span, and the one line around it in both texts
	p := 0
	for p < len(old) && p < len(data) && old[p] == data[p] {
		p++
	}
	if p == len(old) && p == len(data) {
		return prev
	}
	s := 0
	for s < len(old)-p && s < len(data)-p && old[len(old)-1-s] == data[len(data)-1-s] {
		s++
	}
	if bytes.IndexByte(old[p:len(old)-s], '\n') >= 0 || bytes.IndexByte(data[p:len(data)-s], '\n') >= 0 {
		return nil
	}
	start := bytes.LastIndexByte(old[:p], '\n') + 1
	oldEnd, newEnd := lineEnd(old, len(old)-s), lineEnd(data, len(data)-s)
	oldLine, newLine := old[start:oldEnd], data[start:newEnd]
	om, nm := pairLine.FindSubmatchIndex(oldLine), pairLine.FindSubmatchIndex(newLine)
	if om == nil || nm == nil || om[3] != nm[3] || !bytes.Equal(oldLine[:om[3]], newLine[:nm[3]]) {
		return nil
	}
	// om[2]: where the key starts; om[3]: where the value starts
	keyCol, valueCol := om[2]+1, om[3]+1 // yaml.v3's 1-based columns
	line := 1 + bytes.Count(old[:start], []byte{'\n'})
	if !endsBefore(data[newEnd:], om[2]) {
		return nil
	}
	path, at := locatePair(prev.Root, line, keyCol)
	if path == nil {
		return nil
	}
	parent := path[len(path)-1]
	key, value := parent.Content[at], parent.Content[at+1]
	keyText := oldLine[om[2] : om[2]+bytes.IndexByte(oldLine[om[2]:], ':')]
	if key.Kind != yaml.ScalarNode || key.Style != 0 || key.Tag != "!!str" || key.Value != string(keyText) ||
		value.Kind != yaml.ScalarNode || value.Line != line || value.Column != valueCol || value.Anchor != "" || hasComments(key) || hasComments(value) {
		return nil
	}
	was, ok := lineValue(oldLine[om[2]:])
	if !ok || was.Value != value.Value || was.Tag != value.Tag || was.Style != value.Style {
		return nil
	}
	now, ok := lineValue(newLine[om[2]:])
	if !ok {
		return nil
	}
	nv := *value
	nv.Value, nv.Tag, nv.Style = now.Value, now.Tag, now.Style
	root := replaceOnPath(path, at+1, &nv)
	return &Document{File: prev.File, Source: data, Text: data, parsed: data, patched: map[[2]int]bool{},
		Root: root, Docs: 1, simple: 1}
}

// pairLine is a line Reparse handles: indentation, item dashes, a plain key,
// a colon and blanks (group 1 spans the key and those), and one scalar that
// ends the line: plain (no indicator, blank, colon or comment), single- or
// double-quoted without escapes.
var pairLine = regexp.MustCompile(`^ +(?:- +)*([A-Za-z_][A-Za-z0-9_.]*: +)(?:[A-Za-z0-9_][A-Za-z0-9_.,@$/+-]*|"[^"\\\x00-\x1f\x7f]*"|'[^'\x00-\x1f\x7f]*') *$`)

func lineEnd(text []byte, from int) int {
	if i := bytes.IndexByte(text[from:], '\n'); i >= 0 {
		return from + i
	}
	return len(text)
}

// endsBefore reports whether the first line of rest that is not blank (rest
// starts at the end of the edited line) is indented no further than the
// key, so that no scalar can continue into it.
func endsBefore(rest []byte, keyIndent int) bool {
	for len(rest) > 0 {
		rest = rest[1:] // the newline
		i := 0
		for i < len(rest) && rest[i] == ' ' {
			i++
		}
		if i < len(rest) && rest[i] == '\n' {
			rest = rest[i:]
			continue
		}
		if i < len(rest) && (rest[i] == '\t' || rest[i] == '\r') {
			return false
		}
		return i >= len(rest) || i <= keyIndent
	}
	return true
}

// lineValue parses "key: value" alone and returns the value's node.
func lineValue(pair []byte) (*yaml.Node, bool) {
	var n yaml.Node
	if err := yaml.Unmarshal(pair, &n); err != nil || len(n.Content) != 1 {
		return nil, false
	}
	m := n.Content[0]
	if m.Kind != yaml.MappingNode || len(m.Content) != 2 || m.Content[1].Kind != yaml.ScalarNode || hasComments(m) || hasComments(m.Content[0]) || hasComments(m.Content[1]) {
		return nil, false
	}
	return m.Content[1], true
}

func hasComments(n *yaml.Node) bool {
	return n.HeadComment != "" || n.LineComment != "" || n.FootComment != ""
}

// locatePair descends from root to the mapping holding a key at line and
// column (1-based), relying on yaml.v3's nodes being in text order. It
// returns the nodes from root to that mapping and the key's index in it.
func locatePair(root *yaml.Node, line, col int) ([]*yaml.Node, int) {
	var path []*yaml.Node
	n := root
	for depth := 0; n != nil && depth < 10000; depth++ {
		path = append(path, n)
		switch n.Kind {
		case yaml.MappingNode:
			next := (*yaml.Node)(nil)
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				if k.Line == line && k.Column == col {
					return path, i
				}
				if k.Line > line || k.Line == line && k.Column > col {
					break
				}
				next = n.Content[i+1]
			}
			n = next
		case yaml.SequenceNode:
			next := (*yaml.Node)(nil)
			for _, item := range n.Content {
				if item.Line > line || item.Line == line && item.Column > col {
					break
				}
				next = item
			}
			n = next
		default:
			return nil, 0
		}
	}
	return nil, 0
}

// replaceOnPath copies the nodes of path and puts v at index i of the last.
func replaceOnPath(path []*yaml.Node, i int, v *yaml.Node) *yaml.Node {
	child := v
	for d := len(path) - 1; d >= 0; d-- {
		cp := *path[d]
		cp.Content = append([]*yaml.Node(nil), path[d].Content...)
		if d == len(path)-1 {
			cp.Content[i] = child
		} else {
			for j, c := range path[d].Content {
				if c == path[d+1] {
					cp.Content[j] = child
					break
				}
			}
		}
		child = &cp
	}
	return child
}

// reusable reports whether d is a raw, clean, one-document config whose
// tree has no anchor, alias, tag or flow collection: a tree in which a
// scalar's text is all that depends on its line.
func reusable(d *Document) bool {
	if d == nil || d.outer != nil || d.ConfigMap != "" || d.Helm || d.Gzipped || d.Key != "" || d.Settings != nil ||
		d.absentKey != "" || len(d.Problems) > 0 || d.Docs != 1 || d.Root == nil || d.zeroBytes ||
		!sameBytes(d.parsed, d.Text) || !sameBytes(d.Source, d.Text) {
		return false
	}
	d.simpleOnce.Do(func() {
		if d.simple == 0 {
			d.simple = 2
			if plainTree(d.Root, 0) {
				d.simple = 1
			}
		}
	})
	return d.simple == 1
}

// sameBytes reports whether a and b are the same slice (not only equal).
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func plainTree(n *yaml.Node, depth int) bool {
	if n == nil || depth > 10000 || n.Kind == yaml.AliasNode || n.Anchor != "" || n.Style&(yaml.TaggedStyle|yaml.FlowStyle) != 0 {
		return false
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!merge" {
		return false
	}
	for _, c := range n.Content {
		if !plainTree(c, depth+1) {
			return false
		}
	}
	return true
}
