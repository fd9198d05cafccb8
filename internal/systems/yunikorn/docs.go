package yunikorn

import (
	"fmt"
	"os"
	"strings"

	"github.com/aclint/aclint/internal/engine"
)

// The names examples are shown under: a queue config, or an LDAP settings
// directory for the LDAP rules.
const (
	exampleFile = "queues.yaml"
	exampleLDAP = "ldap"
)

// ExampleTitle introduces a rule's example in the documentation.
func (s Sys) ExampleTitle(r *engine.Rule) string {
	if IsLDAPRule(r.Name) {
		return "Example settings directory (one file per setting)"
	}
	return "Example `" + s.ExampleFile(r) + "`"
}

// ExampleFile is the name examples are shown as.
func (Sys) ExampleFile(r *engine.Rule) string {
	if IsLDAPRule(r.Name) {
		return exampleLDAP
	}
	return exampleFile
}

// Example lints a rule's example as `aclint lint queues.yaml` (a raw
// config, or a ConfigMap holding one), or, for the LDAP rules, as
// `aclint lint --ldap-config ldap`.
func (Sys) Example(r *engine.Rule, text string) engine.Example {
	if IsLDAPRule(r.Name) {
		fs, src := ldapExampleFindings(text)
		return engine.Example{Command: "aclint lint --ldap-config " + exampleLDAP, Findings: fs, Sources: src}
	}
	return engine.Example{Command: "aclint lint -f " + exampleFile, Input: &engine.Input{Path: exampleFile, Data: []byte(text), Explicit: true, Arg: exampleFile}}
}

// ExampleBlock shows a queue config, or the files of a settings directory.
func (Sys) ExampleBlock(r *engine.Rule, text string) string {
	if !IsLDAPRule(r.Name) {
		return "```yaml\n" + text + "```\n"
	}
	var b strings.Builder
	b.WriteString("```text\n")
	for _, l := range strings.Split(strings.TrimSpace(text), "\n") {
		name, v, _ := strings.Cut(l, ":")
		fmt.Fprintf(&b, "%s/%s: %s\n", exampleLDAP, strings.TrimSpace(name), strings.TrimSpace(v))
	}
	b.WriteString("```\n")
	return b.String()
}

// ldapExampleFindings lints an LDAP example written into a temporary
// settings directory, shown as the directory "ldap".
func ldapExampleFindings(text string) ([]engine.Finding, map[string][]string) {
	tmp, err := os.MkdirTemp("", "aclint-ldap")
	if err != nil {
		return nil, nil
	}
	defer os.RemoveAll(tmp)
	fs, err := LDAPExample(tmp, text)
	if err != nil {
		return nil, nil
	}
	// as aclint lint shows them: without a snippet, since any file of the
	// directory may hold the bind password
	for i := range fs {
		fs[i].Pos.File = exampleLDAP + "/" + fs[i].Pos.File
	}
	return fs, map[string][]string{}
}

// IsLDAPRule reports whether a rule checks the LDAP settings directory.
func IsLDAPRule(name string) bool { return ruleFlag(name, func(r *Rule) bool { return r.LDAP }) }
