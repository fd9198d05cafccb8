package cli

// This file finds the system a question's files belong to and asks it
// through the capabilities of internal/audit: the inputs are read once,
// detected by the registry, loaded by their system and answered in the
// neutral types every system shares.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/input"
)

// asked is a question's inputs, read once, and the system they belong to.
type asked struct {
	reg *engine.Registry
	sys engine.System
	ins []*engine.Input
	// opts are what the system is told when it loads them: the input
	// bound, and the values of its own flags (clikit.Extension.Values)
	opts engine.Options
}

// question reads the files of a question and returns them with their
// system when that system answers through the capabilities (it is an
// audit.Loader). It returns nil when the files are the fallback system's,
// or are not all regular files or standard input (a directory, a running
// scheduler): the command then reads them its own way, from what was
// read here (standard input is not read twice, nor a file opened again).
func (s *streams) question(files []string) (*asked, error) {
	if len(files) == 0 {
		return nil, nil
	}
	dirs := false
	for _, f := range files {
		if f == "-" {
			continue
		}
		info, err := os.Stat(f)
		if err == nil && info.IsDir() {
			dirs = true
			continue
		}
		if err != nil || !info.Mode().IsRegular() {
			return nil, nil
		}
	}
	if dirs {
		return s.questionInDirs(files)
	}
	ins, err := input.Read(files, input.Options{Stdin: s.in, Warn: s.warnInput, MaxSize: s.maxInput})
	if err != nil {
		return nil, clikit.Usage("%w", err)
	}
	return s.questionOf(ins)
}

// questionInDirs reads a question's files when some are directories: each
// searched as lint searches it, and the question is the one system's whose
// files it finds. What the fallback would read is left to it, which reads
// a directory its own way; files of two systems are a usage error.
func (s *streams) questionInDirs(files []string) (*asked, error) {
	if slices.Contains(files, "-") {
		return nil, clikit.Usage("-f - and a directory: a question is asked of one system's files, from standard input or from files, not both")
	}
	ins, err := input.Read(files, input.Options{Warn: s.warnInput, Exts: s.reg.Extensions(), MaxSize: s.maxInput})
	if err != nil {
		return nil, clikit.Usage("%w", err)
	}
	var kept []*engine.Input
	var sys engine.System
	for _, in := range ins {
		got := s.reg.SystemFor(in)
		if engine.SameSystem(got, s.reg.Fallback()) {
			continue
		}
		if sys != nil && !engine.SameSystem(sys, got) {
			return nil, clikit.Usage("%s holds %s files and %s ones (%s, %s): a question is asked of one system's files; name them with -f", strings.Join(files, ", "), sys.Name(), got.Name(), kept[0].Path, in.Path)
		}
		sys = got
		kept = append(kept, in)
	}
	if sys == nil {
		return nil, nil // the fallback's: it reads the directory itself
	}
	return s.questionOf(kept)
}

// questionOf finds the system of a question's inputs.
func (s *streams) questionOf(ins []*engine.Input) (*asked, error) {
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
	// a command that reads them its own way reads them from memory
	for _, in := range ins {
		if in.Arg == "-" {
			s.in = bytes.NewReader(in.Data)
			continue
		}
		if s.preloaded == nil {
			s.preloaded = map[string][]byte{}
		}
		s.preloaded[in.Arg] = in.Data
	}
	if _, ok := sys.(audit.Loader); ok {
		return &asked{reg: s.reg, sys: sys, ins: ins, opts: engine.Options{MaxSize: s.maxInput}}, nil
	}
	return nil, nil
}

// load loads a question's inputs into their system's model, a refusal
// becoming exit 2 with the errors.
func (q *asked) load() (audit.Model, error) {
	m, err := q.sys.(audit.Loader).Load(q.ins, q.opts)
	var ref *audit.Refused
	if errors.As(err, &ref) {
		var lines []string
		if ref.Sources != nil {
			lines = ref.Sources[ref.File]
		}
		return nil, refusedErr(ref.File, ref.Why, ref.Command, ref.Findings, lines)
	}
	if err != nil {
		return nil, clikit.Usage("%w", err)
	}
	return m, nil
}

// capability is what a command needs of the system, or a usage error
// that names the system and what it can answer.
func capability[T any](q *asked, command string) (T, error) {
	c, ok := q.sys.(T)
	if g, guided := q.sys.(engine.Guided); !ok && guided {
		// the system says which of its own commands takes the file
		return c, clikit.Usage("%s", g.Misdirected(q.ins[0].Given()))
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

// askWhoCan answers who-can through a system's audit.WhoCanner.
func askWhoCan(s *streams, cmd *cobra.Command, q *asked, words []string, action, output string) error {
	w, err := capability[audit.WhoCanner](q, "who-can")
	if err != nil {
		return err
	}
	if !cmd.Flags().Changed("action") {
		action = ""
	}
	m, err := q.load()
	if err != nil {
		return err
	}
	ans, err := w.WhoCan(m, audit.Question{Words: words, Action: action})
	if err != nil {
		var u *audit.UsageError
		if errors.As(err, &u) {
			return clikit.Usage("%s: %w (who-can %s, e.g. who-can -f %s %s)", q.sys.Name(), err, w.WhoCanUsage().Words, q.ins[0].Path, w.WhoCanUsage().Example)
		}
		return clikit.Usage("%w", err)
	}
	return writeWhoCan(s, ans, output)
}

// writeWhoCan writes a who-can answer as -o asks; an incomplete answer is
// exit 2 after what is known.
func writeWhoCan(s *streams, ans *audit.WhoCan, output string) error {
	var err error
	switch output {
	case "json":
		err = clikit.WriteJSON(s.out, whoCanJSON(ans))
	case "csv":
		err = writeWhoCanCSV(s.out, ans)
	default:
		err = writeWhoCanText(s.out, ans)
	}
	if err != nil {
		return clikit.Usage("writing output: %w", err)
	}
	if ans.Incomplete != "" {
		return &clikit.ExitError{Code: ExitUsage, Err: errors.New(ans.Incomplete)}
	}
	return nil
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

func checkWords(sys engine.System) (audit.Usage, bool) {
	if c, ok := sys.(audit.Checker); ok {
		return c.CheckUsage(), true
	}
	return audit.Usage{}, false
}

// askCheck answers check through a system's audit.Checker: exit 0
// allowed, 1 denied.
func askCheck(s *streams, cmd *cobra.Command, q *asked, words []string, action, groups, output string, quiet bool) error {
	c, err := capability[audit.Checker](q, "check")
	if err != nil {
		return err
	}
	if err := clikit.CheckOutput(output, "text", "json"); err != nil {
		return err
	}
	if !cmd.Flags().Changed("action") {
		action = ""
	}
	m, err := q.load()
	if err != nil {
		return err
	}
	qu := audit.Question{Words: words, Action: action}
	if cmd.Flags().Changed("groups") {
		qu.Groups = clikit.ParseList(groups)
	}
	v, err := c.Check(m, qu)
	if err != nil {
		var u *audit.UsageError
		if errors.As(err, &u) {
			return clikit.Usage("%s: %w (check %s, e.g. check -f %s %s)", q.sys.Name(), err, c.CheckUsage().Words, q.ins[0].Path, c.CheckUsage().Example)
		}
		return clikit.Usage("%w", err)
	}
	return writeVerdict(s, v, output, quiet)
}

// writeVerdict is every check's answer, whichever system gave it: exit 0
// allowed, 1 denied, 2 not known.
func writeVerdict(s *streams, v *audit.Verdict, output string, quiet bool) error {
	out := clikit.Verdict{OK: v.Allowed && v.Unknown == "",
		Text: func(w io.Writer) error { return writeCheckText(w, v) },
		JSON: func() any { return checkJSON(v) }}
	if v.Unknown != "" {
		out.Code = ExitUsage
	}
	return clikit.WriteVerdict(s.out, out, output, quiet)
}
