// Package lint runs aclint's rules over decoded YuniKorn queue configs and
// reports findings with the exact position of each offending value.
//
// Every rule carries its own documentation (a summary, an explanation, a
// config that triggers it and its fix), so docs/rules.md and `aclint rules`
// are generated from the same place the check lives.
package lint

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/pkg/acl"
	"github.com/aclint/aclint/pkg/config"
)

// Severity has one meaning across the tool and every system it checks.
type Severity int

const (
	// Info is advice.
	Info Severity = iota
	// Warning: the system accepts the config, but it does something other
	// than what it appears to say.
	Warning
	// Error: the system rejects the config (YuniKorn: validate-conf fails,
	// or the queues cannot be built when it loads; Mesos: the master and
	// agent refuse to start).
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
	// Fix is the edit that certainly fixes the finding, when there is one.
	Fix *config.Edit
	// Unsafe, for a fix, says how it changes who has access; "" for a safe
	// fix, which keeps YuniKorn's reading of every ACL or turns a config
	// YuniKorn refuses into the one validate-conf read. Unsafe fixes run
	// only when asked for (--unsafe-fixes).
	Unsafe string
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
	// fixed. The documentation shows aclint's real output on Bad. For LDAP
	// rules (LDAP true) they list the settings directory instead, one
	// "File: value" line per file; for other systems they are that
	// system's file (an --acls JSON file for Mesos).
	Bad, Good string
	LDAP      bool
	// System is what the rule checks: YuniKorn for queue configs (the
	// rules of this package), or another system whose package registers
	// its rules with Register and runs them itself.
	System string
	check  func(*pass)
}

// The systems aclint checks.
const (
	YuniKorn = "yunikorn"
	Mesos    = "mesos"
	YTsaurus = "ytsaurus"
)

// pass is the state of one lint run over one config.
type pass struct {
	rule     *Rule
	cfg      *config.Config
	doc      *config.Document
	acls     *aclCache
	findings *[]Finding
}

func (p *pass) report(pos config.Position, hint, format string, args ...any) {
	p.reportFix(pos, nil, hint, format, args...)
}

// reportFix reports a finding with its certain fix (nil when the file
// cannot be edited there).
func (p *pass) reportFix(pos config.Position, fix *config.Edit, hint, format string, args ...any) {
	*p.findings = append(*p.findings, Finding{Rule: p.rule.Name, Severity: p.rule.Severity, Pos: pos, Message: fmt.Sprintf(format, args...), Hint: hint, Fix: fix})
}

// reportACLFix reports a finding whose fix rewrites an ACL from old to new,
// and marks the fix unsafe when it changes who has access.
func (p *pass) reportACLFix(pos config.Position, fix *config.Edit, old, new, hint, format string, args ...any) {
	p.reportFix(pos, fix, hint, format, args...)
	if fix != nil {
		(*p.findings)[len(*p.findings)-1].Unsafe = fixSafety(old, new)
	}
}

// fixSafety says how replacing an ACL's value old by new changes who has
// access, or "" when it does not: YuniKorn reads both the same, or it
// refuses old (the config does not load) and new is what validate-conf
// read.
func fixSafety(old, new string) string {
	ov, nv := acl.Parse(old), acl.Parse(new)
	if ov.RuntimeErr != nil || ov.ValidatorErr != nil {
		return ""
	}
	was, is := describeGrants(ov), describeGrants(nv)
	if was == is {
		return ""
	}
	return fmt.Sprintf("YuniKorn reads %s as %s; the fix makes it %s", quote(old), was, is)
}

// describeGrants says whom an ACL lets in, in a canonical form.
func describeGrants(v acl.Value) string {
	everyone, users, groups := v.Grants()
	if everyone {
		return "everyone"
	}
	names := func(es []acl.Entry) string {
		var n []string
		seen := map[string]bool{}
		for _, e := range es {
			if !seen[e.Name] {
				seen[e.Name] = true
				n = append(n, e.Name)
			}
		}
		sort.Strings(n)
		return strings.Join(n, ", ")
	}
	switch {
	case len(users) == 0 && len(groups) == 0:
		return "nobody"
	case len(groups) == 0:
		return "users " + names(users)
	case len(users) == 0:
		return "groups " + names(groups)
	}
	return "users " + names(users) + " and groups " + names(groups)
}

// editOrNil drops the ok flag of the config package's edit builders.
func editOrNil(e *config.Edit, ok bool) *config.Edit {
	if !ok {
		return nil
	}
	return e
}

// aclCache parses each distinct ACL string of a config once for all rules.
// Configs repeat a few ACLs across many queues, so the parsed values are
// shared; rules only read them.
type aclCache struct {
	values []*acl.Value // submit and admin ACL of each queue, by 2*Queue.Index
	sites  []aclSite    // every ACL written in the config, in file order

	// the resource checks of YuniKorn's checkQueueResource, walked once
	resourcesOnce  sync.Once
	resourceIssues []resourceIssue
	// and its limit checks
	limitsOnce  sync.Once
	limitIssues []limitIssue
}

// aclSite is one written ACL.
type aclSite struct {
	part  *config.Partition
	queue *config.Queue
	admin bool
}

func newACLCache(cfg *config.Config) *aclCache {
	c := &aclCache{values: make([]*acl.Value, 2*cfg.NumQueues), sites: make([]aclSite, 0, cfg.NumQueues)}
	unset := &acl.Value{}
	for i := range c.values {
		c.values[i] = unset
	}
	parsed := map[string]*acl.Value{}
	parse := func(raw string) *acl.Value {
		v, ok := parsed[raw]
		if !ok {
			pv := acl.Parse(raw)
			v = &pv
			parsed[raw] = v
		}
		return v
	}
	for _, part := range cfg.Partitions {
		part.Root.Walk(func(q *config.Queue) {
			if q.Synthetic {
				return
			}
			if q.SubmitACL.Set() {
				c.values[2*q.Index] = parse(q.SubmitACL.Value)
				c.sites = append(c.sites, aclSite{part, q, false})
			}
			if q.AdminACL.Set() {
				c.values[2*q.Index+1] = parse(q.AdminACL.Value)
				c.sites = append(c.sites, aclSite{part, q, true})
			}
		})
	}
	return c
}

// get returns the parsed submit and admin ACL of q; an ACL not written is
// the zero Value, which matches nobody.
func (c *aclCache) get(q *config.Queue) (submit, admin *acl.Value) {
	return c.values[2*q.Index], c.values[2*q.Index+1]
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

// Suggest returns the rule name nearest to a mistyped one, or "".
func Suggest(name string) string {
	var names []string
	for _, r := range registry {
		names = append(names, r.Name)
		if strings.HasSuffix(r.Name, "-"+name) || strings.HasPrefix(r.Name, name+"-") {
			return r.Name
		}
	}
	return config.Nearest(name, names)
}

var registry []*Rule

func register(r *Rule) *Rule {
	r.System = YuniKorn
	registry = append(registry, r)
	return r
}

// Register adds the rule of another system, so that it is documented,
// listed by `aclint rules`, configurable in .aclint.yaml and described in
// SARIF output. That system's package runs it. Names are unique across
// systems.
func Register(r *Rule) *Rule {
	if r.System == "" || r.System == YuniKorn || r.check != nil {
		panic("lint.Register is for the rules of other systems: " + r.Name)
	}
	if Lookup(r.Name) != nil {
		panic("rule registered twice: " + r.Name)
	}
	registry = append(registry, r)
	return r
}

// yunikornRules are the rules Lint runs.
func yunikornRules() []*Rule {
	var out []*Rule
	for _, r := range registry {
		if r.check != nil {
			out = append(out, r)
		}
	}
	return out
}

// Lint runs every YuniKorn rule over cfg and returns the findings in file
// order.
func Lint(cfg *config.Config) []Finding {
	findings := applySuppressions(cfg.Doc, oneCause(run(cfg, yunikornRules())))
	Sort(findings)
	return findings
}

// oneCause keeps one finding per cause: where a value has the wrong type
// (a scalar where YuniKorn expects a mapping or a list), what the rules say
// about the empty thing it decodes into (no name, no queues) is the same
// mistake seen again, so only wrong-type is kept at that position.
func oneCause(f []Finding) []Finding {
	wrong := map[config.Position]bool{}
	for _, x := range f {
		if x.Rule == "wrong-type" {
			wrong[x.Pos] = true
		}
	}
	if len(wrong) == 0 {
		return f
	}
	out := f[:0]
	for _, x := range f {
		if x.Rule == "wrong-type" || !wrong[x.Pos] {
			out = append(out, x)
		}
	}
	return out
}

// run checks rules concurrently: they only read the decoded config and the
// parsed ACLs, and each writes its own findings. The result does not depend
// on scheduling: findings are joined in rule order, then sorted stably.
func run(cfg *config.Config, rules []*Rule) []Finding {
	cache := newACLCache(cfg)
	results := make([][]Finding, len(rules))
	next := make(chan int, len(rules))
	for i := range rules {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(rules)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				rules[i].check(&pass{rule: rules[i], cfg: cfg, doc: cfg.Doc, acls: cache, findings: &results[i]})
			}
		}()
	}
	wg.Wait()
	var findings []Finding
	for _, f := range results {
		findings = append(findings, f...)
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
func (p *pass) aclFields(fn func(part *config.Partition, q *config.Queue, field string, s config.Str, v *acl.Value)) {
	for _, site := range p.acls.sites {
		q := site.queue
		submit, admin := p.acls.get(q)
		if site.admin {
			fn(site.part, q, acl.AdminField, q.AdminACL, admin)
		} else {
			fn(site.part, q, acl.SubmitField, q.SubmitACL, submit)
		}
	}
}

// quote shows a value as a YAML double-quoted string, the way to write it
// back into the config, with invisible blanks escaped.
func quote(s string) string { return config.Render(s, yaml.DoubleQuotedStyle) }

// renamed maps rule names aclint no longer uses to the rule that took their
// place, so that settings and suppressions naming an old rule say so.
var renamed = map[string]string{
	// a warning until YuniKorn's refusal of the same config as an update
	// made it an error
	"placement-rules-ignored": "placement-rules-unbuildable",
}

// Renamed returns the current name of a rule that was renamed, or "".
func Renamed(name string) string { return renamed[name] }

// Errors runs only the error rules: the findings that make YuniKorn reject
// the config.
func Errors(cfg *config.Config) []Finding {
	var rules []*Rule
	for _, r := range yunikornRules() {
		if r.Severity == Error {
			rules = append(rules, r)
		}
	}
	return run(cfg, rules)
}
