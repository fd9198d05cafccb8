package cli

import (
	"strings"

	"fmt"

	"github.com/aclint/aclint/internal/engine"
)

// reportLeft says on stderr which fixes --fix and --diff did not make, and
// why: unsafe ones that were not asked for, and findings of fixable rules
// in a config aclint cannot edit character for character.
func reportLeft(s *streams, file string, left []engine.Finding, unsafe bool, notEditable string) {
	for _, f := range left {
		switch {
		case len(f.Alternatives) > 0:
			var ways []string
			for _, a := range f.Alternatives {
				ways = append(ways, fmt.Sprintf("%s (%s)", a.Edit.New, a.Grants))
			}
			fmt.Fprintf(s.err, "aclint: %s: %s not fixed: it reads two ways and each grants different access; edit it by hand to %s\n", f.Pos, f.Rule, strings.Join(ways, " or "))
		case f.Fix != nil && f.Unsafe != "" && !unsafe:
			fmt.Fprintf(s.err, "aclint: %s: %s fix not applied, it is unsafe: %s; review it and rerun with --unsafe-fixes to apply it\n", f.Pos, f.Rule, f.Unsafe)
		case f.Fix == nil && fixes(s.reg, f.Rule):
			why := notEditable
			if why == "" {
				why = "aclint cannot edit this value character for character"
			}
			fmt.Fprintf(s.err, "aclint: %s: %s not fixed: %s; fix it by hand\n", f.Pos, f.Rule, why)
		}
	}
}

// fixes reports whether a rule's findings carry an edit (engine.Rule.Fixes).
func fixes(reg *engine.Registry, rule string) bool {
	r := reg.Lookup(rule)
	return r != nil && r.Fixes
}
