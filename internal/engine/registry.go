package engine

import (
	"fmt"
	"sort"
	"strings"
)

// RuleList is one system's rules, in the order its package lists them
// (NewRuleList, from one function that names every rule, as actionlint's
// linter lists its rules): the system hands them out (System.Rules) and
// runs them. It is a value its caller owns; no rule is kept in a package
// variable.
type RuleList struct {
	list   []*Rule
	byName map[string]*Rule
	sorted []*Rule
}

// NewRuleList lists rules, in order.
func NewRuleList(rules ...*Rule) *RuleList {
	l := &RuleList{}
	for _, r := range rules {
		l.Add(r)
	}
	return l
}

// Add adds a rule; a name given twice, or a rule with neither a check nor
// a source, is a programming error.
func (l *RuleList) Add(r *Rule) *Rule {
	if l.byName == nil {
		l.byName = map[string]*Rule{}
	}
	if _, dup := l.byName[r.Name]; dup {
		panic("engine: rule added twice: " + r.Name)
	}
	if r.Check == nil && r.Source == "" {
		panic("engine: rule " + r.Name + " has neither a check nor a source")
	}
	l.list = append(l.list, r)
	l.byName[r.Name] = r
	l.sorted = nil
	return r
}

// All returns the rules sorted by name. The slice is shared: callers must
// not change it.
func (l *RuleList) All() []*Rule {
	if l.sorted == nil && len(l.list) > 0 {
		l.sorted = append([]*Rule(nil), l.list...)
		sort.Slice(l.sorted, func(i, j int) bool { return l.sorted[i].Name < l.sorted[j].Name })
	}
	return l.sorted
}

// Lookup finds a rule of the list by name.
func (l *RuleList) Lookup(name string) *Rule { return l.byName[name] }

// Suggest returns the rule name of the list nearest to a mistyped one.
func (l *RuleList) Suggest(name string) string { return suggest(name, l.All()) }

// Registry is the systems aclint checks, in the order inputs are offered to
// them, the fallback that reads what none recognises, and every system's
// rules. It is a value: built in one place (internal/systems.New), passed
// down to the command line, the language server and the rule docs; a test
// builds its own (with a system of its own) and may run in parallel with
// others.
type Registry struct {
	systems  []System
	fallback System
	rules    []*Rule
	byName   map[string]*Rule
	// extras are offered besides the systems: what works across two
	// systems (the conversion between them), which the command line asks
	// for its commands as it asks the systems
	extras []any
}

// NewRegistry builds a registry of systems, in order, with the named one
// as the fallback. Two systems of one name, or two rules of one name, are
// a programming error.
func NewRegistry(fallback string, systems ...System) *Registry {
	r := &Registry{byName: map[string]*Rule{}}
	for _, s := range systems {
		if r.LookupSystem(s.Name()) != nil {
			panic("engine: system given twice: " + s.Name())
		}
		r.systems = append(r.systems, s)
		for _, rule := range s.Rules() {
			if _, dup := r.byName[rule.Name]; dup {
				panic(fmt.Sprintf("engine: rule %s of %s is another system's too", rule.Name, s.Name()))
			}
			r.byName[rule.Name] = rule
			r.rules = append(r.rules, rule)
		}
	}
	sort.Slice(r.rules, func(i, j int) bool { return r.rules[i].Name < r.rules[j].Name })
	r.fallback = r.LookupSystem(fallback)
	if r.fallback == nil {
		panic("engine: no fallback system " + fallback)
	}
	return r
}

// With returns a registry with one more system, offered inputs before the
// others (a test's own system).
func (r *Registry) With(s System) *Registry {
	return NewRegistry(r.fallback.Name(), append([]System{s}, r.systems...)...).WithExtras(r.extras...)
}

// WithExtras is the registry offering x besides its systems: a value that
// belongs to no one system (the conversion from one to another), which
// the command line asks for capabilities (its commands) as it asks a
// system.
func (r *Registry) WithExtras(x ...any) *Registry {
	c := *r
	c.extras = append(append([]any(nil), r.extras...), x...)
	return &c
}

// Extras are what the registry offers besides its systems.
func (r *Registry) Extras() []any { return append([]any(nil), r.extras...) }

// Systems returns the systems in order.
func (r *Registry) Systems() []System { return append([]System(nil), r.systems...) }

// Fallback is the system that reads the inputs no system detects (files
// named on the command line, and the YAML files of a directory, which it
// may then decline).
func (r *Registry) Fallback() System { return r.fallback }

// SameSystem reports whether a and b are the same system, by name (unique
// in a registry): a system is a value that may hold what it owns (its
// rules in a slice), which == cannot compare.
func SameSystem(a, b System) bool {
	return a != nil && b != nil && a.Name() == b.Name()
}

// LookupSystem finds a system by name; nil when there is none.
func (r *Registry) LookupSystem(name string) System {
	for _, s := range r.systems {
		if s.Name() == name {
			return s
		}
	}
	return nil
}

// SystemFor is the system that reads an input when no system is forced:
// the first that detects it, in order, else the fallback.
func (r *Registry) SystemFor(in *Input) System {
	for _, s := range r.systems {
		if s.Detect(in) {
			return s
		}
	}
	return r.fallback
}

// Elsewhere says which command takes an input that a system other than
// the fallback recognises ("acls.json holds Mesos ACLs, not ...: use ..."),
// or "": for a question asked of the fallback's files.
func (r *Registry) Elsewhere(in *Input) string {
	for _, s := range r.systems {
		if g, ok := s.(Guided); ok && !SameSystem(s, r.fallback) && s.Detect(in) {
			return g.Misdirected(in.Path)
		}
	}
	return ""
}

// Extensions are the file endings a directory search reads: every
// system's, in order, each once.
func (r *Registry) Extensions() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range r.systems {
		for _, e := range s.Extensions() {
			if !seen[e] {
				seen[e] = true
				out = append(out, e)
			}
		}
	}
	return out
}

// Rules returns every system's rules, sorted by name.
func (r *Registry) Rules() []*Rule { return append([]*Rule(nil), r.rules...) }

// RulesOf returns a system's rules, sorted by name.
func (r *Registry) RulesOf(system string) []*Rule {
	if s := r.LookupSystem(system); s != nil {
		return s.Rules()
	}
	return nil
}

// Lookup finds a rule by name.
func (r *Registry) Lookup(name string) *Rule { return r.byName[name] }

// Suggest returns the rule name nearest to a mistyped one, or "": a rule
// whose name contains it as a dash-separated part, else the nearest name.
func (r *Registry) Suggest(name string) string { return suggest(name, r.rules) }

// suggest is the rule name nearest to a mistyped one: a rule whose name
// contains it as a dash-separated part, else the nearest name.
func suggest(name string, rules []*Rule) string {
	names := make([]string, 0, len(rules))
	for _, rule := range rules {
		names = append(names, rule.Name)
		if strings.HasSuffix(rule.Name, "-"+name) || strings.HasPrefix(rule.Name, name+"-") {
			return rule.Name
		}
	}
	return Nearest(name, names)
}

// Described lists what every system reads, for help texts and "nothing
// found" messages: "queue configs (...); Mesos ACL files (...)".
func (r *Registry) Described() string {
	var parts []string
	for _, s := range r.systems {
		parts = append(parts, s.Inputs())
	}
	return strings.Join(parts, "; ")
}

// SystemNames are the systems' names, in order.
func (r *Registry) SystemNames() []string {
	var out []string
	for _, s := range r.systems {
		out = append(out, s.Name())
	}
	return out
}
