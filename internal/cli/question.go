package cli

// This file finds the system a question's files belong to and asks it
// through the capabilities of internal/audit: the inputs are read once,
// detected by the registry, loaded by their system and answered in the
// neutral types every system shares.

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/input"
)

// asked is a question's inputs, read once, and the system they belong to.
type asked struct {
	reg *engine.Registry
	sys engine.System
	// caps is what is asked: the system's part bound to its flags
	// (clikit.Extension.Answers), else the system itself
	caps any
	ins  []*engine.Input
	// opts are what the system is told when it loads them: the input
	// bound, and the values of its own flags (clikit.Extension.Values)
	opts engine.Options
	// gate is the system in front of sys whose inputs came with the
	// question (Kubernetes RBAC before YuniKorn), and those inputs
	gate    engine.System
	gateIns []*engine.Input
}

// question reads the files of a question once and returns them with the
// system they belong to: the one that recognises them, else the
// fallback, whose question may name none (it reads its default).
func (s *streams) question(files []string) (*asked, error) {
	if len(files) == 0 {
		return s.asked(s.reg.Fallback(), nil), nil
	}
	for _, f := range files {
		if f == "-" {
			continue
		}
		if info, err := os.Stat(f); err == nil && info.IsDir() {
			return s.questionInDirs(files)
		}
	}
	ins, err := input.Read(files, input.Options{Stdin: s.in, Warn: s.warnInput, MaxSize: s.maxInput, Seen: s.seen})
	if err != nil {
		return nil, clikit.Usage("%w", err)
	}
	return s.questionOf(ins)
}

// asked is a question of sys's inputs.
func (s *streams) asked(sys engine.System, ins []*engine.Input) *asked {
	return &asked{reg: s.reg, sys: sys, caps: sys, ins: ins, opts: engine.Options{MaxSize: s.maxInput, Seen: s.seen}}
}

// questionInDirs reads a question's files when some are directories: each
// searched as lint searches it, and the question is the one system's whose
// files it finds; the fallback's, which may pass over what it cannot
// read, when no other system's are found. Files of two systems are a
// usage error.
func (s *streams) questionInDirs(files []string) (*asked, error) {
	if slices.Contains(files, "-") {
		return nil, clikit.Usage("-f - and a directory: a question is asked of one system's files, from standard input or from files, not both")
	}
	ins, err := input.Read(files, input.Options{Warn: s.warnInput, Exts: s.reg.Extensions(), MaxSize: s.maxInput, Seen: s.seen})
	if err != nil {
		return nil, clikit.Usage("%w", err)
	}
	// a directory that holds nothing to read must not leave the question
	// to the others, or to the fallback's default
	for _, f := range files {
		if !slices.ContainsFunc(ins, func(in *engine.Input) bool { return in.Arg == f }) {
			return nil, clikit.Usage("%s: no file aclint reads is in it (it reads %s): name the files with -f", f, clikit.JoinWords(s.reg.Extensions()))
		}
	}
	ins, gate, gateIns := s.splitGate(ins)
	if len(ins) == 0 {
		return s.questionOf(gateIns)
	}
	var kept, fallback []*engine.Input
	var sys engine.System
	for _, in := range ins {
		got := s.reg.SystemFor(in)
		if engine.SameSystem(got, s.reg.Fallback()) {
			fallback = append(fallback, in)
			continue
		}
		if sys != nil && !engine.SameSystem(sys, got) {
			return nil, clikit.Usage("%s holds %s files and %s ones (%s, %s): a question is asked of one system's files; name them with -f", strings.Join(files, ", "), sys.Name(), got.Name(), kept[0].Path, in.Path)
		}
		sys = got
		kept = append(kept, in)
	}
	if sys == nil {
		for _, in := range fallback {
			in.Related = fallback
		}
		return s.gated(s.asked(s.reg.Fallback(), fallback), nil, gate, gateIns)
	}
	// the fallback's own files beside them are files of two systems too
	for _, in := range fallback {
		if fb := s.reg.Fallback(); fb.Detect(in) {
			return nil, clikit.Usage("%s holds %s files and %s ones (%s, %s): a question is asked of one system's files; name them with -f", strings.Join(files, ", "), sys.Name(), fb.Name(), kept[0].Path, in.Path)
		}
	}
	q, err := s.questionOfOwn(kept)
	return s.gated(q, err, gate, gateIns)
}

// questionOf finds the system of a question's inputs, and the gate in
// front of it when some are a gatekeeper's.
func (s *streams) questionOf(ins []*engine.Input) (*asked, error) {
	own, gate, gateIns := s.splitGate(ins)
	if len(own) == 0 {
		return s.questionOfOwn(gateIns)
	}
	q, err := s.questionOfOwn(own)
	return s.gated(q, err, gate, gateIns)
}

// questionOfOwn finds the system of a question's inputs.
func (s *streams) questionOfOwn(ins []*engine.Input) (*asked, error) {
	// the files go to the system that recognises them; a file nobody
	// recognises goes with them (a yarn-site.xml beside a
	// capacity-scheduler.xml), and alone to the fallback
	sys := s.reg.Fallback()
	var by *engine.Input
	for _, in := range ins {
		in.Related = ins
		got := s.reg.SystemFor(in)
		if got == s.reg.Fallback() {
			continue
		}
		if by != nil && got != sys {
			return nil, clikit.Usage("%s is a %s input and %s a %s one: a question is asked of one system's files", by.Path, sys.Name(), in.Path, got.Name())
		}
		sys, by = got, in
	}
	return s.asked(sys, ins), nil
}

// loadFor loads a question's inputs once its words are known to be right
// (audit.WordsChecker): a question asked wrong says so before anything
// is read or said about its files.
func (q *asked) loadFor(command string, words []string) (audit.Model, error) {
	if wc, ok := q.caps.(audit.WordsChecker); ok {
		if err := wc.CheckWords(command, words); err != nil {
			return nil, answerErr(err)
		}
	}
	return q.load()
}

// load loads a question's inputs into their system's model, a refusal
// becoming exit 2 with the errors.
func (q *asked) load() (audit.Model, error) {
	l, ok := q.caps.(audit.Loader)
	if !ok {
		return nil, clikit.Usage("%s files answer no question: %s has no model of them", q.sys.Name(), q.sys.Name())
	}
	if err := q.takeGate(); err != nil {
		return nil, err
	}
	m, err := l.Load(q.ins, q.opts)
	var ref *audit.Refused
	if errors.As(err, &ref) {
		var lines []string
		if ref.Sources != nil {
			lines = ref.Sources[ref.File]
		}
		return nil, refusedErr(ref.File, ref.Why, ref.Command, ref.Findings, lines)
	}
	if err != nil {
		return nil, answerErr(err)
	}
	return m, nil
}

// named is how the question's files are named in a message: the first
// as given, or -f FILE when none was.
func (q *asked) named() string {
	if len(q.ins) == 0 {
		return "FILE"
	}
	return q.ins[0].Given()
}

// answerErr is a system's error as the command ends with it: an exit it
// chose stays as it is, anything else is exit 2 with its message.
func answerErr(err error) error {
	var x *clikit.ExitError
	if errors.As(err, &x) {
		return err
	}
	return clikit.Usage("%w", err)
}

// capability is what a command needs of the system, or a usage error
// that names the system and what it can answer.
func capability[T any](q *asked, command string) (T, error) {
	c, ok := q.caps.(T)
	if g, guided := q.sys.(engine.Guided); !ok && guided && len(q.ins) > 0 {
		// the system says which of its own commands takes the file
		return c, clikit.Usage("%s", g.Misdirected(q.ins[0].Given()))
	}
	if !ok && len(q.ins) == 0 {
		return c, clikit.Usage("aclint %s answers questions about files only: name them with -f (aclint %s takes %s)", command, command, answerers[T](q.reg))
	}
	if !ok {
		return c, clikit.Usage("%s: %s answers no %s question (aclint %s takes %s)", q.ins[0].Path, q.sys.Name(), command, command, answerers[T](q.reg))
	}
	return c, nil
}

// answerers lists the systems that implement a capability, for messages.
func answerers[T any](reg *engine.Registry) string {
	var names []string
	for _, sys := range reg.Systems() {
		if _, ok := sys.(T); ok {
			names = append(names, sys.Name())
		}
	}
	if fb := reg.Fallback(); fb != nil {
		names = append(names, fb.Name())
	}
	return clikit.JoinWords(names) + " files"
}

// questionWords lists how each system that answers through a capability
// reads a question's words, for help and usage messages: "; QUEUE for
// yarn files".
func questionWords(reg *engine.Registry, usage func(engine.System) (audit.Usage, bool)) string {
	var b strings.Builder
	for _, sys := range reg.Systems() {
		if u, ok := usage(sys); ok {
			fmt.Fprintf(&b, "; %s for %s files", u.Words, sys.Name())
		}
	}
	return b.String()
}
