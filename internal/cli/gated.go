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
		JSON: func() any {
			out := map[string]any{key: false, "reason": g.Reason, "admission": g.Answer}
			if g.Why != "" {
				out["why"] = g.Why
			}
			return out
		}}, output, false)
}
