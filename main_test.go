package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"unicode/utf8"

	"bytes"
	"gopkg.in/yaml.v3"
	"os"
	"path/filepath"
	"strings"

	"errors"
	"github.com/aclint/aclint/cmd"
	"os/exec"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run the real aclint binary: the test binary
// re-executes itself as "aclint" with main's exact behaviour and exit codes.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"aclint": main})
}

// TestScripts runs testdata/script/*.txtar: CLI behaviour, output and exit
// codes. Refresh expected output with: go test -run TestScripts -update
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits": exits,
		},
	})
}

// exits N CMD ARGS... runs CMD like exec and asserts its exact exit code,
// keeping stdout and stderr for the commands that follow.
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad code %q", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("exits: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// TestReadmeExamples keeps the outputs quoted in README.md true: each command
// shown there must print exactly what the README says.
func TestReadmeExamples(t *testing.T) {
	for doc, commands := range map[string][][]string{
		"README.md": {
			{"lint", "--color", "never", "examples/queues.yaml"},
			{"check", "-f", "examples/queues.yaml", "default", "root.prod.etl", "alice", "--groups", "prod-team"},
			{"check", "-f", "examples/queues.yaml", "default", "root.prod.reports", "bob"},
			{"lint", "--color", "never", "examples/mesos-acls.json"},
		},
		"docs/mesos.md": {
			{"mesos", "check", "-f", "examples/mesos-acls.json", "run_tasks", "--principal", "ops", "--object", "root"},
		},
		"docs/ytsaurus.md": {
			{"lint", "--color", "never", "examples/ytsaurus-tree.yaml"},
			{"yt", "check", "-f", "examples/ytsaurus-tree.yaml", "bob", "read", "//home/reports/customers", "--columns", "email,name"},
			{"yt", "check", "-f", "examples/ytsaurus-tree.yaml", "alice", "write", "//home/reports"},
			{"yt", "check", "-f", "examples/ytsaurus-tree.yaml", "bob", "remove", "//home/reports/customers"},
			{"yt", "check", "-f", "examples/ytsaurus-tree.yaml", "bob", "read", "//home/reports/customers", "--columns", "email,name", "-o", "json"},
			{"yt", "effective-acl", "-f", "examples/ytsaurus-tree.yaml", "//home/reports/customers", "-o", "text"},
		},
	} {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range commands {
			var out, errOut bytes.Buffer
			cmd.Execute(args, strings.NewReader(""), &out, &errOut)
			if !bytes.Contains(text, out.Bytes()) {
				t.Errorf("%s does not show the current output of aclint %s:\n%s", doc, strings.Join(args, " "), out.String())
			}
		}
	}
}

// TestTranscripts runs every "$ aclint ..." transcript of the docs as
// written, from the repository root, and compares its output with what the
// doc shows after it, so the docs' examples work in a clone.
func TestTranscripts(t *testing.T) {
	docs, _ := filepath.Glob("docs/*.md")
	n := 0
	for _, doc := range append(docs, "README.md") {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, blk := range strings.Split(string(text), "```text\n")[1:] {
			blk = blk[:strings.Index(blk, "```")]
			first, want, _ := strings.Cut(blk, "\n")
			line, ok := strings.CutPrefix(first, "$ aclint ")
			if !ok || strings.ContainsAny(line, "|<>'\"") {
				continue
			}
			n++
			var out, errOut bytes.Buffer
			cmd.Execute(strings.Fields(line), strings.NewReader(""), &out, &errOut)
			if out.String() != want {
				t.Errorf("%s: $ aclint %s prints:\n%s\nthe doc shows:\n%s", doc, line, out.String(), want)
			}
		}
	}
	if n < 2 {
		t.Fatalf("only %d transcripts found in the docs", n)
	}
}

// The pre-commit hooks name a files pattern that matches queue configs and
// YuniKorn ConfigMaps, and run aclint lint.
func TestPreCommitHooks(t *testing.T) {
	b, err := os.ReadFile(".pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID, Name, Entry, Language, Files string
		PassFilenames                    *bool `yaml:"pass_filenames"`
	}
	if err := yaml.Unmarshal(b, &hooks); err != nil || len(hooks) == 0 {
		t.Fatalf("not a hook list: %v", err)
	}
	for _, h := range hooks {
		if h.ID == "" || h.Name == "" || h.Language == "" || (h.Entry != "aclint lint" && h.Entry != "aclint test") {
			t.Errorf("hook %+v misses a required field", h)
		}
		// aclint test runs its test file, not the files that changed
		if h.Entry == "aclint test" && (h.PassFilenames == nil || *h.PassFilenames) {
			t.Errorf("hook %s must set pass_filenames: false", h.ID)
		}
		re, err := regexp.Compile(h.Files)
		if err != nil {
			t.Fatalf("%s: files pattern: %v", h.ID, err)
		}
		for path, want := range map[string]bool{"queues.yaml": true, "deploy/queues.yml": true, "k8s/yunikorn-configs.yaml": true, "values.yaml": false, "myqueues.yaml": false} {
			if re.MatchString(path) != want {
				t.Errorf("%s: files pattern on %s: want %v", h.ID, path, want)
			}
		}
	}
	for _, wf := range []string{"examples/ci/github-workflow.yml", "examples/ci/gitlab-ci.yml"} {
		b, err := os.ReadFile(wf)
		var v map[string]any
		if err != nil || yaml.Unmarshal(b, &v) != nil {
			t.Errorf("%s is not valid YAML: %v", wf, err)
		}
	}
}

// TestHostileCorpus runs every command and output format on the hostile
// inputs of testdata/hostile and holds the output to docs/security.md: an
// exit code of 0, 1 or 2; no escape or control character, no bidirectional
// override, no invalid UTF-8 and no line that would start a GitHub Actions
// workflow command, on standard output or standard error; JSON and SARIF
// that parse; XML that is well-formed.
func TestHostileCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/hostile/*.*")
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".md") {
			continue
		}
		var runs [][]string
		for _, o := range []string{"text", "json", "sarif", "github", "checkstyle", "junit", "gitlab"} {
			runs = append(runs, []string{"lint", "--color", "never", "-o", o, f})
		}
		if strings.HasSuffix(f, ".yaml") && !strings.HasPrefix(filepath.Base(f), "ytsaurus") {
			runs = append(runs,
				[]string{"check", "-f", f, "default", "root", "alice"},
				[]string{"check", "-f", f, "default", "root", "alice", "-o", "json", "--explain"},
				[]string{"who-can", "-f", f, "default", "root"},
				[]string{"access", "-f", f, "alice", "--groups", "dev"},
				[]string{"matrix", "-f", f, "-o", "csv"},
				[]string{"matrix", "-f", f},
				[]string{"place", "-f", f, "default", "alice", "--queue", "root.x"},
				[]string{"report", "-o", "html", "-f", f},
				[]string{"test", "--generate", "-f", f},
				[]string{"lint", "--diff", f},
			)
		}
		for _, args := range runs {
			var out, errOut bytes.Buffer
			code := cmd.Execute(args, strings.NewReader(""), &out, &errOut)
			n++
			what := strings.Join(args, " ")
			if code < 0 || code > 2 {
				t.Errorf("%s: exit %d", what, code)
			}
			for name, b := range map[string][]byte{"stdout": out.Bytes(), "stderr": errOut.Bytes()} {
				if msg := unsafeOutput(b, args); msg != "" {
					t.Errorf("%s: %s %s:\n%.600q", what, name, msg, b)
				}
			}
			format := ""
			for i, a := range args {
				if a == "-o" && i+1 < len(args) {
					format = args[i+1]
				}
			}
			switch format {
			case "json", "sarif", "gitlab":
				if out.Len() > 0 && !json.Valid(out.Bytes()) {
					t.Errorf("%s: output is not JSON:\n%.600s", what, out.String())
				}
			case "checkstyle", "junit":
				dec := xml.NewDecoder(bytes.NewReader(out.Bytes()))
				for {
					if _, err := dec.Token(); err != nil {
						if err != io.EOF {
							t.Errorf("%s: XML is not well-formed: %v", what, err)
						}
						break
					}
				}
			}
		}
	}
	if n < 100 {
		t.Fatalf("only %d runs", n)
	}
}

// unsafeOutput says what in b must not reach a terminal or a CI log.
func unsafeOutput(b []byte, args []string) string {
	if !utf8.Valid(b) {
		return "is not valid UTF-8"
	}
	github := strings.Contains(strings.Join(args, " "), "-o github")
	for i, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "::") && !(github && githubCommand.MatchString(line)) {
			return fmt.Sprintf("line %d starts a workflow command: %q", i+1, line)
		}
		for _, r := range line {
			switch {
			case r < 0x20 && r != '\t', r == 0x7f, r >= 0x80 && r < 0xa0, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029:
				return fmt.Sprintf("line %d carries %U", i+1, r)
			}
		}
	}
	return ""
}

var githubCommand = regexp.MustCompile(`^::(error|warning|notice) file=[^:]*,line=\d+,col=\d+,endColumn=\d+,title=aclint [a-z-]+::`)
