package convert

import (
	"errors"
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/systems/yarn"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

// compare asks both systems every question that can tell them apart: for
// each queue both have and each action, every user and group any ACL of
// either names, alone; each name that is both a user and a group, as a user
// with no groups (YARN then lets in only by user, while YuniKorn's resolver
// gives a user without groups their own name as a group); and someone no
// ACL names. Access is an
// OR over the user and each of their groups in both systems, so these
// answers decide every other. The wildcard is no one's name. A queue left
// out for its name loses whatever YARN grants there.
func compare(s *yarn.Setup, cfg *config.Config, dropped []*yarn.Queue, r resolve.Resolver) ([]Difference, error) {
	return compareWith(s, cfg, dropped, r, candidates)
}

// questions lists what compareWith asks both systems (candidates; a test
// asks every subject on every queue, and the two must agree).
type questions func(s *yarn.Setup, cfg *config.Config, users, groups, bare, lost map[string]bool, everyoneDiffers func(path string, converted bool, a yarn.Action) bool) []candidate

// accessProof asks one access question of both systems. r, when set, gives
// the groups of a request that carries none, in both: Hadoop's group
// mapping and YuniKorn's resolver read the same directory.
type accessProof struct {
	s   *yarn.Setup
	pol *acl.Policy
	r   resolve.Resolver
}

// answer is both systems' answer to one question, and YuniKorn's error.
type answer struct {
	yarn, yunikorn bool
	err            error
}

func (p accessProof) ask(path string, converted bool, a yarn.Action, user string, gs []string) answer {
	ygs := gs
	if gs == nil && p.r != nil {
		if res, err := p.r.Resolve(user); err == nil {
			ygs = res.Groups
		}
	}
	yd := p.s.CS.Decide(path, user, ygs, a)
	yAllowed := yd.Allowed || (!p.s.FS && !p.s.ACLEnable)
	if !converted {
		return answer{yAllowed, yAllowed, nil}
	}
	action := acl.Submit
	if a == yarn.Administer {
		action = acl.Admin
	}
	kd, err := p.pol.Decide(acl.Query{Partition: "default", Queue: path, User: user, Groups: gs, Action: action, Resolver: p.r})
	return answer{yAllowed, err == nil && kd.Allowed, err}
}

func compareWith(s *yarn.Setup, cfg *config.Config, dropped []*yarn.Queue, r resolve.Resolver, questionsOf questions) ([]Difference, error) {
	if errs := yunikorn.Errors(cfg); len(errs) > 0 {
		return nil, fmt.Errorf("the converted config is refused by YuniKorn (an aclint bug, please report it): %s", errs[0].Message)
	}
	p := accessProof{s, acl.NewPolicy(cfg).VerdictsOnly(), r}
	users, groups := aclNamesOf(s, cfg)
	// every name an ACL uses as a group is asked again as a user without
	// groups: YuniKorn with no resolver gives such a user their own name as
	// their only group, so a group ACL lets them in; YARN does not (a
	// group named only as a group, "bob ,alice", tells the two apart too)
	bare := map[string]bool{}
	for n := range groups {
		bare[n] = true
	}
	everyoneDiffers := func(path string, converted bool, a yarn.Action) bool {
		an := p.ask(path, converted, a, probeUser, []string{probeGroup})
		return an.yarn != an.yunikorn
	}
	var out []Difference
	for _, c := range questionsOf(s, cfg, users, groups, bare, lostPaths(dropped), everyoneDiffers) {
		if d, ok := p.difference(c); ok {
			out = append(out, d)
		}
	}
	return out, nil
}

// difference asks one candidate, and says how it differs.
func (p accessProof) difference(c candidate) (Difference, bool) {
	principal, user, gs := "everyone else", probeUser, []string{probeGroup}
	switch c.who.cat {
	case catUser:
		principal, user = "user "+quoted(c.who.name), c.who.name
	case catGroup:
		principal, gs = "group "+quoted(c.who.name), []string{c.who.name}
	case catBare:
		principal, user, gs = "user "+quoted(c.who.name)+" with no groups", c.who.name, nil
		if p.r != nil {
			principal = "user " + quoted(c.who.name) + " with the groups the resolver gives"
		}
	}
	d := Difference{Queue: c.path, Action: c.action, Principal: principal}
	if c.who.cat == catUser || c.who.cat == catBare {
		d.User = user
	}
	an := p.ask(c.path, c.converted, c.action, user, gs)
	d.YARN, d.YuniKorn = an.yarn, an.yunikorn
	switch {
	case !c.converted:
		d.YuniKorn, d.Cause = false, causeNotConverted
		d.Why = " (the queue is not converted: its name, or a parent's, is one YuniKorn refuses or already has)"
		return d, an.yarn
	case an.yarn == an.yunikorn:
		return d, false
	case an.err != nil:
		d.Why, d.Cause = ": "+an.err.Error(), causeAccess
		if errors.Is(an.err, resolve.ErrUnresolvable) {
			d.Cause = causeUnresolved
		}
	case !an.yunikorn && whyDenied(user, gs) != "":
		d.Why, d.Cause = whyDenied(user, gs), causeNameDropped
	case gs == nil && p.r == nil && an.yunikorn:
		d.Why, d.Cause = fmt.Sprintf(" (without groups, YuniKorn's default resolver gives user %s the group %s, which the ACL names; YARN has no such group for them)", quoted(user), quoted(user)), causeNoGroups
	default:
		d.Cause = causeAccess
	}
	return d, true
}

// aclNamesOf are the users and groups every ACL of either system names;
// no one is named * ("*,erin" lets everyone in).
func aclNamesOf(s *yarn.Setup, cfg *config.Config) (users, groups map[string]bool) {
	users, groups = map[string]bool{}, map[string]bool{}
	for _, q := range s.CS.ByPath {
		for _, a := range []yarn.Action{yarn.Submit, yarn.Administer} {
			q.ACL[a].EachUser(func(n string) { users[n] = true })
			q.ACL[a].EachGroup(func(n string) { groups[n] = true })
		}
	}
	for _, part := range cfg.Partitions {
		part.Root.Walk(func(q *config.Queue) {
			for _, v := range []string{q.SubmitACL.Value, q.AdminACL.Value} {
				for _, e := range acl.Parse(v).Entries {
					if e.Kind == acl.Group {
						groups[e.Name] = true
					} else {
						users[e.Name] = true
					}
				}
			}
		})
	}
	delete(users, "*")
	delete(groups, "*")
	return users, groups
}

// lostPaths are the queues left out for their names, and every queue
// below them.
func lostPaths(dropped []*yarn.Queue) map[string]bool {
	lost := map[string]bool{}
	var walk func(x *yarn.Queue)
	walk = func(x *yarn.Queue) {
		lost[x.Path] = true
		for _, c := range x.Children {
			walk(c)
		}
	}
	for _, q := range dropped {
		walk(q)
	}
	return lost
}

// whyDenied says why YuniKorn lets no such name in, when its ACL parser
// drops it.
func whyDenied(user string, groups []string) string {
	if user != probeUser && !acl.IsUserName(user) {
		return " (YuniKorn's ACL parser drops the user name)"
	}
	for _, g := range groups {
		if g != probeGroup && !acl.IsGroupName(g) {
			return " (YuniKorn's ACL parser drops the group name)"
		}
	}
	return ""
}

func quoted(s string) string {
	if strings.ContainsAny(s, " \t\n\r\"") || s == "" {
		return fmt.Sprintf("%q", s)
	}
	return s
}

func inConverted(cfg *config.Config, path string) bool {
	if len(cfg.Partitions) == 0 {
		return false
	}
	q, missing, err := acl.FindQueue(cfg.Partitions[0].Root, path)
	return err == nil && len(missing) == 0 && q != nil
}
