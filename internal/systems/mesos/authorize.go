package mesos

import (
	"github.com/aclint/aclint/internal/engine"

	"errors"
	"fmt"
	"strings"
)

// Request is one authorization question, as the local authorizer receives
// it: an optional principal, and the objects of the request.
type Request struct {
	Kind *Kind
	// Principal is the authenticated principal; nil is an unauthenticated
	// request or a framework without a principal (subject ANY).
	Principal *string
	// Objects are the request's objects: none means "on all objects"
	// (object ANY). Only register_frameworks takes several: a framework's
	// roles, each of which must be allowed.
	Objects []string
	// Command, for the *_under_parent_with_user kinds, is a request that
	// launches a command: Mesos then also checks the matching *_as_user
	// list against the command's user (CommandUser; nil for a command
	// without a user, which is ANY).
	Command     bool
	CommandUser *string
	// ParentUser, for the *_as_user kinds, is the user of the executor (or
	// framework) the nested container is launched under; nil is ANY. Mesos
	// never checks an *_as_user list alone: every nested launch goes
	// through the parent list first.
	ParentUser *string
}

// Decision is the local authorizer's answer with what decided it.
type Decision struct {
	Allowed bool
	Checks  []Check // every list consulted; all must allow
	Notes   []string
}

// DecidedBy is the check that settled the answer: the first that denied,
// or the first when all allowed.
func (d *Decision) DecidedBy() *Check {
	for i := range d.Checks {
		if !d.Checks[i].Allowed {
			return &d.Checks[i]
		}
	}
	if len(d.Checks) == 0 {
		return nil
	}
	return &d.Checks[0]
}

// Check is one pass over one kind's list for one object.
type Check struct {
	Kind      *Kind
	Object    *string // nil: ANY
	Allowed   bool
	By        *Rule     // the entry that matched; nil when none did (permissive)
	Consulted []Skipped // the entries before it, and why each did not apply
}

// Rule is one ACL as the authorizer evaluates it. Role kinds split an
// entry: each "x/%" role becomes a rule of its own (Recursive), followed by
// one rule with the entry's other roles.
type Rule struct {
	Entry     *Entry
	Subject   *Entity
	Object    *Entity
	Recursive string // the "x/%" value of a recursive rule
}

// Name is the entry's name, with the role for a recursive rule.
func (r *Rule) Name() string {
	if r.Recursive != "" {
		return fmt.Sprintf("%s (its role %s)", r.Entry.Name(), quote(r.Recursive))
	}
	return r.Entry.Name()
}

// Skipped is a rule that did not apply, with the reason.
type Skipped struct {
	Rule   *Rule
	Reason string
}

// ErrRejected is returned for ACLs Mesos refuses to start with.
var ErrRejected = errors.New("Mesos refuses to start with these ACLs")

// Rules returns a kind's list as the authorizer evaluates it, in order.
func (a *ACLs) Rules(k *Kind) []*Rule {
	list := a.Lists[k.Key]
	out := make([]*Rule, 0, len(list))
	// the rules in chunks, one allocation for many: a large file has tens
	// of thousands, and most entries make one
	var chunk []Rule
	rule := func(r Rule) *Rule {
		if len(chunk) == cap(chunk) {
			chunk = make([]Rule, 0, min(max(len(list), 1), 1024))
		}
		chunk = append(chunk, r)
		return &chunk[len(chunk)-1]
	}
	for _, e := range list {
		if e.Subject == nil || e.Object == nil {
			continue
		}
		if k.Rule != Role || e.Object.Type != SOME {
			out = append(out, rule(Rule{Entry: e, Subject: e.Subject, Object: e.Object, Recursive: recursiveValue(k, e.Object)}))
			continue
		}
		// createHierarchicalRoleACLs: one rule per "/%" role, in order,
		// then the plain roles together (none when there are none).
		plain := &Entity{Type: SOME, Node: e.Object.Node}
		for i, v := range e.Object.Values {
			if strings.HasSuffix(v, "/%") {
				out = append(out, rule(Rule{Entry: e, Subject: e.Subject, Recursive: v,
					Object: &Entity{Type: SOME, Values: []string{v}, ValueNodes: []*Value{e.Object.ValueNodes[i]}, Node: e.Object.Node}}))
			} else {
				plain.Values = append(plain.Values, v)
				plain.ValueNodes = append(plain.ValueNodes, e.Object.ValueNodes[i])
			}
		}
		if len(plain.Values) > 0 {
			out = append(out, rule(Rule{Entry: e, Subject: e.Subject, Object: plain}))
		}
	}
	return out
}

// recursiveValue is the authorizer's isRecursiveACL for entries it does
// not split: an ANY or NONE roles entity that still holds exactly one value
// ending in "/%" is taken as recursive, values being ignored or not.
func recursiveValue(k *Kind, o *Entity) string {
	if k.Rule == Role && len(o.Values) == 1 && strings.HasSuffix(o.Values[0], "/%") {
		return o.Values[0]
	}
	return ""
}

// Authorize answers a request the way Mesos' local authorizer does. A nil
// ACLs is Mesos started without --acls: there is no authorizer, and every
// request is allowed.
func (a *ACLs) Authorize(req Request) (*Decision, error) {
	if req.Kind == nil {
		return nil, errors.New("no ACL kind given")
	}
	d := &Decision{}
	if a == nil {
		d.Allowed = true
		d.Notes = append(d.Notes, "Mesos was started without --acls: no authorizer exists and every request is allowed")
		return d, nil
	}
	if a.Errors() != nil {
		return nil, ErrRejected
	}
	k := req.Kind
	if len(req.Objects) > 1 && k.Key != "register_frameworks" {
		return nil, fmt.Errorf("%s takes one object; only register_frameworks checks several (a framework's roles)", k.Key)
	}
	subject := &Entity{Type: ANY}
	if req.Principal != nil {
		subject = &Entity{Type: SOME, Values: []string{*req.Principal}}
	} else {
		d.Notes = append(d.Notes, "no principal: an unauthenticated request, or a framework without a principal, is subject ANY; it matches only entries whose principals are ANY or NONE")
	}
	var objects []*string
	switch {
	case k.ImplicitObject():
		if len(req.Objects) > 0 {
			d.Notes = append(d.Notes, fmt.Sprintf("Mesos always asks about ANY %s for %s, whatever the request: the object given is ignored", k.Object, k.Key))
		}
		objects = []*string{nil}
	case len(req.Objects) == 0:
		d.Notes = append(d.Notes, fmt.Sprintf("no object: the request is about all %s (object ANY); it matches only entries whose %s are ANY or NONE", k.Object, k.Object))
		objects = []*string{nil}
	default:
		for i := range req.Objects {
			objects = append(objects, &req.Objects[i])
		}
	}
	if k.Rule == Endpoint {
		for _, o := range req.Objects {
			if !authorizable(o) {
				d.Notes = append(d.Notes, fmt.Sprintf("Mesos authorizes get_endpoints only for %s; a request for %s is never checked against these entries", strings.Join(AuthorizableEndpoints, ", "), quote(o)))
			}
		}
	}
	rules := a.Rules(k)
	d.Allowed = true
	for _, o := range objects {
		c := a.check(k, rules, subject, o)
		d.Checks = append(d.Checks, c)
		if !c.Allowed {
			d.Allowed = false
			break // Mesos stops at the first role that is refused
		}
	}
	if child := NestedChild(k.Key); child != "" {
		if req.Command {
			ck := LookupKind(child)
			// Mesos evaluates both lists and requires both.
			c := a.check(ck, a.Rules(ck), subject, req.CommandUser)
			d.Checks = append(d.Checks, c)
			d.Allowed = d.Allowed && c.Allowed
			if req.CommandUser == nil {
				d.Notes = append(d.Notes, fmt.Sprintf("the command has no user: %s is checked for users ANY", child))
			}
		} else {
			d.Notes = append(d.Notes, fmt.Sprintf("no command: only %s is checked; with a command, Mesos also checks %s against the command's user", k.Key, child))
		}
	} else if parent := NestedParent(k.Key); parent != "" {
		// LocalNestedContainerObjectApprover: a launch with a command is
		// approved only when the parent list allows the executor's user and
		// the child list allows the command's user
		pk := LookupKind(parent)
		pc := a.check(pk, a.Rules(pk), subject, req.ParentUser)
		d.Checks = append([]Check{pc}, d.Checks...)
		d.Allowed = d.Allowed && pc.Allowed
		who := "the executor's user is not given, so it is ANY (name it with --parent-user)"
		if req.ParentUser != nil {
			who = "the executor's user is " + quote(*req.ParentUser)
		}
		d.Notes = append(d.Notes, fmt.Sprintf("Mesos never checks %s alone: a nested launch with a command needs %s to allow the executor's user and %s to allow the command's user; %s", k.Key, parent, k.Key, who))
	}
	if a.PermissiveNode == nil {
		d.Notes = append(d.Notes, "permissive is not set: it is true by default")
	}
	d.Notes = append(d.Notes, a.kindNotes(k)...)
	for _, c := range d.Checks {
		if c.Kind != k {
			d.Notes = append(d.Notes, a.kindNotes(c.Kind)...)
		}
	}
	return d, nil
}

// check is one pass of the local authorizer over a list: the first rule
// whose subject and object both match decides; none matching is permissive.
// Each rule passed over is consulted with the reason it did not apply.
func (a *ACLs) check(k *Kind, rules []*Rule, subject *Entity, object *string) Check {
	var consulted []Skipped
	c := a.pass(k, rules, subject, object, func(r *Rule, why string) { consulted = append(consulted, Skipped{r, why}) })
	c.Consulted = consulted
	return c
}

// decide is check without the reasons of the rules passed over: the same
// first match and the same answer, for the listings, which ask far more
// often than they explain.
func (a *ACLs) decide(k *Kind, rules []*Rule, subject *Entity, object *string) Check {
	return a.pass(k, rules, subject, object, nil)
}

// pass is the walk down a list that check and decide share; skipped, when
// not nil, is told of each rule passed over and why (the reason is built
// only then: decide asks millions of times).
func (a *ACLs) pass(k *Kind, rules []*Rule, subject *Entity, object *string, skipped func(r *Rule, why string)) Check {
	c := Check{Kind: k, Object: object}
	req := &Entity{Type: ANY}
	if object != nil {
		req = &Entity{Type: SOME, Values: []string{*object}}
	}
	for _, r := range rules {
		if r.Recursive != "" {
			// A recursive rule applies only to a role nested under it; its
			// object side then matches and allows whatever its type.
			if object == nil || !strings.HasPrefix(*object, strings.TrimSuffix(r.Recursive, "%")) {
				if skipped != nil {
					why := fmt.Sprintf("%s covers only roles under %s", quote(r.Recursive), quote(strings.TrimSuffix(r.Recursive, "%")))
					if object == nil {
						why += ", and the request names no role"
					}
					skipped(r, why)
				}
				continue
			}
			if !matches(subject, r.Subject) {
				if skipped != nil {
					skipped(r, a.noMatch(Subject, subject, r.Subject))
				}
				continue
			}
			c.By, c.Allowed = r, allows(subject, r.Subject)
			return c
		}
		if !matches(subject, r.Subject) {
			if skipped != nil {
				skipped(r, a.noMatch(Subject, subject, r.Subject))
			}
			continue
		}
		if !matches(req, r.Object) {
			if skipped != nil {
				skipped(r, a.noMatch(k.Object, req, r.Object))
			}
			continue
		}
		c.By, c.Allowed = r, allows(subject, r.Subject) && allows(req, r.Object)
		return c
	}
	c.Allowed = a.Permissive
	return c
}

// matches is the authorizer's match matrix: does an ACL entity apply to a
// request entity?
func matches(req, acl *Entity) bool {
	switch req.Type {
	case NONE:
		return acl.Type == NONE
	case ANY:
		return acl.Type == ANY || acl.Type == NONE
	}
	if acl.Type == ANY || acl.Type == NONE {
		return true
	}
	return subset(req.Values, acl.Values)
}

// allows is the allow matrix: once an entry applies, does it grant?
func allows(req, acl *Entity) bool {
	switch req.Type {
	case NONE:
		return acl.Type == NONE
	case ANY:
		return acl.Type == ANY
	}
	switch acl.Type {
	case ANY:
		return true
	case NONE:
		return false
	}
	return subset(req.Values, acl.Values)
}

func subset(vs, of []string) bool {
	for _, v := range vs {
		found := false
		for _, w := range of {
			if v == w {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func (a *ACLs) noMatch(field string, req, acl *Entity) string {
	desc := field + " " + acl.Describe()
	if acl.Ignored != "" {
		desc += fmt.Sprintf(" (its type %s is not one Mesos knows, so it is SOME)", quote(acl.Ignored))
	}
	if req.Type == ANY {
		what := "an unauthenticated request"
		if field != Subject {
			what = "a request about all " + field
		}
		return desc + " never matches " + what
	}
	if len(acl.Values) == 0 {
		return desc + " has no values and matches nothing"
	}
	return fmt.Sprintf("%s does not list %s", desc, quote(req.Values[0]))
}

// Explain says why the deciding rule allowed or denied.
func (c *Check) Explain() string {
	if c.By == nil {
		return ""
	}
	r := c.By
	side := func(field string, acl *Entity, recursive bool) string {
		switch {
		case recursive:
			return fmt.Sprintf("%s %s covers %s", field, quote(r.Recursive), quote(*c.Object))
		case acl.Type == NONE:
			return field + ` {"type": "NONE"} matches every request and refuses`
		case acl.Type == ANY:
			return field + ` {"type": "ANY"} allows everything`
		}
		return field + " " + acl.Describe() + " lists it"
	}
	return side(Subject, r.Subject, false) + "; " + side(c.Kind.Object, r.Object, r.Recursive != "")
}

// kindNotes warns about what the file says near a kind that Mesos ignores.
func (a *ACLs) kindNotes(k *Kind) []string {
	var out []string
	for _, m := range a.Unknown {
		if ob, ok := ObsoleteKinds[m.Key]; ok && ob.Now == k.Key {
			out = append(out, fmt.Sprintf("the file's %s (line %d) is not read by Mesos (%s): its entries take no part", quote(m.Key), a.Doc.Line(m.KeyOff), ob.What))
		} else if !ok && nearKind(m.Key) == k.Key {
			out = append(out, fmt.Sprintf("the file's %s (line %d) is not a key Mesos knows, so its entries take no part; did you mean %s?", quote(m.Key), a.Doc.Line(m.KeyOff), k.Key))
		}
	}
	for _, e := range a.Lists[k.Key] {
		for _, en := range []*Entity{e.Subject, e.Object} {
			if en != nil && en.Ignored != "" {
				out = append(out, fmt.Sprintf("%s (line %d): type %s is not a type Mesos knows; it is dropped and the entity is SOME with %d values", e.Name(), a.Doc.Line(en.TypeNode.Off), quote(en.Ignored), len(en.Values)))
			}
		}
	}
	if len(a.Lists[k.Key]) == 0 && a.PermissiveNode != nil && !a.Permissive {
		out = append(out, fmt.Sprintf("the file has no %s entries and permissive is false: every %s request is denied", k.Key, k.Key))
	}
	return out
}

func nearKind(key string) string { return engine.Nearest(key, KindKeys()) }
