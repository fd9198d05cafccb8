package cli

import (
	"strings"

	"github.com/spf13/cobra"
)

// exactArgs refuses a command line without exactly n arguments, saying
// what the command needs (msg) and how to see its usage.
func exactArgs(n int, msg string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usageErr("%s, got %d argument(s)\nrun '%s --help' for usage", msg, len(args), cmd.CommandPath())
		}
		return nil
	}
}

// minArgs refuses a command line with fewer than n arguments.
func minArgs(n int, msg string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < n {
			return usageErr("%s, got %d argument(s)\nrun '%s --help' for usage", msg, len(args), cmd.CommandPath())
		}
		return nil
	}
}

// checkOutput refuses an -o value the command does not write.
func checkOutput(o string, allowed ...string) error {
	for _, a := range allowed {
		if o == a {
			return nil
		}
	}
	return usageErr("invalid -o %q: use %s or %s", o, strings.Join(allowed[:len(allowed)-1], ", "), allowed[len(allowed)-1])
}

// group makes a command that only holds subcommands (convert, yarn, mesos,
// yt) answer a word it does not know as the usage error it is (exit 2),
// instead of printing its help and exiting 0, which a pipeline would take
// for success; with no word at all it prints its help.
func group(c *cobra.Command) *cobra.Command {
	c.Args = cobra.ArbitraryArgs
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return cmd.Help()
		}
		var names []string
		for _, sub := range cmd.Commands() {
			if sub.IsAvailableCommand() {
				names = append(names, sub.Name())
			}
		}
		return usageErr("unknown command %q for %q: it takes %s (run '%s --help')", args[0], cmd.CommandPath(), strings.Join(names, ", "), cmd.CommandPath())
	}
	return c
}
