package config

import (
	"bytes"
	"regexp"

	"gopkg.in/yaml.v3"
)

// Reparse returns the document data parses to, built from prev (an earlier
// version of the same raw file) without parsing all of data again, or nil
// when it cannot prove the result is the one a full parse gives; the caller
// then parses. It is the language server's path for typing: a 10,000-queue
// file is about 40 ms of yaml.v3, an edit inside a value a microsecond, an
// edit across lines the parse of one list item (reparseItem).
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
	start := bytes.LastIndexByte(old[:p], '\n') + 1
	if bytes.IndexByte(old[p:len(old)-s], '\n') >= 0 || bytes.IndexByte(data[p:len(data)-s], '\n') >= 0 {
		return reparseItem(prev, data, p, len(old)-s, len(data)-s)
	}
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

// reparseItem handles an edit across lines: the texts are the same up to
// p, and from oldEnd (old) and newEnd (data) on. It parses again only a
// block list item that holds the whole change (its "- " line unchanged),
// alone, at its own indentation, and moves the lines of everything after
// it; the innermost such item that qualifies is taken.
//
// The item's text is its "- " line and the lines after it up to the first
// line that is not blank and not indented past the dash: by YAML's block
// rules nothing else belongs to it, and the text after it reads the same
// whatever the item holds. No comment may be in the item or on the lines
// around it (yaml.v3 attaches comments to nodes by their neighbours), no
// tab or carriage return in its text, and the new item must parse alone to
// exactly one item of the same kind at the same place, without anchor,
// alias, tag, flow collection or comment.
func reparseItem(prev *Document, data []byte, p, oldEnd, newEnd int) *Document {
	old := prev.Text
	oldLines, newLines := lineOffsets(old), lineOffsets(data)
	delta := len(newLines) - len(oldLines)
	// the changed lines: an edit at the start of a line is read as one at
	// the end of the line before (the same text either way)
	a := p
	if a > 0 && old[a-1] == '\n' {
		a--
	}
	first := lineAt(oldLines, a)
	lastOld, lastNew := lineAt(oldLines, max(a, oldEnd-1)), lineAt(newLines, max(a, newEnd-1))
	paths, ats := locateItems(prev.Root, first)
	for k := range paths {
		path, at := paths[k], ats[k]
		item := path[len(path)-1].Content[at]
		itemLine := item.Line
		dash := dashIndent(lineOf(old, oldLines, itemLine), item.Column)
		if dash < 0 || itemLine >= first {
			continue
		}
		endOld := itemEnd(old, oldLines, itemLine, dash)
		endNew := itemEnd(data, newLines, itemLine, dash)
		if lastOld > endOld || lastNew > endNew || endNew-endOld != delta {
			continue
		}
		if d := replaceItem(prev, data, path, at, item, itemLine, endOld, endNew, oldLines, newLines); d != nil {
			return d
		}
		return nil // an enclosing item holds a comment, or does not parse alone, too
	}
	return nil
}

func replaceItem(prev *Document, data []byte, path []*yaml.Node, at int, item *yaml.Node, itemLine, endOld, endNew int, oldLines, newLines []int) *Document {
	// no comment in the item or next to it, no tab or carriage return
	for _, c := range []struct {
		text  []byte
		lines []int
		end   int
	}{{prev.Text, oldLines, endOld}, {data, newLines, endNew}} {
		from := prevContent(c.text, c.lines, itemLine)
		to := nextContent(c.text, c.lines, c.end)
		if bytes.ContainsAny(span(c.text, c.lines, from, to), "#\t\r") {
			return nil
		}
	}
	// the new item, alone
	var n yaml.Node
	if err := yaml.Unmarshal(span(data, newLines, itemLine, endNew), &n); err != nil || len(n.Content) != 1 {
		return nil
	}
	alone := n.Content[0]
	if alone.Kind != yaml.SequenceNode || alone.Style != 0 || len(alone.Content) != 1 || !plainTree(alone, 0) || !noComments(alone) {
		return nil
	}
	fresh := alone.Content[0]
	shiftLines(fresh, itemLine-1)
	if fresh.Line != item.Line || fresh.Column != item.Column {
		return nil
	}
	root := rebuild(prev.Root, path, at, fresh, endOld, endNew-endOld)
	return &Document{File: prev.File, Source: data, Text: data, parsed: data, patched: map[[2]int]bool{},
		Root: root, Docs: 1, simple: 1}
}

// lineAt is the 1-based line of offset off.
func lineAt(starts []int, off int) int {
	lo, hi := 0, len(starts) // the last start <= off
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if starts[mid] <= off {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo + 1
}

// locateItems finds the block list items whose first line is before line
// and whose subtree may reach it, innermost first: for each, the nodes from
// root to its list and its index there.
func locateItems(root *yaml.Node, line int) ([][]*yaml.Node, []int) {
	var paths [][]*yaml.Node
	var ats []int
	var path []*yaml.Node
	n := root
	for depth := 0; n != nil && depth < 10000; depth++ {
		path = append(path, n)
		var next *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Line >= line {
					break
				}
				next = n.Content[i+1]
			}
		case yaml.SequenceNode:
			at := -1
			for i, c := range n.Content {
				if c.Line >= line {
					break
				}
				next, at = c, i
			}
			if at >= 0 {
				paths = append(paths, append([]*yaml.Node(nil), path...))
				ats = append(ats, at)
			}
		}
		n = next
	}
	for i, j := 0, len(paths)-1; i < j; i, j = i+1, j-1 {
		paths[i], paths[j] = paths[j], paths[i]
		ats[i], ats[j] = ats[j], ats[i]
	}
	return paths, ats
}

// lineOffsets returns the offset of each line's start (lines 1-based: line
// l starts at starts[l-1]).
func lineOffsets(text []byte) []int {
	starts := make([]int, 1, 1+bytes.Count(text, []byte{'\n'}))
	for i, c := range text {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func lineOf(text []byte, starts []int, l int) []byte {
	if l < 1 || l > len(starts) {
		return nil
	}
	end := len(text)
	if l < len(starts) {
		end = starts[l] - 1
	}
	return text[starts[l-1]:end]
}

// span is the text of lines from..to, each with its newline.
func span(text []byte, starts []int, from, to int) []byte {
	if from < 1 {
		from = 1
	}
	if to >= len(starts) {
		return text[starts[from-1]:]
	}
	return text[starts[from-1]:starts[to]]
}

// dashIndent returns the indentation of an item's "- " line whose content
// starts at column col (1-based), or -1 when the line is not such a line.
func dashIndent(line []byte, col int) int {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	if i >= len(line) || line[i] != '-' || i+1 >= len(line) || line[i+1] != ' ' {
		return -1
	}
	j := i + 1
	for j < len(line) && line[j] == ' ' {
		j++
	}
	if j+1 != col {
		return -1
	}
	return i
}

func indentOf(line []byte) (int, bool) {
	i := 0
	for i < len(line) && line[i] == ' ' {
		i++
	}
	return i, i < len(line) // false: a blank line
}

// itemEnd is the last line of the item starting at line from: the line
// before the first line that is not blank and not indented past dash, less
// the blank lines before that.
func itemEnd(text []byte, starts []int, from, dash int) int {
	last := from
	for l := from + 1; l <= len(starts); l++ {
		ind, content := indentOf(lineOf(text, starts, l))
		if !content {
			continue
		}
		if ind <= dash {
			return last
		}
		last = l
	}
	return last
}

// prevContent is the last line before l that is not blank (or 1).
func prevContent(text []byte, starts []int, l int) int {
	for k := l - 1; k >= 1; k-- {
		if _, content := indentOf(lineOf(text, starts, k)); content {
			return k
		}
	}
	return 1
}

// nextContent is the first line after l that is not blank (or the last).
func nextContent(text []byte, starts []int, l int) int {
	for k := l + 1; k <= len(starts); k++ {
		if _, content := indentOf(lineOf(text, starts, k)); content {
			return k
		}
	}
	return len(starts)
}

func noComments(n *yaml.Node) bool {
	if hasComments(n) {
		return false
	}
	for _, c := range n.Content {
		if !noComments(c) {
			return false
		}
	}
	return true
}

func shiftLines(n *yaml.Node, by int) {
	n.Line += by
	for _, c := range n.Content {
		shiftLines(c, by)
	}
}

// lastLine is the line of the last node in n's subtree.
func lastLine(n *yaml.Node) int {
	for len(n.Content) > 0 {
		n = n.Content[len(n.Content)-1]
	}
	return n.Line
}

// rebuild returns the tree with the item at index at of path's last node
// replaced by fresh: the nodes on the path copied, the nodes entirely
// before the item shared, the nodes after it copied with their lines
// moved by delta (all of them in two allocations: a large config moves
// tens of thousands).
func rebuild(root *yaml.Node, path []*yaml.Node, at int, fresh *yaml.Node, endOld, delta int) *yaml.Node {
	m := &mover{endOld: endOld, delta: delta}
	if delta != 0 {
		nodes, ptrs := m.count(root, path, at)
		m.nodes, m.ptrs = make([]yaml.Node, 0, nodes), make([]*yaml.Node, 0, ptrs)
	}
	return m.rebuild(root, path, at, fresh)
}

type mover struct {
	endOld, delta int
	nodes         []yaml.Node
	ptrs          []*yaml.Node
}

// count sizes the slabs: the nodes after the edit and their children.
func (m *mover) count(n *yaml.Node, path []*yaml.Node, at int) (nodes, ptrs int) {
	if len(path) == 0 || n != path[0] {
		if lastLine(n) <= m.endOld {
			return 0, 0
		}
		return subtreeSize(n)
	}
	for i, c := range n.Content {
		if len(path) == 1 && i == at {
			continue
		}
		var rest []*yaml.Node
		if len(path) > 1 && c == path[1] {
			rest = path[1:]
		}
		a, b := m.count(c, rest, at)
		nodes, ptrs = nodes+a, ptrs+b
	}
	return nodes, ptrs
}

func subtreeSize(n *yaml.Node) (nodes, ptrs int) {
	nodes, ptrs = 1, len(n.Content)
	for _, c := range n.Content {
		a, b := subtreeSize(c)
		nodes, ptrs = nodes+a, ptrs+b
	}
	return nodes, ptrs
}

func (m *mover) rebuild(n *yaml.Node, path []*yaml.Node, at int, fresh *yaml.Node) *yaml.Node {
	if len(path) == 0 || n != path[0] {
		if lastLine(n) <= m.endOld || m.delta == 0 {
			return n
		}
		return m.moved(n)
	}
	cp := *n
	cp.Content = make([]*yaml.Node, len(n.Content))
	for i, c := range n.Content {
		switch {
		case len(path) == 1 && i == at:
			cp.Content[i] = fresh
		case len(path) > 1 && c == path[1]:
			cp.Content[i] = m.rebuild(c, path[1:], at, fresh)
		default:
			cp.Content[i] = m.rebuild(c, nil, at, fresh)
		}
	}
	return &cp
}

// moved copies n's subtree, which is after the edit, moving its lines by
// delta.
func (m *mover) moved(n *yaml.Node) *yaml.Node {
	m.nodes = append(m.nodes, *n)
	cp := &m.nodes[len(m.nodes)-1]
	cp.Line += m.delta
	if len(n.Content) > 0 {
		start := len(m.ptrs)
		m.ptrs = append(m.ptrs, n.Content...)
		cp.Content = m.ptrs[start:len(m.ptrs):len(m.ptrs)]
		for i, c := range n.Content {
			cp.Content[i] = m.moved(c)
		}
	}
	return cp
}
