// Package input is aclint's one input pipeline: it walks the paths and
// standard input named on the command line, reads each file once, and hands
// the bytes on as engine.Inputs, unparsed. The systems detect their inputs from
// a scan of the top-level keys (engine.Input.Shape) and parse them once.
package input

import (
	"github.com/aclint/aclint/internal/progress"

	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aclint/aclint/internal/engine"
)

// Error is an input that cannot be read, or that holds nothing aclint
// checks: a usage or I/O error, not a finding.
type Error struct {
	Path string
	Err  error
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %v", e.Path, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// SkipReason is why a file found in a directory search is passed over:
// what is wrong with it, without its path, which the message names.
func (e *Error) SkipReason() string { return e.Err.Error() }

// DefaultMaxSize is the largest input aclint reads unless told otherwise:
// far above any real config (a ConfigMap holds at most 1 MiB, aclint's
// 100,000-queue test config is 9.3 MB), far below what would exhaust
// memory. It also caps what a gzipped ConfigMap value may inflate to.
const DefaultMaxSize int64 = 64 << 20

// limit is the largest input a read takes: max, or DefaultMaxSize when max
// is not positive. The limit travels with each read (Options.MaxSize,
// --max-input-size), never in a package variable: runs in one process
// may read under different limits at the same time.
func limit(max int64) int64 {
	if max <= 0 {
		return DefaultMaxSize
	}
	return max
}

// TooLargeError is an input over the limit.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: input larger than %s, aclint's limit (a ConfigMap holds at most 1 MiB); if this is a real config, raise the limit with --max-input-size", e.Path, FormatSize(e.Limit))
}

// FormatSize writes a byte count the way --max-input-size reads it.
func FormatSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// ParseSize reads a size: a number of bytes, or with KiB, MiB or GiB (also
// K, M, G; KB, MB and GB are taken as the binary units too).
func ParseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.m
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("invalid size %q: write a positive number of bytes, or e.g. 128MiB or 1GiB", s)
	}
	return n * mult, nil
}

// ReadAll reads r up to max bytes (0: DefaultMaxSize); name is what an
// error calls it.
func ReadAll(r io.Reader, name string, max int64) ([]byte, error) {
	limit := limit(max)
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &TooLargeError{name, limit}
	}
	return data, nil
}

// ReadFile reads a file named on the command line up to max bytes (0:
// DefaultMaxSize). A FIFO or a device is read as a stream, so
// <(kubectl ...) works, and /dev/zero ends at the limit. A path that a file
// in a repository names is read by ReadConfined instead.
func ReadFile(path string, max int64, seen *engine.ReadSet) ([]byte, error) {
	max = limit(max)
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return nil, errors.New("is a directory")
	}
	return readOpen(f, info, path, max, seen)
}

// readOpen reads the open file f (info is its Stat) up to max bytes; a
// regular file is remembered in seen, which no output of the run may
// replace.
func readOpen(f *os.File, info os.FileInfo, path string, max int64, seen *engine.ReadSet) ([]byte, error) {
	if info.Mode().IsRegular() {
		seen.Add(info)
	}
	if size := info.Size(); info.Mode().IsRegular() && size > 0 {
		if size > max {
			return nil, &TooLargeError{path, max}
		}
		// the size is known: one allocation, as os.ReadFile makes, and a
		// file that grows meanwhile still stops at the limit
		data := make([]byte, 0, size+1)
		for {
			n, err := f.Read(data[len(data):cap(data)])
			data = data[:len(data)+n]
			if err == io.EOF {
				return data, nil
			}
			if err != nil {
				return nil, err
			}
			if len(data) == cap(data) {
				rest, err := ReadAll(f, path, max)
				if err != nil {
					return nil, err
				}
				if int64(len(data)+len(rest)) > max {
					return nil, &TooLargeError{path, max}
				}
				return append(data, rest...), nil
			}
		}
	}
	return ReadAll(f, path, max)
}

// Options say how to read.
type Options struct {
	Stdin io.Reader // read for "-"; os.Stdin when nil
	// Skip is told about every file a directory search passes over.
	Skip func(path, reason string)
	// Warn is told about a file a directory search refuses to read: a
	// FIFO, a device, or a link that leads out of the searched directory.
	Warn func(path, reason string)
	// MaxSize is the largest input read (0: DefaultMaxSize):
	// --max-input-size.
	MaxSize int64
	// Exts are the endings a directory search reads (case-insensitive):
	// the systems' (engine.Registry.Extensions) for aclint lint.
	Exts []string
	// Seen is the run's files read, where each regular file read is
	// remembered (no output of the run may replace one).
	Seen *engine.ReadSet
	// Preloaded are inputs already read, by the name they are given
	// under (a running scheduler's config fetched over HTTP): they are
	// taken as they are, never looked for on disk.
	Preloaded map[string][]byte
}

// Read reads the inputs: a file, "-" for standard input, or a directory
// searched recursively for files with one of opts.Exts (hidden files and
// directories are passed over). A file named twice, or again through a
// directory or a link, is read once.
func Read(paths []string, opts Options) ([]*engine.Input, error) {
	r := &reader{opts: opts}
	for _, p := range paths {
		if err := r.read(p); err != nil {
			return nil, err
		}
	}
	return r.out, nil
}

// reader is one Read: the inputs so far, and the files read (by identity),
// so that none is read twice.
type reader struct {
	opts Options
	out  []*engine.Input
	seen []os.FileInfo
}

func (r *reader) dup(fi os.FileInfo) bool {
	for _, o := range r.seen {
		if os.SameFile(o, fi) {
			return true
		}
	}
	r.seen = append(r.seen, fi)
	return false
}

func (r *reader) warn(f, why string) {
	if r.opts.Warn != nil {
		r.opts.Warn(f, why)
	}
}

// read reads one path named on the command line.
func (r *reader) read(p string) error {
	opts := r.opts
	if data, ok := opts.Preloaded[p]; ok {
		r.out = append(r.out, &engine.Input{Path: p, Data: data, Explicit: true, Arg: p})
		return nil
	}
	if p == "-" {
		name, data, err := ReadSource(p, opts.Stdin, opts.MaxSize, opts.Seen)
		if err != nil {
			return err
		}
		r.out = append(r.out, &engine.Input{Path: name, Data: data, Explicit: true, Arg: p})
		return nil
	}
	info, err := os.Stat(p)
	if err != nil {
		return &Error{p, describe(err)}
	}
	if info.IsDir() {
		return r.search(p)
	}
	if r.dup(info) {
		if opts.Skip != nil {
			opts.Skip(p, "given more than once")
		}
		return nil
	}
	_, data, err := ReadSource(p, nil, opts.MaxSize, opts.Seen)
	if err != nil {
		return err
	}
	r.out = append(r.out, &engine.Input{Path: p, Data: data, Explicit: true, Arg: p})
	return nil
}

// search reads the files of directory p with one of the wanted endings.
func (r *reader) search(p string) error {
	top, err := filepath.EvalSymlinks(p)
	if err == nil {
		top, err = filepath.Abs(top)
	}
	if err != nil {
		return &Error{p, describe(err)}
	}
	return filepath.WalkDir(p, func(f string, e fs.DirEntry, err error) error {
		if err != nil {
			return &Error{f, describe(err)}
		}
		if e.IsDir() {
			if f != p && strings.HasPrefix(e.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !r.wanted(f, e) {
			return nil
		}
		// the searched tree is the repository of a pull request: a link
		// out of it (to /etc/shadow, a key) or a FIFO or device is never
		// read, so its content can neither hang aclint nor be printed
		if e.Type()&fs.ModeSymlink != 0 && !r.linkWithin(p, top, f) {
			return nil
		}
		return r.found(p, f)
	})
}

// wanted: a file with one of the endings read, not hidden (.aclint.yaml,
// .gitlab-ci.yml are no inputs).
func (r *reader) wanted(f string, e fs.DirEntry) bool {
	ext := strings.ToLower(filepath.Ext(f))
	for _, x := range r.opts.Exts {
		if ext == x {
			return !strings.HasPrefix(e.Name(), ".")
		}
	}
	return false
}

// linkWithin reports whether link f of the search of p leads to a file
// inside it (top, resolved); it warns about one that does not.
func (r *reader) linkWithin(p, top, f string) bool {
	real, err := filepath.EvalSymlinks(f)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		r.warn(f, "a link that leads nowhere: not read")
		return false
	}
	if !Within(top, real) {
		r.warn(f, "a link to "+real+", outside "+p+": not read (name it on the command line to lint it)")
		return false
	}
	return true
}

// found reads file f of the search of p: a regular file, once.
func (r *reader) found(p, f string) error {
	fi, err := os.Stat(f)
	if err != nil {
		return &Error{f, describe(err)}
	}
	if !fi.Mode().IsRegular() {
		r.warn(f, "not a regular file (a FIFO, device or socket): not read")
		return nil
	}
	if r.dup(fi) {
		return nil
	}
	data, err := ReadFile(f, r.opts.MaxSize, r.opts.Seen)
	if err != nil {
		var tl *TooLargeError
		if errors.As(err, &tl) {
			return err
		}
		return &Error{f, describe(err)}
	}
	progress.File(len(data))
	r.out = append(r.out, &engine.Input{Path: f, Data: data, Arg: p})
	return nil
}

// ReadSource reads one input named on the command line: a file, or "-" for
// standard input (named "<stdin>"). An empty standard input is an error: a
// failed pipe must not be read as an empty input.
func ReadSource(path string, stdin io.Reader, max int64, seen *engine.ReadSet) (name string, data []byte, err error) {
	if path == "-" {
		if stdin == nil {
			stdin = os.Stdin
		}
		data, err = ReadAll(stdin, "<stdin>", max)
		var tl *TooLargeError
		if errors.As(err, &tl) {
			return "<stdin>", nil, err
		}
		if err != nil {
			return "<stdin>", nil, &Error{"<stdin>", err}
		}
		if len(data) == 0 {
			// a failed pipe (kubectl ... | aclint check -f -) must not be
			// read as YuniKorn's built-in default, where everyone may submit
			return "<stdin>", nil, &Error{"<stdin>", errors.New("standard input is empty: nothing was piped in (did the command before the pipe fail?); to ask about YuniKorn's built-in default config, pass a zero-byte file with -f")}
		}
		progress.File(len(data))
		return "<stdin>", data, nil
	}
	data, err = ReadFile(path, max, seen)
	var tl *TooLargeError
	if errors.As(err, &tl) {
		return path, nil, err
	}
	if err != nil {
		return path, nil, &Error{path, describe(err)}
	}
	progress.File(len(data))
	return path, data, nil
}

// Within reports whether path is dir or below it; both are clean absolute
// or both relative paths with links resolved.
func Within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// describe says what went wrong with a file in plain words.
func describe(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &described{"no such file or directory", err}
	case errors.Is(err, fs.ErrPermission):
		return &described{"permission denied", err}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &described{pe.Err.Error(), err}
	}
	return err
}

// described is an OS error said in short words (the path is said once, by
// Error), still unwrapping to the error itself: errors.Is(err,
// fs.ErrNotExist) holds through every layer.
type described struct {
	msg string
	err error
}

func (d *described) Error() string { return d.msg }
func (d *described) Unwrap() error { return d.err }
