package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/aclint/aclint/pkg/lint"
	"github.com/aclint/aclint/pkg/report"
)

// outputTarget is one -o value: a format, and a file ("" for stdout).
type outputTarget struct{ format, path string }

// parseOutputs reads -o values of the form FORMAT or FORMAT=PATH. At most one
// format may go to standard output.
func parseOutputs(values []string) ([]outputTarget, error) {
	var out []outputTarget
	stdout := ""
	for _, v := range values {
		name, path, _ := strings.Cut(v, "=")
		if _, ok := report.Formats[name]; !ok {
			return nil, usageErr("invalid -o %q: formats are %s, optionally FORMAT=PATH", v, strings.Join(report.FormatNames(), ", "))
		}
		if strings.Contains(v, "=") && path == "" {
			return nil, usageErr("invalid -o %q: give a file after =", v)
		}
		if path == "" {
			if stdout != "" {
				return nil, usageErr("-o %s and -o %s both write to standard output; send one to a file with FORMAT=PATH", stdout, name)
			}
			stdout = name
		}
		out = append(out, outputTarget{name, path})
	}
	return out, nil
}

// newReport fills in what every format needs besides the findings.
func newReport(colored bool) *report.Report {
	ver, _ := buildInfo()
	wd, _ := os.Getwd()
	return &report.Report{
		Sources: report.Sources{},
		Rules:   lint.Rules(),
		Tool: report.Tool{Name: "aclint", Version: ver,
			InformationURI: "https://github.com/aclint/aclint",
			RulesURI:       "https://github.com/aclint/aclint/blob/main/docs/rules.md"},
		Root:    repoRoot(wd),
		WorkDir: wd,
		Color:   colored,
	}
}

// repoRoot is the nearest directory at or above dir holding .git, or dir.
func repoRoot(dir string) string {
	for d := dir; d != ""; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	return dir
}

// writeOutputs writes the report in every requested format. Files are
// written through a temporary file and renamed, so a reader never sees half
// a report.
func writeOutputs(s *streams, targets []outputTarget, rep *report.Report) error {
	for _, t := range targets {
		w := report.Formats[t.format]
		if t.path == "" {
			if err := w(s.out, rep); err != nil {
				return usageErr("writing %s output: %v", t.format, err)
			}
			continue
		}
		r := *rep
		r.Color = false
		if err := writeFileAtomic(t.path, func(f *os.File) error { return w(f, &r) }); err != nil {
			return usageErr("writing %s output to %s: %v", t.format, t.path, err)
		}
	}
	return nil
}

func writeFileAtomic(path string, fill func(*os.File) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := fill(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("rename: %w", err)
	}
	return nil
}
