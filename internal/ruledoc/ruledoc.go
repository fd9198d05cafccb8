// Package ruledoc renders docs/rules.md from the rules' own metadata, with
// aclint's real output on each rule's example, so the documentation can never
// drift from the code.
package ruledoc

import (
	"github.com/aclint/aclint/pkg/yunikorn"

	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/aclint/aclint/pkg/config"
	"github.com/aclint/aclint/pkg/lint"
	"github.com/aclint/aclint/pkg/mesos"
	"github.com/aclint/aclint/pkg/report"
	"github.com/aclint/aclint/pkg/ytsaurus"
)

// ExampleFile is the name YuniKorn examples are linted under.
const ExampleFile = "queues.yaml"

// MesosExampleFile is the name Mesos examples are linted under.
const MesosExampleFile = "acls.json"

// YTExampleFile is the name YTsaurus examples are linted under.
const YTExampleFile = "tree.yaml"

// exampleFile is the file a rule's examples are shown as.
func exampleFile(r *lint.Rule) string {
	switch r.System {
	case mesos.System:
		return MesosExampleFile
	case ytsaurus.System:
		return YTExampleFile
	}
	return ExampleFile
}

// Findings lints a rule's example text as the rule's system reads it.
func Findings(r *lint.Rule, text string) ([]lint.Finding, report.Sources) {
	switch r.System {
	case mesos.System:
		doc := mesos.Parse(MesosExampleFile, []byte(text))
		return mesos.Lint(doc), report.Sources{MesosExampleFile: doc.Lines()}
	case ytsaurus.System:
		doc := ytsaurus.Parse(YTExampleFile, []byte(text))
		return ytsaurus.Lint(doc, ytsaurus.Options{}), report.Sources{YTExampleFile: doc.Lines()}
	}
	// a raw queue config, or a ConfigMap holding one (for the rules about
	// the ConfigMap's other settings)
	docs, err := config.LoadBytes(ExampleFile, []byte(text), config.LoadOptions{})
	if err != nil || len(docs) != 1 {
		doc := config.Parse(ExampleFile, []byte(text))
		return yunikorn.Lint(config.Decode(doc)), report.Sources{ExampleFile: doc.Lines()}
	}
	return yunikorn.Lint(config.Decode(docs[0])), report.Sources{ExampleFile: docs[0].Lines()}
}

// ExampleOutput is aclint's text output for a rule's bad example.
func ExampleOutput(r *lint.Rule) string {
	if r.LDAP {
		return ldapOutput(r.Bad)
	}
	fs, src := Findings(r, r.Bad)
	var b bytes.Buffer
	_ = report.Text(&b, fs, src, false)
	return b.String()
}

// Markdown renders the rule reference.
func Markdown() string {
	var b strings.Builder
	b.WriteString("<!-- Generated from the rules in pkg/lint, pkg/mesos and pkg/ytsaurus by `make docs`; do not edit. -->\n")
	b.WriteString("# aclint rules\n\n")
	b.WriteString("Severities mean the same everywhere: **error** — the system rejects the config (YuniKorn:\n")
	b.WriteString("validate-conf fails, or the queues cannot be built when it loads; Mesos: the master and agent\n")
	b.WriteString("refuse to start with the ACLs; YTsaurus: `set @acl` is refused, or the tree document cannot be read);\n")
	b.WriteString("**warning** — the system accepts it, but it does something other than what it appears to say;\n")
	b.WriteString("**info** — advice.\n\n")
	b.WriteString("Rule names are part of aclint's interface and do not change. Rules for Apache Mesos' `--acls`\n")
	b.WriteString("files start with `mesos-` (see [mesos.md](mesos.md)), rules for YTsaurus trees with `yt-` (see\n")
	b.WriteString("[ytsaurus.md](ytsaurus.md)); the others check YuniKorn queue configs.\n\n")
	b.WriteString("| rule | severity | finds |\n|---|---|---|\n")
	for _, r := range lint.Rules() {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s |\n", r.Name, r.Name, r.Severity, r.Summary)
	}
	for _, r := range lint.Rules() {
		fmt.Fprintf(&b, "\n## %s\n\n", r.Name)
		fmt.Fprintf(&b, "Severity: **%s**. %s.\n\n", r.Severity, upperFirst(r.Summary))
		b.WriteString(r.Doc)
		cmd := "aclint lint " + exampleFile(r)
		if r.LDAP {
			cmd = "aclint lint --ldap-config " + LDAPDir
			b.WriteString("\n\nExample settings directory (one file per setting):\n\n")
		} else {
			b.WriteString("\n\nExample `" + exampleFile(r) + "`:\n\n")
		}
		b.WriteString(exampleBlock(r, r.Bad))
		b.WriteString("\n`" + cmd + "` prints:\n\n```text\n")
		b.WriteString(ExampleOutput(r))
		b.WriteString("```\n\nFixed:\n\n")
		b.WriteString(exampleBlock(r, r.Good))
	}
	return b.String()
}

// Text renders one rule's documentation for a terminal: what it finds, why,
// an example, aclint's output on it, and the fix.
func Text(r *lint.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s): %s\n\n", r.Name, r.Severity, strings.ReplaceAll(r.Summary, "`", ""))
	b.WriteString(strings.ReplaceAll(r.Doc, "`", ""))
	b.WriteString("\n\nExample " + exampleFile(r) + ":\n\n")
	b.WriteString(indent(r.Bad))
	b.WriteString("\naclint lint " + exampleFile(r) + " prints:\n\n")
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

// LDAPDir is the directory name LDAP examples are shown under.
const LDAPDir = "ldap"

// ldapOutput lints an LDAP example as `aclint lint --ldap-config ldap`.
func ldapOutput(text string) string {
	tmp, err := os.MkdirTemp("", "aclint-ldap")
	if err != nil {
		return err.Error()
	}
	defer os.RemoveAll(tmp)
	fs, err := yunikorn.LDAPExample(tmp, text)
	if err != nil {
		return err.Error()
	}
	src := report.Sources{}
	for i := range fs {
		fs[i].Pos.File = LDAPDir + "/" + fs[i].Pos.File
		if b, err := os.ReadFile(filepath.Join(tmp, filepath.Base(fs[i].Pos.File))); err == nil {
			src[fs[i].Pos.File] = strings.Split(string(b), "\n")
		}
	}
	var b bytes.Buffer
	_ = report.Text(&b, fs, src, false)
	return b.String()
}

// exampleBlock shows an example: a queues.yaml, or the files of an LDAP
// settings directory.
func exampleBlock(r *lint.Rule, text string) string {
	if r.System == mesos.System {
		return "```json\n" + text + "```\n"
	}
	if !r.LDAP {
		return "```yaml\n" + text + "```\n"
	}
	var b strings.Builder
	b.WriteString("```text\n")
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		name, v, _ := strings.Cut(l, ":")
		fmt.Fprintf(&b, "%s/%s: %s\n", LDAPDir, strings.TrimSpace(name), strings.TrimSpace(v))
	}
	b.WriteString("```\n")
	return b.String()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
