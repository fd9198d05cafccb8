package cli

// Every command takes -o FORMAT=PATH and -q as lint does: a command whose
// -o names one format writes its answer to PATH instead of standard output
// when given FORMAT=PATH, and a command without a -q of its own gets one
// that prints nothing, so the exit code alone answers. The commands write
// as always; the streams put what they write where the flags say.

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/safewrite"
)

// ownsQuiet: a command -q means nothing to, as it answers no question.
func ownsQuiet(name string) bool {
	switch name {
	case "version", "rules", "report", "schema":
		return true
	}
	return false
}

// addQuiet gives every answering command without a -q the shared one.
func addQuiet(c *cobra.Command) {
	for _, sub := range c.Commands() {
		addQuiet(sub)
	}
	if c.Flags().Lookup("output") == nil || c.Flags().Lookup("quiet") != nil || ownsQuiet(c.Name()) {
		return
	}
	c.Flags().BoolP("quiet", "q", false, "print nothing on standard output; answer with the exit code only")
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations[sharedQuiet] = "true"
}

// sharedQuiet marks a command whose -q the streams carry out.
const sharedQuiet = "aclint-shared-quiet"

// outFile is standard output sent to a file by -o FORMAT=PATH: a pipe the
// file's writer drains into a temporary file it renames when the run
// ends well.
type outFile struct {
	path string
	w    *io.PipeWriter
	done chan error
}

// redirect reads -q and -o FORMAT=PATH before the command runs.
func (s *streams) redirect(c *cobra.Command) error {
	if c.Annotations[sharedQuiet] != "" && flagBool(c, "quiet") {
		s.safeOut.W = io.Discard
	}
	f := c.Flags().Lookup("output")
	if f == nil || f.Value.Type() != "string" || c.Name() == "report" {
		return nil // repeatable -o, and report's html=PATH, are their own
	}
	format, path, ok := strings.Cut(f.Value.String(), "=")
	if !ok {
		return nil
	}
	if path == "" {
		return clikit.Usage("invalid -o %q: give the file after =, as in -o %s=answer.%s", f.Value.String(), format, format)
	}
	if err := f.Value.Set(format); err != nil {
		return clikit.Usage("invalid -o %q: %v", format, err)
	}
	pr, pw := io.Pipe()
	o := &outFile{path: path, w: pw, done: make(chan error, 1)}
	go func() {
		// the run's inputs are known when it ends: finish refuses an input
		// then, so the answer never depends on when this goroutine runs
		err := safewrite.Output(path, &engine.ReadSet{}, func(w io.Writer) error {
			_, err := io.Copy(w, pr)
			return err
		})
		pr.CloseWithError(errOr(err, errors.New("output closed")))
		o.done <- err
	}()
	if s.safeOut.W != io.Discard {
		s.safeOut.W = pw
	}
	s.file = o
	return nil
}

func errOr(err, otherwise error) error {
	if err != nil {
		return err
	}
	return otherwise
}

// finish ends -o FORMAT=PATH: the file is written when the run answered
// (exit 0 or 1) and it is not a file the run read; otherwise nothing is.
func (s *streams) finish(code int) int {
	o := s.file
	if o == nil {
		return code
	}
	s.file = nil
	switch {
	case code == ExitUsage:
		o.w.CloseWithError(errors.New("the run failed"))
		<-o.done
		return code
	case s.seen.Has(o.path):
		o.w.CloseWithError(fmt.Errorf("%s is an input of this run, and aclint never writes over a file it reads: name another output file", o.path))
	default:
		o.w.Close()
	}
	if err := <-o.done; err != nil {
		fmt.Fprintf(s.err, "aclint: writing %s: %v\n", o.path, err)
		return ExitUsage
	}
	return code
}
