package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// posOf is the 0-based position of the n-th (from 0) occurrence of needle
// in text, plus off characters.
func posOf(t *testing.T, text, needle string, off int) Position {
	t.Helper()
	i := strings.Index(text, needle)
	if i < 0 {
		t.Fatalf("%q not in the file", needle)
	}
	line := strings.Count(text[:i], "\n")
	col := i - strings.LastIndex(text[:i], "\n") - 1
	return Position{Line: line, Character: col + off}
}

// TestNavigationEverySystem: the editor outlines, folds, explains and
// navigates the files of every system, as it does YuniKorn's: YARN's
// capacity-scheduler.xml (queues with their properties; an ACL's reading;
// a queue named in a .queues list goes to its properties), Mesos' ACLs
// (kinds and entries; an entry's meaning) and YTsaurus' trees (subjects
// and nodes; a subject named in an ACE goes to its definition).
func TestNavigationEverySystem(t *testing.T) {
	c := start(t, testOptions())
	c.initialize()
	for _, tc := range []struct {
		file       string
		symbol     string // a top-level symbol's name
		hoverAt    string // text to hover on
		hoverOff   int
		hoverWants []string
		defAt      string // text to go to the definition of ("" none)
		defOff     int
		defLine    string // the text on the definition's line
	}{
		{"yarn/capacity-scheduler.xml", "root", "<value>alice data.eng", 8,
			[]string{"**submit** ACL of queue `root.prod`", "users alice and groups data.eng"},
			"<value>etl,reports", 12, "yarn.scheduler.capacity.root.prod.reports"},
		{"mesos-acls.json", "run_tasks", `{"principals": {"values": ["ops"]}`, 3,
			[]string{"**run\\_tasks\\[1\\]**", "first entry of `run_tasks` whose principals and users both match", "permissive (false)"}, "", 0, ""},
		{"ytsaurus-tree.yaml", "//home/reports", "subjects: [analysts], permissions: [read, write]", 12,
			[]string{"**analysts** — group"},
			"subjects: [analysts], permissions: [read, write]", 12, "  analysts: {}"},
	} {
		path := filepath.Join("../../examples", tc.file)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		abs, _ := filepath.Abs(path)
		uri := "file://" + abs
		c.open(uri, text)
		c.diagnostics(uri)
		r := c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}})
		var syms []DocumentSymbol
		_ = json.Unmarshal(r.Result, &syms)
		found := false
		for _, s := range syms {
			found = found || s.Name == tc.symbol
		}
		if !found {
			t.Errorf("%s: no symbol %q in %s", tc.file, tc.symbol, r.Result)
		}
		r = c.call("textDocument/foldingRange", map[string]any{"textDocument": map[string]any{"uri": uri}})
		var folds []FoldingRange
		_ = json.Unmarshal(r.Result, &folds)
		if len(folds) == 0 {
			t.Errorf("%s: nothing to fold: %s", tc.file, r.Result)
		}
		r = c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": posOf(t, text, tc.hoverAt, tc.hoverOff)})
		var h *Hover
		_ = json.Unmarshal(r.Result, &h)
		if h == nil {
			t.Errorf("%s: no hover on %q: %s", tc.file, tc.hoverAt, r.Result)
		} else {
			t.Logf("%s hover:\n%s", tc.file, h.Contents.Value)
			for _, w := range tc.hoverWants {
				if !strings.Contains(h.Contents.Value, w) {
					t.Errorf("%s: the hover lacks %q:\n%s", tc.file, w, h.Contents.Value)
				}
			}
		}
		if tc.defAt == "" {
			continue
		}
		r = c.call("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": posOf(t, text, tc.defAt, tc.defOff)})
		var locs []Location
		_ = json.Unmarshal(r.Result, &locs)
		lines := strings.Split(text, "\n")
		if len(locs) != 1 || locs[0].Range.Start.Line >= len(lines) || !strings.Contains(lines[locs[0].Range.Start.Line], tc.defLine) {
			t.Errorf("%s: the definition of %q: %s", tc.file, tc.defAt, r.Result)
		}
	}
	c.stop()
}

// outsideCode is md without its code spans and its backslash escapes,
// where Markdown is inert: what is left is what Markdown reads.
func outsideCode(md string) string {
	var b strings.Builder
	for i := 0; i < len(md); {
		if md[i] == '\\' {
			i += 2
			continue
		}
		if md[i] != '`' {
			b.WriteByte(md[i])
			i++
			continue
		}
		j := i
		for j < len(md) && md[j] == '`' {
			j++
		}
		fence := md[i:j]
		end := strings.Index(md[j:], fence)
		if end < 0 {
			b.WriteString(md[i:])
			break
		}
		i = j + end + len(fence)
	}
	return b.String()
}

// TestHoverEscapesNames: names from YARN, Mesos and YTsaurus documents
// reach hover Markdown escaped: a name with backticks cannot close its
// code span, and an image or a link in a name is text, never a remote
// image the editor fetches.
func TestHoverEscapesNames(t *testing.T) {
	c := start(t, testOptions())
	c.initialize()
	evil := "x`![i](http://evil.example/p.png)`[l](http://evil.example)<img src=x>"
	for _, tc := range []struct {
		name, text, at string
	}{
		{"capacity-scheduler.xml", "<configuration>\n<property><name>yarn.scheduler.capacity.root.queues</name><value>q</value></property>\n" +
			"<property><name>yarn.scheduler.capacity.root.q.acl_submit_applications</name><value>" + strings.ReplaceAll(evil, "<", "&lt;") + " g</value></property>\n</configuration>\n", "acl_submit_applications"},
		{"mesos-acls.json", `{"run_tasks": [{"principals": {"values": ["` + evil + `"]}, "users": {"type": "ANY"}}]}` + "\n", `"principals"`},
		{"tree.yaml", "users:\n  '" + evil + "': {member_of: ['" + evil + "']}\ngroups:\n  '" + evil + "': {}\nnodes:\n  \"//home\":\n    owner: '" + evil + "'\n    acl: [{action: allow, subjects: ['" + evil + "'], permissions: [read]}]\n", `"//home"`},
	} {
		uri, _ := fileURI(t, tc.name, tc.text)
		c.open(uri, tc.text)
		c.diagnostics(uri)
		r := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": posOf(t, tc.text, tc.at, 2)})
		var h *Hover
		_ = json.Unmarshal(r.Result, &h)
		if h == nil {
			t.Errorf("%s: no hover: %s", tc.name, r.Result)
			continue
		}
		text := outsideCode(h.Contents.Value)
		for _, bad := range []string{"](http", "<img", "![i]"} {
			if strings.Contains(text, bad) {
				t.Errorf("%s: %q live in the hover:\n%s", tc.name, bad, h.Contents.Value)
			}
		}
	}
}
