package input

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/aclint/aclint/internal/engine"
)

// A file in a repository may name other files: .aclint.yaml is found next
// to the linted files, a test file names its config: and groupsFile:. CI
// runs aclint on the pull requests of strangers, often as root, and prints
// into public logs, so such a path is the repository's word, not the
// user's: ReadConfined reads it only inside the repository, and only when
// it is a regular file. A path typed on the command line is the user's own
// and is read by ReadFile, whatever it is.

// ConfinedError is a path named by a file in a repository that aclint
// refuses to read.
type ConfinedError struct {
	Path string // as named
	Root string // the repository it must stay in
	Why  string // what is wrong with it
}

func (e *ConfinedError) Error() string {
	return fmt.Sprintf("%s: %s; a file in a repository may only make aclint read regular files inside it (%s): move the file into the repository, or name it on the command line", e.Path, e.Why, e.Root)
}

// RepoRoot is the repository a file in dir belongs to: the nearest
// directory at or above dir that holds .git (the git work tree); without
// one, the working directory when dir lies in it (a release archive or a
// copy without .git, run from its top), else dir itself.
func RepoRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if wd, err := os.Getwd(); err == nil && Within(wd, abs) {
		return wd
	}
	return abs
}

// ReadConfined reads path, named by a file in the repository root, up to
// max bytes (0: DefaultMaxSize). It refuses a path outside root, a link
// that leads out of it (at any step of the path: os.Root holds each step
// inside), and anything but a regular file: a FIFO or /dev/stdin would
// hang the run (and the language server, which would read its own
// JSON-RPC stream), a device would never end.
func ReadConfined(root, path string, max int64, seen *engine.ReadSet) ([]byte, error) {
	absRoot, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	absPath, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	refuse := func(why string) error { return &ConfinedError{Path: path, Root: absRoot, Why: why} }
	if !Within(absRoot, absPath) {
		return nil, refuse("it lies outside the repository")
	}
	rel, err := filepath.Rel(absRoot, absPath)
	if err != nil {
		return nil, refuse("it lies outside the repository")
	}
	r, err := os.OpenRoot(absRoot)
	if err != nil {
		return nil, &Error{path, describe(err)}
	}
	defer r.Close()
	fi, err := r.Stat(rel)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if _, lerr := r.Lstat(rel); lerr == nil {
				return nil, refuse("it is a link that leads nowhere")
			}
			return nil, &Error{path, describe(err)}
		}
		if _, serr := os.Stat(absPath); serr == nil {
			return nil, refuse("it is a link that leads out of the repository")
		}
		return nil, &Error{path, describe(err)}
	}
	if !fi.Mode().IsRegular() {
		return nil, refuse(fmt.Sprintf("it is %s, not a regular file", KindOf(fi.Mode())))
	}
	f, err := r.OpenFile(rel, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, &Error{path, describe(err)}
	}
	defer f.Close()
	// the file may have been swapped between the look and the open
	if now, err := f.Stat(); err != nil || !now.Mode().IsRegular() || !os.SameFile(fi, now) {
		return nil, refuse("it changed while aclint opened it")
	}
	return readOpen(f, fi, path, limit(max), seen)
}

// KindOf names a file that is not regular, for messages that refuse it.
func KindOf(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}
