// Package input is aclint's one input pipeline: it walks the paths and
// standard input named on the command line, reads each file once, and hands
// the bytes on as lint.Inputs, unparsed. The systems detect their inputs from
// a scan of the top-level keys (lint.Input.Shape) and parse them once.
package input

import (
	"github.com/aclint/aclint/internal/progress"

	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/aclint/aclint/pkg/lint"
)

// Error is an input that cannot be read, or that holds nothing aclint
// checks: a usage or I/O error, not a finding.
type Error struct {
	Path string
	Err  error
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %v", e.Path, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// Options say how to read.
type Options struct {
	Stdin io.Reader // read for "-"; os.Stdin when nil
	// Skip is told about every file a directory search passes over.
	Skip func(path, reason string)
	// Exts are the endings a directory search reads (case-insensitive).
	Exts []string
}

// DefaultExts are what a directory search reads: YAML (queue configs,
// ConfigMaps, YTsaurus trees) and JSON (Mesos ACLs, YTsaurus ACLs).
var DefaultExts = []string{".yaml", ".yml", ".json"}

// Read reads the inputs: a file, "-" for standard input, or a directory
// searched recursively for files with one of opts.Exts (hidden files and
// directories are passed over). A file named twice, or again through a
// directory or a link, is read once.
func Read(paths []string, opts Options) ([]*lint.Input, error) {
	if opts.Exts == nil {
		opts.Exts = DefaultExts
	}
	var out []*lint.Input
	var seen []os.FileInfo
	dup := func(fi os.FileInfo) bool {
		for _, o := range seen {
			if os.SameFile(o, fi) {
				return true
			}
		}
		seen = append(seen, fi)
		return false
	}
	for _, p := range paths {
		if p == "-" {
			name, data, err := ReadSource(p, opts.Stdin)
			if err != nil {
				return nil, err
			}
			out = append(out, &lint.Input{Path: name, Data: data, Explicit: true, Arg: p})
			continue
		}
		info, err := os.Stat(p)
		if err != nil {
			return nil, &Error{p, describe(err)}
		}
		if !info.IsDir() {
			if dup(info) {
				if opts.Skip != nil {
					opts.Skip(p, "given more than once")
				}
				continue
			}
			_, data, err := ReadSource(p, nil)
			if err != nil {
				return nil, err
			}
			out = append(out, &lint.Input{Path: p, Data: data, Explicit: true, Arg: p})
			continue
		}
		err = filepath.WalkDir(p, func(f string, e fs.DirEntry, err error) error {
			if err != nil {
				return &Error{f, describe(err)}
			}
			if e.IsDir() {
				if f != p && strings.HasPrefix(e.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			ext := strings.ToLower(filepath.Ext(f))
			wanted := false
			for _, x := range opts.Exts {
				wanted = wanted || ext == x
			}
			if !wanted || strings.HasPrefix(e.Name(), ".") {
				return nil // hidden files (.aclint.yaml, .gitlab-ci.yml) are no inputs
			}
			fi, err := os.Stat(f)
			if err != nil {
				return &Error{f, describe(err)}
			}
			if dup(fi) {
				return nil
			}
			data, err := os.ReadFile(f)
			if err != nil {
				return &Error{f, describe(err)}
			}
			progress.File(len(data))
			out = append(out, &lint.Input{Path: f, Data: data, Arg: p})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ReadSource reads one input named on the command line: a file, or "-" for
// standard input (named "<stdin>"). An empty standard input is an error: a
// failed pipe must not be read as an empty input.
func ReadSource(path string, stdin io.Reader) (name string, data []byte, err error) {
	if path == "-" {
		if stdin == nil {
			stdin = os.Stdin
		}
		data, err = io.ReadAll(stdin)
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
	data, err = os.ReadFile(path)
	if err != nil {
		return path, nil, &Error{path, describe(err)}
	}
	progress.File(len(data))
	return path, data, nil
}

// describe says what went wrong with a file in plain words.
func describe(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("no such file or directory")
	case errors.Is(err, fs.ErrPermission):
		return errors.New("permission denied")
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
