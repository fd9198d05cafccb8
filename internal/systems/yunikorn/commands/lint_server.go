package commands

import (
	"strings"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/running"
)

// checked is one linted YuniKorn input and the findings lint gave it, for
// lint --server to hold against the scheduler's own verdict.
type checked struct {
	in       *engine.Input
	findings []engine.Finding
	parsed   any // what lint parsed (YuniKorn: its documents), read again only when absent
}

// crossCheck asks the scheduler's POST /ws/v1/validate-conf about every
// linted YuniKorn config (the queue config text its shim would register)
// and says, per file, whether it agrees with aclint: aclint finds an error
// exactly when YuniKorn refuses the config. A disagreement is aclint's
// error to fix: the run then ends with exit 2, as an answer aclint cannot
// stand behind.
func (s *streams) crossCheck(server, key string, runs []checked) error {
	if server == "" {
		return nil
	}
	disagree := 0
	passing := yunikorn.PassingValidate()
	for _, c := range runs {
		docs, ok := c.parsed.([]*config.Document)
		if !ok {
			var err error
			if docs, err = config.FromInput(c.in, config.LoadOptions{Key: key}); err != nil {
				continue
			}
		}
		if len(docs) == 0 {
			continue
		}
		doc, _ := config.Merge(docs)
		switch {
		case doc.Running != nil:
			engine.Fprintf(s.env.Err(), "aclint: %s: a running scheduler's config: not sent to validate-conf\n", c.in.Path)
			continue
		case len(doc.Registered()) == 0:
			engine.Fprintf(s.env.Err(), "aclint: %s: empty: YuniKorn loads its built-in default in its place, not validated\n", doc.Describe())
			continue
		}
		client, err := s.client(server)
		if err != nil {
			return err
		}
		v, err := client.Validate(s.serverContext(), doc.Registered())
		if err != nil {
			return clikit.Usage("lint --server: %w", err)
		}
		at := running.Label(server)
		refused, later := 0, []string{}
		for _, f := range c.findings {
			switch {
			case f.Severity != engine.Error:
			case passing[f.Rule]:
				later = append(later, f.Rule)
			default:
				refused++
			}
		}
		switch {
		case v.Allowed && refused == 0 && len(later) > 0:
			// validate-conf parses and validates; building the partitions
			// is what refuses these, and validate-conf never gets there
			engine.Fprintf(s.env.Err(), "aclint: %s: the scheduler at %s says validate-conf accepts it, and aclint agrees; but validate-conf's yes does not mean the scheduler loads it: it refuses or cannot use it when it builds the queues (%s, above)\n", doc.Describe(), at, strings.Join(later, ", "))
		case v.Allowed && refused == 0:
			engine.Fprintf(s.env.Err(), "aclint: %s: the scheduler at %s would load it, as aclint says\n", doc.Describe(), at)
		case !v.Allowed && refused > 0:
			engine.Fprintf(s.env.Err(), "aclint: %s: the scheduler at %s refuses it too: %s\n", doc.Describe(), at, v.Reason)
		case v.Allowed:
			disagree++
			engine.Fprintf(s.env.Err(), "aclint: %s: aclint reports %d %s that validate-conf would refuse, but the scheduler at %s accepts it: aclint is wrong here, please report it\n", doc.Describe(), refused, clikit.Plural(refused, "error", "errors"), at)
		default:
			disagree++
			engine.Fprintf(s.env.Err(), "aclint: %s: aclint finds no error that validate-conf would refuse, but the scheduler at %s refuses it (%s): aclint is wrong here, please report it\n", doc.Describe(), at, v.Reason)
		}
	}
	if disagree > 0 {
		return clikit.Usage("lint --server: the scheduler and aclint disagree on %d %s (above): aclint's verdict cannot be trusted for %s", disagree, clikit.Plural(disagree, "config", "configs"), clikit.Plural(disagree, "it", "them"))
	}
	return nil
}
