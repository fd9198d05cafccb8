package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/ruledoc"
)

// rulesURI is where each rule's documentation lives: RulesURI#NAME.
const rulesURI = "https://github.com/aclint/aclint/blob/main/docs/rules.md"

// ruleJSON is one rule in rules -o json: its stable name, system, severity,
// what it finds, its documentation and examples, and the page that shows it.
type ruleJSON struct {
	Name     string `json:"name"`
	System   string `json:"system"`
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Doc      string `json:"doc"`
	Bad      string `json:"bad"`
	Good     string `json:"good"`
	URL      string `json:"url"`
}

func toRuleJSON(r *engine.Rule) ruleJSON {
	return ruleJSON{r.Name, r.System, r.Severity.String(), r.Summary, r.Doc, r.Bad, r.Good, rulesURI + "#" + r.Name}
}

func newRulesCmd(s *streams) *cobra.Command {
	var output string
	c := &cobra.Command{
		Use:   "rules [NAME]",
		Short: "List aclint's rules, or show one rule's documentation with an example and its fix",
		Example: `  aclint rules
  aclint rules acl-stray-space
  aclint rules -o json | jq -r '.[] | select(.severity == "error") | .name'`,
		Args: cobra.MaximumNArgs(1),
		ValidArgsFunction: func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			var names []string
			for _, r := range s.reg.Rules() {
				names = append(names, r.Name)
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := clikit.CheckOutput(output, "text", "json"); err != nil {
				return err
			}
			if len(args) == 1 {
				r := s.reg.Lookup(args[0])
				if r == nil {
					return clikit.Usage("no rule named %q%s; run 'aclint rules' for the list", args[0], didYouMean(s.reg, args[0]))
				}
				if output == "json" {
					return clikit.WriteJSON(s.out, toRuleJSON(r))
				}
				_, err := fmt.Fprint(s.out, ruledoc.Docs{Reg: s.reg}.Text(r))
				return err
			}
			if output == "json" {
				out := []ruleJSON{}
				for _, r := range s.reg.Rules() {
					out = append(out, toRuleJSON(r))
				}
				return clikit.WriteJSON(s.out, out)
			}
			tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "RULE\tSEVERITY\tFINDS")
			for _, r := range s.reg.Rules() {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Name, r.Severity, strings.ReplaceAll(r.Summary, "`", ""))
			}
			return tw.Flush()
		},
	}
	c.Flags().StringVarP(&output, "output", "o", "text", "output format: text, or json (every rule with its system, severity, documentation, examples and URL)")
	return c
}

// didYouMean names the rule nearest to name, for error messages.
func didYouMean(reg *engine.Registry, name string) string {
	if s := reg.Suggest(name); s != "" {
		return fmt.Sprintf(" (did you mean %s?)", s)
	}
	return ""
}
