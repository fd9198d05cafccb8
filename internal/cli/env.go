package cli

// This file lends the systems' own commands (clikit.Commander) what every
// command shares: the streams, the input bound, and how usage errors,
// refusals and verdicts end.

import (
	"bufio"
	"io"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
)

// env is a streams as an clikit.Env.
type env struct{ s *streams }

func (e env) In() io.Reader                          { return e.s.in }
func (e env) Out() io.Writer                         { return e.s.out }
func (e env) Err() io.Writer                         { return e.s.err }
func (e env) MaxInput() int64                        { return e.s.maxInput }
func (e env) Seen() *engine.ReadSet                  { return e.s.seen }
func (e env) Registry() *engine.Registry             { return e.s.reg }
func (e env) Warn(path, reason string)               { e.s.warnInput(path, reason) }
func (e env) Usage(format string, args ...any) error { return clikit.Usage(format, args...) }
func (e env) Group(c *cobra.Command) *cobra.Command  { return clikit.Group(c) }

func (e env) Refused(r *audit.Refused) error {
	var lines []string
	if r.Sources != nil {
		lines = r.Sources[r.File]
	}
	return refusedErr(r.File, r.Why, r.Command, r.Findings, lines)
}

func (e env) Check(v *audit.Verdict, output string, quiet bool) error {
	return writeVerdict(e.s, v, output, quiet)
}

func (e env) PlaceJSON(p *audit.Placement) any { return placeJSON(p) }

func (e env) Diff(w io.Writer, format string, old, new audit.DiffSide, d *audit.Diff, commentSize int) error {
	r := embeddedDiff(old, new, d)
	r.ask.commentSize = commentSize
	if format == "markdown" {
		return writeDiffMarkdown(w, r, nil)
	}
	bw := bufio.NewWriter(w)
	writeDiffText(bw, r)
	return bw.Flush()
}

func (e env) Gated(g *audit.Gated, key, output string) error { return writeGated(e.s, g, key, output) }

func (e env) DiffJSON(old, new audit.DiffSide, d *audit.Diff) any {
	return diffJSON(embeddedDiff(old, new, d))
}

func (e env) VerdictFlags(c *cobra.Command, output *string, quiet *bool, jsonIs string) {
	clikit.VerdictFlags(c.Flags(), output, quiet, jsonIs)
	clikit.Outputs(c, "text", "json")
}

// systemCommands are the commands the systems bring (clikit.Commander), in
// registry order.
func systemCommands(s *streams) []*cobra.Command {
	var out []*cobra.Command
	for _, sys := range s.reg.Systems() {
		if c, ok := sys.(clikit.Commander); ok {
			out = append(out, c.Commands(env{s})...)
		}
	}
	for _, x := range s.reg.Extras() {
		if c, ok := x.(clikit.Commander); ok {
			out = append(out, c.Commands(env{s})...)
		}
	}
	return out
}

func (e env) Version() string { v, _ := buildInfo(); return v }
func (e env) WrapWidth() int  { return wrapWidth(e.s.rawOut) }

func (e env) Load(files []string) (string, audit.Model, error) {
	q, err := e.s.question(files)
	if err != nil {
		return "", nil, err
	}
	if _, ok := q.caps.(audit.Loader); !ok {
		return "", nil, nil
	}
	m, err := q.load()
	if err != nil {
		return "", nil, err
	}
	return q.sys.Name(), m, nil
}
