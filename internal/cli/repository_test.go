package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRepositoryPathsStayInside: a path that a file in a repository names
// (.aclint.yaml found next to the linted files, a test file's config: and
// groupsFile:) is read only as a regular file inside the repository: a
// link out of it, a path outside it, a FIFO or /dev/stdin is refused with
// exit 2, naming the file and why, and nothing of the target is printed.
// The same paths typed on the command line are read.
func TestRepositoryPathsStayInside(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "shadow")
	os.WriteFile(secret, []byte("root:TOPSECRET:19000:0:99999:7:::\nqueue: TOPSECRET2\n"), 0o600)
	queues := "partitions: [{name: default, queues: [{name: root, submitacl: \"*\", queues: [{name: a}]}]}]\n"

	repo := func(t *testing.T) string {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, ".git"), 0o755)
		os.WriteFile(filepath.Join(dir, "queues.yaml"), []byte(queues), 0o644)
		return dir
	}
	// within a minute: a FIFO must not hang the run
	runIn := func(t *testing.T, args ...string) (int, string) {
		done := make(chan struct{})
		var code int
		var out, errOut string
		go func() { code, out, errOut = run(args...); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Fatalf("%q hangs", args)
		}
		return code, out + errOut
	}
	refused := func(t *testing.T, code int, out string, want ...string) {
		t.Helper()
		if code != 2 || strings.Contains(out, "TOPSECRET") {
			t.Errorf("exit %d, want 2 without the target's content:\n%s", code, out)
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("no %q in:\n%s", w, out)
			}
		}
	}

	t.Run("settings link out", func(t *testing.T) {
		dir := repo(t)
		os.Symlink(secret, filepath.Join(dir, ".aclint.yaml"))
		code, out := runIn(t, "lint", dir)
		refused(t, code, out, ".aclint.yaml: it is a link that leads out of the repository", "name it on the command line")
		// with --config the same path is the user's own
		code, out = runIn(t, "lint", "--config", filepath.Join(dir, ".aclint.yaml"), dir)
		if code != 2 || !strings.Contains(out, "unknown setting") {
			t.Errorf("--config: exit %d\n%s", code, out)
		}
	})
	t.Run("settings to /dev/stdin", func(t *testing.T) {
		dir := repo(t)
		os.Symlink("/dev/stdin", filepath.Join(dir, ".aclint.yaml"))
		code, out := runIn(t, "lint", dir)
		refused(t, code, out, ".aclint.yaml: it is a link that leads out of the repository")
	})
	t.Run("settings FIFO", func(t *testing.T) {
		dir := repo(t)
		if err := syscall.Mkfifo(filepath.Join(dir, ".aclint.yaml"), 0o644); err != nil {
			t.Skip("no mkfifo")
		}
		code, out := runIn(t, "lint", dir)
		refused(t, code, out, ".aclint.yaml: it is a FIFO, not a regular file")
	})
	t.Run("settings link inside", func(t *testing.T) {
		dir := repo(t)
		os.Mkdir(filepath.Join(dir, "conf"), 0o755)
		os.WriteFile(filepath.Join(dir, "conf", "aclint.yaml"), []byte("fail-on: error\n"), 0o644)
		os.Symlink(filepath.Join("conf", "aclint.yaml"), filepath.Join(dir, ".aclint.yaml"))
		if code, out := runIn(t, "lint", dir); code != 0 {
			t.Errorf("a link inside the repository: exit %d\n%s", code, out)
		}
	})
	for _, tc := range []struct{ name, config, want string }{
		{"config absolute", secret, "it lies outside the repository"},
		{"config dotdot", "../" + filepath.Base(outside) + "/shadow", "it lies outside the repository"},
		{"config link", "leak.yaml", "it is a link that leads out of the repository"},
		{"config stdin", "/dev/stdin", "it lies outside the repository"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := repo(t)
			os.Symlink(secret, filepath.Join(dir, "leak.yaml"))
			config := tc.config
			if strings.HasPrefix(config, "../") { // relative to a repository beside outside
				rel, _ := filepath.Rel(dir, secret)
				config = rel
			}
			tests := filepath.Join(dir, "aclint-tests.yaml")
			os.WriteFile(tests, []byte("config: "+config+"\ncases:\n  - {user: alice, queue: root.a, expect: allow}\n"), 0o644)
			code, out := runIn(t, "test", tests)
			refused(t, code, out, "aclint-tests.yaml: config: ", tc.want)
		})
	}
	t.Run("groupsFile", func(t *testing.T) {
		dir := repo(t)
		os.Symlink(secret, filepath.Join(dir, "groups.yaml"))
		tests := filepath.Join(dir, "aclint-tests.yaml")
		os.WriteFile(tests, []byte("config: queues.yaml\nresolver: file\ngroupsFile: groups.yaml\ncases:\n  - {user: alice, queue: root.a, expect: allow}\n"), 0o644)
		code, out := runIn(t, "test", tests)
		refused(t, code, out, "groups.yaml: it is a link that leads out of the repository")
		os.Remove(filepath.Join(dir, "groups.yaml"))
		os.WriteFile(filepath.Join(dir, "groups.yaml"), []byte("alice: [dev]\n"), 0o644)
		if code, out := runIn(t, "test", tests); code != 0 {
			t.Errorf("a groups file inside: exit %d\n%s", code, out)
		}
	})
	t.Run("no git: the test file's directory", func(t *testing.T) {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, "t"), 0o755)
		os.WriteFile(filepath.Join(dir, "queues.yaml"), []byte(queues), 0o644)
		tests := filepath.Join(dir, "t", "aclint-tests.yaml")
		os.WriteFile(tests, []byte("config: ../queues.yaml\ncases:\n  - {user: alice, queue: root.a, expect: allow}\n"), 0o644)
		code, out := runIn(t, "test", tests)
		refused(t, code, out, "it lies outside the repository")
		// named on the command line, the same config is read
		if code, out := runIn(t, "test", tests, "-f", filepath.Join(dir, "queues.yaml")); code != 0 {
			t.Errorf("-f: exit %d\n%s", code, out)
		}
	})
}
