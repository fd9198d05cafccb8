// Package ruledoc renders docs/rules.md from the rules' own metadata, with
// aclint's real output on each rule's example, so the documentation can never
// drift from the code.
package ruledoc

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/output"
)

// Docs renders the documentation of a registry's rules.
type Docs struct{ Reg *engine.Registry }

// documented is the system that shows a rule's examples: the system
// itself when it says how (engine.Documented), else a plain rendering, so
// that a system with only engine.System has its rules documented too.
func (d Docs) documented(r *engine.Rule) engine.Documented {
	sys := d.Reg.LookupSystem(r.System)
	if doc, ok := sys.(engine.Documented); ok {
		return doc
	}
	return plain{sys}
}

// plain shows a minimal system's examples: a file named for the system
// with its first file ending, linted as aclint lint reads it.
type plain struct{ sys engine.System }

func (p plain) ExampleFile(*engine.Rule) string {
	name := "example"
	if p.sys != nil {
		name = p.sys.Name()
		if exts := p.sys.Extensions(); len(exts) > 0 {
			name += exts[0]
		}
	}
	return name
}

func (p plain) Example(r *engine.Rule, text string) engine.Example {
	file := p.ExampleFile(r)
	return engine.Example{Command: "aclint lint -f " + file, Input: &engine.Input{Path: file, Data: []byte(text), Explicit: true}}
}

func (p plain) ExampleBlock(_ *engine.Rule, text string) string {
	return "```\n" + strings.TrimRight(text, "\n") + "\n```\n"
}

// exampleFile is the file a rule's examples are shown as.
func (d Docs) exampleFile(r *engine.Rule) string { return d.documented(r).ExampleFile(r) }

// Findings lints a rule's example text as the rule's system reads it.
// An example that is one input runs through engine.Lint, the run the
// command line and the language server make.
func (d Docs) Findings(r *engine.Rule, text string) ([]engine.Finding, output.Sources) {
	ex := d.documented(r).Example(r, text)
	if ex.Input == nil {
		return ex.Findings, ex.Sources
	}
	jobs := []engine.Job{{In: ex.Input, Sys: d.Reg.LookupSystem(r.System)}}
	for _, in := range ex.Beside {
		jobs = append(jobs, engine.Job{In: in, Sys: d.Reg.SystemFor(in)})
	}
	res, err := engine.Lint(d.Reg, jobs, engine.LintRun{})
	if err != nil {
		return []engine.Finding{{Rule: r.Name, Severity: engine.Error, Message: err.Error()}}, nil
	}
	return res.Findings, res.Sources
}

// ExampleOutput is aclint's text output for a rule's bad example.
func (d Docs) ExampleOutput(r *engine.Rule) string {
	fs, src := d.Findings(r, r.Bad)
	var b bytes.Buffer
	_ = output.Text(&b, fs, src, false)
	return b.String()
}

// Markdown renders the rule reference.
func (d Docs) Markdown() string {
	var b strings.Builder
	systems := d.Reg.Systems()
	var pkgs, refuses, reads []string
	for _, sys := range systems {
		pkgs = append(pkgs, "internal/systems/"+sys.Name())
		refuses = append(refuses, fmt.Sprintf("%s: %s", sys.Name(), sys.Refuses()))
		reads = append(reads, fmt.Sprintf("`%s` rules check %s", sys.Name(), sys.Inputs()))
	}
	fmt.Fprintf(&b, "<!-- Generated from the rules in %s by `make docs`; do not edit. -->\n", strings.Join(pkgs, ", "))
	b.WriteString("# aclint rules\n\n")
	fmt.Fprintf(&b, "Severities mean the same everywhere: **error** — the system rejects the input (%s);\n", strings.Join(refuses, "; "))
	b.WriteString("**warning** — the system accepts it, but it does something other than what it appears to say;\n")
	b.WriteString("**info** — advice.\n\n")
	fmt.Fprintf(&b, "Rule names are part of aclint's interface and do not change. Each rule belongs to one system: %s.\n\n", strings.Join(reads, "; "))
	b.WriteString("| rule | severity | finds |\n|---|---|---|\n")
	for _, r := range d.Reg.Rules() {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s |\n", r.Name, r.Name, r.Severity, r.Summary)
	}
	for _, r := range d.Reg.Rules() {
		fmt.Fprintf(&b, "\n## %s\n\n", r.Name)
		fmt.Fprintf(&b, "Severity: **%s**. %s.\n\n", r.Severity, upperFirst(r.Summary))
		b.WriteString(r.Doc)
		cmd := d.documented(r).Example(r, r.Bad).Command
		title := "Example `" + d.exampleFile(r) + "`"
		if t, ok := d.documented(r).(interface{ ExampleTitle(*engine.Rule) string }); ok {
			title = t.ExampleTitle(r)
		}
		b.WriteString("\n\n" + title + ":\n\n")
		b.WriteString(d.exampleBlock(r, r.Bad))
		b.WriteString("\n`" + cmd + "` prints:\n\n```text\n")
		b.WriteString(d.ExampleOutput(r))
		b.WriteString("```\n\nFixed:\n\n")
		b.WriteString(d.exampleBlock(r, r.Good))
	}
	return b.String()
}

// Text renders one rule's documentation for a terminal: what it finds, why,
// an example, aclint's output on it, and the fix.
func (d Docs) Text(r *engine.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s\n\n", r.Name, r.Severity, strings.ReplaceAll(r.Summary, "`", ""))
	b.WriteString(strings.ReplaceAll(r.Doc, "`", ""))
	b.WriteString("\n\nExample " + d.exampleFile(r) + ":\n\n")
	b.WriteString(indent(r.Bad))
	b.WriteString("\naclint lint " + d.exampleFile(r) + " prints:\n\n")
	b.WriteString(indent(d.ExampleOutput(r)))
	b.WriteString("\nFixed:\n\n")
	b.WriteString(indent(r.Good))
	return b.String()
}

func indent(s string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString("    " + l)
		}
	}
	return b.String()
}

// exampleBlock shows an example as its system renders it.
func (d Docs) exampleBlock(r *engine.Rule, text string) string {
	return d.documented(r).ExampleBlock(r, text)
}

// Table is the rule table of one system, for the system's own page.
func (d Docs) Table(system string) string {
	var b strings.Builder
	b.WriteString("| rule | severity | finds |\n|---|---|---|\n")
	for _, r := range d.Reg.RulesOf(system) {
		fmt.Fprintf(&b, "| [`%s`](rules.md#%s) | %s | %s |\n", r.Name, r.Name, r.Severity, r.Summary)
	}
	return b.String()
}

// The generated region of a system's page.
const (
	tableStart = "<!-- rules:%s: generated by `make docs` from the rules' metadata -->\n"
	tableEnd   = "<!-- end of rules:%s -->\n"
)

// UpdateTable replaces the generated rule table of a system in a page; it
// reports whether the page had the markers.
func (d Docs) UpdateTable(page, system string) (string, bool) {
	start, end := fmt.Sprintf(tableStart, system), fmt.Sprintf(tableEnd, system)
	i := strings.Index(page, start)
	j := strings.Index(page, end)
	if i < 0 || j < i {
		return page, false
	}
	return page[:i+len(start)] + d.Table(system) + page[j:], true
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
