// Command mangen writes aclint's man pages (one per command) with cobra's
// doc package: go run ./internal/mangen DIR (make man).
package main

import (
	"fmt"
	"github.com/aclint/aclint/internal/systems"
	"io"
	"os"

	"github.com/spf13/cobra/doc"

	"github.com/aclint/aclint/internal/cli"
)

func main() {
	dir := "man"
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "mangen:", err)
		os.Exit(1)
	}
	root := cli.NewRoot(systems.New(), os.Stdin, io.Discard, os.Stderr)
	root.DisableAutoGenTag = true // keep the pages reproducible: no generation date
	root.InitDefaultCompletionCmd()
	header := &doc.GenManHeader{Title: "ACLINT", Section: "1", Source: "aclint", Manual: "aclint manual"}
	if err := doc.GenManTree(root, header, dir); err != nil {
		fmt.Fprintln(os.Stderr, "mangen:", err)
		os.Exit(1)
	}
}
