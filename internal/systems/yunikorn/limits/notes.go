package limits

import (
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// notes explain what the figures alone do not show: why this group is
// tracked, which limits do not apply and why.
func (md *Model) notes(req Request, a *Answer, queues []*config.Queue) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	switch {
	case len(req.Groups) == 0:
		add("the request carries no groups: YuniKorn tracks no group for it (ensureGroup returns at once), so no group limit applies, not even the wildcard group limit")
	case a.TrackedGroup == "*":
		add("tracked under the wildcard group: none of %s's groups %s has a limit on %s or below, and %s has a wildcard group limit", req.User, list(req.Groups), a.TrackedAt, a.TrackedAt)
		add("the wildcard group is one tracker for everyone it catches: its limits count the applications of all those users together, not %s's alone", req.User)
	case a.Tracked:
		add("tracked under group %s: YuniKorn searches from %s up to root and, at each level, the group limits in config order; the first of %s's groups %s it meets is %s, at %s. Only that group's limits apply to this application", a.TrackedGroup, req.Queue, req.User, list(req.Groups), a.TrackedGroup, a.TrackedAt)
	default:
		add("no group limit applies: none of %s's groups %s has a limit on %s or any queue above it, and none of them has a wildcard group limit", req.User, list(req.Groups), req.Queue)
	}
	h := strings.Split(req.Queue, ".")
	for _, g := range req.Groups {
		if g == a.TrackedGroup {
			continue
		}
		t := md.m.groups[g]
		if t == nil {
			continue
		}
		var where []string
		for i, n := range md.m.walkTracker(t, h, false) {
			if f := figure(n); f != nil {
				where = append(where, fmt.Sprintf("%s (%s)", strings.Join(h[:i+1], "."), f.Source.At))
			}
		}
		if len(where) == 0 {
			continue
		}
		by := "no group"
		if a.Tracked {
			by = "group " + a.TrackedGroup
		}
		add("the limits of group %s on %s do not apply to this application: YuniKorn tracks each application under one group only, here %s", g, strings.Join(where, ", "), by)
	}
	for i, lv := range a.Levels {
		if lv.User != nil && lv.User.Source.Kind == KindUser {
			if w := md.m.userWild[lv.Queue]; w != nil && w.src.Partition == lv.User.Source.Partition {
				add("%s's own limit on %s replaces the wildcard user limit there (%s); the two are not combined", req.User, lv.Queue, w.src.At)
			}
		}
		q := queues[i]
		if q == nil || len(req.Partition.LimitsOf(q)) == 0 {
			continue
		}
		if w := q.WrittenPath(); w != lv.Queue {
			add("the limits written on %s (%s) never apply: YuniKorn files them under the path as written and looks them up as %s (rule limit-path-case)", w, md.cfg.Doc.NodePos(q.LimitsKey), lv.Queue)
		}
	}
	if md.last != nil && md.last != req.Partition {
		add("the user and group limits in force are partition %s's, not %s's: YuniKorn has one user and group manager for the whole scheduler, and each partition's limits replace the ones before (rule limits-not-last-partition)", md.last.CanonicalName(), req.Partition.CanonicalName())
	}
	for _, lv := range a.Levels {
		for _, f := range []*Figure{lv.User, lv.Group} {
			if f != nil && md.last != nil && f.Source.Partition != md.last.CanonicalName() {
				add("the limit on %s from partition %s (%s) is left over: it was set while partition %s's limits were loaded, and the next partition's did not clear it", lv.Queue, f.Source.Partition, f.Source.At, f.Source.Partition)
			}
		}
	}
	return out
}

func list(s []string) string { return "[" + strings.Join(s, ", ") + "]" }
