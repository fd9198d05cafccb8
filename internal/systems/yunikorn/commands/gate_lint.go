package commands

// This file lints what only the queue config and the gate in front of it
// show together (engine.Composer): one walk follows every subject the
// gate names, and everyone, through the admission controller and
// placement; the rules (gate_rules.go) each judge what the walk found.

import (
	"slices"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// composed is what the walk found, for the rules: the path, each
// subject's creations, and the namespaces where a subject may claim any
// identity.
type composed struct {
	t      through
	subs   []subjectWay
	claims []claim
	sub    func(f engine.Finding) // reports a finding, with its sources
}

// subjectWay is one subject and the namespaces the gate lets it create
// pods in (or cannot tell).
type subjectWay struct {
	sub audit.GateSubject
	cs  []creation
}

// claim is a subject whose pods in a namespace reach YuniKorn as any
// identity they write: how, and whether it is because the admission
// controller bypasses the namespace.
type claim struct {
	sub    audit.GateSubject
	on     creation
	how    string
	bypass bool
}

// Compose lints in, a YuniKorn input, with the gate its run holds beside
// it (engine.Composer). A gate or config refused, or none given, finds
// nothing here: their own lint says why.
func (Sys) Compose(in *engine.Input, beside []engine.Job, opts engine.Options) (*engine.Report, error) {
	var gk audit.Gatekeeper
	var ins []*engine.Input
	for _, j := range beside {
		if g, ok := j.Sys.(audit.Gatekeeper); ok && g.Gates(yunikorn.System) && (gk == nil || engine.SameSystem(j.Sys, gk.(engine.System))) {
			gk, ins = g, append(ins, j.In)
		}
	}
	if gk == nil {
		return nil, nil
	}
	g, err := gk.LoadGate(ins, opts)
	if err != nil || g == nil {
		return nil, nil
	}
	l, err := yunikorn.LoadRead([]string{in.Arg}, []*engine.Input{in}, yunikorn.ReadOptions{Key: opts.Value(yunikorn.KeyOption), MaxSize: opts.MaxSize, Seen: opts.Seen}, nil)
	if err != nil {
		return nil, nil
	}
	rep := &engine.Report{Sources: map[string][]string{}}
	files := map[string][]byte{in.Path: in.Data}
	for _, b := range ins {
		files[b.Path] = b.Data
	}
	c, err := walk(throughOf(g, loaded{l}), func(f engine.Finding) {
		if _, ok := rep.Sources[f.Pos.File]; !ok && files[f.Pos.File] != nil {
			rep.Sources[f.Pos.File] = strings.Split(string(files[f.Pos.File]), "\n")
		}
		rep.Findings = append(rep.Findings, f)
	})
	if err != nil {
		return nil, nil // a probe the admission controller cannot read: the questions say so
	}
	for _, r := range gateRules() {
		r.Check(c, func(f engine.Finding) {
			f.Rule, f.Severity = r.Name, r.Severity
			c.sub(f)
		})
	}
	return rep, nil
}

// walk follows everyone and every subject the gate names to the
// namespaces it may create pods in, and asks the admission controller of
// each whether its pods may claim any identity there.
func walk(t through, report func(engine.Finding)) (*composed, error) {
	c := &composed{t: t, sub: report}
	for _, sub := range append([]audit.GateSubject{everyone}, t.g.Subjects()...) {
		w := subjectWay{sub: sub, cs: t.creations(sub)}
		c.subs = append(c.subs, w)
		for _, nc := range w.cs {
			if !nc.c.Allowed || !nc.ns.Declared {
				continue
			}
			how, bypass, ok, err := claims(t.settings, nc.ns, nc.c, sub)
			if err != nil {
				return nil, err
			}
			if ok {
				c.claims = append(c.claims, claim{sub: sub, on: nc, how: how, bypass: bypass})
			}
		}
	}
	return c, nil
}

// everyoneClaims says whether everyone may claim any identity in ns (so
// that a subject's own claim there says nothing more).
func (c *composed) everyoneClaims(ns string) bool {
	for _, cl := range c.claims {
		if cl.sub.Kind == everyone.Kind && cl.on.ns.Name == ns {
			return true
		}
	}
	return false
}

// boundGroups are the groups the gate's bindings name.
func (c *composed) boundGroups() []string {
	var out []string
	for _, w := range c.subs {
		if w.sub.Kind == "Group" {
			out = append(out, w.sub.Name)
		}
	}
	return out
}

// under says whether queue (as YuniKorn stores it) is q or below it.
func under(queue string, q *config.Queue) bool {
	p := strings.ToLower(q.Path())
	return queue == p || strings.HasPrefix(queue, p+".")
}

// mayReach says whether sub's pods may land in q or below it, a pod
// naming no queue or one labelled with a leaf there; a route the gate
// cannot tell of counts as reaching (nothing is said of it).
func (c *composed) mayReach(part string, q *config.Queue, sub audit.GateSubject) bool {
	cs := c.t.creations(sub)
	if len(cs) == 0 {
		return false
	}
	lands := func(rs []route) bool {
		return slices.ContainsFunc(rs, func(r route) bool {
			return r.unknown != "" || r.res != nil && r.res.Placed && under(r.res.Queue, q)
		})
	}
	rs, err := c.t.routes(part, sub, cs, "")
	if err != nil || lands(rs) {
		return true
	}
	found := false
	q.Walk(func(leaf *config.Queue) {
		if found || !leaf.IsLeaf() {
			return
		}
		rs, err := c.t.routes(part, sub, cs, leaf.Path())
		found = err != nil || lands(rs)
	})
	return found
}

// nobodyRuns says, for a namespace some subjects may create pods in,
// where their pods naming no queue go when no one of them is admitted
// there, and who they are; "" when someone runs, or it is not known.
func (c *composed) nobodyRuns(part string, ns audit.GateNamespace) (why string, who []string) {
	var whys []string
	for _, w := range c.subs {
		i := slices.IndexFunc(w.cs, func(nc creation) bool { return nc.ns.Name == ns.Name })
		if i < 0 {
			continue
		}
		if !w.cs[i].c.Allowed {
			return "", nil // whether it may is not known
		}
		rs, err := c.t.routes(part, w.sub, w.cs[i:i+1], "")
		if err != nil {
			return "", nil
		}
		for _, r := range rs {
			if r.unknown != "" || r.pr == nil || !r.pr.Reaches() {
				return "", nil // not known, or not YuniKorn's to run
			}
			s := "are rejected by placement (" + r.res.Reason + ")"
			if r.res.Placed {
				app := r.pr.App
				d, err := c.t.l.Policy.Decide(acl.Query{Partition: part, Queue: r.res.Queue, User: app.User, Groups: app.Groups, Action: acl.Submit, Tags: app.Tags})
				if err != nil || d.Allowed {
					return "", nil
				}
				s = "land in " + r.res.Queue + ", whose submit ACLs refuse them"
			}
			if !slices.Contains(whys, s) {
				whys = append(whys, s)
			}
		}
		who = append(who, subjectText(w.sub))
	}
	if len(who) == 0 {
		return "", nil
	}
	return strings.Join(whys, "; "), who
}
