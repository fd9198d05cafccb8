package cli

import (
	"io"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
)

// writeGated is a listing's answer when its request never reaches the
// system's decision: the gate's word and reason, exit 1 when the request
// is refused and 2 when what becomes of it is not known. key is the
// answer's field in the command's JSON ("allowed", "rows"); CSV, which has
// no rows to give, is written as text.
func writeGated(s *streams, g *audit.Gated, key, output string) error {
	if output == "csv" {
		output = "text"
	}
	code := ExitUsage
	if g.Rejected {
		code = ExitFail
	}
	return clikit.WriteVerdict(s.out, clikit.Verdict{Code: code,
		Text: func(w io.Writer) error {
			_, err := engine.Fprintf(w, "%s\nreason: %s\n", g.Answer, g.Said)
			if err == nil && g.Why != "" {
				_, err = engine.Fprintf(w, "why: %s\n", g.Why)
			}
			return err
		},
		JSON: func() any { return gatedJSON(g, key) }}, output, false)
}

// gatedJSON is a gated answer in its command's JSON shape: who-can's and
// access's with nothing listed and the gate under detail; otherwise key
// false beside the gate's fields.
func gatedJSON(g *audit.Gated, key string) any {
	switch {
	case g.WhoCan != nil:
		w := *g.WhoCan
		w.Detail = append(w.Detail, g.Fields()...)
		if !g.Rejected && w.Incomplete == "" {
			w.Incomplete = g.Said // what becomes of the pod is not known
		}
		return whoCanJSON(&w)
	case g.Access != nil:
		h := g.Access
		return clikit.Object{{Key: "system", Value: h.System}, {Key: "subject", Value: h.Subject}, {Key: "actions", Value: clikit.NonNil(h.Actions)},
			{Key: "notes", Value: clikit.NonNil(h.Notes)}, {Key: "sections", Value: []any{}}, {Key: "detail", Value: detailJSON(g.Fields())}}
	}
	out := clikit.Object{{Key: key, Value: false}}
	return append(out, detailJSON(g.Fields())...)
}
