package cli

import (
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/input"

	"errors"
	"fmt"
	"os"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/output"
)

// collectFindings lints every input with its system, applies the
// settings of each file, and returns the report and the number of configs
// linted.
func collectFindings(s *streams, o *lintOptions, args []string) (*output.Report, int, error) {
	if o.fix {
		if err := fixableArgs(args); err != nil {
			return nil, 0, err
		}
	}
	jobs, err := collectLintInputs(s, args, o.verbose, o.system)
	if err != nil {
		return nil, 0, err
	}
	// what the systems' flags name besides the files (a settings
	// directory), with the path whose settings apply to it
	type beside struct {
		findings []engine.Finding
		path     string
	}
	var besides []beside
	for _, l := range o.parts {
		if l.Before == nil {
			continue
		}
		fs, path, err := l.Before()
		if err != nil {
			return nil, 0, err
		}
		if len(fs) > 0 {
			besides = append(besides, beside{fs, path})
		}
	}
	var fixed map[*engine.Input]*engine.Report
	if o.fix || o.diff {
		if fixed, err = fixJobs(s, jobs, o); err != nil {
			return nil, 0, err
		}
		if o.diff {
			o.targets = nil // stdout holds the diff; the exit code still follows the findings left
		}
	}
	ej := make([]engine.Job, len(jobs))
	for i, j := range jobs {
		ej[i] = engine.Job{In: j.in, Sys: j.sys}
	}
	res, err := engine.Lint(s.reg, ej, o.lintRun(s, fixed))
	if err != nil {
		var u *clikit.ExitError
		if errors.As(err, &u) {
			return nil, 0, err
		}
		return nil, 0, clikit.Usage("%w", err)
	}
	for _, n := range res.Notes {
		fmt.Fprintf(s.err, "aclint: %s\n", n)
	}
	rep := newReport(s.reg, o.colored)
	rep.Findings, rep.Sources, rep.Files = res.Findings, res.Sources, res.Files
	linted, found := res.Configs, res.Found
	if err := checkFound(s.reg, args, found, o.system); err != nil {
		return nil, 0, err
	}
	for _, b := range besides {
		set, err := o.files.forFile(b.path)
		if err != nil {
			return nil, 0, err
		}
		rep.Findings = append(rep.Findings, set.WithRules(o.rules).Apply(b.findings)...)
	}
	engine.Sort(rep.Findings)
	for _, l := range o.parts {
		if l.After != nil {
			if err := l.After(); err != nil {
				return nil, 0, err
			}
		}
	}
	return rep, linted, nil
}

// writeLintOutput writes every requested output, the summary, and gives
// the exit code --fail-on asks for.
func writeLintOutput(s *streams, o *lintOptions, rep *output.Report, linted int) error {
	findings := rep.Findings
	if err := writeOutputs(s, o.targets, rep); err != nil {
		return err
	}
	if !o.quiet && len(o.targets) > 0 && o.targets[0].format == "text" && o.targets[0].path == "" {
		output.Summary(s.err, findings, linted)
	}
	for _, f := range findings {
		if !o.never && f.Severity >= o.threshold {
			return &clikit.ExitError{Code: ExitFail}
		}
	}
	return nil
}

// ruleOverrides reads --disable and --enable: every name must be a rule
// (with "did you mean"), a rule cannot be both, and a rule whose findings
// are inputs the system refuses cannot be turned off.
func ruleOverrides(reg *engine.Registry, disable, enable []string) (map[string]string, error) {
	out := map[string]string{}
	check := func(flag, name string) (*engine.Rule, error) {
		r := reg.Lookup(name)
		if r == nil {
			if to := engine.Renamed(name); to != "" {
				return nil, clikit.Usage("--%s %s: the rule was renamed to %s; write the new name", flag, name, to)
			}
			return nil, clikit.Usage("--%s: no rule named %q%s; run 'aclint rules' for the list", flag, name, didYouMean(reg, name))
		}
		return r, nil
	}
	for _, name := range disable {
		r, err := check("disable", name)
		if err != nil {
			return nil, err
		}
		if r.Severity == engine.Error {
			what := "inputs its system refuses"
			if sys := reg.LookupSystem(r.System); sys != nil {
				what = sys.Refuses()
			}
			return nil, clikit.Usage("--disable %s: the rule finds %s, which cannot be turned off", name, what)
		}
		out[name] = "off"
	}
	for _, name := range enable {
		r, err := check("enable", name)
		if err != nil {
			return nil, err
		}
		if out[name] == "off" {
			return nil, clikit.Usage("rule %s is given to both --disable and --enable", name)
		}
		out[name] = r.Severity.String()
	}
	return out, nil
}

// fixableArgs refuses, before anything is read, a file named for --fix
// that is not a regular file: a FIFO would be read, then block --fix's
// second opening; a device cannot be rewritten. Directories are searched,
// and a search passes such files over.
func fixableArgs(args []string) error {
	for _, a := range args {
		if a == "-" {
			continue
		}
		info, err := os.Stat(a)
		if err != nil || info.IsDir() || info.Mode().IsRegular() {
			continue // reading says what is wrong with a missing file
		}
		return clikit.Usage("%s: --fix rewrites regular files only, and this is %s; lint it without --fix, or use --diff on a copy", a, input.KindOf(info.Mode()))
	}
	return nil
}

// engineOptions are what lint tells every system: the settings each reads
// by name (YuniKorn's ConfigMap key) and the input bound.
func (o *lintOptions) engineOptions(s *streams) engine.Options {
	opts := engine.Options{}
	for _, l := range o.parts {
		if l.Values != nil {
			for k, v := range l.Values() {
				opts = opts.WithValue(k, v)
			}
		}
	}
	opts.MaxSize, opts.Seen = s.maxInput, s.seen
	return opts
}

// lintRun is how lint runs engine.Lint: the settings of each file with
// the command line's rule overrides, the fixed contents' reports, -v's
// skip messages, and what --server and --ldap-config look at further.
func (o *lintOptions) lintRun(s *streams, fixed map[*engine.Input]*engine.Report) engine.LintRun {
	return engine.LintRun{
		Options: o.engineOptions(s),
		Settings: func(path string) (engine.FileSettings, error) {
			set, err := o.files.forFile(path)
			return set.WithRules(o.rules), err
		},
		Report: func(j engine.Job) *engine.Report { return fixed[j.In] },
		Skipped: func(in *engine.Input, why string) {
			if !o.verbose {
				return
			}
			if why == engine.Ignored {
				set, _ := o.files.forFile(in.Path)
				why = "ignored by " + set.Path
			}
			fmt.Fprintf(s.err, "aclint: skipping %s: %s\n", in.Path, why)
		},
		Linted: func(j engine.Job, r *engine.Report) {
			for _, l := range o.parts {
				if l.Linted != nil {
					l.Linted(j, r)
				}
			}
		},
	}
}
