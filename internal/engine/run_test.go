package engine

import (
	"errors"
	"strings"
	"testing"
)

// fakeSys lints an input into one finding per line starting "bad", fails
// on "fail", and panics on "panic".
type fakeSys struct{ name string }

func (f fakeSys) Name() string       { return f.name }
func (fakeSys) Detect(*Input) bool   { return true }
func (fakeSys) Refuses() string      { return "nothing" }
func (fakeSys) Extensions() []string { return nil }
func (fakeSys) Inputs() string       { return "lines" }
func (fakeSys) Rules() []*Rule       { return nil }
func (f fakeSys) Lint(in *Input, _ Options) (*Report, error) {
	text := string(in.Data)
	switch text {
	case "fail":
		return nil, errors.New("cannot read it")
	case "panic":
		panic("boom")
	}
	r := &Report{Sources: map[string][]string{in.Path: strings.Split(text, "\n")}, Configs: 1, Notes: []string{f.name + " read " + in.Path}}
	for i, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "bad") {
			r.Findings = append(r.Findings, Finding{Rule: f.name + "-bad", Severity: Warning, Pos: Position{File: in.Path, Line: i + 1, Col: 1}, Message: l})
		}
	}
	return r, nil
}

// offSettings ignores paths under ignored/ and turns a's rule off.
type offSettings struct{}

func (offSettings) Ignored(p string) bool { return strings.HasPrefix(p, "ignored/") }
func (offSettings) Apply(fs []Finding) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Rule != "a-bad" {
			out = append(out, f)
		}
	}
	return out
}

func TestLintRun(t *testing.T) {
	a, b := fakeSys{"a"}, fakeSys{"b"}
	reg := NewRegistry("b", a, b)
	in := func(path, data string, explicit bool) *Input {
		return &Input{Path: path, Data: []byte(data), Explicit: explicit, Arg: path}
	}
	jobs := []Job{
		{in("z.txt", "bad z", true), b},
		{in("y.txt", "ok\nbad y", true), a},
		{in("found.txt", "fail", false), b},
		{in("ignored/x.txt", "bad x", true), b},
	}
	var skipped []string
	res, err := Lint(reg, jobs, LintRun{Skipped: func(in *Input, why string) { skipped = append(skipped, in.Path+": "+why) }})
	if err != nil {
		t.Fatal(err)
	}
	// the registry's order of systems: a's input first
	if len(res.Findings) != 3 || res.Files[0] != "y.txt" || res.Configs != 3 || res.Notes[0] != "a read y.txt" {
		t.Fatalf("findings %v files %v configs %d notes %v", res.Findings, res.Files, res.Configs, res.Notes)
	}
	if len(skipped) != 1 || skipped[0] != "found.txt: cannot read it" || res.Found["found.txt"] {
		t.Fatalf("skipped %v found %v", skipped, res.Found)
	}
	skipped = nil
	res, err = Lint(reg, jobs, LintRun{Settings: func(string) (FileSettings, error) { return offSettings{}, nil },
		Skipped: func(in *Input, why string) { skipped = append(skipped, in.Path+": "+why) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 || res.Findings[0].Rule != "b-bad" || !res.Found["ignored/x.txt"] || len(skipped) != 2 || skipped[1] != "ignored/x.txt: "+Ignored {
		t.Fatalf("with settings: findings %v found %v skipped %v", res.Findings, res.Found, skipped)
	}
	// an input named explicitly that its system cannot read, or that
	// panics, is an error, never a clean result
	for _, text := range []string{"fail", "panic"} {
		if _, err := Lint(reg, []Job{{in("e.txt", text, true), a}}, LintRun{}); err == nil {
			t.Errorf("%s: no error", text)
		}
	}
	// a report the caller has is used as it is
	res, _ = Lint(reg, []Job{{in("r.txt", "panic", true), a}}, LintRun{Report: func(Job) *Report { return &Report{Configs: 7} }})
	if res.Configs != 7 {
		t.Errorf("the caller's report was not used: %d", res.Configs)
	}
}

type skipErr struct{}

func (skipErr) Error() string      { return "long message" }
func (skipErr) SkipReason() string { return "short" }

func TestSkipReason(t *testing.T) {
	if got := SkipReason(skipErr{}); got != "short" {
		t.Errorf("%q", got)
	}
	if got := SkipReason(errors.New("plain")); got != "plain" {
		t.Errorf("%q", got)
	}
}

// TestLintKeepsReports: a Linted hook may keep a report's findings (the
// --server cross-check reads them after the run); the run's result,
// appended to and sorted, must never write into them.
func TestLintKeepsReports(t *testing.T) {
	a := fakeSys{"a"}
	reg := NewRegistry("a", a)
	in := func(path, data string) *Input {
		return &Input{Path: path, Data: []byte(data), Explicit: true, Arg: path}
	}
	jobs := []Job{{in("b.txt", "ok\nbad 1\nbad 2\nbad 3"), a}, {in("a.txt", "bad 4\nbad 5"), a}}
	var kept [][]Finding
	var copies [][]Finding
	_, err := Lint(reg, jobs, LintRun{Linted: func(_ Job, r *Report) {
		// room to spare after the findings, as a system's growing slice has
		r.Findings = append(make([]Finding, 0, 64), r.Findings...)
		kept = append(kept, r.Findings)
		copies = append(copies, append([]Finding(nil), r.Findings...))
	}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range kept {
		for j := range kept[i] {
			if k, c := kept[i][j], copies[i][j]; k.Pos != c.Pos || k.Message != c.Message || k.Rule != c.Rule {
				t.Fatalf("report %d, finding %d changed after the run: %v, was %v", i, j, kept[i][j], copies[i][j])
			}
		}
	}
}
