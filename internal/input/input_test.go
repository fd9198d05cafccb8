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

	"github.com/aclint/aclint/internal/engine"
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
// run remembers (the language server reads .aclint.yaml on every
// request); a file read through every kind of read is remembered, in the
// run's own set only.
func TestRememberOnce(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.yaml")
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	seen, other := &engine.ReadSet{}, &engine.ReadSet{}
	for i := 0; i < 101; i++ {
		if _, err := ReadFile(p, 0, seen); err != nil {
			t.Fatal(err)
		}
	}
	if !seen.Has(p) || other.Has(p) {
		t.Errorf("read into one set: in it %v, in another %v", seen.Has(p), other.Has(p))
	}
	for name, read := range map[string]func(string, *engine.ReadSet) error{
		"ReadSource":   func(f string, s *engine.ReadSet) error { _, _, err := ReadSource(f, nil, 0, s); return err },
		"ReadConfined": func(f string, s *engine.ReadSet) error { _, err := ReadConfined(dir, f, 0, s); return err },
		"Read":         func(f string, s *engine.ReadSet) error { _, err := Read([]string{f}, Options{Seen: s}); return err },
		"Read (a directory)": func(f string, s *engine.ReadSet) error {
			_, err := Read([]string{dir}, Options{Seen: s, Exts: []string{".yaml"}})
			return err
		},
	} {
		s := &engine.ReadSet{}
		if err := read(p, s); err != nil || !s.Has(p) {
			t.Errorf("%s: %v, remembered %v", name, err, s.Has(p))
		}
	}
	var none *engine.ReadSet // the language server's: remembers nothing
	if _, err := ReadFile(p, 0, none); err != nil || none.Has(p) {
		t.Errorf("a nil set: %v", err)
	}
}
