package cli

// This file composes a question with the system in front of its own
// (audit.Gatekeeper): the gate's inputs are set apart, loaded once and
// handed to the question (audit.GateTaker).

import (
	"errors"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
)

// splitGate sets apart the inputs of a system that stands in front of
// others (audit.Gatekeeper: RBAC manifests beside a YuniKorn ConfigMap);
// all of them a gatekeeper's, they are the question's own.
func (s *streams) splitGate(ins []*engine.Input) (own []*engine.Input, gate engine.System, gateIns []*engine.Input) {
	for _, in := range ins {
		sys := s.reg.SystemFor(in)
		if _, ok := sys.(audit.Gatekeeper); ok && (gate == nil || engine.SameSystem(gate, sys)) {
			gate, gateIns = sys, append(gateIns, in)
			continue
		}
		own = append(own, in)
	}
	if len(own) == 0 {
		return gateIns, nil, nil
	}
	return own, gate, gateIns
}

// gated is a question with the gate in front of its system: refused
// when the gate does not stand in front of it.
func (s *streams) gated(q *asked, err error, gate engine.System, gateIns []*engine.Input) (*asked, error) {
	if err != nil || gate == nil {
		return q, err
	}
	if !gate.(audit.Gatekeeper).Gates(q.sys.Name()) {
		return nil, clikit.Usage("%s is a %s input, which stands in front of no %s question: a question is asked of one system's files", gateIns[0].Path, gate.Name(), q.sys.Name())
	}
	for _, in := range gateIns {
		in.Related = gateIns
	}
	q.gate, q.gateIns = gate, gateIns
	return q, nil
}

// takeGate loads the gate's inputs and hands the gate to the question;
// a question that cannot compose with it is a usage error, not an answer
// that leaves the gate out.
func (q *asked) takeGate() error {
	_, err := q.loadGate()
	return err
}

// loadGate is takeGate returning the gate: nil when the question came
// without one, or nothing in its inputs gates.
func (q *asked) loadGate() (audit.Gate, error) {
	if q.gate == nil {
		return nil, nil
	}
	g, err := q.gate.(audit.Gatekeeper).LoadGate(q.gateIns, q.opts)
	var ref *audit.Refused
	if errors.As(err, &ref) {
		return nil, refusedErr(ref.File, ref.Why, ref.Command, ref.Findings, ref.Sources[ref.File])
	}
	if err != nil {
		return nil, answerErr(err)
	}
	if g == nil {
		return nil, nil // nothing in them gates: answered as without them
	}
	t, ok := q.caps.(audit.GateTaker)
	if ok {
		err = t.TakeGate(g)
	}
	if !ok || err != nil {
		return nil, clikit.Usage("%s: %s's answer to this question does not take %s into account, so it would leave out what %s holds: leave the %s files out", q.gateIns[0].Path, q.sys.Name(), g.Name(), q.gateIns[0].Path, g.Name())
	}
	return g, nil
}

// diffGates are the gates in front of both sides of a diff: both or
// neither, since a side without one would be compared by another
// question.
func diffGates(old, new *asked) (og, ng audit.Gate, err error) {
	if og, err = old.loadGate(); err != nil {
		return nil, nil, err
	}
	if ng, err = new.loadGate(); err != nil {
		return nil, nil, err
	}
	for _, s := range []struct {
		has, lacks *asked
		g          audit.Gate
		label      string
	}{{old, new, og, "OLD"}, {new, old, ng, "NEW"}} {
		if s.g != nil && (og == nil || ng == nil) {
			return nil, nil, clikit.Usage("%s (%s) comes with %s files and the other side with none that gate: diff compares two sides that both hold them (two checkouts of the repository), or neither", s.label, s.has.named(), s.g.Name())
		}
	}
	return og, ng, nil
}
