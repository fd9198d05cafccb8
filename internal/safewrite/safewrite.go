// Package safewrite writes the files aclint writes: report outputs
// (-o FORMAT=PATH, the output: list of .aclint.yaml) and the configs --fix
// rewrites. aclint runs in CI on repositories an attacker may control,
// often as root, so a write never replaces what is not a regular file,
// never leaves the directory it was confined to, never loses an edit made
// meanwhile, and never leaves a temporary file behind, even when
// interrupted.
package safewrite

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"

	"github.com/aclint/aclint/internal/engine"
)

// temps are the temporary files being written, removed on SIGINT or
// SIGTERM before the process ends.
var (
	tempMu sync.Mutex
	temps  = map[string]bool{}
	once   sync.Once
)

func track(name string) {
	once.Do(func() {
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
		go func() {
			sig := <-ch
			tempMu.Lock()
			for t := range temps {
				os.Remove(t)
			}
			tempMu.Unlock()
			code := 130
			if sig == syscall.SIGTERM {
				code = 143
			}
			os.Exit(code)
		}()
	})
	tempMu.Lock()
	temps[name] = true
	tempMu.Unlock()
}

func untrack(name string) {
	tempMu.Lock()
	delete(temps, name)
	tempMu.Unlock()
}

// createTemp makes a temporary file next to path, tracked for removal.
func createTemp(dir, base string) (*os.File, error) {
	f, err := os.CreateTemp(dir, "."+base+".aclint-tmp*")
	if err != nil {
		return nil, err
	}
	track(f.Name())
	if testHookAfterTemp != nil {
		testHookAfterTemp(f.Name())
	}
	return f, nil
}

// testHookAfterTemp lets a test interrupt a write with its temporary file
// on disk; testHookBeforeRename lets it change the file --fix is about to
// replace.
var (
	testHookAfterTemp    func(string)
	testHookBeforeRename func(string)
)

// Output writes a report to path, which the command line named: a regular
// file (or a new one) is replaced atomically, through a temporary file
// that is synced before the rename; a symbolic link is followed to its
// target; a device, a FIFO or /dev/stdout is written through, never
// replaced; a directory is an error; a file the run read (seen) is
// refused.
func Output(path string, seen *engine.ReadSet, fill func(io.Writer) error) error {
	if seen.Has(path) {
		return errIsInput
	}
	if streamPath(path) {
		// /dev/stdout, /dev/fd/N, /proc/self/fd/N: the descriptor of the
		// process itself, whatever file is behind it
		return through(path, fill)
	}
	info, err := os.Stat(path) // follows links
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if target, lerr := os.Readlink(path); lerr == nil {
			// a dangling link: create its target, as a shell redirect does
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(path), target)
			}
			return replace(target, fill, mode(0o644))
		}
		return replace(path, fill, mode(0o644))
	case err != nil:
		return err
	case info.IsDir():
		return fmt.Errorf("%s is a directory", path)
	case !info.Mode().IsRegular():
		return through(path, fill)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	if streamPath(real) {
		return through(path, fill)
	}
	return replace(real, fill, mode(info.Mode().Perm()))
}

// errIsInput is an output path that names a file this run read.
var errIsInput = errors.New("it is one of this run's inputs, and aclint never writes over a file it reads: name another output file")

// streamPath reports a path of the kernel's own: under /dev or /proc.
func streamPath(p string) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	for _, dir := range []string{"/dev/", "/proc/"} {
		if len(abs) > len(dir) && abs[:len(dir)] == dir {
			return true
		}
	}
	return false
}

// through writes into a device or FIFO as it is (appending, so that a
// descriptor behind /proc/self/fd/N keeps what was written before).
func through(path string, fill func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	if err := fill(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// replace writes a new file content through a synced temporary file and a
// rename, so that a reader sees the old file or the new one, never half.
// keep gives the temporary file the old file's owner and mode before the
// rename; its error stops the write.
//
// unchanged, when not nil, runs right before the rename: --fix checks there
// that the file is still the one it read.
func replace(path string, fill func(io.Writer) error, keep func(*os.File) error, unchanged ...func() error) error {
	tmp, err := createTemp(filepath.Dir(path), filepath.Base(path))
	if err != nil {
		return err
	}
	name := tmp.Name()
	defer func() {
		os.Remove(name)
		untrack(name)
	}()
	for _, step := range []func() error{func() error { return fill(tmp) }, func() error { return keep(tmp) }, tmp.Sync} {
		if err := step(); err != nil {
			tmp.Close()
			return err
		}
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	for _, check := range unchanged {
		if testHookBeforeRename != nil {
			testHookBeforeRename(path)
		}
		if err := check(); err != nil {
			return err
		}
	}
	if err := os.Rename(name, path); err != nil {
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
}

// mode keeps a mode: the permissions, as a report output has them.
func mode(perm fs.FileMode) func(*os.File) error {
	return func(f *os.File) error { return f.Chmod(perm) }
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Inside writes a report to rel, a path a repository's .aclint.yaml names:
// it must be relative and stay inside root (no "..", no absolute path, no
// link that leads out), and it must be a regular file or not exist yet.
// os.Root holds every step of the path inside root, links included.
func Inside(root, rel string, seen *engine.ReadSet, fill func(io.Writer) error) error {
	if !filepath.IsLocal(rel) {
		return fmt.Errorf("output path %q must be relative and stay inside %s (it comes from the repository's settings; give -o FORMAT=PATH on the command line to write elsewhere)", rel, root)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer r.Close()
	if seen.Has(filepath.Join(root, rel)) {
		return fmt.Errorf("output path %q: %w", rel, errIsInput)
	}
	if info, err := r.Lstat(rel); err == nil && !info.Mode().IsRegular() {
		return fmt.Errorf("output path %q is not a regular file (a link, a device or a directory): the repository's settings may not write there", rel)
	}
	tmpRel := filepath.Join(filepath.Dir(rel), "."+filepath.Base(rel)+".aclint-tmp")
	r.Remove(tmpRel) // one an interrupted run left
	f, err := r.OpenFile(tmpRel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		// os.Root refuses a link out of root: say where the write may go
		return fmt.Errorf("output path %q: %v (the repository's settings may write only inside %s, through no link that leads out of it)", rel, err, root)
	}
	abs := filepath.Join(root, tmpRel)
	track(abs)
	defer func() {
		r.Remove(tmpRel)
		untrack(abs)
	}()
	if err := fill(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return r.Rename(tmpRel, rel)
}

// Read is what --fix read of a file: its bytes and its identity, so the
// rewrite can tell whether the file changed since.
type Read struct {
	Data []byte
	Info fs.FileInfo
}

// FixOptions say what --fix may do.
type FixOptions struct {
	// HardLinks allows rewriting a file that has other names: it is then
	// written in place, so every name sees the fix.
	HardLinks bool
}

// RefusedError is a file --fix will not rewrite, and why.
type RefusedError struct {
	Path, Why string
}

func (e *RefusedError) Error() string { return e.Path + ": not fixed: " + e.Why }

// Fix rewrites a config with its fixes. It keeps owner, group and mode
// (setuid, setgid and sticky included), follows a link to its target,
// refuses a read-only file, a file with other hard links (unless
// opts.HardLinks) and a file whose content changed since aclint read it,
// and syncs before the rename.
func Fix(path string, read Read, content []byte, opts FixOptions) error {
	target, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	info, err := os.Stat(target)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return &RefusedError{path, "not a regular file"}
	}
	if info.Mode().Perm()&0o222 == 0 {
		return &RefusedError{path, fmt.Sprintf("the file is read-only (mode %04o); make it writable to let --fix change it", info.Mode().Perm())}
	}
	if !writable(target) {
		return &RefusedError{path, "no permission to write it"}
	}
	st := metaOf(info)
	if st.ok && st.nlink > 1 && !opts.HardLinks {
		return &RefusedError{path, fmt.Sprintf("the file has %d hard links, and replacing it would leave the other names with the old content; give --fix-hardlinks to write it in place for every name", st.nlink)}
	}
	// the file must be what aclint read: an editor or another job may have
	// changed it meanwhile, and writing would lose that edit
	now, err := os.ReadFile(target)
	if err != nil {
		return err
	}
	if !bytes.Equal(now, read.Data) || read.Info != nil && !os.SameFile(read.Info, info) {
		return &RefusedError{path, "the file changed since aclint read it; run aclint again"}
	}
	// and it must still be that file when the new content replaces it:
	// writing the temporary file takes time, and an edit saved meanwhile
	// would be lost. Inode, size, modification and change times are
	// compared again right before the rename.
	checked, err := os.Stat(target)
	if err != nil {
		return err
	}
	unchanged := func() error {
		again, err := os.Stat(target)
		if err != nil || !sameVersion(checked, again) {
			return &RefusedError{path, "the file changed while aclint was writing its fixes; run aclint again"}
		}
		return nil
	}
	if st.ok && st.nlink > 1 {
		return inPlace(target, content)
	}
	write := func(w io.Writer) error { _, err := w.Write(content); return err }
	return replace(target, write, func(tmp *os.File) error {
		if st.ok {
			// chown first: it clears setuid and setgid, which chmod then sets
			if err := tmp.Chown(st.uid, st.gid); err != nil {
				return &RefusedError{path, fmt.Sprintf("cannot keep its owner and group (%d:%d): %v", st.uid, st.gid, err)}
			}
		}
		return tmp.Chmod(info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky))
	}, unchanged)
}

// sameVersion reports whether two looks at a file saw the same version of
// it: the same inode, size, modification time and (where the system has
// one) change time, which any write or metadata change moves.
func sameVersion(a, b fs.FileInfo) bool {
	if !os.SameFile(a, b) || a.Size() != b.Size() || !a.ModTime().Equal(b.ModTime()) || a.Mode() != b.Mode() {
		return false
	}
	return metaOf(a) == metaOf(b)
}

// inPlace rewrites a hard-linked file through its own inode.
func inPlace(path string, content []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(content); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
