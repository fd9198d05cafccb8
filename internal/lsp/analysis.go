package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/settings"
)

// analysis is what one version of a document lints to, and the YuniKorn
// model requests answer from (built on first use: typing only lints).
type analysis struct {
	uri, path string
	version   int
	t         *text
	sys       engine.System
	key       string
	findings  []engine.Finding
	// failure is why the document could not be linted at all (an
	// invalid .aclint.yaml, an input its system cannot read): said as one
	// diagnostic, never as a clean document.
	failure string
	ignored bool
	// parsed is what the system read while linting (YuniKorn: the
	// documents), so a hover does not parse the same bytes again
	parsed any
	// outline is the version's symbols, built once for the outline and
	// the folding an editor asks one after the other
	outline     sync.Once
	outlineSyms []DocumentSymbol
}

// analyze lints one version of a document as `aclint lint PATH` lints the
// same bytes: the system that detects it, the nearest .aclint.yaml's rule
// settings and ignore globs, the inline suppressions the system applies.
// previous is what the system parsed for an earlier version of the
// document, which it may build on (engine.Input.Previous).
func analyze(path string, t *text, version int, sc *settingsCache, previous any) *analysis {
	an := &analysis{path: path, uri: "", version: version, t: t}
	in := &engine.Input{Path: path, Data: []byte(t.s), Explicit: true, Arg: path, Previous: previous}
	an.sys = sc.reg.SystemFor(in)
	if an.sys == nil {
		an.failure = "aclint cannot lint this file: no system is registered to read it"
		return an
	}
	set, err := sc.forFile(path)
	if err != nil {
		an.failure = fmt.Sprintf("aclint cannot lint this file: its settings are invalid: %v", err)
		return an
	}
	if set != nil {
		an.key = set.Key
	}
	opts := engine.Options{}.WithValue("key", an.key)
	opts.MaxSize = sc.maxSize
	// the same run as aclint lint PATH: one input, named explicitly
	res, err := engine.Lint(sc.reg, []engine.Job{{In: in, Sys: an.sys}}, engine.LintRun{
		Options:  opts,
		Settings: func(string) (engine.FileSettings, error) { return set, nil },
		Skipped:  func(*engine.Input, string) { an.ignored = true },
		Linted:   func(_ engine.Job, r *engine.Report) { an.parsed = r.Parsed },
	})
	if err != nil {
		an.failure = "aclint cannot lint this file: " + err.Error()
		return an
	}
	for _, f := range res.Findings {
		if f.Pos.File == path {
			an.findings = append(an.findings, f)
		}
	}
	return an
}

// diagnostics are the findings in the protocol's terms.
func (an *analysis) diagnostics(d *document, rulesURL string) []Diagnostic {
	out := []Diagnostic{}
	if an.failure != "" {
		return append(out, Diagnostic{Range: an.t.token(1, 1), Severity: 1, Source: "aclint", Message: an.failure})
	}
	findings := an.findings
	if len(findings) > maxDiagnostics {
		// the most severe first: an error is never left out for a warning
		findings = slices.Clone(findings)
		slices.SortStableFunc(findings, func(a, b engine.Finding) int { return severity(a.Severity) - severity(b.Severity) })
		findings = findings[:maxDiagnostics]
	}
	for _, f := range findings {
		out = append(out, an.diagnostic(d.uri, f, rulesURL))
	}
	if n := len(an.findings) - len(findings); n > 0 {
		out = append(out, Diagnostic{Range: an.t.token(1, 1), Severity: 3, Source: "aclint",
			Message: fmt.Sprintf("%d more findings are not shown: the editor is sent the first %d, the most severe first (aclint lint lists them all)", n, maxDiagnostics)})
	}
	return out
}

// maxDiagnostics bounds what one document publishes: 45,500 findings of
// a generated tree were a message of tens of megabytes, built and sent
// again on every edit, that no one reads in an editor.
const maxDiagnostics = 1000

func severity(s engine.Severity) int {
	switch s {
	case engine.Error:
		return 1
	case engine.Warning:
		return 2
	}
	return 3
}

func (an *analysis) diagnostic(uri string, f engine.Finding, rulesURL string) Diagnostic {
	msg := f.Message
	if f.Hint != "" {
		msg += "\nhint: " + f.Hint
	}
	if f.Pos.Inner != "" {
		msg += "\n(" + f.Pos.Inner + ")"
	}
	dg := Diagnostic{Range: an.findingRange(f), Severity: severity(f.Severity), Code: f.Rule, Source: "aclint", Message: msg}
	if rulesURL != "" && f.Rule != "" {
		dg.CodeDescription = &CodeDescription{Href: rulesURL + "#" + f.Rule}
	}
	for _, r := range f.Related {
		if r.Pos.File != f.Pos.File {
			continue
		}
		dg.RelatedInformation = append(dg.RelatedInformation, DiagnosticRelatedInformation{
			Location: Location{URI: uri, Range: an.t.token(r.Pos.Line, r.Pos.Col)}, Message: r.Message})
	}
	return dg
}

// findingRange is the text a finding is about: its fix's span when it
// starts there, else the token at its position.
func (an *analysis) findingRange(f engine.Finding) Range {
	if e := f.Fix; e != nil && e.Start.Line == f.Pos.Line && e.Start.Col == f.Pos.Col && e.End.Col > e.Start.Col {
		return Range{an.t.pos(e.Start.Line, e.Start.Col), an.t.pos(e.End.Line, e.End.Col)}
	}
	return an.t.token(f.Pos.Line, f.Pos.Col)
}

// codeActions offers each fix of the findings in the range: a safe fix as
// the preferred quick fix, an unsafe one and each alternative as its own
// action whose title says it changes who has access.
func (an *analysis) codeActions(d *document, p CodeActionParams) []CodeAction {
	out := []CodeAction{}
	if len(p.Context.Only) > 0 {
		ok := false
		for _, k := range p.Context.Only {
			ok = ok || k == "quickfix" || k == ""
		}
		if !ok {
			return out
		}
	}
	edit := func(e engine.Edit) *WorkspaceEdit {
		return &WorkspaceEdit{Changes: map[string][]TextEdit{d.uri: {{
			Range:   Range{an.t.pos(e.Start.Line, e.Start.Col), an.t.pos(e.End.Line, e.End.Col)},
			NewText: e.New}}}}
	}
	for _, f := range an.findings {
		dg := an.diagnostic(d.uri, f, "")
		if !overlaps(dg.Range, p.Range) || f.Pos.Inner != "" {
			continue // a value inside a gzipped or folded ConfigMap value cannot be edited in place
		}
		if f.Fix != nil {
			a := CodeAction{Kind: "quickfix", Diagnostics: []Diagnostic{dg}, Edit: edit(*f.Fix)}
			if f.Unsafe == "" {
				a.Title = fmt.Sprintf("Fix %s: %s", f.Rule, fixTitle(f))
				a.IsPreferred = true
			} else {
				a.Title = fmt.Sprintf("Fix %s (changes who has access: %s)", f.Rule, f.Unsafe)
			}
			out = append(out, a)
		}
		for _, alt := range f.Alternatives {
			out = append(out, CodeAction{Kind: "quickfix", Diagnostics: []Diagnostic{dg}, Edit: edit(alt.Edit),
				Title: fmt.Sprintf("Rewrite as %q (changes who has access: %s)", alt.Edit.New, alt.Grants)})
		}
	}
	return out
}

// fixTitle says what a safe fix does.
func fixTitle(f engine.Finding) string {
	if f.Fix.New == "" {
		return "remove the text"
	}
	return fmt.Sprintf("replace with %s", quoteShort(f.Fix.New))
}

func quoteShort(s string) string {
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return fmt.Sprintf("%q", s)
}

// settingsCache reads each .aclint.yaml once, again when its file changes.
type settingsCache struct {
	reg     *engine.Registry // the systems and rules settings may name
	maxSize int64            // the largest file a system reads besides the document
	mu      sync.Mutex
	files   map[string]cachedSettings
}

type cachedSettings struct {
	mod  time.Time
	size int64
	set  *settings.Settings
	err  error
}

func newSettingsCache(reg *engine.Registry, maxSize int64) *settingsCache {
	return &settingsCache{reg: reg, maxSize: maxSize, files: map[string]cachedSettings{}}
}

// forFile is the settings for a document: the nearest .aclint.yaml at or
// above its directory, as `aclint lint` finds it; nil for none.
func (c *settingsCache) forFile(path string) (*settings.Settings, error) {
	if !filepath.IsAbs(path) {
		return nil, nil // an untitled document has no directory
	}
	p, err := settings.Find(filepath.Dir(path))
	if err != nil || p == "" {
		return nil, err
	}
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.files[p]; ok && e.mod.Equal(info.ModTime()) && e.size == info.Size() {
		return e.set, e.err
	}
	set, err := settings.LoadFound(p, c.reg, nil) // the language server writes no file: nothing to keep from being overwritten
	c.files[p] = cachedSettings{mod: info.ModTime(), size: info.Size(), set: set, err: err}
	return set, err
}

// forget drops what was read, after a save.
func (c *settingsCache) forget() {
	c.mu.Lock()
	c.files = map[string]cachedSettings{}
	c.mu.Unlock()
}
