package input

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// Read: files and directories (searched for the endings asked, hidden
// files passed over), a file named twice read once, standard input, and
// the refusals: a missing file, empty standard input, a FIFO or a link out
// of a searched directory, and the size limit.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.yaml", "a: 1\n")
	write("sub/b.yml", "b: 2\n")
	write("sub/c.json", "{}\n")
	write("sub/notes.txt", "x\n")
	write(".hidden/d.yaml", "d: 1\n")
	outside := filepath.Join(t.TempDir(), "secret.yaml")
	os.WriteFile(outside, []byte("s: 1\n"), 0o644)
	os.Symlink(outside, filepath.Join(dir, "sub", "leak.yaml"))
	if err := syscall.Mkfifo(filepath.Join(dir, "sub", "fifo.yaml"), 0o644); err != nil {
		t.Skip("no mkfifo")
	}
	var warned []string
	opts := Options{Exts: []string{".yaml", ".yml"}, Warn: func(p, why string) { warned = append(warned, filepath.Base(p)) }}
	ins, err := Read([]string{dir, a}, opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, in := range ins {
		rel, _ := filepath.Rel(dir, in.Path)
		got = append(got, rel)
	}
	sort.Strings(got)
	if strings.Join(got, " ") != "a.yaml sub/b.yml" {
		t.Errorf("read %v, want a.yaml (once) and sub/b.yml", got)
	}
	sort.Strings(warned)
	if strings.Join(warned, " ") != "fifo.yaml leak.yaml" {
		t.Errorf("warned about %v, want the FIFO and the link out of the tree", warned)
	}

	if _, err := Read([]string{filepath.Join(dir, "nope.yaml")}, opts); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	if _, err := Read([]string{"-"}, Options{Stdin: strings.NewReader("")}); err == nil || !strings.Contains(err.Error(), "standard input is empty") {
		t.Errorf("empty stdin: %v", err)
	}
	ins, err = Read([]string{"-"}, Options{Stdin: strings.NewReader("x: 1\n")})
	if err != nil || len(ins) != 1 || ins[0].Path != "<stdin>" || string(ins[0].Data) != "x: 1\n" {
		t.Errorf("stdin: %v %+v", err, ins)
	}
	small := opts
	small.MaxSize = 3
	var tl *TooLargeError
	if _, err := Read([]string{a}, small); !errors.As(err, &tl) || tl.Limit != 3 {
		t.Errorf("over the size limit: %v", err)
	}
	if _, err := Read([]string{a}, opts); err != nil {
		t.Errorf("the limit is the read's own, not left behind: %v", err)
	}
}

// TestRememberOnce: reading the same file again does not grow what the
// process remembers (the language server reads .aclint.yaml on every
// request).
func TestRememberOnce(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.yaml")
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(p, 0); err != nil {
		t.Fatal(err)
	}
	readMu.Lock()
	n := len(read)
	readMu.Unlock()
	for i := 0; i < 100; i++ {
		if _, err := ReadFile(p, 0); err != nil {
			t.Fatal(err)
		}
	}
	readMu.Lock()
	grew := len(read) - n
	readMu.Unlock()
	if grew != 0 {
		t.Errorf("read 101 times, remembered %d more times", grew)
	}
	if !IsInput(p) {
		t.Error("a file read is not an input")
	}
}
