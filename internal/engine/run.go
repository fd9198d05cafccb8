package engine

import (
	"errors"
	"fmt"
	"slices"
)

// Job is one input and the system that reads it.
type Job struct {
	In  *Input
	Sys System
}

// FileSettings are what a settings file (.aclint.yaml) decides for the
// inputs under it: which are ignored, and each rule's severity.
type FileSettings interface {
	Ignored(path string) bool
	Apply(findings []Finding) []Finding
}

// Ignored is the reason LintRun.Skipped gets for an input its settings
// ignore.
const Ignored = "ignored by its settings"

// LintRun is how a lint runs, everything but its inputs: the one loop the
// command line, the language server and the rule docs share.
type LintRun struct {
	// Options are what every system is told; OptionsFor, when set, gives
	// them for one input (the key its settings name).
	Options    Options
	OptionsFor func(in *Input, set FileSettings) Options
	// Settings are the settings of a file; nil, or a nil result: none.
	Settings func(path string) (FileSettings, error)
	// Report is a job's report when the caller has it already (the lint
	// of a fixed content); nil, or a nil result: the system lints it.
	Report func(j Job) *Report
	// Skipped is told of an input passed over, and why: ignored by its
	// settings, or found in a directory search and not the system's.
	Skipped func(in *Input, why string)
	// Linted is told of each report before the settings apply, for a
	// caller that looks further (a running scheduler's cross-check).
	Linted func(j Job, r *Report)
}

// Result is a lint run's answer: the findings, sorted, with the lines of
// every file they point into, in the order first met.
type Result struct {
	Findings []Finding
	Sources  map[string][]string
	Files    []string
	Configs  int      // documents linted
	Notes    []string // said once on standard error
	// Found are the command-line arguments that gave an input that was
	// linted or ignored: an argument with none found nothing.
	Found map[string]bool
}

// Lint runs every job's system over its input, in the registry's order of
// systems and the jobs' order within one, applies the settings of each
// file and gathers the result. An input named explicitly that its system
// cannot read is an error; one found in a directory is skipped. A panic
// in a system is an error too: a half-typed document in the editor must
// never end the session.
func Lint(reg *Registry, jobs []Job, run LintRun) (*Result, error) {
	res := &Result{Sources: map[string][]string{}, Found: map[string]bool{}}
	for _, sys := range reg.Systems() {
		for _, j := range jobs {
			if !SameSystem(j.Sys, sys) {
				continue
			}
			if err := res.lintJob(j, run); err != nil {
				return nil, err
			}
		}
	}
	others := map[string][]Job{} // each Composer's system: the other systems' jobs
	for _, j := range jobs {
		if _, ok := j.Sys.(Composer); ok && others[j.Sys.Name()] == nil {
			others[j.Sys.Name()] = slices.DeleteFunc(slices.Clone(jobs), func(o Job) bool { return SameSystem(o.Sys, j.Sys) })
		}
		if err := res.compose(j, others[j.Sys.Name()], run); err != nil {
			return nil, err
		}
	}
	Sort(res.Findings)
	return res, nil
}

// Composer is a System with rules that judge its input together with
// another system's inputs given beside it (YuniKorn's queues with the
// Kubernetes RBAC in front of them): once every job is linted, Compose
// gets each of its inputs with the other systems' jobs of the run. A nil
// report finds nothing.
type Composer interface {
	Compose(in *Input, beside []Job, opts Options) (*Report, error)
}

// compose runs j's system's Composer, when it has one and other systems'
// inputs came with it (beside, the run's), and adds its findings as
// lintJob adds a report's.
func (res *Result) compose(j Job, beside []Job, run LintRun) error {
	c, ok := j.Sys.(Composer)
	if !ok || len(beside) == 0 {
		return nil
	}
	set, err := res.settingsOf(j, run)
	if err != nil || set != nil && set.Ignored(j.In.Path) {
		return err
	}
	opts := run.Options
	if run.OptionsFor != nil {
		opts = run.OptionsFor(j.In, set)
	}
	r, err := composeSafely(c, j, beside, opts)
	if err != nil || r == nil {
		return err
	}
	res.add(r, set)
	return nil
}

// composeSafely is Compose with a panic turned into an error.
func composeSafely(c Composer, j Job, beside []Job, opts Options) (rep *Report, err error) {
	defer func() {
		if p := recover(); p != nil {
			rep, err = nil, fmt.Errorf("internal error while linting %s with the files beside it (please report it): %v", j.In.Path, p)
		}
	}()
	return c.Compose(j.In, beside, opts)
}

// settingsOf are the settings of j's file, nil for none.
func (res *Result) settingsOf(j Job, run LintRun) (FileSettings, error) {
	if run.Settings == nil {
		return nil, nil
	}
	return run.Settings(j.In.Path)
}

func (res *Result) lintJob(j Job, run LintRun) error {
	set, err := res.settingsOf(j, run)
	if err != nil {
		return err
	}
	if set != nil && set.Ignored(j.In.Path) {
		res.Found[j.In.Arg] = true
		if run.Skipped != nil {
			run.Skipped(j.In, Ignored)
		}
		return nil
	}
	var r *Report
	if run.Report != nil {
		r = run.Report(j)
	}
	if r == nil {
		opts := run.Options
		if run.OptionsFor != nil {
			opts = run.OptionsFor(j.In, set)
		}
		var err error
		r, err = lintSafely(j, opts)
		if err != nil && !j.In.Explicit {
			if run.Skipped != nil {
				run.Skipped(j.In, SkipReason(err))
			}
			return nil
		}
		if err != nil {
			return err
		}
	}
	if run.Linted != nil {
		run.Linted(j, r)
	}
	res.Found[j.In.Arg] = true
	res.Configs += r.Configs
	res.add(r, set)
	return nil
}

// add takes a report's notes, findings (as its file's settings leave
// them) and sources into the run's result.
func (res *Result) add(r *Report, set FileSettings) {
	res.Notes = append(res.Notes, r.Notes...)
	findings := r.Findings
	if set != nil {
		findings = set.Apply(findings)
	}
	// copied, never aliased: a Linted hook may keep the report's findings
	// (--server's cross-check reads them after the run), and the run's
	// result is appended to and sorted in place
	res.Findings = append(res.Findings, findings...)
	for file, lines := range r.Sources {
		if _, ok := res.Sources[file]; !ok {
			res.Sources[file] = lines
			res.Files = append(res.Files, file)
		}
	}
}

// lintSafely is a system's Lint with a panic turned into an error.
func lintSafely(j Job, opts Options) (rep *Report, err error) {
	defer func() {
		if p := recover(); p != nil {
			rep, err = nil, fmt.Errorf("internal error while linting %s (please report it): %v", j.In.Path, p)
		}
	}()
	return j.Sys.Lint(j.In, opts)
}

// SkipReason says why an input found in a directory was passed over: the
// reason the error carries (a system's error may say it better than its
// message, with a SkipReason method), else its message.
func SkipReason(err error) string {
	var s interface{ SkipReason() string }
	if errors.As(err, &s) {
		return s.SkipReason()
	}
	return err.Error()
}
