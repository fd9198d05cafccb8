package cli

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/output"
)

// outputFormats are the -o values of the command line's own commands, for
// shell completion; a system's command says its own (clikit.Outputs).
var outputFormats = map[string][]string{
	"aclint check":   {"text", "json"},
	"aclint who-can": {"text", "json", "csv"},
	"aclint access":  {"text", "json", "csv"},
	"aclint matrix":  {"text", "json", "csv"},
	"aclint diff":    {"text", "json", "markdown"},
	"aclint rules":   {"text", "json"},
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
			if a := c.Annotations[clikit.OutputsAnnotation]; a != "" {
				words = strings.Split(a, ",")
			}
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

// completeWords completes a shared question's words: from the files -f
// names when their system completes its own (audit.Completer), else as
// the fallback completes (YuniKorn's partitions and queues, from -f or
// ./queues.yaml).
func (s *streams) completeWords(c *cobra.Command, p *parts) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, prefix string) ([]string, cobra.ShellCompDirective) {
		files, _ := cmd.Flags().GetStringArray("file")
		if len(files) > 0 && !slices.Contains(files, "-") {
			q, err := s.question(files)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			if q.sys != s.reg.Fallback() {
				comp, ok := q.sys.(audit.Completer)
				if !ok {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				m, err := q.load()
				if err != nil {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				var out []string
				for _, w := range comp.Complete(m, c.Name(), args) {
					if strings.HasPrefix(w, prefix) {
						out = append(out, w)
					}
				}
				return out, cobra.ShellCompDirectiveNoFileComp
			}
		}
		if p.fallback != nil && p.fallback.Complete != nil {
			return p.fallback.Complete(cmd, args, prefix)
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}
