package yunikorn

import (
	"bytes"

	"github.com/aclint/aclint/pkg/config"
	"github.com/aclint/aclint/pkg/fix"
	"github.com/aclint/aclint/pkg/lint"
)

// Fix fixes the queue configs of one input (lint.Fixer): each round parses
// the content once and lints it once; the last round's lint is the
// report of the fixed content.
func (Sys) Fix(in *lint.Input, opts lint.Options, keep func([]lint.Finding) []lint.Finding, unsafe bool) (*lint.Fixed, error) {
	if !bytes.Equal(config.Normalize(in.Data), in.Data) {
		rep, err := Sys{}.Lint(in, opts)
		if err != nil {
			return nil, err
		}
		return &lint.Fixed{Content: in.Data, Report: rep, Left: keep(append([]lint.Finding(nil), rep.Findings...)),
			Refused: "the file is not plain UTF-8 (a byte order mark or UTF-16), and rewriting it would change its encoding"}, nil
	}
	var last *lint.Report
	var lastDocs []*config.Document
	run := func(content []byte) ([]lint.Finding, error) {
		docs, err := Documents(&lint.Input{Path: in.Path, Arg: in.Arg, Data: content, Explicit: true}, opts.Key)
		if err != nil {
			return nil, err
		}
		last, lastDocs = LintDocuments(docs), docs
		return keep(append([]lint.Finding(nil), last.Findings...)), nil
	}
	res, err := fix.File(in.Data, run, unsafe)
	if err != nil {
		return nil, err
	}
	out := &lint.Fixed{Content: res.Content, Applied: res.Applied, Left: res.Left, Report: last}
	for _, d := range lastDocs {
		if r := d.NotEditable(); r != "" {
			out.NotEditable = r
		}
	}
	return out, nil
}
