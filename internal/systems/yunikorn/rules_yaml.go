package yunikorn

import (
	"fmt"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// problemRule turns the loader's problems of one kind into findings.
func problemRule(kind config.ProblemKind) func(*pass) {
	return func(p *pass) {
		for _, list := range [][]config.Problem{p.doc.Problems, p.cfg.Problems} {
			for _, pr := range list {
				if pr.Kind == kind {
					p.reportFix(pr.Pos, pr.WildcardEdit(), pr.Hint, "%s", pr.Message)
				}
			}
		}
	}
}

// ruleYAMLSyntax is the rule yaml-syntax.
func ruleYAMLSyntax() *Rule {
	return &Rule{
		Name:     "yaml-syntax",
		Severity: Error,
		Summary:  "the file is not valid YAML",
		Doc: `YuniKorn decodes the queue config with yaml.v3 and rejects the whole file on any YAML error,
so the scheduler keeps its old config (or does not start). The message is yaml.v3's own. A value
starting with an unquoted ` + "`*`" + ` outside an ACL is reported here too; aclint quotes it in its
private copy and goes on, so the rest of the file is still checked.`,
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues: [a, b
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues: [{name: a}, {name: b}]
`,
		check: problemRule(config.SyntaxError),
	}
}

// ruleUnquotedWildcard is the rule unquoted-wildcard.
func ruleUnquotedWildcard() *Rule {
	return &Rule{
		Name:     "unquoted-wildcard",
		Fixes:    true,
		Severity: Error,
		Summary:  "an ACL value starts with an unquoted `*`, which YAML reads as an alias",
		Doc: "In YAML a plain value starting with `*` is an alias to an anchor. `submitacl: *` therefore is not\n" +
			"the wildcard: yaml.v3 stops with `did not find expected alphabetic or numeric character` (or\n" +
			"`unknown anchor`), and YuniKorn rejects the whole config. Quote the value.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: *
        queues:
          - name: default
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: default
`,
		check: problemRule(config.UnquotedWildcard),
	}
}

// ruleUnknownKey is the rule unknown-key.
func ruleUnknownKey() *Rule {
	return &Rule{
		Name:     "unknown-key",
		Severity: Error,
		Summary:  "a key YuniKorn does not know, with the nearest valid key",
		Doc: `YuniKorn decodes strictly (yaml.v3 KnownFields): keys are the Go field names in lower case,
and any other key rejects the whole config with ` + "`field X not found in type configs.QueueConfig`" + `.
A common trap is camel case: ` + "`submitACL`" + ` is not ` + "`submitacl`" + `.`,
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            adminACL: " ops"
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            adminacl: " ops"
`,
		check: problemRule(config.UnknownKey),
	}
}

// ruleWrongType is the rule wrong-type.
func ruleWrongType() *Rule {
	return &Rule{
		Name:     "wrong-type",
		Severity: Error,
		Summary:  "a list or map where a string is expected, a bad boolean or number, and similar",
		Doc: `Every value is decoded into the Go type YuniKorn uses; one that does not fit rejects the config.
ACLs are single strings, not YAML lists; ` + "`parent`" + ` takes an unquoted boolean (` + "`\"true\"`" + ` and ` + "`1`" + ` fail);
` + "`maxapplications`" + ` takes a whole number of 0 or more.`,
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        adminacl: " admins"
        submitacl:
          - alice
          - bob
        queues:
          - name: default
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        adminacl: " admins"
        submitacl: "alice,bob"
        queues:
          - name: default
`,
		check: problemRule(config.WrongType),
	}
}

// ruleDuplicateKey is the rule duplicate-key.
func ruleDuplicateKey() *Rule {
	return &Rule{
		Name:     "duplicate-key",
		Severity: Error,
		Summary:  "the same key twice in one mapping",
		Doc: `yaml.v3 refuses a mapping that repeats a key (` + "`mapping key \"submitacl\" already defined`" + `), so
YuniKorn rejects the config. Tools that keep the last value hide which one was meant.`,
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: alice
        submitacl: bob
        queues:
          - name: default
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: alice,bob
        queues:
          - name: default
`,
		check: problemRule(config.DuplicateKey),
	}
}

// ruleMultiDocument is the rule multi-document.
func ruleMultiDocument() *Rule {
	return &Rule{
		Name:     "multi-document",
		Severity: Warning,
		Summary:  "a queue config with more than one YAML document: YuniKorn reads only the first",
		Doc: `YuniKorn decodes one document. Everything after the first ` + "`---`" + ` separator is silently ignored,
so queues and ACLs written there do not exist.`,
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
---
partitions:
  - name: gpu
    queues:
      - name: root
        submitacl: " gpu-users"
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: default
  - name: gpu
    queues:
      - name: root
        submitacl: " gpu-users"
        queues:
          - name: default
`,
		check: func(p *pass) {
			if p.doc.Docs > 1 {
				pos := p.doc.Pos(secondDocLine(p.doc.Text), 1)
				p.reportf(pos, "merge the documents into one partitions list, or move the others to files of their own",
					"%s holds %d YAML documents; YuniKorn reads only the first and ignores everything from here on", describeDoc(p.doc), p.doc.Docs)
			}
		},
	}
}

// secondDocLine finds the line of the first document separator after some
// content.
func secondDocLine(text []byte) int {
	line, content := 1, false
	start := 0
	for i := 0; i <= len(text); i++ {
		if i == len(text) || text[i] == '\n' {
			l := string(text[start:i])
			if len(l) >= 3 && l[:3] == "---" && content {
				return line
			}
			if len(l) > 0 && l[0] != '#' && !(len(l) >= 3 && l[:3] == "---") {
				content = true
			}
			line++
			start = i + 1
		}
	}
	return 1
}

func describeDoc(d *config.Document) string {
	if d.Key != "" {
		return fmt.Sprintf("the %s key of ConfigMap %s", d.Key, d.ConfigMap)
	}
	return "the file"
}
