package safewrite

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/input"
)

func text(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func inode(t *testing.T, p string) uint64 {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Sys().(*syscall.Stat_t).Ino
}

func noTemps(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".aclint-tmp") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestOutputRegularAndNew(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.sarif")
	if err := Output(p, nil, text("one")); err != nil || read(t, p) != "one" {
		t.Fatalf("new file: %v", err)
	}
	os.Chmod(p, 0o600)
	before := inode(t, p)
	if err := Output(p, nil, text("two")); err != nil || read(t, p) != "two" {
		t.Fatalf("replace: %v", err)
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
	}
	if inode(t, p) == before {
		t.Error("a regular file was not replaced through a rename")
	}
	noTemps(t, dir)
	if err := Output(dir, nil, text("x")); err == nil {
		t.Error("a directory was written")
	}
}

func TestOutputFollowsLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.json")
	os.WriteFile(target, []byte("old"), 0o644)
	link := filepath.Join(dir, "link.json")
	os.Symlink(target, link)
	if err := Output(link, nil, text("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}
	if read(t, target) != "new" {
		t.Error("the link's target was not written")
	}
	dangling := filepath.Join(dir, "dangling.json")
	os.Symlink("made.json", dangling)
	if err := Output(dangling, nil, text("made")); err != nil || read(t, filepath.Join(dir, "made.json")) != "made" {
		t.Errorf("a dangling link did not create its target: %v", err)
	}
}

func TestOutputThroughDevicesAndFIFOs(t *testing.T) {
	if err := Output("/dev/null", nil, text("x")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat("/dev/null"); err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Fatal("/dev/null is no longer a device")
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		err := Output("/dev/full", nil, text("x"))
		if err == nil || !errors.Is(err, syscall.ENOSPC) {
			t.Errorf("/dev/full: got %v, want no space left", err)
		}
		if fi, _ := os.Stat("/dev/full"); fi.Mode()&fs.ModeCharDevice == 0 {
			t.Fatal("/dev/full was replaced")
		}
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no mkfifo:", err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if err := Output(fifo, nil, text("through")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through" {
		t.Errorf("FIFO reader got %q", s)
	}
	if fi, _ := os.Lstat(fifo); fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Error("the FIFO was replaced")
	}
}

func TestInsideConfines(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	os.Symlink(outside, filepath.Join(root, "escape"))
	os.Symlink(filepath.Join(outside, "victim"), filepath.Join(root, "link.sarif"))
	for _, rel := range []string{"../x.sarif", "/tmp/x.sarif", "a/../../x.sarif", "escape/x.sarif", "link.sarif"} {
		if err := Inside(root, rel, nil, text("x")); err == nil {
			t.Errorf("%s: written, want refused", rel)
		}
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("something was written outside: %v", entries)
	}
	os.Mkdir(filepath.Join(root, "reports"), 0o755)
	if err := Inside(root, "reports/a.sarif", nil, text("ok")); err != nil || read(t, filepath.Join(root, "reports/a.sarif")) != "ok" {
		t.Errorf("inside: %v", err)
	}
	noTemps(t, filepath.Join(root, "reports"))
}

func TestFixKeepsOwnerGroupMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "queues.yaml")
	os.WriteFile(p, []byte("old"), 0o640)
	if err := os.Chmod(p, 0o640|fs.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	uid, gid := os.Getuid(), os.Getgid()
	if uid == 0 {
		uid, gid = 1234, 5678
		if err := os.Chown(p, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	info, _ := os.Stat(p)
	if err := Fix(p, Read{Data: []byte("old"), Info: info}, []byte("new"), FixOptions{}); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	st := fi.Sys().(*syscall.Stat_t)
	if read(t, p) != "new" || fi.Mode()&(fs.ModePerm|fs.ModeSetgid) != 0o640|fs.ModeSetgid || int(st.Uid) != uid || int(st.Gid) != gid {
		t.Errorf("after --fix: mode %v owner %d:%d, want %v %d:%d", fi.Mode(), st.Uid, st.Gid, 0o640|fs.ModeSetgid, uid, gid)
	}
	noTemps(t, dir)
}

func TestFixRefuses(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "queues.yaml")
	fresh := func(mode fs.FileMode) fs.FileInfo {
		os.Remove(p)
		os.WriteFile(p, []byte("old"), mode)
		os.Chmod(p, mode)
		fi, _ := os.Stat(p)
		return fi
	}
	var refused *RefusedError
	// read-only, even for root
	if err := Fix(p, Read{[]byte("old"), fresh(0o444)}, []byte("new"), FixOptions{}); !errors.As(err, &refused) || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("read-only: %v", err)
	}
	// changed since read
	info := fresh(0o644)
	os.WriteFile(p, []byte("edited meanwhile"), 0o644)
	if err := Fix(p, Read{[]byte("old"), info}, []byte("new"), FixOptions{}); !errors.As(err, &refused) || read(t, p) != "edited meanwhile" {
		t.Errorf("changed since read: %v, content %q", err, read(t, p))
	}
	// another hard link: refused, or written in place for every name when asked
	info = fresh(0o644)
	other := filepath.Join(dir, "other.yaml")
	os.Link(p, other)
	if err := Fix(p, Read{[]byte("old"), info}, []byte("new"), FixOptions{}); !errors.As(err, &refused) || !strings.Contains(err.Error(), "hard links") {
		t.Errorf("hard link: %v", err)
	}
	if err := Fix(p, Read{[]byte("old"), info}, []byte("new"), FixOptions{HardLinks: true}); err != nil || read(t, other) != "new" {
		t.Errorf("hard link in place: %v, other name has %q", err, read(t, other))
	}
	noTemps(t, dir)
}

// TestInterruptRemovesTemp: SIGTERM while a write is under way leaves no
// temporary file and ends with 143.
func TestInterruptRemovesTemp(t *testing.T) {
	if dir := os.Getenv("SAFEWRITE_HELPER_DIR"); dir != "" {
		testHookAfterTemp = func(string) {
			os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644)
			time.Sleep(time.Minute)
		}
		Output(filepath.Join(dir, "out.json"), nil, text("x"))
		return
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestInterruptRemovesTemp$")
	cmd.Env = append(os.Environ(), "SAFEWRITE_HELPER_DIR="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 600; i++ {
		if _, err := os.Stat(filepath.Join(dir, "ready")); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 143 {
		t.Errorf("exit: %v, want 143", err)
	}
	noTemps(t, dir)
}

// TestFixRefusesEditDuringWrite: an edit saved while --fix writes its
// temporary file is not lost: the file is checked again (inode, size,
// modification and change times) right before the rename, and the write is
// refused. Before, the check ran before the temporary file was written
// only, and the rename replaced the edit.
func TestFixRefusesEditDuringWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "queues.yaml")
	for _, edit := range []struct {
		name string
		do   func()
	}{
		{"content of the same size", func() { os.WriteFile(p, []byte("OLD"), 0o644) }},
		{"content appended", func() { os.WriteFile(p, []byte("old, edited"), 0o644) }},
		{"replaced by an editor's rename", func() {
			os.WriteFile(p+".swp", []byte("old"), 0o644)
			os.Rename(p+".swp", p)
		}},
		{"mode changed", func() { os.Chmod(p, 0o600) }},
	} {
		os.WriteFile(p, []byte("old"), 0o644)
		os.Chmod(p, 0o644)
		info, _ := os.Stat(p)
		var after string
		testHookBeforeRename = func(string) {
			testHookBeforeRename = nil
			time.Sleep(10 * time.Millisecond) // a later modification time, on coarse clocks too
			edit.do()
			after = read(t, p)
		}
		err := Fix(p, Read{[]byte("old"), info}, []byte("new"), FixOptions{})
		testHookBeforeRename = nil
		var refused *RefusedError
		if !errors.As(err, &refused) || !strings.Contains(err.Error(), "changed while aclint was writing") {
			t.Errorf("%s: %v", edit.name, err)
		}
		if got := read(t, p); got != after {
			t.Errorf("%s: the edit was lost: %q, want %q", edit.name, got, after)
		}
		noTemps(t, dir)
	}
	// unchanged: written
	os.WriteFile(p, []byte("old"), 0o644)
	info, _ := os.Stat(p)
	if err := Fix(p, Read{[]byte("old"), info}, []byte("new"), FixOptions{}); err != nil || read(t, p) != "new" {
		t.Errorf("unchanged file: %v, %q", err, read(t, p))
	}
}

// TestOutputNeverOverAnInput: a file read as an input is never replaced by
// an output, under its own name or through a link; other files are.
func TestOutputNeverOverAnInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "queues.yaml")
	os.WriteFile(in, []byte("partitions: []\n"), 0o644)
	seen := &engine.ReadSet{}
	if _, err := input.ReadFile(in, 0, seen); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.html")
	os.Symlink(in, link)
	for _, p := range []string{in, link, filepath.Join(dir, ".", "queues.yaml")} {
		if err := Output(p, seen, text("<html>")); err == nil || !strings.Contains(err.Error(), "one of this run's inputs") {
			t.Errorf("%s: %v", p, err)
		}
	}
	if err := Inside(dir, "queues.yaml", seen, text("<html>")); err == nil || !strings.Contains(err.Error(), "one of this run's inputs") {
		t.Errorf("Inside: %v", err)
	}
	if read(t, in) != "partitions: []\n" {
		t.Fatal("the input was replaced")
	}
	if err := Output(filepath.Join(dir, "report.html"), seen, text("<html>")); err != nil {
		t.Error(err)
	}
	// another run, which did not read it, may write it
	if err := Output(in, &engine.ReadSet{}, text("partitions: [] # rewritten\n")); err != nil {
		t.Errorf("a run that did not read it: %v", err)
	}
}
