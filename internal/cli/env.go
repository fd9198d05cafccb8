package cli

// This file lends the systems' own commands (audit.Commander) what every
// command shares: the streams, the input bound, and how usage errors,
// refusals and verdicts end.

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
)

// env is a streams as an audit.Env.
type env struct{ s *streams }

func (e env) In() io.Reader                          { return e.s.in }
func (e env) Out() io.Writer                         { return e.s.out }
func (e env) MaxInput() int64                        { return e.s.maxInput }
func (e env) Usage(format string, args ...any) error { return clikit.Usage(format, args...) }
func (e env) Group(c *cobra.Command) *cobra.Command  { return clikit.Group(c) }

func (e env) Refused(r *audit.Refused) error {
	var lines []string
	if r.Sources != nil {
		lines = r.Sources[r.File]
	}
	return refusedErr(r.File, r.Why, r.Command, r.Findings, lines)
}

func (e env) Verdict(ok bool, code int, text func(io.Writer) error, json func() any, output string, quiet bool) error {
	return clikit.WriteVerdict(e.s.out, clikit.Verdict{OK: ok, Code: code, Text: text, JSON: json}, output, quiet)
}

func (e env) VerdictFlags(c *cobra.Command, output *string, quiet *bool, jsonIs string) {
	clikit.VerdictFlags(c.Flags(), output, quiet, jsonIs)
}

// systemCommands are the commands the systems bring (audit.Commander), in
// registry order.
func systemCommands(s *streams) []*cobra.Command {
	var out []*cobra.Command
	for _, sys := range s.reg.Systems() {
		if c, ok := sys.(audit.Commander); ok {
			out = append(out, c.Commands(env{s})...)
		}
	}
	return out
}
