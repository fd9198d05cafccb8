// Package ruledoc renders docs/rules.md from the rules' own metadata, with
// aclint's real output on each rule's example, so the documentation can never
// drift from the code.
package ruledoc

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/aclint/aclint/pkg/config"
	"github.com/aclint/aclint/pkg/lint"
	"github.com/aclint/aclint/pkg/report"
)

// ExampleFile is the name examples are linted under.
const ExampleFile = "queues.yaml"

// ExampleOutput is aclint's text output for a rule's bad example.
func ExampleOutput(r *lint.Rule) string {
	doc := config.Parse(ExampleFile, []byte(r.Bad))
	var b bytes.Buffer
	_ = report.Text(&b, lint.Lint(config.Decode(doc)), report.Sources{ExampleFile: doc.Lines()}, false)
	return b.String()
}

// Markdown renders the rule reference.
func Markdown() string {
	var b strings.Builder
	b.WriteString("<!-- Generated from the rules in pkg/lint by `make docs`; do not edit. -->\n")
	b.WriteString("# aclint rules\n\n")
	b.WriteString("Severities mean the same everywhere: **error** — YuniKorn rejects the config (validate-conf fails,\n")
	b.WriteString("or the queues cannot be built when it loads); **warning** — YuniKorn accepts it, but it does\n")
	b.WriteString("something other than what it appears to say; **info** — advice.\n\n")
	b.WriteString("Rule names are part of aclint's interface and do not change.\n\n")
	b.WriteString("| rule | severity | finds |\n|---|---|---|\n")
	for _, r := range lint.Rules() {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s |\n", r.Name, r.Name, r.Severity, r.Summary)
	}
	for _, r := range lint.Rules() {
		fmt.Fprintf(&b, "\n## %s\n\n", r.Name)
		fmt.Fprintf(&b, "Severity: **%s**. %s.\n\n", r.Severity, upperFirst(r.Summary))
		b.WriteString(r.Doc)
		b.WriteString("\n\nExample `" + ExampleFile + "`:\n\n```yaml\n")
		b.WriteString(r.Bad)
		b.WriteString("```\n\n`aclint lint " + ExampleFile + "` prints:\n\n```text\n")
		b.WriteString(ExampleOutput(r))
		b.WriteString("```\n\nFixed:\n\n```yaml\n")
		b.WriteString(r.Good)
		b.WriteString("```\n")
	}
	return b.String()
}

// Text renders one rule's documentation for a terminal: what it finds, why,
// an example, aclint's output on it, and the fix.
func Text(r *lint.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s\n\n", r.Name, r.Severity, strings.ReplaceAll(r.Summary, "`", ""))
	b.WriteString(strings.ReplaceAll(r.Doc, "`", ""))
	b.WriteString("\n\nExample " + ExampleFile + ":\n\n")
	b.WriteString(indent(r.Bad))
	b.WriteString("\naclint lint " + ExampleFile + " prints:\n\n")
	b.WriteString(indent(ExampleOutput(r)))
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

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
