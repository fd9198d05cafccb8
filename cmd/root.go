// Package cmd holds aclint's cobra commands: flags, wiring and output. The
// decisions themselves live in pkg/.
package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/aclint/aclint/pkg/config"
)

// Exit codes are part of the interface.
const (
	ExitOK    = 0 // lint: nothing reached --fail-on; check: allowed
	ExitFail  = 1 // lint: a finding reached --fail-on; check: denied
	ExitUsage = 2 // usage, I/O or input errors; check: the question has no answer
)

// exitError carries an exit code out of a command. A message, when set, is
// printed as "aclint: <msg>".
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func usageErr(format string, args ...any) error {
	return &exitError{code: ExitUsage, msg: fmt.Sprintf(format, args...)}
}

type streams struct {
	in       io.Reader
	out, err io.Writer
}

// NewRoot builds the aclint command tree, for Execute and for generating
// documentation (man pages, completion).
func NewRoot(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	s := &streams{in: stdin, out: stdout, err: stderr}
	root := &cobra.Command{
		Use:   "aclint",
		Short: "Lint YuniKorn queue ACLs and answer access questions exactly as YuniKorn does",
		Long: `aclint lints Apache YuniKorn queue configs (queues.yaml, raw or inside a ConfigMap)
and answers "can this user submit to this queue, and why?" with the decision the
scheduler itself would make.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageErr("%v\nrun '%s --help' for usage", err, c.CommandPath())
	})
	root.AddCommand(newLintCmd(s), newCheckCmd(s), newWhoCanCmd(s), newAccessCmd(s), newMatrixCmd(s), newDiffCmd(s), newRulesCmd(s), newVersionCmd(s))
	return root
}

// Execute runs aclint with args and returns the exit code.
func Execute(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := NewRoot(stdin, stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintf(stderr, "aclint: %s\n", ee.msg)
		}
		return ee.code
	}
	fmt.Fprintf(stderr, "aclint: %v\n", err)
	return ExitUsage
}

// useColor decides --color auto|always|never, honouring NO_COLOR for auto.
func useColor(mode string, w io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		if os.Getenv("NO_COLOR") != "" { // no-color.org: set and not empty
			return false, nil
		}
		if f, ok := w.(*os.File); ok {
			return isatty.IsTerminal(f.Fd()) && os.Getenv("TERM") != "dumb", nil
		}
		return false, nil
	}
	return false, usageErr("invalid --color %q: use auto, always or never", mode)
}

// loadInputs reads every input path; -v tells about skipped files.
func loadInputs(s *streams, paths []string, key string, verbose bool) ([]*config.Document, error) {
	var docs []*config.Document
	if key == "" {
		key = config.DefaultKey
	}
	opts := config.LoadOptions{Key: key, Stdin: s.in}
	if verbose {
		opts.Skip = func(p, reason string) { fmt.Fprintf(s.err, "aclint: skipping %s: %s\n", p, reason) }
	}
	for _, p := range paths {
		found, err := config.Load(p, opts)
		if err != nil {
			return nil, usageErr("%v", err)
		}
		if len(found) == 0 {
			return nil, usageErr("%s: no queue configs found (files need a top-level partitions key, or a ConfigMap with a %s key)", p, opts.Key)
		}
		docs = append(docs, found...)
	}
	return docs, nil
}
