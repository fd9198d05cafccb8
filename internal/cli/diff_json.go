package cli

import (
	"io"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
)

// writeDiffJSON writes the diff's one JSON shape (schema/diff.schema.json):
// the totals and causes, the objects added and removed, and under detail
// both sides (each accepted or not, with its errors) and the system's own
// fields; with --flat every pair under "changes", streamed from a second
// walk, so that a change reaching millions of pairs is never held.
func writeDiffJSON(w io.Writer, r *diffRun) error {
	out := diffJSON(r)
	if !r.ask.flat {
		return clikit.WriteJSON(w, out)
	}
	return clikit.WriteWithChanges(w, out, func(emit func(any)) {
		if r.d == nil {
			return
		}
		r.d.Changes(func(c audit.Change) {
			var via any
			if c.Via != nil {
				via = toGrantJSON(*c.Via)
			}
			emit(clikit.Object{{Key: "section", Value: c.Section}, {Key: "object", Value: c.Object}, {Key: "subject", Value: c.Subject}, {Key: "action", Value: c.Action},
				{Key: "change", Value: clikit.ChangeWord(c.Gained)}, {Key: "via", Value: via}})
		})
	})
}

// diffJSON is the diff's JSON without the pairs.
func diffJSON(r *diffRun) clikit.Object {
	objs := func(os []audit.Object) []any {
		out := []any{}
		for _, o := range os {
			out = append(out, clikit.Object{{Key: "section", Value: o.Section}, {Key: "object", Value: o.Name}})
		}
		return out
	}
	causes := []any{}
	for _, gained := range []bool{true, false} {
		for _, c := range r.g.Causes {
			if c.Gained != gained {
				continue
			}
			entries := []grantJSON{}
			for _, h := range c.Entries {
				if h != nil {
					entries = append(entries, toGrantJSON(*h))
				}
			}
			causes = append(causes, clikit.Object{{Key: "change", Value: clikit.ChangeWord(c.Gained)}, {Key: "action", Value: c.Action}, {Key: "entries", Value: entries},
				{Key: "subjects", Value: c.Subjects}, {Key: "objects", Value: objectNames(c.Objects)}, {Key: "pairs", Value: c.Pairs}})
		}
	}
	side := func(sd audit.DiffSide) clikit.Object {
		errs := []any{}
		if sd.Refused != nil {
			for _, f := range sd.Refused.Findings {
				if f.Severity == engine.Error {
					errs = append(errs, clikit.Object{{Key: "rule", Value: f.Rule}, {Key: "file", Value: f.Pos.File}, {Key: "line", Value: f.Pos.Line}, {Key: "column", Value: f.Pos.Col}, {Key: "message", Value: f.Message}})
				}
			}
		}
		return clikit.Object{{Key: "config", Value: sd.Name}, {Key: "accepted", Value: sd.Refused == nil}, {Key: "errors", Value: errs}}
	}
	detail := clikit.Object{{Key: "old", Value: side(r.old)}, {Key: "new", Value: side(r.new)}, {Key: "compared", Value: r.d != nil}}
	system, added, removed, notes := "", []any{}, []any{}, []string{}
	if d := r.d; d != nil {
		system, added, removed = d.System, objs(d.Added), objs(d.Removed)
		notes = append(append(notes, d.Warnings...), d.Notes...)
		for _, f := range d.Detail {
			detail = append(detail, clikit.Field{Key: f.Key, Value: f.Value})
		}
	}
	if system == "" {
		system = r.system
	}
	out := clikit.Object{{Key: "system", Value: system}, {Key: "added", Value: added}, {Key: "removed", Value: removed}, {Key: "notes", Value: notes},
		{Key: "gains", Value: r.g.Gains}, {Key: "losses", Value: r.g.Losses}, {Key: "causes", Value: causes}, {Key: "detail", Value: detail}}
	return out
}
