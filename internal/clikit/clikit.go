// Package clikit is what every command shares, whichever system answers
// it: the exit codes and the errors that carry them, verdicts, argument
// and -o checks, and JSON written in order and streamed. The command line
// (internal/cli) and the systems' own commands both build on it, so that a
// usage error, a verdict or a JSON document ends the same way in every
// command. It knows no system.
package clikit

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/aclint/aclint/internal/engine"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Exit codes are part of the interface.
const (
	ExitOK    = 0 // lint: nothing reached --fail-on; check: allowed
	ExitFail  = 1 // lint: a finding reached --fail-on; check: denied
	ExitUsage = 2 // usage, I/O or input errors; check: the question has no answer
)

// ExitError carries an exit code out of a command, and the error behind it
// (printed as "aclint: <error>"; nil prints nothing). It unwraps to that
// error, so a caller (a test, a language server) can still ask what failed.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return ""
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// Usage is exit 2 with a message; %w keeps the cause it wraps.
func Usage(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	// "...\nrun 'aclint check --help' for usage": the last line is the
	// command's own layout; the message before it is made printable
	msg := err.Error()
	if i := strings.LastIndex(msg, "\nrun '"); i >= 0 && strings.HasSuffix(msg, "' for usage") && !strings.Contains(msg[i+1:], "\n") {
		return &ExitError{Code: ExitUsage, Err: &Explained{Msg: engine.Printable(msg[:i]) + msg[i:], Err: err}}
	}
	return &ExitError{Code: ExitUsage, Err: err}
}

// UsageBlock is Usage for a message of several lines: head, then each line
// made printable on its own, so a newline inside one (a value from a file)
// is written \n and never starts a line of output.
func UsageBlock(head string, lines ...string) error {
	var b strings.Builder
	b.WriteString(engine.Printable(head))
	for _, l := range lines {
		b.WriteString("\n")
		b.WriteString(engine.Printable(l))
	}
	return &ExitError{Code: ExitUsage, Err: &Explained{Msg: b.String()}}
}

// Explained is an error said in the command's own words, still unwrapping
// to the error it explains. Its Msg is laid out by the command (it may
// span lines) and every value in it was already made printable: it is the
// one error whose newlines reach standard error as they are.
type Explained struct {
	Msg string
	Err error
}

func (e *Explained) Error() string { return e.Msg }
func (e *Explained) Unwrap() error { return e.Err }

// ErrorText is err as standard error shows it. Messages carry names and
// values from the files read, so a newline in one must not start a line
// of its own (a CI log reads "::error::" at a line's start): every error
// is one line, made printable, but an Explained, whose layout is the
// command's own.
func ErrorText(err error) string {
	var ex *Explained
	if errors.As(err, &ex) && ex.Error() == err.Error() {
		return ex.Msg
	}
	return engine.Printable(err.Error())
}

// Verdict is one answer of a check command.
type Verdict struct {
	OK   bool
	Code int // the exit code when not OK; ExitFail (1) when 0
	// Text writes the text output; JSON is the JSON document
	Text func(io.Writer) error
	JSON func() any
}

// WriteVerdict prints a verdict to w as -o and -q ask, and gives its exit
// code: 0 when OK.
func WriteVerdict(w io.Writer, v Verdict, output string, quiet bool) error {
	if !quiet {
		var err error
		if output == "json" {
			err = WriteJSON(w, v.JSON())
		} else {
			err = v.Text(w)
		}
		if err != nil {
			return Usage("writing output: %w", err)
		}
	}
	if v.OK {
		return nil
	}
	if v.Code == 0 {
		return &ExitError{Code: ExitFail}
	}
	return &ExitError{Code: v.Code}
}

// VerdictFlags registers -o and -q, which every check command takes, the
// same way: what json writes is said in jsonIs.
func VerdictFlags(f *pflag.FlagSet, output *string, quiet *bool, jsonIs string) {
	f.StringVarP(output, "output", "o", "text", "output format: text, or json ("+jsonIs+")")
	f.BoolVarP(quiet, "quiet", "q", false, "print nothing; answer with the exit code only")
}

// ExactArgs refuses a command line without exactly n arguments, saying
// what the command needs (msg) and how to see its usage.
func ExactArgs(n int, msg string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return Usage("%s, got %d argument(s)\nrun '%s --help' for usage", msg, len(args), cmd.CommandPath())
		}
		return nil
	}
}

// MinArgs refuses a command line with fewer than n arguments.
func MinArgs(n int, msg string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < n {
			return Usage("%s, got %d argument(s)\nrun '%s --help' for usage", msg, len(args), cmd.CommandPath())
		}
		return nil
	}
}

// CheckOutput refuses an -o value the command does not write.
func CheckOutput(o string, allowed ...string) error {
	for _, a := range allowed {
		if o == a {
			return nil
		}
	}
	return Usage("invalid -o %q: use %s or %s", o, strings.Join(allowed[:len(allowed)-1], ", "), allowed[len(allowed)-1])
}

// Group makes a command that only holds subcommands (convert, yarn, mesos,
// yt) answer a word it does not know as the usage error it is (exit 2),
// instead of printing its help and exiting 0, which a pipeline would take
// for success; with no word at all it prints its help.
func Group(c *cobra.Command) *cobra.Command {
	c.Args = cobra.ArbitraryArgs
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return cmd.Help()
		}
		var names []string
		for _, sub := range cmd.Commands() {
			if sub.IsAvailableCommand() {
				names = append(names, sub.Name())
			}
		}
		return Usage("unknown command %q for %q: it takes %s (run '%s --help')", args[0], cmd.CommandPath(), strings.Join(names, ", "), cmd.CommandPath())
	}
	return c
}

// Plural picks the word for a count: 1 fix, 2 fixes.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// JoinWords joins names as a sentence lists them: "a", "a and b",
// "a, b and c".
func JoinWords(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// ParseList reads a comma-separated flag value (--groups, --submitter-groups,
// --subjects) the one way every command reads it: each entry trimmed of
// blanks, empty entries dropped, so "etl-team, data-eng" is two groups.
func ParseList(s string) []string {
	var out []string
	for _, e := range strings.Split(s, ",") {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

// TerminalWidth is the width text tables fit: --width when given, else
// $COLUMNS, else 120.
func TerminalWidth(flag int) int {
	if flag > 0 {
		return flag
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 20 {
		return n
	}
	return 120
}

// MaxGridBlocks is how many blocks of columns a matrix's text grid may
// split into before --layout auto switches to the list: past it, a grid
// is more scrolling than reading.
const MaxGridBlocks = 3

// OutputsAnnotation is the annotation of a command that lists the -o
// values it writes, comma-separated, for shell completion.
const OutputsAnnotation = "aclint/outputs"

// Outputs says which -o values c writes, for shell completion, and
// returns c.
func Outputs(c *cobra.Command, formats ...string) *cobra.Command {
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations[OutputsAnnotation] = strings.Join(formats, ",")
	return c
}

// PrintableFields makes every field of a CSV record printable: a name that
// holds a line break or an escape sequence must not start a line of a CI
// log (a GitHub workflow command) or drive a terminal.
func PrintableFields(rec []string) []string {
	for i, f := range rec {
		rec[i] = engine.Printable(f)
	}
	return rec
}

// FilesFlag gives a command that reads its files as arguments (lint,
// convert, drift) the -f FILE every question takes: the files of -f come
// first, then the arguments, and the command reads them all alike, so the
// files are named the same way in every command.
func FilesFlag(c *cobra.Command, usage string) {
	c.Flags().StringArrayP("file", "f", nil, usage)
	files := func(cmd *cobra.Command, args []string) []string {
		fs, _ := cmd.Flags().GetStringArray("file")
		if len(fs) == 0 {
			return args
		}
		return append(append([]string{}, fs...), args...)
	}
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error { return check(cmd, files(cmd, args)) }
	}
	run := c.RunE
	c.RunE = func(cmd *cobra.Command, args []string) error { return run(cmd, files(cmd, args)) }
}
