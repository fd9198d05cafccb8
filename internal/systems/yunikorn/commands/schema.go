package commands

import (
	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

func newSchemaCmd(s *streams) *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of YuniKorn's queues.yaml, for editors (yaml-language-server)",
		Long: `Print a JSON Schema (draft-07) of YuniKorn's queues.yaml: every key YuniKorn's
decoder accepts and no other, with each key's description, type, allowed values and
default. It is generated from the model aclint's decoder uses, and constrains a value
only where YuniKorn refuses every other value, so it never flags a config YuniKorn
accepts; the exact judgement (ACLs, limits, placement) stays with aclint lint.

The same schema is committed as schema/queues.schema.json. To use it in an editor with
yaml-language-server, put a modeline on the first line of the file:

  # yaml-language-server: $schema=` + config.SchemaURL + `

The schema is for a raw queues.yaml; in a ConfigMap the config is a string that no
schema sees (aclint lsp lints both). See docs/editors.md.`,
		Example: `  aclint schema > queues.schema.json`,
		Args:    clikit.ExactArgs(0, "schema takes no arguments: redirect its output to a file"),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := s.env.Out().Write(config.JSONSchema())
			return err
		},
	}
}
