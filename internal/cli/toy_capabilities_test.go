package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/spf13/cobra"
)

// The toy answers questions through the capabilities alone: it loads its
// files (audit.Loader), answers check (audit.Checker) and who-can
// (audit.WhoCanner), and explains a name in the editor (audit.Hoverer).
// The first "allow NAME" or "deny NAME" line that names the user, or
// everyone, decides; no line is denied.

func (toy) Load(ins []*engine.Input, opts engine.Options) (audit.Model, error) {
	if len(ins) != 1 {
		return nil, fmt.Errorf("the toy reads one file")
	}
	lines := strings.Split(string(ins[0].Data), "\n")
	// --up-to N, the toy's own flag on check: only the first N lines
	if n, err := strconv.Atoi(opts.Value("up-to")); err == nil && n > 0 && n < len(lines) {
		lines = lines[:n]
	}
	return &toyState{file: ins[0].Path, lines: lines}, nil
}

// Extend is the toy's part of check: --up-to N, a flag only toy files
// take, which reaches Load through the options.
func (toy) Extend(command string, env clikit.Env) *clikit.Extension {
	if command != "check" {
		return nil
	}
	var upTo int
	return &clikit.Extension{
		Flags: func(c *cobra.Command) {
			c.Flags().IntVar(&upTo, "up-to", 0, "toy files: read only the first N lines")
		},
		Values: func() map[string]string { return map[string]string{"up-to": strconv.Itoa(upTo)} },
		Foreign: func(system string) error {
			if upTo != 0 {
				return env.Usage("--up-to reads toy files; a %s question takes none", system)
			}
			return nil
		},
	}
}

// decide is the toy server's decision: the first line naming user or
// everyone, its 1-based number (0: none).
func (st *toyState) decide(user string) (allow bool, line int) {
	for i, l := range st.lines {
		verb, name, _ := strings.Cut(strings.TrimSpace(l), " ")
		if (verb == "allow" || verb == "deny") && (name == user || name == "everyone") {
			return verb == "allow", i + 1
		}
	}
	return false, 0
}

func (st *toyState) grant(kind, name string, line int) audit.Grant {
	if line == 0 {
		return audit.Grant{Kind: kind, Name: name, Rule: "no line", Default: true, Note: "no line names it: denied"}
	}
	return audit.Grant{Kind: kind, Name: name, Rule: "line " + fmt.Sprint(line), Pos: engine.Position{File: st.file, Line: line, Col: 1}}
}

func (toy) CheckUsage() audit.Usage { return audit.Usage{Words: "USER", Example: "alice"} }

func (toy) Check(m audit.Model, q audit.Question) (*audit.Verdict, error) {
	if len(q.Words) != 1 {
		return nil, audit.Usagef("a toy question names one user")
	}
	st := m.(*toyState)
	ok, line := st.decide(q.Words[0])
	g := st.grant("user", q.Words[0], line)
	v := &audit.Verdict{System: "toy", Allowed: ok, Answer: "denied", By: &g, Why: q.Words[0] + " may not open the toy"}
	if ok {
		v.Answer, v.Why = "allowed", q.Words[0]+" may open the toy"
	}
	return v, nil
}

func (toy) WhoCanUsage() audit.Usage { return audit.Usage{Words: "(no words)", Example: ""} }

func (toy) WhoCan(m audit.Model, q audit.Question) (*audit.WhoCan, error) {
	if len(q.Words) != 0 {
		return nil, audit.Usagef("a toy who-can question has no words")
	}
	st := m.(*toyState)
	ans := &audit.WhoCan{System: "toy", Action: "open", Object: "toy", Title: "open the toy", How: "first match", By: "the toy", GroupsTitle: "-",
		Everyone: []audit.Grant{}, Users: []audit.Grant{}, Groups: []audit.Grant{}, Denied: []audit.Grant{}}
	if ok, line := st.decide("\x00nobody named"); ok {
		ans.Everyone = append(ans.Everyone, st.grant("everyone", "*", line))
	}
	seen := map[string]bool{}
	for _, l := range st.lines {
		verb, name, _ := strings.Cut(strings.TrimSpace(l), " ")
		if verb != "allow" && verb != "deny" || name == "everyone" || seen[name] {
			continue
		}
		seen[name] = true
		ok, line := st.decide(name)
		if ok {
			ans.Users = append(ans.Users, st.grant("user", name, line))
		} else if len(ans.Everyone) > 0 {
			ans.Denied = append(ans.Denied, st.grant("user", name, line))
		}
	}
	return ans, nil
}

func (toy) Hover(parsed any, at engine.Position) (audit.Hover, bool) {
	st, ok := parsed.(*toyState)
	if !ok || at.Line < 1 || at.Line > len(st.lines) {
		return audit.Hover{}, false
	}
	l := st.lines[at.Line-1]
	verb, name, _ := strings.Cut(strings.TrimSpace(l), " ")
	start := strings.Index(l, name) + 1
	if (verb != "allow" && verb != "deny") || name == "" || at.Col < start || at.Col > start+len(name) {
		return audit.Hover{}, false
	}
	allow, line := st.decide(name)
	md := fmt.Sprintf("**%s** is %s by line %d", name, map[bool]string{true: "allowed", false: "denied"}[allow], line)
	if line != at.Line {
		md += fmt.Sprintf(": this line is never read for %s", name)
	}
	return audit.Hover{Markdown: md, From: engine.Position{File: st.file, Line: at.Line, Col: start}, To: engine.Position{File: st.file, Line: at.Line, Col: start + len(name)}}, true
}

// The toy answers check and who-can, and hover in the language server,
// with no line of the command line or the language server naming it.
func TestToyCapabilities(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "locks.toyacl")
	if err := os.WriteFile(file, []byte("# the toy's locks\nallow alice\ndeny bob\nallow everyone\nallow bob\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runWith(toyRegistry, "check", "-f", file, "alice"); code != 0 || !strings.HasPrefix(out, "allowed: alice may open the toy\ndecided by line 2 at "+file+":2:1\n") {
		t.Errorf("check alice: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := runWith(toyRegistry, "check", "-f", file, "bob", "-o", "json"); code != 1 || !strings.Contains(out, `"system": "toy"`) || !strings.Contains(out, `"answer": "denied"`) || !strings.Contains(out, `"rule": "line 3"`) {
		t.Errorf("check bob: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runWith(toyRegistry, "check", "-f", file, "alice", "bob"); code != 2 || !strings.Contains(errOut, "toy: a toy question names one user (check USER, e.g. check -f") {
		t.Errorf("check with two users: exit %d %s", code, errOut)
	}
	if code, _, errOut := runWith(toyRegistry, "check", "-f", file, "alice", "--pod", "pod.yaml"); code != 2 || !strings.Contains(errOut, "a toy question takes none") {
		t.Errorf("check --pod: exit %d %s", code, errOut)
	}
	// the toy's own flag on the shared command (clikit.Extender): in its
	// help, its value in the toy's Load, refused for another system's file
	if code, out, _ := runWith(toyRegistry, "check", "--help"); code != 0 || !strings.Contains(out, "--up-to int") {
		t.Errorf("check --help has no --up-to: exit %d\n%s", code, out)
	}
	if code, out, errOut := runWith(toyRegistry, "check", "-f", file, "bob", "--up-to", "2"); code != 1 || !strings.HasPrefix(out, "denied: bob may not open the toy\ndecided by no line") {
		t.Errorf("check bob --up-to 2 (line 3 unread): exit %d\n%s%s", code, out, errOut)
	}
	queues := filepath.Join(dir, "queues.yaml")
	if err := os.WriteFile(queues, []byte("partitions:\n  - name: default\n    queues:\n      - name: root\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runWith(toyRegistry, "check", "-f", queues, "default", "root", "alice", "--up-to", "2"); code != 2 || !strings.Contains(errOut, "--up-to reads toy files; a yunikorn question takes none") {
		t.Errorf("check --up-to on a queue config: exit %d %s", code, errOut)
	}
	code, out, errOut := runWith(toyRegistry, "who-can", "-f", file)
	if code != 0 || !strings.Contains(out, "everyone:\n  *                        line 4 (first match) at "+file+":4:1\n") ||
		!strings.Contains(out, "users:\n  alice                    line 2 (first match)") || !strings.Contains(out, "denied:\n  bob                      line 3 (first match)") {
		t.Errorf("who-can: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := runWith(toyRegistry, "who-can", "-f", file, "-o", "json"); code != 0 || !strings.Contains(out, `"system": "toy"`) || !strings.Contains(out, `"denied": [`) {
		t.Errorf("who-can json: exit %d\n%s", code, out)
	}

	// hover, through the language server, over "bob" on line 5: line 3
	// decides for bob. The session ends only once the hover is answered:
	// exit ends the server whatever it still has to answer.
	uri := "file://" + file
	text, _ := os.ReadFile(file)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		var errOut bytes.Buffer
		Execute(toyRegistry, []string{"lsp"}, inR, outW, &errOut)
		outW.Close()
		close(done)
	}()
	send := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(inW, "Content-Length: %d\r\n\r\n%s", len(b), b)
	}
	hover := make(chan string, 1)
	go func() {
		r := bufio.NewReader(outR)
		for {
			var n int
			if _, err := fmt.Fscanf(r, "Content-Length: %d\r\n\r\n", &n); err != nil {
				hover <- "no answer: " + err.Error()
				return
			}
			body := make([]byte, n)
			if _, err := io.ReadFull(r, body); err != nil {
				hover <- "no answer: " + err.Error()
				return
			}
			if bytes.Contains(body, []byte(`"id":2,`)) {
				hover <- string(body)
				io.Copy(io.Discard, r)
				return
			}
		}
	}()
	send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{"capabilities": map[string]any{}}})
	send(map[string]any{"jsonrpc": "2.0", "method": "initialized", "params": map[string]any{}})
	send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "toy", "version": 1, "text": string(text)}}})
	send(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 4, "character": 7}}})
	var got string
	select {
	case got = <-hover:
	case <-time.After(5 * time.Minute): // a server that never answers, not a speed limit
		t.Fatal("the language server never answered the hover")
	}
	send(map[string]any{"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
	send(map[string]any{"jsonrpc": "2.0", "method": "exit"})
	inW.Close()
	<-done
	if !strings.Contains(got, `"id":2,"result":{"contents":{"kind":"markdown","value":"**bob** is denied by line 3: this line is never read for bob"},"range":{"start":{"line":4,"character":6},"end":{"line":4,"character":9}}}`) {
		t.Errorf("hover over bob:\n%s", got)
	}
}
