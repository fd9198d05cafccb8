// Command mangen writes aclint's man pages (one per command) with cobra's
// doc package: go run ./internal/mangen DIR (make man).
package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra/doc"

	"github.com/aclint/aclint/internal/cli"
	"github.com/aclint/aclint/internal/systems"
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
	// the pages' date: SOURCE_DATE_EPOCH when set (make release passes the
	// commit's time), so that a release is the same bytes whenever it is built
	if e := os.Getenv("SOURCE_DATE_EPOCH"); e != "" {
		secs, err := strconv.ParseInt(e, 10, 64)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mangen: SOURCE_DATE_EPOCH %q: %v\n", e, err)
			os.Exit(1)
		}
		t := time.Unix(secs, 0).UTC()
		header.Date = &t
	}
	if err := doc.GenManTree(root, header, dir); err != nil {
		fmt.Fprintln(os.Stderr, "mangen:", err)
		os.Exit(1)
	}
}
