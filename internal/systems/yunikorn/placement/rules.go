// Package placement answers where YuniKorn places an application: the
// partition's placement rules in order, their filters and parent rules, the
// queue each one names, whether that queue exists or will be created, the
// submit check on it, and the root.default fallback. It follows yunikorn-core's
// placement manager (pkg/scheduler/placement) and the partition's
// AddApplication, on a freshly started scheduler.
package placement

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// YuniKorn's patterns for filter entries (pkg/common/configs), defined once
// in internal/systems/yunikorn/acl.
var (
	specialPattern = acl.SpecialPattern
	filterUser     = acl.RequestUserPattern
	filterGroup    = acl.ConfigGroupPattern
)

// dotReplace is what YuniKorn writes for a dot in a generated queue name.
const dotReplace = "_dot_"

// Rule is a placement rule as YuniKorn builds it from the config.
type Rule struct {
	Name      string // lower case: user, fixed, provided, tag, test, recovery
	Create    bool
	Value     string // fixed: the queue, lower-cased; tag: the tag name, lower-cased
	Qualified bool   // fixed: the lower-cased value starts with "root"
	Parent    *Rule
	Filter    Filter
	Conf      *config.PlacementRule // nil for the implicit rules
}

// Filter is a rule's filter as newFilter builds it.
type Filter struct {
	Empty           bool
	Allow           bool // type is not exactly "deny"
	Users, Groups   map[string]bool
	UserRE, GroupRE *regexp.Regexp
	Type            string // as written
}

// BuildError is a rule YuniKorn cannot build: at start the partition then
// has no rules at all, as an update the config is refused.
type BuildError struct {
	Rule *config.PlacementRule
	Msg  string // YuniKorn's message
}

func (e *BuildError) Error() string { return e.Msg }

// Build builds a partition's rules as buildRules does: no configured rules
// is one implicit provided rule with create false; the recovery rule is
// always last. Any rule that cannot be built, parents included, fails the
// whole set.
func Build(part *config.Partition) ([]*Rule, error) {
	var rules []*Rule
	if len(part.PlacementRules) == 0 {
		rules = append(rules, &Rule{Name: "provided", Filter: Filter{Empty: true, Allow: true}})
	}
	for _, c := range part.PlacementRules {
		r, err := build(c)
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	return append(rules, &Rule{Name: "recovery", Filter: Filter{Empty: true, Allow: true}}), nil
}

func build(c *config.PlacementRule) (*Rule, error) {
	r := &Rule{Name: strings.ToLower(c.Name.Value), Create: c.Create, Conf: c}
	switch r.Name {
	case "user", "provided", "test":
	case "fixed":
		r.Value = strings.ToLower(c.Value.Value)
		if r.Value == "" {
			return nil, &BuildError{c, "a fixed queue rule must have a queue name set"}
		}
		for _, part := range strings.Split(r.Value, ".") {
			if !acl.ValidQueueName(part) {
				return nil, &BuildError{c, "invalid queue name, max 64 characters consisting of alphanumeric characters and '-', '_', '#', '@', '/', ':' allowed"}
			}
		}
		r.Qualified = strings.HasPrefix(r.Value, "root")
		if r.Qualified && c.Parent != nil {
			return nil, &BuildError{c, "cannot have a fixed queue rule with qualified queue name and a parent rule"}
		}
	case "tag":
		r.Value = strings.ToLower(c.Value.Value)
		if r.Value == "" {
			return nil, &BuildError{c, "a tag queue rule must have a tag name set"}
		}
	case "recovery":
		return nil, &BuildError{c, "recovery rule cannot be part of the config, failing placement rule config"}
	default:
		return nil, &BuildError{c, fmt.Sprintf("unknown rule name specified %s, failing placement rule config", c.Name.Value)}
	}
	r.Filter = newFilter(c.Filter)
	if c.Parent != nil {
		p, err := build(c.Parent)
		if err != nil {
			return nil, err
		}
		r.Parent = p
	}
	return r, nil
}

// newFilter mirrors YuniKorn's newFilter: a single entry is a regular
// expression when it holds a regexp character (a broken one matches
// nothing), else a name that must pass the name pattern; in lists of two or
// more, invalid names are dropped, and the filter is not empty even when
// all are.
func newFilter(c config.Filter) Filter {
	f := Filter{Empty: true, Users: map[string]bool{}, Groups: map[string]bool{}, Type: c.Type.Value}
	f.Allow = c.Type.Value != "deny"
	side := func(list []config.Str, names map[string]bool, re **regexp.Regexp, pattern *regexp.Regexp) {
		switch {
		case len(list) == 1:
			v := list[0].Value
			if specialPattern.MatchString(v) {
				*re, _ = regexp.Compile(v)
			} else if pattern.MatchString(v) {
				names[v] = true
			}
			f.Empty = false
		case len(list) >= 2:
			for _, e := range list {
				if pattern.MatchString(e.Value) {
					names[e.Value] = true
				}
			}
			f.Empty = false
		}
	}
	side(c.Users, f.Users, &f.UserRE, filterUser)
	side(c.Groups, f.Groups, &f.GroupRE, filterGroup)
	return f
}

// allows is allowUser: the user first, then the groups in order; a match
// returns the filter's type, no match its opposite.
func (f Filter) allows(user string, groups []string) (bool, string) {
	if f.Empty {
		return f.Allow, ""
	}
	what := "allow"
	if !f.Allow {
		what = "deny"
	}
	if f.UserRE != nil && f.UserRE.MatchString(user) || f.UserRE == nil && f.Users[user] {
		return f.Allow, fmt.Sprintf("the %s filter matches user %s", what, user)
	}
	for _, g := range groups {
		if f.GroupRE != nil && f.GroupRE.MatchString(g) || f.GroupRE == nil && f.Groups[g] {
			return f.Allow, fmt.Sprintf("the %s filter matches group %s", what, g)
		}
	}
	return !f.Allow, fmt.Sprintf("the %s filter matches neither the user nor a group", what)
}

// Describe says whom a filter lets through, as a clause of an answer; ""
// when it lets everyone through.
func (f Filter) Describe() string {
	if f.Empty {
		return ""
	}
	var who []string
	side := func(kind string, names map[string]bool, re *regexp.Regexp) {
		switch {
		case re != nil:
			who = append(who, kind+" matching "+re.String())
		case len(names) > 0:
			list := make([]string, 0, len(names))
			for n := range names {
				list = append(list, n)
			}
			sort.Strings(list)
			who = append(who, kind+" "+strings.Join(list, ", "))
		}
	}
	side("users", f.Users, f.UserRE)
	side("groups", f.Groups, f.GroupRE)
	switch {
	case len(who) == 0 && f.Allow:
		return "its allow filter names no valid user or group, so no request passes it"
	case len(who) == 0:
		return ""
	case f.Allow:
		return "its filter lets through only " + strings.Join(who, " or ")
	}
	return "its filter turns away " + strings.Join(who, " and ")
}

// Describe names a rule chain for output: "tag namespace <- fixed users".
func (r *Rule) Describe() string {
	s := r.Name
	switch {
	case r.Name == "fixed" || r.Name == "tag":
		s += " " + r.Value
	}
	if r.Parent != nil {
		s += " (parent: " + r.Parent.Describe() + ")"
	}
	return s
}
