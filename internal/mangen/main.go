// Command mangen writes aclint's man pages (one per command) with cobra's
// doc package, and its shell completions (bash, zsh, fish) beside them:
// go run ./internal/mangen DIR (make man; make release puts both in the
// Unix archives).
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/aclint/aclint/internal/cli"
	"github.com/aclint/aclint/internal/systems"
)

func main() {
	dir := "man"
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	// the pages' date: SOURCE_DATE_EPOCH when set (make release passes the
	// commit's time), so that a release is the same bytes whenever it is built
	var date *time.Time
	if e := os.Getenv("SOURCE_DATE_EPOCH"); e != "" {
		secs, err := strconv.ParseInt(e, 10, 64)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mangen: SOURCE_DATE_EPOCH %q: %v\n", e, err)
			os.Exit(1)
		}
		t := time.Unix(secs, 0).UTC()
		date = &t
	}
	if err := generate(dir, date); err != nil {
		fmt.Fprintln(os.Stderr, "mangen:", err)
		os.Exit(1)
	}
}

// generate writes one page per command into dir, each titled by its
// command (ACLINT-CHECK(1)), with the usage line as the command writes it.
func generate(dir string, date *time.Time) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root := cli.NewRoot(systems.New(), os.Stdin, io.Discard, os.Stderr)
	root.DisableAutoGenTag = true // keep the pages reproducible: no generation date
	root.InitDefaultCompletionCmd()
	escapeUse(root)
	// no Title: cobra titles each page by its command path
	header := &doc.GenManHeader{Section: "1", Source: "aclint", Manual: "aclint manual", Date: date}
	if err := doc.GenManTree(root, header, dir); err != nil {
		return err
	}
	return completions(root, dir)
}

// completionFiles are the shell completion scripts, by file name: the names
// each shell's completion directory expects.
var completionFiles = []string{"aclint.bash", "_aclint", "aclint.fish"}

// completions writes the scripts `aclint completion SHELL` prints.
func completions(root *cobra.Command, dir string) error {
	for _, name := range completionFiles {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		switch name {
		case "aclint.bash":
			err = root.GenBashCompletionV2(f, true)
		case "_aclint":
			err = root.GenZshCompletion(f)
		default:
			err = root.GenFishCompletion(f, true)
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// escapeUse escapes the brackets of every usage line and help text for
// the Markdown the pages are made from: "[--namespace NS.yaml]
// (--submitter USER)" is a link there, which dropped the optional part's
// brackets and words.
func escapeUse(c *cobra.Command) {
	r := strings.NewReplacer("[", `\[`, "]", `\]`, "(", `\(`, ")", `\)`)
	c.Use, c.Long = r.Replace(c.Use), r.Replace(c.Long)
	for _, sub := range c.Commands() {
		escapeUse(sub)
	}
}
