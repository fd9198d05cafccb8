package audit

import (
	"io"

	"github.com/spf13/cobra"
)

// Commander is a System with commands of its own, for the questions only
// it has (aclint mesos check with its nested-container flags, aclint yt
// effective-acl): the command line adds them to its tree through the
// registry, and lends them an Env.
type Commander interface {
	Commands(env Env) []*cobra.Command
}

// Env is what the command line lends a system's commands: its streams,
// the run's input bound, and the one way each kind of ending is written
// (exit codes are the command line's interface, the same for every
// command).
type Env interface {
	In() io.Reader
	Out() io.Writer
	MaxInput() int64
	// Usage is an error that exits 2 with its message.
	Usage(format string, args ...any) error
	// Refused exits 2 with the errors of inputs the system refuses.
	Refused(r *Refused) error
	// Verdict writes a check command's answer as -o (text or json) and
	// -q ask, and ends with its exit code: 0 when ok, else code (1 when
	// code is 0).
	Verdict(ok bool, code int, text func(io.Writer) error, json func() any, output string, quiet bool) error
	// VerdictFlags registers -o and -q as every check command takes them.
	VerdictFlags(c *cobra.Command, output *string, quiet *bool, jsonIs string)
	// Group makes c a command that only groups others: an unknown word is
	// exit 2.
	Group(c *cobra.Command) *cobra.Command
}
