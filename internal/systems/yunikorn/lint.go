// Package yunikorn is aclint's YuniKorn system: the rules over Apache
// YuniKorn queue configs (raw queues.yaml or inside the scheduler's
// ConfigMaps), the LDAP settings, and the admission controller's settings,
// each reporting the exact position of the offending value. It stands on
// internal/systems/yunikorn/config (the model with positions), internal/systems/yunikorn/acl (the ACL grammar and
// access rule), internal/systems/yunikorn/placement, internal/systems/yunikorn/resolve and internal/systems/yunikorn/resources, and plugs into
// the neutral engine, internal/engine.
package yunikorn

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// System is the system name YuniKorn's rules carry.
const System = "yunikorn"

// The severities, for the rule tables of this package.
const (
	Error   = engine.Error
	Warning = engine.Warning
	Info    = engine.Info
)

// Finding is the engine's finding.
type Finding = engine.Finding

// Alternative is one of the fixes of a finding that reads more than one way.
type Alternative = engine.Alternative

// Rule is a YuniKorn rule as its topic file writes it: the engine's
// metadata and a check over one pass. register hands it to the engine.
type Rule struct {
	Name     string
	Severity engine.Severity
	Summary  string
	Doc      string
	Bad      string
	Good     string
	LDAP     bool
	// PassesValidate: validate-conf (POST /ws/v1/validate-conf, the
	// config parsed and validated) accepts what the rule finds; the
	// scheduler refuses it, or cannot use it, only when it builds the
	// partitions. Held to yunikorn-core by TestValidateConfStages.
	PassesValidate bool
	// Fixes: the rule's findings carry an edit (engine.Rule.Fixes)
	Fixes  bool
	check  func(*pass)
	source string // what reports the findings when check is nil
}

// state is what YuniKorn's rules read: one decoded config and its ACLs,
// parsed once for every rule.
type state struct {
	cfg  *config.Config
	acls *aclCache
}

// allRules are YuniKorn's rules, in the order they are documented: one
// list, built for whoever asks, never kept in a package variable.
func allRules() []*Rule {
	out := []*Rule{
		ruleShadowedACL(),
		ruleNoSubmitAccess(),
		ruleACLTooManyParts(),
		ruleACLStraySpace(),
		ruleLostLeadingSpace(),
		ruleIgnoredName(),
		ruleMisplacedWildcard(),
		ruleNonSpaceSeparator(),
		ruleCommaSpace(),
		ruleTrailingNewline(),
		ruleYAMLScalarCoercion(),
		ruleDuplicateEntry(),
		ruleAdmissionBypassAuth(),
		ruleAdmissionPatternOpen(),
		ruleAdmissionNamespacesBypass(),
		ruleAdmissionSettingInvalid(),
		ruleLimitPathCase(),
		ruleLimitsNotLastPartition(),
		ruleGroupLimitNeverApplies(),
		ruleUserLimitEscapesWildcard(),
		ruleLimitsUnreachable(),
		ruleNumberReadDifferently(),
		rulePlacementRuleName(),
		rulePlacementRulesUnbuildable(),
		rulePlacementFilterInvalid(),
		rulePlacementFilterTypeCase(),
		rulePlacementFilterRegexp(),
		rulePlacementFixedQualified(),
		rulePlacementPath(),
		rulePlacementPathCase(),
		rulePlacementRuleCrash(),
		rulePlacementRuleNeverPlaces(),
		rulePlacementUserRejects(),
		rulePlacementNothingPlaced(),
		ruleNodeSortPolicy(),
		ruleQueuePropertyIgnored(),
		ruleRootName(),
		ruleDuplicateQueue(),
		ruleInvalidQueueName(),
		ruleDuplicatePartition(),
		ruleRootResources(),
		ruleMissingQueues(),
		ruleNoPartitions(),
		ruleLDAPResolverWithoutSettings(),
		ruleResolverType(),
		ruleConfigmapName(),
		ruleResolverIgnored(),
		ruleInvalidQuantity(),
		ruleGuaranteedAboveMax(),
		ruleMaxAboveParent(),
		ruleChildrenGuaranteedAboveParent(),
		ruleMaxapplicationsAboveParent(),
		ruleMaxapplicationsMissing(),
		ruleChildtemplateLimits(),
		ruleYAMLSyntax(),
		ruleUnquotedWildcard(),
		ruleUnknownKey(),
		ruleWrongType(),
		ruleDuplicateKey(),
		ruleMultiDocument(),
		ruleSuppressionWithoutReason(),
		ruleUnusedSuppression(),
	}
	out = append(out, limitRules()...)
	return append(out, ruleLDAPSettingInvalid(), ruleLDAPSettingIgnored())
}

// ruleList is allRules as the engine runs them.
func ruleList() *engine.RuleList {
	rs := allRules()
	out := make([]*engine.Rule, len(rs))
	for i, r := range rs {
		out[i] = r.engine()
	}
	return engine.NewRuleList(out...)
}

// ruleFlag says whether the rule named has a flag set.
func ruleFlag(name string, flag func(*Rule) bool) bool {
	for _, r := range allRules() {
		if r.Name == name {
			return flag(r)
		}
	}
	return false
}

// PassingValidate are the rules whose findings validate-conf accepts
// (Rule.PassesValidate): its yes does not mean that the scheduler loads
// the config. One set, built once by whoever asks of many findings.
func PassingValidate() map[string]bool {
	out := map[string]bool{}
	for _, r := range allRules() {
		if r.PassesValidate {
			out[r.Name] = true
		}
	}
	return out
}

// engine makes the rule one the engine runs: its check reads the state a
// lint run hands every rule.
func (r *Rule) engine() *engine.Rule {
	lr := &engine.Rule{Name: r.Name, Severity: r.Severity, Summary: r.Summary, Doc: r.Doc, Bad: r.Bad, Good: r.Good,
		System: System, Source: r.source, Fixes: r.Fixes}
	if check := r.check; check != nil {
		lr.Check = engine.Typed(func(s *state, report func(engine.Finding)) {
			check(&pass{rule: lr, cfg: s.cfg, doc: s.cfg.Doc, acls: s.acls, report: report})
		})
	}
	return lr
}

// pass is the state of one lint run over one config.
type pass struct {
	rule   *engine.Rule
	cfg    *config.Config
	doc    *config.Document
	acls   *aclCache
	report func(engine.Finding)
}

func (p *pass) reportf(pos config.Position, hint, format string, args ...any) {
	p.reportFix(pos, nil, hint, format, args...)
}

// reportRelated reports a finding with a second place it points to.
func (p *pass) reportRelated(pos config.Position, related config.Position, relatedMsg, hint, format string, args ...any) {
	p.report(Finding{Rule: p.rule.Name, Severity: p.rule.Severity, Pos: pos, Message: fmt.Sprintf(format, args...), Hint: hint,
		Related: []engine.Related{{Pos: related, Message: relatedMsg}}})
}

// reportFix reports a finding with its certain fix (nil when the file
// cannot be edited there).
func (p *pass) reportFix(pos config.Position, fix *config.Edit, hint, format string, args ...any) {
	p.report(Finding{Rule: p.rule.Name, Severity: p.rule.Severity, Pos: pos, Message: fmt.Sprintf(format, args...), Hint: hint, Fix: fix})
}

// reportACLFix reports a finding whose fix rewrites an ACL from old to new,
// and marks the fix unsafe when it changes who has access.
func (p *pass) reportACLFix(pos config.Position, fix *config.Edit, old, new, hint, format string, args ...any) {
	f := Finding{Rule: p.rule.Name, Severity: p.rule.Severity, Pos: pos, Message: fmt.Sprintf(format, args...), Hint: hint, Fix: fix}
	if fix != nil {
		f.Unsafe = fixSafety(old, new)
	}
	p.report(f)
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

// aclCache gives the rules the config's ACLs: with every rule, parsed once
// for all of them in the config's ACL index (acl.Policy, where repeated
// strings share a value); with the error rules alone, validated as they
// walk. Rules only read them.
type aclCache struct {
	// policy is the config's one ACL index, shared with the access
	// checks: the rules read the ACLs, and the per-level rule, from it
	policy *acl.Policy
	// full is set when every ACL is parsed into entries up front (every
	// rule runs); without it only the error rules run, and they read no
	// more than acl.Validate gives, worked out as they walk
	full bool
	cfg  *config.Config
	// sites are the queues that write an ACL, in file order, partition
	// after partition (partition i's end at ends[i]): with the full
	// index only, for the ten rules that each read every ACL (a flat list
	// is read faster than the tree is walked, and a queue pointer is all a
	// site needs: its values are in the index)
	sites []*config.Queue
	ends  []int

	// the resource checks of YuniKorn's checkQueueResource, walked once
	resourcesOnce  sync.Once
	resourceIssues []resourceIssue
	// and its limit checks
	limitsOnce  sync.Once
	limitIssues []limitIssue
}

// newACLCache indexes the config's ACLs for the rules. With every rule
// (full), each written ACL is parsed into entries, in the config's one
// ACL index; for the error rules alone nothing is kept: they validate each
// ACL as they walk, and the index parses what a question later asks for (a
// check reads the ACLs on one path, not the config's 100,000). Keeping a
// validated value per ACL cost a large config 14 MB for no reader.
func newACLCache(cfg *config.Config, full bool) *aclCache {
	c := &aclCache{policy: acl.NewPolicy(cfg), full: full, cfg: cfg}
	if !full {
		return c
	}
	c.policy.Prepare()
	// sized once: grown by appends, the list cost four times its size
	c.sites = make([]*config.Queue, 0, cfg.NumQueues)
	for _, part := range cfg.Partitions {
		part.Root.Walk(func(q *config.Queue) {
			if !q.Synthetic && (q.SubmitACL.Set() || q.AdminACL.Set()) {
				c.sites = append(c.sites, q)
			}
		})
		c.ends = append(c.ends, len(c.sites))
	}
	return c
}

// get returns the parsed submit and admin ACL of q, from the config's one
// ACL index (acl.Policy); an ACL not written matches nobody.
func (c *aclCache) get(q *config.Queue) (submit, admin *acl.Value) {
	return c.policy.ACLs(q)
}

// Lint runs every YuniKorn rule over cfg and returns the findings in file
// order.
func Lint(cfg *config.Config) []Finding {
	rules := ruleList()
	findings := engine.ApplySuppressions(cfg.Doc.Text, cfg.Doc.LintComments, oneCause(run(cfg, rules.All())), "YuniKorn rejects this config", rules)
	engine.Sort(findings)
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

// run runs rules over cfg with the engine's runner.
func run(cfg *config.Config, rules []*engine.Rule) []Finding {
	return engine.Run(rules, &state{cfg: cfg, acls: newACLCache(cfg, true)})
}

// aclFields calls fn for every ACL written in the config, in file order.
// Without the full index, the value fn gets holds only what acl.Validate
// says, and only for the length of the call: the error rules alone walk
// the tree and validate as they go.
func (p *pass) aclFields(fn func(part *config.Partition, q *config.Queue, field string, s config.Str, v *acl.Value)) {
	c := p.acls
	if c.full {
		start := 0
		for i, end := range c.ends {
			part := c.cfg.Partitions[i]
			for _, q := range c.sites[start:end] {
				submit, admin := c.policy.ACLs(q)
				if q.SubmitACL.Set() {
					fn(part, q, acl.SubmitField, q.SubmitACL, submit)
				}
				if q.AdminACL.Set() {
					fn(part, q, acl.AdminField, q.AdminACL, admin)
				}
			}
			start = end
		}
		return
	}
	// one value for every validated ACL: fn's pointer escapes, and a value
	// per ACL would be 22 MB for 100,000 queues
	var scratch acl.Value
	for _, part := range c.cfg.Partitions {
		part.Root.Walk(func(q *config.Queue) {
			if q.Synthetic || !q.SubmitACL.Set() && !q.AdminACL.Set() {
				return
			}
			if q.SubmitACL.Set() {
				scratch = acl.Validate(q.SubmitACL.Value)
				fn(part, q, acl.SubmitField, q.SubmitACL, &scratch)
			}
			if q.AdminACL.Set() {
				scratch = acl.Validate(q.AdminACL.Value)
				fn(part, q, acl.AdminField, q.AdminACL, &scratch)
			}
		})
	}
}

// quote shows a value as a YAML double-quoted string, the way to write it
// back into the config, with invisible blanks escaped.
func quote(s string) string { return config.Render(s, yaml.DoubleQuotedStyle) }

// Errors runs only the error rules: the findings that make YuniKorn reject
// the config.
func Errors(cfg *config.Config) []Finding {
	errs, _ := errorsOf(cfg, false)
	return errs
}

// errorsOf is Errors that also returns the config's ACL index the rules
// built, for the questions asked of an accepted config.
func errorsOf(cfg *config.Config, whole bool) ([]Finding, *acl.Policy) {
	var errs []*engine.Rule
	for _, r := range ruleList().All() {
		if r.Severity == Error {
			errs = append(errs, r)
		}
	}
	st := &state{cfg: cfg, acls: newACLCache(cfg, whole)}
	return engine.Run(errs, st), st.acls.policy
}
