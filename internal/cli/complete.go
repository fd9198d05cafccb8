package cli

import (
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/output"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// outputFormats are the -o values of each command, for shell completion.
var outputFormats = map[string][]string{
	"aclint check":            {"text", "json"},
	"aclint place":            {"text", "json"},
	"aclint who-can":          {"text", "json", "csv"},
	"aclint access":           {"text", "json", "csv"},
	"aclint matrix":           {"text", "json", "csv"},
	"aclint diff":             {"text", "json", "markdown"},
	"aclint test":             {"text", "json", "junit"},
	"aclint rules":            {"text", "json"},
	"aclint report":           {"html"},
	"aclint mesos check":      {"text", "json"},
	"aclint yarn check":       {"text", "json"},
	"aclint yt check":         {"text", "json"},
	"aclint yt effective-acl": {"text", "json"},
}

// fixedValues are the values of flags that take one of a few words.
var fixedValues = map[string][]string{
	"action":  {"submit", "admin"},
	"fail-on": {"error", "warning", "info", "none"},
	"color":   {"auto", "always", "never"},
	"layout":  {"auto", "grid", "list"},
}

// registerCompletions gives every command's flags and positional arguments
// their completions: the words a flag takes, the formats of -o, the rules
// of --disable and --enable, and the partitions and queues of the config
// the command line names (-f, or ./queues.yaml).
func registerCompletions(root *cobra.Command, s *streams) {
	reg := s.reg
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for name, words := range fixedValues {
			if c.Flags().Lookup(name) != nil {
				c.RegisterFlagCompletionFunc(name, staticWords(words))
			}
		}
		if c.Flags().Lookup("output") != nil {
			words := outputFormats[c.CommandPath()]
			if c.Name() == "lint" {
				words = output.FormatNames()
			}
			if words != nil {
				c.RegisterFlagCompletionFunc("output", staticWords(words))
			}
		}
		if f := c.Flags().Lookup("system"); f != nil {
			var names []string
			for _, sys := range reg.Systems() {
				names = append(names, sys.Name())
			}
			c.RegisterFlagCompletionFunc("system", staticWords(append([]string{systemAuto}, names...)))
		}
		for _, name := range []string{"disable", "enable"} {
			if c.Flags().Lookup(name) != nil {
				// --disable takes only rules that can be turned off: a rule
				// that finds inputs the system refuses cannot (ruleOverrides)
				disable := name == "disable"
				c.RegisterFlagCompletionFunc(name, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
					var names []string
					for _, r := range reg.Rules() {
						if !disable || r.Severity != engine.Error {
							names = append(names, r.Name)
						}
					}
					return names, cobra.ShellCompDirectiveNoFileComp
				})
			}
		}
		if c.Flags().Lookup("partition") != nil && c.Flags().Lookup("file") != nil {
			c.RegisterFlagCompletionFunc("partition", func(cmd *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
				return configNames(s, cmd, ""), cobra.ShellCompDirectiveNoFileComp
			})
		}
		if c.Flags().Lookup("under") != nil && c.Flags().Lookup("file") != nil {
			c.RegisterFlagCompletionFunc("under", func(cmd *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
				part, _ := cmd.Flags().GetString("partition")
				return configNames(s, cmd, orDefault(part)), cobra.ShellCompDirectiveNoFileComp
			})
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

func staticWords(words []string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return words, cobra.ShellCompDirectiveNoFileComp
	}
}

// partitionQueueArgs completes PARTITION QUEUE ... positional arguments from
// the config: the first argument from its partitions, the second (when
// queue is true) from the queues of that partition.
func partitionQueueArgs(s *streams, queue bool) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		switch {
		case len(args) == 0:
			return configNames(s, cmd, ""), cobra.ShellCompDirectiveNoFileComp
		case len(args) == 1 && queue:
			return configNames(s, cmd, orDefault(args[0])), cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}

func orDefault(part string) string {
	if part == "" {
		return "default"
	}
	return part
}

// configNames reads the command's config quietly and lists its partitions
// (partition ""), or the queue paths of one partition. A config that cannot
// be read completes nothing: completion never prints an error.
func configNames(s *streams, cmd *cobra.Command, partition string) []string {
	files, _ := cmd.Flags().GetStringArray("file")
	key, _ := cmd.Flags().GetString("key")
	quiet := &streams{in: strings.NewReader(""), out: io.Discard, err: io.Discard, reg: s.reg}
	l, err := load(quiet, files, key, func(engine.Finding) bool { return true })
	if err != nil {
		return nil
	}
	cfg := l.Config
	var out []string
	for _, p := range cfg.Partitions {
		if partition == "" {
			out = append(out, p.CanonicalName())
			continue
		}
		if p.CanonicalName() == partition {
			p.Root.Walk(func(q *config.Queue) { out = append(out, q.Path()) })
		}
	}
	sort.Strings(out)
	return out
}
