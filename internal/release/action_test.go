package release

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// The GitHub Action (action.yml) is run here as a runner runs a composite
// action: each step's env and run with ${{ }} expressions filled in, in
// bash, in a temporary workspace that is a pull request's checkout, with
// the GITHUB_* and RUNNER_* files and variables a runner sets (GITHUB_PATH
// carried to the next steps, GITHUB_OUTPUT read into the step's outputs),
// installing the release built by make release from a file:// URL: no
// network.

type actionFile struct {
	Inputs map[string]struct{ Default string }
	Runs   struct {
		Using string
		Steps []struct {
			ID    string
			Name  string
			Shell string
			Env   map[string]string
			Run   string
			If    string
		}
	}
}

type runner struct {
	t         *testing.T
	action    actionFile
	root      string // the action's checkout
	workspace string
	temp      string
	env       map[string]string // GITHUB_* and RUNNER_*
	inputs    map[string]string
	path      []string // GITHUB_PATH entries, newest first
	outputs   map[string]map[string]string
	logs      strings.Builder
}

var expr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

func (r *runner) eval(s string) string {
	return expr.ReplaceAllStringFunc(s, func(m string) string {
		e := expr.FindStringSubmatch(m)[1]
		switch {
		case strings.HasPrefix(e, "inputs."):
			name := strings.TrimPrefix(e, "inputs.")
			if v, ok := r.inputs[name]; ok {
				return v
			}
			in, ok := r.action.Inputs[name]
			if !ok {
				r.t.Fatalf("action.yml uses an input it does not declare: %s", name)
			}
			return in.Default
		case e == "github.action_path":
			return r.root
		case e == "github.action_ref":
			return r.env["GITHUB_ACTION_REF"]
		case e == "github.action_repository":
			return r.env["GITHUB_ACTION_REPOSITORY"]
		case strings.HasPrefix(e, "steps."):
			parts := strings.SplitN(e, ".", 4)
			if len(parts) == 4 && parts[2] == "outputs" {
				return r.outputs[parts[1]][parts[3]]
			}
		}
		r.t.Fatalf("expression the test runner does not know: %s", e)
		return ""
	})
}

// run runs every step and returns the last one's exit code (a failed step
// stops the action, as on a runner).
func (r *runner) run() int {
	r.t.Helper()
	if r.action.Runs.Using != "composite" {
		r.t.Fatalf("runs.using %q", r.action.Runs.Using)
	}
	for i, st := range r.action.Runs.Steps {
		if st.Shell != "bash" || st.If != "" {
			r.t.Fatalf("step %d: shell %q, if %q: every step runs in bash, unconditionally", i, st.Shell, st.If)
		}
		out := filepath.Join(r.temp, fmt.Sprintf("output-%d", i))
		os.WriteFile(out, nil, 0o644)
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", r.eval(st.Run))
		cmd.Dir = r.workspace
		env := []string{"HOME=" + os.Getenv("HOME"), "GITHUB_OUTPUT=" + out,
			"PATH=" + strings.Join(append(append([]string{}, r.path...), os.Getenv("PATH")), string(os.PathListSeparator))}
		for _, k := range []string{"GOCACHE", "GOPATH", "GOMODCACHE", "GOFLAGS", "GOPROXY"} {
			if v, ok := os.LookupEnv(k); ok {
				env = append(env, k+"="+v)
			}
		}
		for k, v := range r.env {
			env = append(env, k+"="+v)
		}
		for k, v := range st.Env {
			env = append(env, k+"="+r.eval(v))
		}
		cmd.Env = env
		b, err := cmd.CombinedOutput()
		fmt.Fprintf(&r.logs, "== %s\n%s", st.Name, b)
		code := 0
		if err != nil {
			ee, ok := err.(*exec.ExitError)
			if !ok {
				r.t.Fatal(err)
			}
			code = ee.ExitCode()
		}
		r.outputs[st.ID] = readKV(r.t, out)
		// GITHUB_PATH: what a step added is on the PATH of the next ones
		r.path = nil
		if f, err := os.Open(r.env["GITHUB_PATH"]); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				r.path = append([]string{sc.Text()}, r.path...)
			}
			f.Close()
		}
		if code != 0 {
			return code
		}
	}
	return 0
}

func readKV(t *testing.T, path string) map[string]string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	kv := map[string]string{}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			kv[k] = v
		}
	}
	return kv
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// newRunner lays out a pull request: origin's main has deploy/queues.yaml,
// the pull request (checked out) changes its ACLs and adds a YARN file.
func newRunner(t *testing.T, releases string, inputs map[string]string) *runner {
	root := repoRoot(t)
	b, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{t: t, root: root, inputs: inputs, outputs: map[string]map[string]string{}}
	if err := yaml.Unmarshal(b, &r.action); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	origin := filepath.Join(tmp, "origin")
	os.MkdirAll(filepath.Join(origin, "deploy"), 0o755)
	copyFile(t, filepath.Join(root, "examples/audits/queues.yaml"), filepath.Join(origin, "deploy/queues.yaml"))
	git(t, origin, "init", "-q", "-b", "main")
	git(t, origin, "add", ".")
	git(t, origin, "commit", "-q", "-m", "base")
	r.workspace = filepath.Join(tmp, "workspace")
	git(t, tmp, "clone", "-q", origin, r.workspace)
	git(t, r.workspace, "checkout", "-q", "-b", "pr")
	copyFile(t, filepath.Join(root, "examples/audits/changed.yaml"), filepath.Join(r.workspace, "deploy/queues.yaml"))
	os.MkdirAll(filepath.Join(r.workspace, "deploy/yarn"), 0o755)
	copyFile(t, filepath.Join(root, "examples/yarn/capacity-scheduler.xml"), filepath.Join(r.workspace, "deploy/yarn/capacity-scheduler.xml"))
	copyFile(t, filepath.Join(root, "examples/yarn/yarn-site.xml"), filepath.Join(r.workspace, "deploy/yarn/yarn-site.xml"))
	git(t, r.workspace, "add", ".")
	git(t, r.workspace, "commit", "-q", "-m", "pr")
	r.temp = filepath.Join(tmp, "runner-temp")
	os.MkdirAll(r.temp, 0o755)
	r.env = map[string]string{
		"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": r.workspace, "GITHUB_ACTION_PATH": root,
		"GITHUB_EVENT_NAME": "pull_request", "GITHUB_BASE_REF": "main", "GITHUB_HEAD_REF": "pr", "GITHUB_ACTION_REF": testVersion, "GITHUB_ACTION_REPOSITORY": "aclint/aclint",
		"GITHUB_PATH": filepath.Join(tmp, "github_path"), "GITHUB_STEP_SUMMARY": filepath.Join(tmp, "summary.md"),
		"RUNNER_TEMP": r.temp, "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64",
	}
	os.WriteFile(r.env["GITHUB_PATH"], nil, 0o644)
	os.WriteFile(r.env["GITHUB_STEP_SUMMARY"], nil, 0o644)
	if releases != "" {
		r.inputs["release-url"] = "file://" + releases
	}
	return r
}

func copyFile(t *testing.T, from, to string) {
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// releases lays the release out as GitHub serves it: VERSION/FILE.
func releases(t *testing.T) string {
	d := dist(t)
	dir := t.TempDir()
	if err := os.Symlink(d, filepath.Join(dir, testVersion)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestActionOnPullRequest: the action installs the release for the runner
// (checked against SHA256SUMS), lints with annotations, writes SARIF,
// puts the access diff of the changed configs into the job summary, and
// fails the job with lint's exit code.
func TestActionOnPullRequest(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the runner here is linux/amd64")
	}
	r := newRunner(t, releases(t), map[string]string{"files": "deploy"})
	code := r.run()
	logs := r.logs.String()
	if code != 1 {
		t.Fatalf("the action exited %d, want 1 (a warning in deploy/queues.yaml)\n%s", code, logs)
	}
	if !strings.Contains(logs, "aclint "+testVersion+" (commit 0123456789abcdef") {
		t.Errorf("the release was not the one installed:\n%s", logs)
	}
	if !regexp.MustCompile(`(?m)^::warning file=deploy/queues.yaml,line=\d+`).MatchString(logs) {
		t.Errorf("no annotation on the job log:\n%s", logs)
	}
	sarif := r.outputs["lint"]["sarif"]
	var doc struct {
		Version string
		Runs    []struct {
			Tool    struct{ Driver struct{ Name string } }
			Results []struct{ RuleID string }
		}
	}
	b, err := os.ReadFile(filepath.Join(r.workspace, sarif))
	if err != nil || json.Unmarshal(b, &doc) != nil || doc.Version != "2.1.0" || len(doc.Runs) != 1 || doc.Runs[0].Tool.Driver.Name != "aclint" || len(doc.Runs[0].Results) == 0 {
		t.Errorf("SARIF output %q: %v\n%s", sarif, err, b)
	}
	summary, _ := os.ReadFile(r.env["GITHUB_STEP_SUMMARY"])
	s := string(summary)
	t.Logf("job summary:\n%s", s)
	for _, want := range []string{"## aclint: access changes", "### `deploy/queues.yaml`", "etl-admins", "### `deploy/yarn/capacity-scheduler.xml`"} {
		if !strings.Contains(s, want) {
			t.Errorf("the job summary has no %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "yarn-site.xml`\n\nnot compared") && !strings.Contains(s, "not compared: ") {
		t.Errorf("summary: %s", s)
	}
}

// TestActionRefusesATamperedRelease: an archive that does not match
// SHA256SUMS is not installed, and the action fails before linting.
func TestActionRefusesATamperedRelease(t *testing.T) {
	d := dist(t)
	dir := t.TempDir()
	rel := filepath.Join(dir, testVersion)
	os.MkdirAll(rel, 0o755)
	for _, n := range []string{"SHA256SUMS", ArchiveName(testVersion, Platform{"linux", "amd64"})} {
		copyFile(t, filepath.Join(d, n), filepath.Join(rel, n))
	}
	f, _ := os.OpenFile(filepath.Join(rel, ArchiveName(testVersion, Platform{"linux", "amd64"})), os.O_WRONLY|os.O_APPEND, 0)
	f.Write([]byte("tampered"))
	f.Close()
	r := newRunner(t, dir, map[string]string{"files": "deploy"})
	if code := r.run(); code != 2 || !strings.Contains(r.logs.String(), "does not match its SHA256SUMS entry: not installed") {
		t.Fatalf("tampered archive: exit %d\n%s", code, r.logs.String())
	}
	if _, ok := r.outputs["lint"]; ok {
		t.Error("the lint step ran after a failed install")
	}
}

// TestActionBuildsWithGo: build: true builds aclint from the action's own
// checkout with Go instead of downloading a release.
func TestActionBuildsWithGo(t *testing.T) {
	r := newRunner(t, "", map[string]string{"files": "deploy/yarn", "build": "true", "format": "text"})
	r.env["GITHUB_EVENT_NAME"] = "push"
	code := r.run()
	logs := r.logs.String()
	if code != 1 || !strings.Contains(logs, "building aclint from") || !strings.Contains(logs, "aclint devel (commit ") {
		t.Fatalf("build: true: exit %d\n%s", code, logs)
	}
	if s, _ := os.ReadFile(r.env["GITHUB_STEP_SUMMARY"]); len(s) != 0 {
		t.Errorf("a push wrote a diff summary: %s", s)
	}
}

// TestActionResolvesAMajorTag: uses: aclint/aclint@v0 installs the newest
// release of that line from the release listing, passing over pre-releases
// and drafts and other lines, instead of building from source; a line
// with no release is exit 2, saying so.
func TestActionResolvesAMajorTag(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the runner here is linux/amd64")
	}
	listing := filepath.Join(t.TempDir(), "releases.json")
	// as GitHub's API lists them: newest first, author before tag_name
	os.WriteFile(listing, []byte(`[
  {"id": 4, "author": {"login": "x"}, "tag_name": "v1.2.0", "draft": false, "prerelease": false, "assets": []},
  {"id": 3, "author": {"login": "x"}, "tag_name": "v0.9.0", "draft": false, "prerelease": true, "assets": []},
  {"id": 2, "author": {"login": "x"}, "tag_name": "v0.8.0", "draft": true, "prerelease": false, "assets": []},
  {"id": 1, "author": {"login": "x"}, "tag_name": "`+testVersion+`", "draft": false, "prerelease": false, "assets": [{"name": "a"}]},
  {"id": 0, "author": {"login": "x"}, "tag_name": "v10.0.0", "draft": false, "prerelease": false, "assets": []}
]`), 0o644)
	r := newRunner(t, releases(t), map[string]string{"files": "deploy", "releases-api": "file://" + listing})
	r.env["GITHUB_ACTION_REF"] = "v0"
	code := r.run()
	logs := r.logs.String()
	if code != 1 || !strings.Contains(logs, "v0 is release "+testVersion) || !strings.Contains(logs, "aclint "+testVersion+" (commit") || strings.Contains(logs, "building aclint") {
		t.Fatalf("@v0: exit %d\n%s", code, logs)
	}
	r = newRunner(t, releases(t), map[string]string{"files": "deploy", "releases-api": "file://" + listing})
	r.env["GITHUB_ACTION_REF"] = "v2"
	if code := r.run(); code != 2 || !strings.Contains(r.logs.String(), "no release matches v2") {
		t.Fatalf("@v2: exit %d\n%s", code, r.logs.String())
	}
}

// TestActionDiffHostileNames: a changed config named like a flag is
// compared as a file (not read as -o or --help), and a name with a newline
// or backticks stays inside its heading's code span.
func TestActionDiffHostileNames(t *testing.T) {
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("the runner here is linux/amd64")
	}
	r := newRunner(t, releases(t), map[string]string{"files": "."})
	names := []string{"-omarkdown=x.yaml", "--help.yaml", "a\n## pwned ``\n.yaml"}
	base := filepath.Join(filepath.Dir(r.workspace), "origin")
	for _, n := range names {
		copyFile(t, filepath.Join(r.root, "examples/audits/queues.yaml"), filepath.Join(base, n))
	}
	git(t, base, "add", "--", ".")
	git(t, base, "commit", "-q", "-m", "more")
	git(t, r.workspace, "fetch", "-q", "origin", "main:refs/remotes/origin/main")
	git(t, r.workspace, "merge", "-q", "--no-edit", "origin/main")
	for _, n := range names {
		copyFile(t, filepath.Join(r.root, "examples/audits/changed.yaml"), filepath.Join(r.workspace, n))
	}
	git(t, r.workspace, "add", "--", ".")
	git(t, r.workspace, "commit", "-q", "-m", "change them")
	r.run()
	summary, _ := os.ReadFile(r.env["GITHUB_STEP_SUMMARY"])
	s := string(summary)
	for _, want := range []string{"### `-omarkdown=x.yaml`\n", "### `--help.yaml`\n", "### ``` a\\n## pwned ``\\n.yaml ```\n"} {
		i := strings.Index(s, want)
		if i < 0 {
			t.Errorf("no heading %q in the summary:\n%s", want, s)
			continue
		}
		if next := s[i+len(want):]; strings.HasPrefix(strings.TrimSpace(next), "not compared") || !strings.Contains(next[:min(len(next), 400)], "etl-admins") {
			t.Errorf("%q was not compared:\n%.400s", want, next)
		}
	}
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, "## pwned") {
			t.Errorf("a file name started a heading:\n%s", s)
		}
	}
	if _, err := os.Stat(filepath.Join(r.workspace, "x.yaml")); err == nil {
		t.Error("a file name was read as -o markdown=x.yaml")
	}
}
