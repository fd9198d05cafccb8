package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"github.com/aclint/aclint/internal/systems"
	"io"
	"regexp"
	"unicode/utf8"

	"bytes"
	"gopkg.in/yaml.v3"
	"os"
	"path/filepath"
	"strings"

	"errors"
	"github.com/aclint/aclint/internal/cli"
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
			{"check", "-f", "examples/queues.yaml", "root.prod.etl", "alice", "--groups", "prod-team"},
			{"check", "-f", "examples/queues.yaml", "root.prod.reports", "bob"},
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
			cli.Execute(systems.New(), args, strings.NewReader(""), &out, &errOut)
			if !bytes.Contains(text, out.Bytes()) {
				t.Errorf("%s does not show the current output of aclint %s:\n%s", doc, strings.Join(args, " "), out.String())
			}
		}
	}
}

// TestTranscripts runs every "$ aclint ..." transcript of the docs as
// written, and compares its output with what the doc shows after it, so the
// docs' examples work in a clone. A transcript ending in 2>&1 shows
// standard error after standard output. They run in order in a scratch
// directory holding a copy of examples/, so a file a transcript writes
// (-o yaml=queues.yaml) lands there, as in a clone it lands in the clone.
func TestTranscripts(t *testing.T) {
	docs, _ := filepath.Glob("docs/*.md")
	docs = append(docs, "README.md")
	texts := map[string][]byte{}
	for _, doc := range docs {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		texts[doc] = text
	}
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "examples"), os.DirFS("examples")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	n := 0
	for _, doc := range docs {
		for _, blk := range strings.Split(string(texts[doc]), "```text\n")[1:] {
			blk = blk[:strings.Index(blk, "```")]
			first, want, _ := strings.Cut(blk, "\n")
			line, ok := strings.CutPrefix(first, "$ aclint ")
			line, both := strings.CutSuffix(line, " 2>&1")
			if !ok || strings.ContainsAny(line, "|<>'\"") {
				continue
			}
			n++
			var out, errOut bytes.Buffer
			cli.Execute(systems.New(), strings.Fields(line), strings.NewReader(""), &out, &errOut)
			got := out.String()
			if both {
				got += errOut.String()
			}
			if got != want {
				t.Errorf("%s: %s prints:\n%s\nthe doc shows:\n%s", doc, first, got, want)
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
		cases := map[string]bool{"queues.yaml": true, "deploy/queues.yml": true, "k8s/yunikorn-configs.yaml": true, "values.yaml": false, "myqueues.yaml": false}
		if h.Entry == "aclint lint" {
			// every system's files
			for path, want := range map[string]bool{"conf/capacity-scheduler.xml": true, "fair-scheduler.xml": true, "etc/hadoop/yarn-site.xml": true,
				"mesos/acls.json": true, "mesos-acls.json": true, "ytsaurus-tree.yaml": true, "cluster/prod.ytsaurus.json": true, "yt_acls.yml": true,
				"package.json": false, "pom.xml": false, "core-site.xml": false, "myacls.json": false} {
				cases[path] = want
			}
		}
		for path, want := range cases {
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

// TestPreCommitTryRepo runs the hooks as pre-commit runs them (pre-commit
// try-repo on this checkout, Debian's pre-commit) on a repository with a
// config of every system: each file is linted, a finding fails the hook,
// and a clean repository passes. Both the hook that builds aclint with Go
// (language: golang) and the one that takes it from the PATH run.
func TestPreCommitTryRepo(t *testing.T) {
	pc, err := exec.LookPath("pre-commit")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("pre-commit is missing in CI: .ci/run installs it")
		}
		t.Skip("pre-commit is not installed (apt-get install pre-commit, or run .ci/run)")
	}
	root, _ := os.Getwd()
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "aclint"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	repo := func(files map[string]string) string {
		dir := t.TempDir()
		for name, src := range files {
			b, err := os.ReadFile(filepath.Join(root, src))
			if err != nil {
				t.Fatal(err)
			}
			os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
			os.WriteFile(filepath.Join(dir, name), b, 0o644)
		}
		for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "configs"}} {
			cmd := exec.Command("git", args...)
			cmd.Dir = dir
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v\n%s", args, err, out)
			}
		}
		return dir
	}
	tryRepo := func(dir, hook string) (int, string) {
		cmd := exec.Command(pc, "try-repo", root, hook, "--all-files", "--verbose", "--color", "never")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PRE_COMMIT_HOME="+filepath.Join(t.TempDir(), "pre-commit"), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, string(out)
	}
	all := repo(map[string]string{
		"deploy/queues.yaml":            "examples/queues.yaml",
		"hadoop/capacity-scheduler.xml": "examples/yarn/capacity-scheduler.xml",
		"hadoop/yarn-site.xml":          "examples/yarn/yarn-site.xml",
		"mesos/acls.json":               "examples/mesos-acls.json",
		"yt/ytsaurus-tree.yaml":         "examples/ytsaurus-tree.yaml",
		"README.md":                     "README.md",
	})
	for _, hook := range []string{"aclint-system", "aclint"} {
		code, out := tryRepo(all, hook)
		if code != 1 {
			t.Errorf("%s on configs with findings: exit %d\n%s", hook, code, out)
		}
		for _, want := range []string{"deploy/queues.yaml:", "hadoop/capacity-scheduler.xml:", "mesos/acls.json:", "yt/ytsaurus-tree.yaml:"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: no finding in %s\n%s", hook, strings.TrimSuffix(want, ":"), out)
			}
		}
	}
	clean := repo(map[string]string{"queues.yaml": "examples/placement/queues.yaml"})
	if code, out := tryRepo(clean, "aclint-system"); code != 0 || !strings.Contains(out, "Passed") {
		t.Errorf("a clean config: exit %d\n%s", code, out)
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
	// each run's exit code and first line, held to testdata/hostile/expect.txt
	// (go test -run TestHostileCorpus -update writes it again)
	var got []string
	for _, f := range files {
		if strings.HasSuffix(f, ".md") || strings.HasSuffix(f, ".txt") {
			continue
		}
		var runs [][]string
		for _, o := range []string{"text", "json", "sarif", "github", "checkstyle", "junit", "gitlab"} {
			runs = append(runs, []string{"lint", "--color", "never", "-o", o, f})
		}
		if strings.HasSuffix(f, ".yaml") && !strings.HasPrefix(filepath.Base(f), "ytsaurus") {
			runs = append(runs,
				[]string{"check", "-f", f, "root", "alice"},
				[]string{"check", "-f", f, "root", "alice", "-o", "json", "--explain"},
				[]string{"who-can", "-f", f, "root"},
				[]string{"access", "-f", f, "alice", "--groups", "dev"},
				[]string{"matrix", "-f", f, "-o", "csv"},
				[]string{"matrix", "-f", f},
				[]string{"place", "-f", f, "alice", "--queue", "root.x"},
				[]string{"report", "-o", "html", "-f", f},
				[]string{"test", "--generate", "-f", f},
				[]string{"lint", "--diff", f},
			)
		}
		// the audits over another system's files, whose names carry the
		// escapes: who-can, access and matrix in every format, diff
		switch base := filepath.Base(f); {
		case strings.HasPrefix(base, "mesos"):
			runs = append(runs, []string{"who-can", "-f", f, "run_tasks", "-o", "csv"}, []string{"access", "-f", f, "a\x1b[2J"},
				[]string{"access", "-f", f, "a\x1b[2J", "-o", "csv"}, []string{"access", "-f", f, "-", "-o", "json"})
		case strings.HasPrefix(base, "ytsaurus"):
			runs = append(runs, []string{"who-can", "-f", f, "//home", "read"}, []string{"access", "-f", f, "u\x1b[2J"},
				[]string{"access", "-f", f, "u\x1b[2J", "-o", "csv"}, []string{"access", "-f", f, "u\x1b[2J", "-o", "json"})
		}
		if strings.HasPrefix(filepath.Base(f), "mesos") || strings.HasPrefix(filepath.Base(f), "ytsaurus") {
			runs = append(runs, []string{"matrix", "-f", f}, []string{"matrix", "-f", f, "--layout", "list"}, []string{"matrix", "-f", f, "-o", "csv"},
				[]string{"matrix", "-f", f, "-o", "json"}, []string{"diff", f, f}, []string{"diff", "--flat", "-o", "json", f, f}, []string{"diff", "-o", "markdown", f, f})
		}
		for _, args := range runs {
			var out, errOut bytes.Buffer
			code := cli.Execute(systems.New(), args, strings.NewReader(""), &out, &errOut)
			n++
			what := strings.Join(args, " ")
			got = append(got, fmt.Sprintf("%s\t%d\t%s", what, code, firstLine(errOut.String(), out.String())))
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
	const expect = "testdata/hostile/expect.txt"
	text := strings.Join(got, "\n") + "\n"
	if *update {
		if err := os.WriteFile(expect, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(expect)
	if err != nil {
		t.Fatal(err)
	}
	wl, gl := strings.Split(string(want), "\n"), strings.Split(text, "\n")
	for i := 0; i < max(len(wl), len(gl)); i++ {
		w, g := "", ""
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			t.Errorf("%s:%d: the run gives\n\t%q\nwhere the corpus expects\n\t%q", expect, i+1, g, w)
		}
	}
}

// firstLine is what a hostile run says first: its first line on standard
// error, else on standard output, cut at 160 bytes (whole UTF-8 sequences).
func firstLine(errOut, out string) string {
	s := errOut
	if strings.TrimSpace(s) == "" {
		s = out
	}
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 160 {
		s = strings.ToValidUTF8(s[:160], "")
	}
	return strings.ReplaceAll(s, "\t", " ")
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

// TestCIExamplesRun runs every aclint command of the CI examples as written,
// in a repository laid out as they expect (deploy/queues.yaml and
// deploy/aclint-tests.yaml): none may be refused as a usage error (exit 2).
// And a failing lint must not hide the other checks: in the GitHub workflow
// every step after the first aclint step runs unless cancelled, in GitLab
// each aclint command is its own job.
func TestCIExamplesRun(t *testing.T) {
	repo := t.TempDir()
	tmp := t.TempDir()
	os.MkdirAll(filepath.Join(repo, "deploy"), 0o755)
	for name, text := range map[string]string{
		"deploy/queues.yaml":       "partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: \" admins\"\n        queues:\n          - name: prod\n            submitacl: \"system:serviceaccount:etl:runner etl\"\n          - name: default\n",
		"deploy/aclint-tests.yaml": "config: queues.yaml\npartition: default\ncases:\n  - user: alice\n    groups: [admins]\n    queue: root.default\n    expect: allow\n",
		"base.yaml":                "",
	} {
		os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644)
	}
	os.WriteFile(filepath.Join(tmp, "base.yaml"), nil, 0o644)
	t.Chdir(repo)
	env := strings.NewReplacer(`"$RUNNER_TEMP`, `"`+tmp, `$RUNNER_TEMP`, tmp, `"$CONFIG"`, "deploy/queues.yaml", `$CONFIG`, "deploy/queues.yaml")
	ran := 0
	runLine := func(where, line string) {
		line = env.Replace(line)
		if i := strings.Index(line, "||"); i >= 0 {
			line = line[:i]
		}
		out := ""
		if i := strings.Index(line, ">"); i >= 0 {
			out = strings.Trim(strings.TrimSpace(line[i+1:]), `"`)
			line = line[:i]
		}
		var args []string
		for _, f := range strings.Fields(line)[1:] {
			args = append(args, strings.Trim(f, `"`))
		}
		var stdout, stderr bytes.Buffer
		code := cli.Execute(systems.New(), args, strings.NewReader(""), &stdout, &stderr)
		if out != "" {
			os.WriteFile(out, stdout.Bytes(), 0o644)
		}
		ran++
		if code == 2 {
			t.Errorf("%s: %q is refused (exit 2):\n%s", where, line, stderr.String())
		}
	}
	aclintLines := func(script string) []string {
		var out []string
		for _, l := range strings.Split(script, "\n") {
			if l = strings.TrimSpace(l); strings.HasPrefix(l, "aclint ") {
				out = append(out, l)
			}
		}
		return out
	}

	var gh struct {
		Jobs map[string]struct {
			Steps []struct {
				If  string `yaml:"if"`
				Run string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	b, _ := os.ReadFile(filepath.Join(origDir, "examples/ci/github-workflow.yml"))
	if err := yaml.Unmarshal(b, &gh); err != nil {
		t.Fatal(err)
	}
	for job, j := range gh.Jobs {
		seen := false
		for i, st := range j.Steps {
			if seen && !strings.Contains(st.If, "!cancelled()") && !strings.Contains(st.If, "always()") {
				t.Errorf("github %s step %d runs only when every earlier step passed: add if: ${{ !cancelled() }}", job, i+1)
			}
			for _, l := range aclintLines(st.Run) {
				runLine(fmt.Sprintf("github %s step %d", job, i+1), l)
				seen = true
			}
		}
	}
	var gl map[string]struct {
		Script []string `yaml:"script"`
	}
	b, _ = os.ReadFile(filepath.Join(origDir, "examples/ci/gitlab-ci.yml"))
	if err := yaml.Unmarshal(b, &gl); err != nil {
		t.Fatal(err)
	}
	for job, j := range gl {
		lines := aclintLines(strings.Join(j.Script, "\n"))
		if len(lines) > 1 {
			t.Errorf("gitlab job %s runs %d aclint commands: a failing one skips the rest; give each its own job", job, len(lines))
		}
		for _, l := range lines {
			runLine("gitlab "+job, l)
		}
	}
	if ran < 5 {
		t.Errorf("only %d aclint commands found in the CI examples", ran)
	}
}

// origDir is the repository root, where the tests start.
var origDir, _ = os.Getwd()
