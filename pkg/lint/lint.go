// Package lint runs aclint's rules over decoded YuniKorn queue configs and
// reports findings with the exact position of each offending value.
//
// Every rule carries its own documentation (a summary, an explanation, a
// config that triggers it and its fix), so docs/rules.md and `aclint rules`
// are generated from the same place the check lives.
package lint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/aclint/aclint/pkg/acl"
	"github.com/aclint/aclint/pkg/config"
)

// Severity has one meaning across the tool.
type Severity int

const (
	// Info is advice.
	Info Severity = iota
	// Warning: YuniKorn accepts the config, but it does something other
	// than what it appears to say.
	Warning
	// Error: YuniKorn rejects the config (validate-conf fails, or the
	// queues cannot be built when it loads).
	Error
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "info"
}

// ParseSeverity reads a severity name.
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "error":
		return Error, nil
	case "warning":
		return Warning, nil
	case "info":
		return Info, nil
	}
	return 0, fmt.Errorf("unknown severity %q: use error, warning or info", s)
}

// MarshalText writes the severity name in JSON output.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Finding is one problem at one place.
type Finding struct {
	Rule     string
	Severity Severity
	Pos      config.Position
	Message  string
	Hint     string
}

// Rule is one check with its documentation.
type Rule struct {
	Name     string
	Severity Severity
	// Summary is one line: what the rule finds.
	Summary string
	// Doc explains why it matters, in Markdown.
	Doc string
	// Bad is a queues.yaml that triggers the rule; Good is the same config
	// fixed. The documentation shows aclint's real output on Bad.
	Bad, Good string
	check     func(*pass)
}

// pass is the state of one lint run over one config.
type pass struct {
	rule     *Rule
	cfg      *config.Config
	doc      *config.Document
	acls     *aclCache
	findings *[]Finding
}

func (p *pass) report(pos config.Position, hint, format string, args ...any) {
	*p.findings = append(*p.findings, Finding{Rule: p.rule.Name, Severity: p.rule.Severity, Pos: pos, Message: fmt.Sprintf(format, args...), Hint: hint})
}

// aclCache parses each ACL value of a config once for all rules.
type aclCache struct {
	byNode map[*config.Queue][2]acl.Value
}

func (c *aclCache) get(q *config.Queue) (submit, admin acl.Value) {
	v, ok := c.byNode[q]
	if !ok {
		v = [2]acl.Value{acl.Parse(q.SubmitACL.Value), acl.Parse(q.AdminACL.Value)}
		c.byNode[q] = v
	}
	return v[0], v[1]
}

// Rules returns every rule, sorted by name.
func Rules() []*Rule {
	out := append([]*Rule(nil), registry...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns the rule with the given name, or nil.
func Lookup(name string) *Rule {
	for _, r := range registry {
		if r.Name == name {
			return r
		}
	}
	return nil
}

var registry []*Rule

func register(r *Rule) *Rule {
	registry = append(registry, r)
	return r
}

// Lint runs every rule over cfg and returns the findings in file order.
func Lint(cfg *config.Config) []Finding {
	var findings []Finding
	cache := &aclCache{byNode: map[*config.Queue][2]acl.Value{}}
	for _, r := range registry {
		r.check(&pass{rule: r, cfg: cfg, doc: cfg.Doc, acls: cache, findings: &findings})
	}
	Sort(findings)
	return findings
}

// Sort orders findings by file, line, column, then rule name.
func Sort(f []Finding) {
	sort.SliceStable(f, func(i, j int) bool {
		a, b := f[i].Pos, f[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return f[i].Rule < f[j].Rule
	})
}

// Count tallies findings by severity.
func Count(f []Finding) map[Severity]int {
	out := map[Severity]int{Error: 0, Warning: 0, Info: 0}
	for _, x := range f {
		out[x.Severity]++
	}
	return out
}

// HasErrors reports whether any finding is an error: YuniKorn rejects the
// config.
func HasErrors(f []Finding) bool {
	for _, x := range f {
		if x.Severity == Error {
			return true
		}
	}
	return false
}

// aclFields calls fn for every ACL written in the config.
func (p *pass) aclFields(fn func(part *config.Partition, q *config.Queue, field string, s config.Str, v acl.Value)) {
	for _, part := range p.cfg.Partitions {
		part.Root.Walk(func(q *config.Queue) {
			if q.Synthetic {
				return
			}
			submit, admin := p.acls.get(q)
			if q.SubmitACL.Set() {
				fn(part, q, acl.SubmitField, q.SubmitACL, submit)
			}
			if q.AdminACL.Set() {
				fn(part, q, acl.AdminField, q.AdminACL, admin)
			}
		})
	}
}

// quote shows a value as written in a YAML double-quoted string.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\u00a0':
			b.WriteString(`\u00a0`)
		default:
			if r < 0x20 || (r >= 0x7f && r < 0xa0) || r == 0x85 || (r >= 0x2000 && r <= 0x200b) || r == 0x2028 || r == 0x2029 || r == 0x3000 || r == 0x202f || r == 0x205f || r == 0x1680 || r == 0xfeff {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Errors runs only the error rules: the findings that make YuniKorn reject
// the config.
func Errors(cfg *config.Config) []Finding {
	var findings []Finding
	cache := &aclCache{byNode: map[*config.Queue][2]acl.Value{}}
	for _, r := range registry {
		if r.Severity == Error {
			r.check(&pass{rule: r, cfg: cfg, doc: cfg.Doc, acls: cache, findings: &findings})
		}
	}
	Sort(findings)
	return findings
}
