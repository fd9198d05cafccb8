package cmd

import (
	"github.com/aclint/aclint/pkg/input"
	"github.com/aclint/aclint/pkg/safewrite"
	"github.com/aclint/aclint/pkg/yunikorn"
	"strings"

	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/aclint/aclint/pkg/config"
	"github.com/aclint/aclint/pkg/fix"
	"github.com/aclint/aclint/pkg/lint"
)

// applyFixes fixes every file the documents came from. With write it
// rewrites the files (keeping their mode) and says what it fixed on stderr;
// without, it prints the fixes as a unified diff. It returns the documents
// of the fixed contents, for the findings that are left.
func applyFixes(s *streams, docs []*config.Document, files *settingsFinder, key string, write, unsafe, hardLinks bool) ([]*config.Document, error) {
	var order []string
	source := map[string][]byte{}
	for _, d := range docs {
		if _, ok := source[d.File]; !ok {
			order = append(order, d.File)
			source[d.File] = d.Source
		}
	}
	opts := config.LoadOptions{Key: key}
	var out []*config.Document
	for _, file := range order {
		set, err := files.forFile(file)
		if err != nil {
			return nil, err
		}
		data := source[file]
		if file == "<stdin>" && write {
			return nil, usageErr("--fix cannot rewrite standard input; use --diff to get a patch")
		}
		var read safewrite.Read
		if file != "<stdin>" {
			info, err := os.Stat(file)
			if err != nil {
				return nil, usageErr("%s: %w", file, err)
			}
			raw, err := input.ReadFile(file)
			if err != nil {
				return nil, usageErr("%s: %w", file, err)
			}
			read = safewrite.Read{Data: raw, Info: info}
			if write && !bytes.Equal(config.Normalize(raw), data) {
				return nil, usageErr("%s: not fixed: the file changed since aclint read it; run aclint again", file)
			}
			if !bytes.Equal(raw, data) {
				fmt.Fprintf(s.err, "aclint: %s: not fixed: the file is not plain UTF-8 (a byte order mark or UTF-16), and rewriting it would change its encoding\n", file)
				more, _ := config.LoadBytes(file, raw, opts)
				out = append(out, more...)
				continue
			}
		}
		res, err := fix.File(data, func(content []byte) ([]lint.Finding, error) {
			ds, err := config.LoadBytes(file, content, opts)
			if err != nil {
				return nil, err
			}
			var all []lint.Finding
			for _, d := range ds {
				all = append(all, set.Apply(yunikorn.Lint(config.Decode(d)))...)
			}
			return all, nil
		}, unsafe)
		if err != nil {
			return nil, usageErr("%w", err)
		}
		fixed, n := res.Content, res.Applied
		reportLeft(s, file, res.Left, unsafe, docsOf(docs, file))
		if write && n > 0 {
			if err := safewrite.Fix(file, read, fixed, safewrite.FixOptions{HardLinks: hardLinks}); err != nil {
				return nil, usageErr("%w", err)
			}
			fmt.Fprintf(s.err, "aclint: %s: applied %d %s\n", file, n, plural(n, "fix", "fixes"))
		}
		if !write {
			fmt.Fprint(s.out, fix.Diff(filepath.ToSlash(file), data, fixed))
		}
		more, err := config.LoadBytes(file, fixed, opts)
		if err != nil {
			return nil, usageErr("%w", err)
		}
		out = append(out, more...)
	}
	return out, nil
}

// docsOf returns the documents that came from file.
func docsOf(docs []*config.Document, file string) []*config.Document {
	var out []*config.Document
	for _, d := range docs {
		if d.File == file {
			out = append(out, d)
		}
	}
	return out
}

// reportLeft says on stderr which fixes --fix and --diff did not make, and
// why: unsafe ones that were not asked for, and findings of fixable rules
// in a config aclint cannot edit character for character.
func reportLeft(s *streams, file string, left []lint.Finding, unsafe bool, docs []*config.Document) {
	for _, f := range left {
		switch {
		case len(f.Alternatives) > 0:
			var ways []string
			for _, a := range f.Alternatives {
				ways = append(ways, fmt.Sprintf("%s (%s)", a.Edit.New, a.Grants))
			}
			fmt.Fprintf(s.err, "aclint: %s: %s not fixed: it reads two ways and each grants different access; edit it by hand to %s\n", f.Pos, f.Rule, strings.Join(ways, " or "))
		case f.Fix != nil && f.Unsafe != "" && !unsafe:
			fmt.Fprintf(s.err, "aclint: %s: %s fix not applied, it is unsafe: %s; review it and rerun with --unsafe-fixes to apply it\n", f.Pos, f.Rule, f.Unsafe)
		case f.Fix == nil && fixes(f.Rule):
			why := "aclint cannot edit this value character for character"
			for _, d := range docs {
				if r := d.NotEditable(); r != "" {
					why = r
				}
			}
			fmt.Fprintf(s.err, "aclint: %s: %s not fixed: %s; fix it by hand\n", f.Pos, f.Rule, why)
		}
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// fixes reports whether a rule's findings carry an edit (lint.Rule.Fixes).
func fixes(rule string) bool {
	r := lint.Lookup(rule)
	return r != nil && r.Fixes
}
