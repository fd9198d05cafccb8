package cmd

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/ruledoc"
	"github.com/aclint/aclint/pkg/lint"
)

func newRulesCmd(s *streams) *cobra.Command {
	return &cobra.Command{
		Use:   "rules [NAME]",
		Short: "List aclint's rules, or show one rule's documentation with an example and its fix",
		Example: `  aclint rules
  aclint rules acl-stray-space`,
		Args: cobra.MaximumNArgs(1),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			var names []string
			for _, r := range lint.Rules() {
				names = append(names, r.Name)
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				r := lint.Lookup(args[0])
				if r == nil {
					return usageErr("no rule named %q%s; run 'aclint rules' for the list", args[0], didYouMean(args[0]))
				}
				_, err := fmt.Fprint(s.out, ruledoc.Text(r))
				return err
			}
			tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "RULE\tSEVERITY\tFINDS")
			for _, r := range lint.Rules() {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Name, r.Severity, strings.ReplaceAll(r.Summary, "`", ""))
			}
			return tw.Flush()
		},
	}
}

// didYouMean names the rule nearest to name, for error messages.
func didYouMean(name string) string {
	if s := lint.Suggest(name); s != "" {
		return fmt.Sprintf(" (did you mean %s?)", s)
	}
	return ""
}
