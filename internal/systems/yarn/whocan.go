package yarn

import "sort"

// Holder is someone with access to a queue, with the ACL that grants it.
type Holder struct {
	Kind      string // "wildcard", "user" or "group"
	Name      string // "*" for the wildcard
	Queue     string // the queue whose ACL grants it
	ACL       string // the ACL's name in the file
	Inherited bool   // granted on an ancestor of the queue asked about
	// Default is set when the grant is root's default * (the ACL not set);
	// File and Pos are then empty.
	Default bool
	File    string
	Pos     Pos
}

// WhoCanResult lists everyone with an access to one queue.
type WhoCanResult struct {
	Queue    string
	Action   Action
	Everyone []Holder // every ACL on the path that lets everyone in, nearest first
	Users    []Holder // by name, the nearest grant of each
	Groups   []Holder
	// ACLsOff: yarn.acl.enable is false, YARN checks no ACL and everyone
	// has access (Capacity Scheduler).
	ACLsOff bool
	// Unknown is set when an ACL on the path uses ${...}: who it lets in
	// is not known, so the list is not complete.
	Unknown bool
	Notes   []string
}

// WhoCan answers who has the access to q: every ACL the check reads, from
// the queue up its path (for submitting, the submit and then the
// administer ACLs), each grant with where it is written.
func (s *Setup) WhoCan(q *Queue, a Action) *WhoCanResult {
	r := &WhoCanResult{Queue: q.Path, Action: a}
	if a == Submit && q.IsParentQueue() {
		r.Notes = append(r.Notes, ParentQueueNote(q, s.FS))
	}
	if a == Submit && s.refusesSubmission(q) {
		// whoever the ACLs list, no submission is accepted there
		r.Notes = append(r.Notes, q.StoppedNote()+": the ACLs below say who passes the ACL check, and nobody's application is accepted")
	}
	if !s.FS && s.Known && !s.ACLEnable {
		r.ACLsOff = true
		return r
	}
	kinds := []Action{a}
	if a == Submit {
		kinds = append(kinds, Administer)
		r.Notes = append(r.Notes, "submitting is also allowed to whoever may administer the queue")
	}
	users, groups := map[string]bool{}, map[string]bool{}
	var path []*Queue
	for p := q.Path; ; {
		if x := s.CS.ByPath[p]; x != nil {
			path = append(path, x)
		}
		i := lastDot(p)
		if i < 0 {
			break
		}
		p = p[:i]
	}
	for _, k := range kinds {
		for _, x := range path {
			if x.Unknown[k] {
				r.Unknown = true
				r.Notes = append(r.Notes, x.Path+" "+s.ACLName(k)+" uses ${...}, which Configuration substitutes from settings aclint does not have")
				continue
			}
			acl := x.ACL[k]
			h := Holder{Queue: x.Path, ACL: s.ACLName(k), Inherited: x != q}
			if p := x.From[k]; p != nil {
				h.File, h.Pos = p.File, p.ValuePos
			} else {
				h.Default = true
			}
			if acl.All {
				h.Kind, h.Name = "wildcard", "*"
				r.Everyone = append(r.Everyone, h)
				continue
			}
			for _, e := range acl.Users {
				if !users[e.Name] {
					users[e.Name] = true
					h.Kind, h.Name = "user", e.Name
					r.Users = append(r.Users, h)
				}
			}
			for _, e := range acl.Groups {
				if !groups[e.Name] {
					groups[e.Name] = true
					h.Kind, h.Name = "group", e.Name
					r.Groups = append(r.Groups, h)
				}
			}
		}
	}
	sort.SliceStable(r.Users, func(i, j int) bool { return r.Users[i].Name < r.Users[j].Name })
	sort.SliceStable(r.Groups, func(i, j int) bool { return r.Groups[i].Name < r.Groups[j].Name })
	return r
}

func lastDot(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '.' {
			return i
		}
	}
	return -1
}

// AccessRow is one queue of a user's access listing: the grant of each
// action, nil when there is none.
type AccessRow struct {
	Queue         *Queue
	Submit, Admin *Holder
	// Unknown: an ACL on the path is not known, so a missing grant is
	// not a denial.
	Unknown bool
}

// Access lists the user's submit and admin access on every queue of the
// tree, in tree order, each grant with the ACL entry that gives it. With
// ACLs off (Capacity Scheduler), everyone has both everywhere.
func (s *Setup) Access(user string, groups []string) []AccessRow {
	var rows []AccessRow
	s.CS.Walk(func(q *Queue) {
		row := AccessRow{Queue: q}
		for _, a := range []Action{Submit, Administer} {
			h := s.grant(q, user, groups, a)
			if d := s.CS.Decide(q.Path, user, groups, a); d.Unknown && h == nil {
				row.Unknown = true
			}
			if a == Submit {
				row.Submit = h
			} else {
				row.Admin = h
			}
		}
		rows = append(rows, row)
	})
	return rows
}

// grant is the ACL entry that lets the user act on q, or nil.
func (s *Setup) grant(q *Queue, user string, groups []string, a Action) *Holder {
	if !s.FS && s.Known && !s.ACLEnable {
		return &Holder{Kind: "wildcard", Name: "*", Queue: "", ACL: ACLEnableKey + "=false"}
	}
	d := s.CS.Decide(q.Path, user, groups, a)
	if !d.Allowed {
		return nil
	}
	x, k := d.Queue, d.Action
	acl := x.ACL[k]
	h := &Holder{Queue: x.Path, ACL: s.ACLName(k), Inherited: x != q}
	if p := x.From[k]; p != nil {
		h.File, h.Pos = p.File, p.ValuePos
	} else {
		h.Default = true
	}
	switch {
	case acl.All:
		h.Kind, h.Name = "wildcard", "*"
	case hasName(acl.Users, user):
		h.Kind, h.Name = "user", user
	default:
		for _, g := range groups {
			if hasName(acl.Groups, g) {
				h.Kind, h.Name = "group", g
				break
			}
		}
	}
	return h
}
