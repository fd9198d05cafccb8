package yunikorn

import (
	"bytes"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/fix"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// Fix fixes the queue configs of one input (engine.Fixer): each round parses
// the content once and lints it once; the last round's lint is the
// report of the fixed content.
func (Sys) Fix(in *engine.Input, opts engine.Options, keep func([]engine.Finding) []engine.Finding, unsafe bool) (*engine.Fixed, error) {
	if !bytes.Equal(config.Normalize(in.Data), in.Data) {
		rep, err := Sys{}.Lint(in, opts)
		if err != nil {
			return nil, err
		}
		return &engine.Fixed{Content: in.Data, Report: rep, Left: keep(append([]engine.Finding(nil), rep.Findings...)),
			Refused: "the file is not plain UTF-8 (a byte order mark or UTF-16), and rewriting it would change its encoding"}, nil
	}
	var last *engine.Report
	var lastDocs []*config.Document
	run := func(content []byte) ([]engine.Finding, error) {
		docs, err := Documents(&engine.Input{Path: in.Path, Arg: in.Arg, Data: content, Explicit: true}, opts)
		if err != nil {
			return nil, err
		}
		last, lastDocs = LintDocuments(docs), docs
		return keep(append([]engine.Finding(nil), last.Findings...)), nil
	}
	res, err := fix.File(in.Data, run, unsafe)
	if err != nil {
		return nil, err
	}
	out := &engine.Fixed{Content: res.Content, Applied: res.Applied, Left: res.Left, Report: last}
	for _, d := range lastDocs {
		if r := d.NotEditable(); r != "" {
			out.NotEditable = r
		}
	}
	return out, nil
}
