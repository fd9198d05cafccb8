package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/mattn/go-isatty"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/input"
	"github.com/aclint/aclint/internal/output"
	"github.com/aclint/aclint/internal/safewrite"
	"github.com/aclint/aclint/internal/settings"
)

// outputTarget is one -o value: a format, and a file ("" for stdout).
// outputTarget is one -o: a format and where it goes. inside is set for
// an output the repository's .aclint.yaml names: the directory it must
// stay in.
type outputTarget struct{ format, path, inside string }

// parseOutputs reads -o values of the form FORMAT or FORMAT=PATH. At most one
// format may go to standard output.
func parseOutputs(values []string) ([]outputTarget, error) {
	var out []outputTarget
	stdout := ""
	for _, v := range values {
		name, path, _ := strings.Cut(v, "=")
		if _, ok := output.Formats[name]; !ok {
			return nil, clikit.Usage("invalid -o %q: formats are %s, optionally FORMAT=PATH", v, strings.Join(output.FormatNames(), ", "))
		}
		if strings.Contains(v, "=") && path == "" {
			return nil, clikit.Usage("invalid -o %q: give a file after =", v)
		}
		if path == "" {
			if stdout != "" {
				return nil, clikit.Usage("-o %s and -o %s both write to standard output; send one to a file with FORMAT=PATH", stdout, name)
			}
			stdout = name
		}
		out = append(out, outputTarget{format: name, path: path})
	}
	return out, nil
}

// newReport fills in what every format needs besides the findings.
func newReport(reg *engine.Registry, colored bool) *output.Report {
	ver, _ := buildInfo()
	wd, _ := os.Getwd()
	return &output.Report{
		Sources: output.Sources{},
		Rules:   reg.Rules(),
		Tool: output.Tool{Name: "aclint", Version: ver,
			InformationURI: "https://github.com/aclint/aclint",
			RulesURI:       rulesURI},
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
func writeOutputs(s *streams, targets []outputTarget, rep *output.Report) error {
	for _, t := range targets {
		w := output.Formats[t.format]
		if t.path == "" {
			out := s.out
			if rep.Color && t.format == "text" {
				out = s.rawOut // its colours are escape sequences; report.Text made the rest printable
			}
			// one write per 64 KiB, not one per line of a finding
			bw := bufio.NewWriterSize(out, 64<<10)
			err := w(bw, rep)
			if err == nil {
				err = bw.Flush()
			}
			if err != nil {
				return clikit.Usage("writing %s output: %w", t.format, err)
			}
			continue
		}
		r := *rep
		r.Color = false
		fill := func(f io.Writer) error { return w(f, &r) }
		var err error
		switch {
		case t.inside != "":
			// named by the repository's .aclint.yaml: confined to it
			err = safewrite.Inside(t.inside, t.path, s.seen, fill)
		case t.path == "/dev/stdout":
			err = fill(s.out)
		case t.path == "/dev/stderr":
			err = fill(s.err)
		default:
			err = safewrite.Output(t.path, s.seen, fill)
		}
		if err != nil {
			return clikit.Usage("writing %s output to %s: %w", t.format, t.path, err)
		}
	}
	return nil
}

// settingsFinder gives each linted file its .aclint.yaml: the one named by
// --config, or the nearest one above the file, read once per file.
type settingsFinder struct {
	reg      *engine.Registry // the rules settings may name
	seen     *engine.ReadSet  // the run's files read
	explicit *settings.Settings
	run      *settings.Settings // for run-wide defaults: fail-on, key, output
	loaded   map[string]*settings.Settings
}

func newSettingsFinder(reg *engine.Registry, seen *engine.ReadSet, configFile, firstArg string) (*settingsFinder, error) {
	f := &settingsFinder{reg: reg, seen: seen, loaded: map[string]*settings.Settings{}}
	if configFile != "" {
		s, err := settings.Load(configFile, reg, seen)
		if err != nil {
			return nil, settingsErr(configFile, err)
		}
		f.explicit, f.run = s, s
		return f, nil
	}
	dir := "."
	if firstArg != "-" {
		if info, err := os.Stat(firstArg); err == nil && info.IsDir() {
			dir = firstArg
		} else {
			dir = filepath.Dir(firstArg)
		}
	}
	found, err := settings.Find(dir)
	if err != nil {
		return nil, clikit.Usage("%w", err)
	}
	s, err := f.load(found)
	f.run = s
	return f, err
}

func (f *settingsFinder) load(path string) (*settings.Settings, error) {
	if path == "" {
		return nil, nil
	}
	if s, ok := f.loaded[path]; ok {
		return s, nil
	}
	s, err := settings.LoadFound(path, f.reg, f.seen)
	if err != nil {
		return nil, settingsErr(path, err)
	}
	f.loaded[path] = s
	return s, nil
}

func (f *settingsFinder) forFile(file string) (*settings.Settings, error) {
	if f.explicit != nil {
		return f.explicit, nil
	}
	if file == "<stdin>" {
		return f.run, nil
	}
	found, err := settings.Find(filepath.Dir(file))
	if err != nil {
		return nil, clikit.Usage("%w", err)
	}
	return f.load(found)
}

func settingsErr(path string, err error) error {
	var se *settings.Error
	var ce *input.ConfinedError
	if errors.As(err, &se) || errors.As(err, &ce) {
		return clikit.Usage("%w", err)
	}
	return clikit.Usage("%s: %w", path, err)
}

// refusedErr is the usage error for input its system refuses: what is
// wrong, the command that tells more, and the errors with their snippets.
func refusedErr(name, why, more string, findings []engine.Finding, lines []string) error {
	var errs []engine.Finding
	for _, f := range findings {
		if f.Severity == engine.Error {
			errs = append(errs, f)
		}
	}
	var b strings.Builder
	_ = output.Text(&b, errs, output.Sources{name: lines}, false)
	// output.Text made each finding printable: its newlines are its layout
	return clikit.UsageBlock(fmt.Sprintf("%s: %s; run '%s' for details:", name, why, more), strings.Split(strings.TrimRight(b.String(), "\n"), "\n")...)
}

// useColor decides --color auto|always|never, honouring NO_COLOR for auto.
func useColor(mode string, w io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		if os.Getenv("NO_COLOR") != "" { // no-color.org: set and not empty
			return false, nil
		}
		if f, ok := w.(interface{ Fd() uintptr }); ok {
			return isatty.IsTerminal(f.Fd()) && os.Getenv("TERM") != "dumb", nil
		}
		return false, nil
	}
	return false, clikit.Usage("invalid --color %q: use auto, always or never", mode)
}
