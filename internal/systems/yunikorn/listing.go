package yunikorn

import (
	"fmt"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

// AccessHead is the head of a user's access listing in the neutral shape
// every system's access has.
func AccessHead(user string) audit.AccessHead {
	return audit.AccessHead{System: System, Subject: user, Actions: []string{"submit", "admin"},
		SectionWord: "partition", ObjectWord: "queue", RuleWord: "acl"}
}

// AccessSection is one partition of a listing, with the subject as the
// partition's resolver sees it.
func AccessSection(a acl.AccessResult, user string, notes []string) audit.AccessSection {
	return audit.AccessSection{Name: a.Partition,
		Title:  fmt.Sprintf("partition %s: user %s, groups %s (%s)", a.Partition, user, acl.Names(a.Subject.Groups), a.Subject.Source),
		Groups: a.Subject.Groups, GroupsSource: a.Subject.Source, Reason: a.Subject.Reason,
		Notes: append(append([]string(nil), notes...), a.Subject.Notes...)}
}

// Grants turns a listing's grants into the neutral shape, once for each
// grant: the rows below an ACL share its holder.
type Grants map[*acl.Holder]*audit.Grant

// Row is one queue of a listing in the neutral shape.
func (gs Grants) Row(r acl.AccessRow) audit.AccessRow {
	kind := "leaf"
	switch {
	case r.CreatedBy != "":
		kind = "created"
	case r.Parent:
		kind = "parent"
	}
	return audit.AccessRow{Section: r.Partition, Object: r.Queue, Kind: kind, CreatedBy: r.CreatedBy,
		Cells: []audit.Cell{{By: gs.grant(r.Submit)}, {By: gs.grant(r.Admin)}}}
}

func (gs Grants) grant(h *acl.Holder) *audit.Grant {
	if h == nil {
		return nil
	}
	g, ok := gs[h]
	if !ok {
		g = &audit.Grant{Kind: h.Kind, Name: h.Name, Object: h.Queue, Rule: h.ACL, Inherited: h.Inherited,
			Pos: engine.Position{File: h.Pos.File, Line: h.Pos.Line, Col: h.Pos.Col}}
		gs[h] = g
	}
	return g
}

// DiffTo compares two policies as acl.DiffTo does, handing each change to
// emit in the neutral shape. A diff's changes are not kept (--flat may
// stream millions), so neither is a table of their grants: each is
// converted as it passes, and the last one's conversion serves the changes
// after it that share its holder.
func DiffTo(old, new *acl.Policy, emit func(audit.Change)) *acl.DiffResult {
	var last *acl.Holder
	var lastGrant *audit.Grant
	return acl.DiffTo(old, new, func(c acl.Change) {
		if c.Via != last {
			last, lastGrant = c.Via, Grants{}.grant(c.Via)
		}
		emit(audit.Change{Section: c.Partition, Object: c.Queue, Subject: c.Principal, Action: string(c.Action), Gained: c.Gained, Via: lastGrant})
	})
}
