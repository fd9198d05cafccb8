package cli

import (
	"context"
	"errors"
	"time"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/lsp"
)

func newLSPCmd(s *streams) *cobra.Command {
	var debounce time.Duration
	c := &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server (LSP 3.17 over standard input and output) for editors",
		Long: `Run aclint's language server on standard input and output, for an editor's LSP
client: diagnostics as you type (exactly what 'aclint lint' reports for the same bytes,
with the nearest .aclint.yaml and inline suppressions), quick fixes, hover answers on
ACLs and queues, the queue tree as document symbols, go to definition from placement
rules, and folding. It reads every system aclint lints; hover, symbols and definition
answer where the document's system explains its files (` + "`aclint rules`" + ` lists the systems). It never writes a file: fixes are edits the editor
applies. See docs/editors.md for VS Code, Neovim, Helix and Emacs.

Exit codes: 0 after shutdown and exit (or the end of input), 1 on exit without
shutdown, 2 when the client's stream breaks.`,
		Example: `  aclint lsp`,
		Args:    clikit.ExactArgs(0, "lsp takes no arguments: the editor starts it and talks on standard input and output"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts := lsp.DefaultOptions(s.reg)
			opts.MaxDocumentSize = s.maxInput
			// what open documents hold leaves seven eighths of the memory
			// cap to their analyses (a config needs about 50 times its
			// size while it is linted)
			opts.MaxOpenBytes = min(opts.MaxOpenBytes, s.maxMemory/8)
			opts.Debounce = debounce
			opts.Version, _ = buildInfo()
			err := lsp.Run(context.Background(), s.in, s.rawOut, opts)
			if errors.Is(err, lsp.ErrNoShutdown) {
				return &clikit.ExitError{Code: ExitFail}
			}
			if err != nil {
				return clikit.Usage("lsp: %w", err)
			}
			return nil
		},
	}
	c.Flags().DurationVar(&debounce, "debounce", 150*time.Millisecond, "how long after the last change a document is linted")
	return c
}
