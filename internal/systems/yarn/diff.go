package yarn

import (
	"fmt"
	"maps"
	"slices"
	"sort"
)

// Change is one access a config change grants or takes away: on a queue,
// for an action, to a user, a group or everyone.
type Change struct {
	Queue  string
	Action Action
	Kind   string // "user", "group" or "wildcard"
	Name   string // "*" for everyone
	Gained bool
	// Via is the grant: in NEW for a gain, in OLD for a loss.
	Via *Holder
}

// DiffResult is what changes between two YARN setups.
type DiffResult struct {
	Changes        []Change
	Added, Removed []string // queue paths
	Notes          []string
}

const diffProbe = "aclint-probe"

// Diff compares the access of two setups: for every queue in both and
// both actions, every user and group any ACL of either names, alone, and
// everyone else (access is an OR over a user and their groups, so these
// answers decide every other). Access is effective access: with
// yarn.acl.enable false (Capacity Scheduler), everyone has it.
func Diff(old, new *Setup) *DiffResult {
	r := &DiffResult{}
	for _, side := range []struct {
		name string
		s    *Setup
	}{{"OLD", old}, {"NEW", new}} {
		if !side.s.FS && !side.s.Known {
			r.Notes = append(r.Notes, side.name+": yarn.acl.enable is not known (no yarn-site.xml): compared as if it were true")
			side.s.Known, side.s.ACLEnable = true, true
		}
	}
	users, groups := map[string]bool{}, map[string]bool{}
	old.CS.names(users, groups)
	new.CS.names(users, groups)
	var paths []string
	for p := range old.CS.ByPath {
		if new.CS.ByPath[p] == nil {
			r.Removed = append(r.Removed, p)
		} else {
			paths = append(paths, p)
		}
	}
	for p := range new.CS.ByPath {
		if old.CS.ByPath[p] == nil {
			r.Added = append(r.Added, p)
		}
	}
	sort.Strings(paths)
	sort.Strings(r.Added)
	sort.Strings(r.Removed)
	type probe struct {
		kind, name, user string
		groups           []string
	}
	var probes []probe
	for _, u := range slices.Sorted(maps.Keys(users)) {
		probes = append(probes, probe{"user", u, u, []string{diffProbe}})
	}
	for _, g := range slices.Sorted(maps.Keys(groups)) {
		probes = append(probes, probe{"group", g, diffProbe, []string{g}})
	}
	probes = append(probes, probe{"wildcard", "*", diffProbe, []string{diffProbe}})
	for _, p := range paths {
		r.Notes = append(r.Notes, stateChange(old.CS.ByPath[p], new.CS.ByPath[p], old, new)...)
		for _, a := range []Action{Submit, Administer} {
			for _, pr := range probes {
				was := old.access(old.CS.ByPath[p], pr.user, pr.groups, a)
				is := new.access(new.CS.ByPath[p], pr.user, pr.groups, a)
				switch {
				case was == nil && is != nil:
					r.Changes = append(r.Changes, Change{Queue: p, Action: a, Kind: pr.kind, Name: pr.name, Gained: true, Via: is})
				case was != nil && is == nil:
					r.Changes = append(r.Changes, Change{Queue: p, Action: a, Kind: pr.kind, Name: pr.name, Via: was})
				}
			}
		}
	}
	return r
}

// access is the grant that lets user act on q, as check answers it: none
// for a submission to a leaf queue that is STOPPED, whatever its ACLs say.
func (s *Setup) access(q *Queue, user string, groups []string, a Action) *Holder {
	if a == Submit && s.refusesSubmission(q) {
		return nil
	}
	return s.grant(q, user, groups, a)
}

// stateChange says when a queue in both setups starts or stops taking
// submissions: its ACLs may be the same, and who may submit there changes.
func stateChange(oq, nq *Queue, old, new *Setup) []string {
	was, is := old.refusesSubmission(oq), new.refusesSubmission(nq)
	switch {
	case !was && is:
		return []string{fmt.Sprintf("NEW: %s is STOPPED (%s at %s:%d:%d): it takes no submission, so whoever its ACLs let submit loses that", nq.Path, nq.Stopped.Name, nq.Stopped.File, nq.Stopped.ValuePos.Line, nq.Stopped.ValuePos.Col)}
	case was && !is:
		return []string{fmt.Sprintf("NEW: %s is no longer STOPPED: whoever its ACLs let submit may submit there again", nq.Path)}
	}
	return nil
}

// Subject is a matrix column: a user alone, a group's member, or everyone
// no ACL names.
type Subject struct {
	Kind, Name string // "everyone" (Name "*"), "user" or "group"
}

// Subjects are the columns of the matrix: everyone, then every user and
// every group any ACL names, sorted, then the extra ones given.
func (s *Setup) Subjects(extra []Subject) []Subject {
	users, groups := map[string]bool{}, map[string]bool{}
	s.CS.names(users, groups)
	for _, x := range extra {
		if x.Kind == "group" {
			groups[x.Name] = true
		} else {
			users[x.Name] = true
		}
	}
	out := []Subject{{"everyone", "*"}}
	for _, u := range slices.Sorted(maps.Keys(users)) {
		out = append(out, Subject{"user", u})
	}
	for _, g := range slices.Sorted(maps.Keys(groups)) {
		out = append(out, Subject{"group", g})
	}
	return out
}

// Cell is a subject's access to a queue: "admin" (administering lets one
// submit too), "submit" or "-"; "?" when an ACL on the way is not known.
func (s *Setup) Cell(q *Queue, x Subject) string {
	user, groups := diffProbe, []string{diffProbe}
	switch x.Kind {
	case "user":
		user = x.Name
	case "group":
		groups = []string{x.Name}
	}
	adm := s.grant(q, user, groups, Administer)
	sub := s.grant(q, user, groups, Submit)
	// a STOPPED queue takes no submission, whoever its ACLs let in
	stopped := s.refusesSubmission(q)
	switch {
	case adm != nil && stopped:
		return "admin, stopped"
	case adm != nil:
		return "admin"
	case sub != nil && stopped:
		return "stopped"
	case sub != nil:
		return "submit"
	}
	if s.CS.Decide(q.Path, user, groups, Submit).Unknown {
		return "?"
	}
	return "-"
}

// Queues are the tree's queues in tree order.
func (s *Setup) Queues() []*Queue {
	var out []*Queue
	s.CS.Walk(func(q *Queue) { out = append(out, q) })
	return out
}
