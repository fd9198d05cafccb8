package commands

import (
	"errors"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// parseTags reads --tag KEY=VALUE flags; nil when none are given (the
// request's tags are then unknown), so that an empty map always means a
// request known to carry no tags.
func parseTags(tags []string) (map[string]string, error) {
	if len(tags) == 0 {
		return nil, nil
	}
	out := map[string]string{}
	for _, t := range tags {
		k, v, ok := strings.Cut(t, "=")
		if !ok || k == "" {
			return nil, clikit.Usage("--tag %q: write KEY=VALUE, e.g. --tag namespace=team-a", t)
		}
		out[k] = v
	}
	return out, nil
}

// answerErr turns a question without an answer into exit 2, with the flags
// that supply what is missing.
func answerErr(err error) error {
	var qe *acl.QueryError
	if errors.As(err, &qe) && qe.Tags != nil {
		keys := make([]string, 0, len(qe.Tags))
		for k := range qe.Tags {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var flags []string
		for _, k := range keys {
			flags = append(flags, "--tag "+k+"="+qe.Tags[k])
		}
		return clikit.Usage("%w (%s, or --pod with --namespace)", err, strings.Join(flags, " "))
	}
	return clikit.Usage("%w", err)
}

// configFlags registers -f and --key, the config every YuniKorn question
// is asked against, the same way in every command.

// scopeFlags registers --partition, --under and --only-access, which narrow
// an audit; rows says what --only-access leaves out.
func scopeFlags(f *pflag.FlagSet, partition, under *string, onlyAccess *bool, rows string) {
	f.StringVar(partition, "partition", "", "only this partition")
	f.StringVar(under, "under", "", "only this queue and the queues below it")
	f.BoolVar(onlyAccess, "only-access", false, "leave out "+rows)
}

// auditFlags registers what the audits over a whole config (access,
// matrix) take alike: the config, its scope, and the output format
// (formats, the -o values); rows says what --only-access leaves out. The
// command line reads the scope and the format by name.
func (q *question) auditFlags(c *cobra.Command, rows, formats string) {
	q.configFlags(c)
	var partition, under string
	var only bool
	scopeFlags(c.Flags(), &partition, &under, &only, rows)
	c.Flags().StringP("output", "o", "text", "output format: "+formats)
}

// foreign refuses, for a question about another system's files, the
// flags only a YuniKorn question reads: the request's (--pod, --tag and
// their companions; req may be nil) and --key, which would otherwise be
// passed over in silence.
func foreign(cmd *cobra.Command, system string, req *requestFlags, key string) error {
	if fl := lookupFlag(cmd, "partition"); fl != nil && fl.Changed && fl.Value.String() != "default" {
		return clikit.Usage("--partition %s names a YuniKorn partition: a %s question has no partitions; leave --partition out", engine.Printable(fl.Value.String()), system)
	}
	if req != nil {
		if err := req.none(system); err != nil {
			return err
		}
	}
	if key != config.DefaultKey {
		return clikit.Usage("--key %s names the key of a YuniKorn ConfigMap; a %s question reads its files whole: leave --key out", key, system)
	}
	return nil
}

// lookupFlag is the command's flag called name, nil when it has none (or no
// command is bound yet).
func lookupFlag(cmd *cobra.Command, name string) *pflag.Flag {
	if cmd == nil {
		return nil
	}
	return cmd.Flags().Lookup(name)
}
