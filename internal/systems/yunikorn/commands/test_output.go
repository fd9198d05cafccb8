package commands

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/output"
	"github.com/aclint/aclint/internal/systems/yunikorn/expect"
	"github.com/aclint/aclint/internal/systems/yunikorn/limits"
	"github.com/aclint/aclint/internal/systems/yunikorn/placement"
)

// writeTestsText writes a line per failing case (every case with -v), with
// the notes check prints under it ("lists analysts as a user, ..."). On a
// terminal (width > 0) long lines wrap at the width, continued with an
// indent; elsewhere (CI logs, pipes) each stays one line, to grep.
func writeTestsText(w io.Writer, runs []testRun, n [3]int, verbose bool, width int) error {
	var b strings.Builder
	line := func(indent, s string) {
		for _, l := range wrapLine(s, width, indent+"    ") {
			b.WriteString(indent + l + "\n")
			indent = ""
		}
	}
	for _, r := range runs {
		for _, x := range r.results {
			c := x.Case
			// names, titles and explanations come from the test file and the
			// config: one line each, whatever they hold
			title, why, exp, got := engine.Printable(c.Title()), engine.Printable(x.Why), engine.Printable(c.Expect), engine.Printable(x.Got)
			pos := engine.Printable(c.Pos.String())
			switch x.Outcome {
			case expect.Pass:
				if verbose {
					line("", fmt.Sprintf("%s: ok %s: %s", pos, title, why))
				}
				continue
			case expect.Fail:
				line("", fmt.Sprintf("%s: FAIL %s: expected %s, got %s: %s", pos, title, exp, got, why))
			case expect.Error:
				line("", fmt.Sprintf("%s: ERROR %s: no answer: %s", pos, title, why))
			}
			for _, note := range x.Notes() {
				line("    ", "note: "+engine.Printable(note))
			}
		}
	}
	engine.Fprintf(&b, "%d passed, %d failed", n[0], n[1])
	if n[2] > 0 {
		engine.Fprintf(&b, ", %d without an answer", n[2])
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

type testCaseJSON struct {
	File      string            `json:"file"`
	Line      int               `json:"line"`
	Column    int               `json:"column"`
	Name      string            `json:"name"`
	Kind      string            `json:"kind"` // access or place
	Partition string            `json:"partition"`
	User      string            `json:"user"`
	Groups    []string          `json:"groups"`
	Queue     string            `json:"queue"`
	Action    string            `json:"action,omitempty"`
	Tags      map[string]string `json:"tags,omitempty"`
	Expect    string            `json:"expect"`
	Got       string            `json:"got"`
	Outcome   string            `json:"outcome"`
	Why       string            `json:"why"`
	Decision  any               `json:"decision,omitempty"`
}

func testsJSON(env clikit.Env, runs []testRun, n [3]int) any {
	type fileJSON struct {
		File   string         `json:"file"`
		Config []string       `json:"config"`
		Cases  []testCaseJSON `json:"cases"`
	}
	out := struct {
		Passed int        `json:"passed"`
		Failed int        `json:"failed"`
		Errors int        `json:"errors"`
		Files  []fileJSON `json:"files"`
	}{Passed: n[0], Failed: n[1], Errors: n[2], Files: []fileJSON{}}
	for _, r := range runs {
		fj := fileJSON{File: r.file.Path, Config: clikit.NonNil(r.file.Config), Cases: []testCaseJSON{}}
		for _, x := range r.results {
			c := x.Case
			cj := testCaseJSON{File: c.Pos.File, Line: c.Pos.Line, Column: c.Pos.Col, Name: c.Title(), Kind: "access",
				Partition: c.Partition, User: c.User, Groups: clikit.NonNil(c.Groups), Queue: c.Queue, Action: string(c.Action),
				Expect: c.Expect, Got: x.Got, Outcome: string(x.Outcome), Why: x.Why, Tags: c.Tags}
			if c.Place != nil {
				cj.Kind, cj.Queue, cj.Action, cj.Tags = "place", c.Place.Queue, "", c.Place.Tags
			}
			if c.Limits != nil {
				cj.Kind, cj.Action = "limits", ""
			}
			switch {
			case x.Limits != nil:
				cj.Decision = limitsJSON(x.Limits)
			case x.Decision != nil:
				cj.Decision = decisionJSON(x.Decision)
			case x.Placement != nil:
				cj.Decision = env.PlaceJSON(placeAnswer(placement.App{Partition: c.Partition, User: c.User, Groups: c.Groups, Queue: c.Place.Queue, Tags: c.Place.Tags}, x.Placement, nil, nil))
			}
			fj.Cases = append(fj.Cases, cj)
		}
		out.Files = append(out.Files, fj)
	}
	return out
}

// writeTestsJUnit writes a testsuite per test file and a testcase per case,
// so CI systems list every expectation.
func writeTestsJUnit(w io.Writer, runs []testRun, n [3]int) error {
	type problem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Body    string `xml:",chardata"`
	}
	type tcase struct {
		Name      string   `xml:"name,attr"`
		Classname string   `xml:"classname,attr"`
		File      string   `xml:"file,attr"`
		Line      int      `xml:"line,attr"`
		Failure   *problem `xml:"failure"`
		Error     *problem `xml:"error"`
		Out       string   `xml:"system-out,omitempty"`
	}
	type suite struct {
		Name     string  `xml:"name,attr"`
		Tests    int     `xml:"tests,attr"`
		Failures int     `xml:"failures,attr"`
		Errors   int     `xml:"errors,attr"`
		Cases    []tcase `xml:"testcase"`
	}
	var suites []suite
	for _, r := range runs {
		su := suite{Name: r.file.Path, Tests: len(r.results)}
		for _, x := range r.results {
			c := x.Case
			tc := tcase{Name: c.Title(), Classname: strings.TrimSuffix(filepath.ToSlash(r.file.Path), filepath.Ext(r.file.Path)), File: c.Pos.File, Line: c.Pos.Line}
			switch x.Outcome {
			case expect.Pass:
				tc.Out = x.Why
			case expect.Fail:
				su.Failures++
				tc.Failure = &problem{Message: fmt.Sprintf("expected %s, got %s", c.Expect, x.Got), Type: "fail",
					Body: fmt.Sprintf("%s: expected %s, got %s: %s", c.Pos, c.Expect, x.Got, x.Why) + noteLines(x.Notes())}
			case expect.Error:
				su.Errors++
				tc.Error = &problem{Message: "no answer", Type: "error", Body: fmt.Sprintf("%s: %s", c.Pos, x.Why)}
			}
			su.Cases = append(su.Cases, tc)
		}
		suites = append(suites, su)
	}
	return output.WriteXML(w, struct {
		XMLName  xml.Name `xml:"testsuites"`
		Name     string   `xml:"name,attr"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Errors   int      `xml:"errors,attr"`
		Suites   []suite  `xml:"testsuite"`
	}{Name: "aclint test", Tests: n[0] + n[1] + n[2], Failures: n[1], Errors: n[2], Suites: suites})
}

// generateTests writes a snapshot test file for the config -f names (or
// ./queues.yaml), to FILE or standard output.
func generateTests(s *streams, files []string, key, under string, args []string) error {
	if len(files) == 0 {
		if _, err := os.Stat("queues.yaml"); err != nil {
			return clikit.Usage("--generate needs the config: give -f queues.yaml")
		}
		files = []string{"queues.yaml"}
	}
	for _, f := range files {
		if f == "-" {
			return clikit.Usage("--generate names the config in the test file, so it cannot read standard input: give -f FILE")
		}
	}
	l, err := loadOne(s, files, key, nil)
	if err != nil {
		return err
	}
	cfg, policy := l.Config, l.Policy
	// the test file names the config relative to itself
	dir := "."
	if len(args) == 1 {
		dir = filepath.Dir(args[0])
	}
	var names []string
	for _, f := range files {
		abs, err1 := filepath.Abs(f)
		base, err2 := filepath.Abs(dir)
		rel, err3 := filepath.Rel(base, abs)
		if err1 != nil || err2 != nil || err3 != nil {
			rel = f
		}
		names = append(names, filepath.ToSlash(rel))
	}
	opts := expect.GenerateOptions{Config: names, Under: under, MaxCases: maxGenerated, Limits: limits.New(cfg)}
	if len(args) == 0 {
		if err := expect.Generate(s.env.Out(), policy, cfg, opts); err != nil {
			return clikit.Usage("--generate: %w", err)
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(args[0]), 0o755); err != nil {
		return clikit.Usage("%w", err)
	}
	// O_EXCL: a snapshot never replaces a curated test file
	out, err := os.OpenFile(args[0], os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return clikit.Usage("%s exists: --generate does not replace a test file; remove it or write to standard output", args[0])
		}
		return clikit.Usage("%w", err)
	}
	err = expect.Generate(out, policy, cfg, opts)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(args[0])
		return clikit.Usage("--generate: %w", err)
	}
	engine.Fprintf(s.env.Err(), "aclint: wrote %s\n", args[0])
	return nil
}

// wrapLine cuts s at blanks into lines of at most width runes, the later
// ones starting with indent; width 0 keeps s whole. A word longer than the
// width stands alone on its line.
func wrapLine(s string, width int, indent string) []string {
	if width <= 0 || utf8.RuneCountInString(s) <= width {
		return []string{s}
	}
	var out []string
	cur, prefix := "", ""
	for _, word := range strings.Split(s, " ") {
		switch {
		case cur == "":
			cur = prefix + word
		case utf8.RuneCountInString(cur)+1+utf8.RuneCountInString(word) > width:
			out = append(out, cur)
			prefix = indent
			cur = prefix + word
		default:
			cur += " " + word
		}
	}
	return append(out, cur)
}

// noteLines are a case's notes, one "note:" line each, for a JUnit failure.
func noteLines(notes []string) string {
	var b strings.Builder
	for _, n := range notes {
		b.WriteString("\nnote: " + n)
	}
	return b.String()
}
