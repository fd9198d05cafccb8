// Package cli is aclint's command line: the commands every system shares,
// built once, and the systems' parts and commands, added from the
// registry. It names no system; the decisions live in the systems'
// packages and the rendering of their neutral answers here and in clikit.
package cli

import (
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/input"

	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/progress"
)

// Exit codes are part of the interface (clikit says what each means).
const (
	ExitOK    = clikit.ExitOK
	ExitFail  = clikit.ExitFail
	ExitUsage = clikit.ExitUsage
)

type streams struct {
	in       io.Reader
	out, err io.Writer
	rawOut   io.Writer // standard output without the SafeWriter
	// the SafeWriters, flushed at the end
	safeOut, safeErr *engine.SafeWriter
	guard            bool            // watch memory (the real process, not in-process tests)
	rawErr           io.Writer       // standard error itself, for the progress line
	meter            *progress.Meter // the progress line, while it runs
	maxMemory        int64           // --max-memory, once the flags are read
	maxInput         int64           // --max-input-size, once the flags are read
	// reg is the systems aclint checks and their rules: every command asks
	// it, never a system by name
	reg *engine.Registry
	// seen is the files this run read: no output of the run replaces one
	seen *engine.ReadSet
	// file is standard output sent to -o FORMAT=PATH, nil when not
	file *outFile
}

// NewRoot builds the aclint command tree, for Execute and for generating
// documentation (man pages, completion).
func NewRoot(reg *engine.Registry, stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	root, _ := newRoot(reg, stdin, stdout, stderr)
	return root
}

func newRoot(reg *engine.Registry, stdin io.Reader, stdout, stderr io.Writer) (*cobra.Command, *streams) {
	s := &streams{in: stdin, rawErr: stderr, reg: reg, seen: &engine.ReadSet{}}
	// everything written passes the progress line first (output and the
	// line never share a row) and then a SafeWriter: text from the files
	// aclint reads cannot drive the terminal or a CI log. rawOut skips the
	// SafeWriter, for lint's colours, whose text is made printable first.
	// Output to a terminal ends the progress line first; output to a file or
	// a pipe (matrix -o csv > m.csv) runs under it.
	term := isTerminal(stdout)
	s.safeOut, s.safeErr = &engine.SafeWriter{W: stdout}, &engine.SafeWriter{W: stderr}
	s.out = liveWriter{s.safeOut, stdout, s, term}
	s.rawOut = liveWriter{stdout, stdout, s, term}
	s.err = liveWriter{s.safeErr, stderr, s, true}
	root := &cobra.Command{
		Use:           "aclint",
		Short:         "Lint access configs and answer access questions exactly as their system decides them",
		Long:          rootHelp(reg),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(s.out)
	root.SetErr(s.err)
	root.PersistentFlags().Bool("no-progress", false, "never show progress on standard error (shown only on a terminal, after a second)")
	root.PersistentFlags().String("max-memory", input.FormatSize(DefaultMaxMemory), "the most memory one run may use; past it aclint stops with a message and exit 2")
	root.PersistentFlags().String("max-input-size", input.FormatSize(input.DefaultMaxSize), "the largest input aclint reads (a file, standard input, a gzipped ConfigMap value once inflated); larger is an error, exit 2")
	root.PersistentPreRunE = func(c *cobra.Command, _ []string) error {
		v, _ := c.Flags().GetString("max-input-size")
		n, err := input.ParseSize(v)
		if err != nil {
			return clikit.Usage("--max-input-size: %w", err)
		}
		s.maxInput = n
		mv, _ := c.Flags().GetString("max-memory")
		m, err := input.ParseSize(mv)
		if err != nil {
			return clikit.Usage("--max-memory: %w", err)
		}
		s.maxMemory = m
		if s.guard {
			guardMemory(m, s.rawErr, os.Exit)
		}
		if err := s.redirect(c); err != nil {
			return err
		}
		s.startProgress(c)
		return nil
	}
	// --version prints what `aclint version` prints
	root.Version, _ = buildInfo()
	root.SetVersionTemplate(versionLine())
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return clikit.Usage("%w\nrun '%s --help' for usage", err, c.CommandPath())
	})
	root.AddCommand(newLintCmd(s), newCheckCmd(s), newPlaceCmd(s), newWhoCanCmd(s), newAccessCmd(s), newMatrixCmd(s), newDiffCmd(s), newRulesCmd(s), newLSPCmd(s), newVersionCmd(s))
	// the commands only one system has come from it, through the registry
	root.AddCommand(systemCommands(s)...)
	addQuiet(root)
	registerCompletions(root, s)
	return root, s
}

// rootHelp is aclint's help, from the registry: the configs it reads.
func rootHelp(reg *engine.Registry) string {
	var b strings.Builder
	b.WriteString("aclint lints access configs and answers \"can this user do this, and why?\" with the\ndecision the system itself would make. It reads:\n")
	for _, sys := range reg.Systems() {
		fmt.Fprintf(&b, "  %s: %s\n", sys.Name(), sys.Inputs())
	}
	return strings.TrimRight(b.String(), "\n")
}

// warnInput says on stderr which file of a directory search is not read.
func (s *streams) warnInput(path, reason string) {
	fmt.Fprintf(s.err, "aclint: warning: %s: %s\n", path, reason)
}

// Execute runs aclint with args over the systems of reg and returns the
// exit code.
func Execute(reg *engine.Registry, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return execute(reg, args, stdin, stdout, stderr, false)
}

// Main is Execute for the aclint process itself, which also watches its
// memory (--max-memory): a test calling Execute shares its process.
func Main(reg *engine.Registry, args []string) int {
	return execute(reg, args, os.Stdin, os.Stdout, os.Stderr, true)
}

func execute(reg *engine.Registry, args []string, stdin io.Reader, stdout, stderr io.Writer, guard bool) int {
	root, s := newRoot(reg, stdin, stdout, stderr)
	s.guard = guard
	root.SetArgs(args)
	err := versionBeforeCommand(root, args)
	if err == nil {
		err = root.Execute()
	}
	err = oneLineCobraError(err)
	s.stopProgress()
	defer s.safeErr.Flush()
	s.safeOut.Flush()
	if err == nil {
		return s.finish(ExitOK)
	}
	// messages carry names from the files read: through the SafeWriter
	var ee *clikit.ExitError
	code := ExitUsage
	if errors.As(err, &ee) {
		code = ee.Code
		err = ee.Err
	}
	if err != nil {
		fmt.Fprintf(s.err, "aclint: %s\n", clikit.ErrorText(err))
	}
	return s.finish(code)
}

// systemAuto lets each input's content say which system it is for.
const systemAuto = "auto"

// lintJob is one input and the system that lints it.
type lintJob struct {
	in  *engine.Input
	sys engine.System
}

// collectLintInputs runs the input pipeline for lint and offers each input
// to the systems in their registry order: the first that detects it takes
// it, the fallback (last) the rest. --system names one system for every input
// named on the command line; files found in a directory that it does not
// detect are skipped.
func collectLintInputs(s *streams, paths []string, verbose bool, system string) ([]lintJob, error) {
	var forced engine.System
	if system != systemAuto {
		if forced = s.reg.LookupSystem(system); forced == nil {
			// the fallback system first, as it reads what no other takes
			names := []string{systemAuto, s.reg.Fallback().Name()}
			for _, sys := range s.reg.Systems() {
				if !engine.SameSystem(sys, s.reg.Fallback()) {
					names = append(names, sys.Name())
				}
			}
			return nil, clikit.Usage("invalid --system %q: use %s or %s", system, strings.Join(names[:len(names)-1], ", "), names[len(names)-1])
		}
	}
	skip := func(p, reason string) {
		if verbose {
			fmt.Fprintf(s.err, "aclint: skipping %s: %s\n", p, reason)
		}
	}
	// every system's endings, also under --system: a file of another
	// system found in a directory is then named as skipped (-v)
	ins, err := input.Read(paths, input.Options{Stdin: s.in, Skip: skip, Warn: s.warnInput, Exts: s.reg.Extensions(), MaxSize: s.maxInput, Seen: s.seen})
	if err != nil {
		return nil, clikit.Usage("%w", err)
	}
	fallback := s.reg.Fallback()
	var jobs []lintJob
	for _, in := range ins {
		var sys engine.System
		switch {
		case forced != nil && (in.Explicit || forced.Detect(in)):
			sys = forced
		case forced != nil:
			skip(in.Path, "not the kind of file --system asks for")
			continue
		default:
			sys = s.reg.SystemFor(in)
			if engine.SameSystem(sys, fallback) && !sys.Detect(in) && !in.Explicit && strings.ToLower(filepath.Ext(in.Path)) == ".json" {
				skip(in.Path, "not a file of any system aclint checks")
				continue
			}
		}
		jobs = append(jobs, lintJob{in, sys})
	}
	// each input sees the others its system lints in this run
	bySys := map[string][]*engine.Input{} // by name: a system need not be comparable
	for _, j := range jobs {
		bySys[j.sys.Name()] = append(bySys[j.sys.Name()], j.in)
	}
	for _, j := range jobs {
		j.in.Related = bySys[j.sys.Name()]
	}
	return jobs, nil
}

// checkFound refuses a command-line argument in which nothing was linted.
func checkFound(reg *engine.Registry, paths []string, found map[string]bool, system string) error {
	for _, p := range paths {
		if found[p] || p == "-" || sameAsFound(p, found) {
			continue
		}
		if g, ok := reg.LookupSystem(system).(engine.Guided); ok && system != systemAuto {
			return clikit.Usage("%s", g.NoneFound(p))
		}
		return clikit.Usage("%s: nothing aclint reads found: %s", p, reg.Described())
	}
	return nil
}

// sameAsFound reports whether path is a file already linted under another
// argument (the same file named twice, or through a link).
func sameAsFound(path string, found map[string]bool) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	if fi.IsDir() {
		// a directory whose configs were named before it is not empty
		dir, err := filepath.Abs(path)
		for q := range found {
			if abs, qerr := filepath.Abs(q); err == nil && qerr == nil && input.Within(dir, abs) {
				return true
			}
		}
		return false
	}
	for q := range found {
		if qi, err := os.Stat(q); err == nil && os.SameFile(fi, qi) {
			return true
		}
	}
	return false
}
