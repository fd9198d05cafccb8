package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
)

// systemsHelp heads a shared question's help with every system's
// question, in registry order, each with an example: the fallback's words
// and first example from its part, the others' from their capability's
// Usage. The fallback's own help follows, under its name; every system's
// example joins the command's examples.
func systemsHelp(s *streams, c *cobra.Command, p *parts, usage func(engine.System) (audit.Usage, bool)) {
	type row struct{ name, words, example string }
	var rows []row
	fbName := ""
	for _, sys := range s.reg.Systems() {
		if engine.SameSystem(sys, s.reg.Fallback()) {
			if p.fallback == nil {
				continue
			}
			fbName = sys.Name()
			ex, _, _ := strings.Cut(strings.TrimSpace(p.fallback.Example), "\n")
			rows = append(rows, row{sys.Name(), p.fallback.Words, strings.TrimSpace(ex)})
			continue
		}
		u, ok := usage(sys)
		if !ok {
			continue
		}
		ex := strings.Join(strings.Fields(fmt.Sprintf("aclint %s %s %s", c.Name(), u.Files, u.Example)), " ")
		rows = append(rows, row{sys.Name(), u.Words, ex})
	}
	if len(rows) == 0 {
		return
	}
	width := 0
	for _, r := range rows {
		width = max(width, len(r.name))
	}
	var b strings.Builder
	b.WriteString(strings.TrimSuffix(c.Short, ".") + ".\n\nEach system asks its own question of its files (-f; which system reads a file\n")
	b.WriteString("is found from its content, as aclint lint finds it):\n\n")
	var examples []string
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-*s  %s %s\n  %-*s    e.g. %s\n", width, r.name, c.Name(), r.words, width, "", r.example)
		if r.name != fbName {
			examples = append(examples, "  "+r.example)
		}
	}
	if p.fallback != nil && p.fallback.Long != "" {
		fmt.Fprintf(&b, "\n%s (also the question without -f, and files no other system reads):\n\n%s", fbName, p.fallback.Long)
	}
	c.Long = strings.TrimRight(b.String(), "\n")
	if len(examples) > 0 {
		c.Example = strings.TrimRight(c.Example, "\n") + "\n" + strings.Join(examples, "\n")
	}
}

func whoCanWords(sys engine.System) (audit.Usage, bool) {
	if w, ok := sys.(audit.WhoCanner); ok {
		return w.WhoCanUsage(), true
	}
	return audit.Usage{}, false
}
