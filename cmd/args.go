package cmd

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
