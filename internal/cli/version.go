package cli

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/spf13/cobra"
)

// version and commit are set at link time by make release
// (-ldflags "-X github.com/aclint/aclint/internal/cli.version=v1.2.3 -X github.com/aclint/aclint/internal/cli.commit=..."),
// so a release says what it is whatever tree it was built in; otherwise
// they come from the build information: the module version of
// `go install github.com/aclint/aclint@v1.2.3`, the commit of a build in a
// clone.
var (
	version = ""
	commit  = ""
)

// buildInfo returns aclint's version and the commit it was built from ("" when not known).
func buildInfo() (ver, rev string) {
	ver, rev = version, commit
	if bi, ok := debug.ReadBuildInfo(); ok {
		if ver == "" {
			ver = bi.Main.Version
		}
		if rev == "" {
			for _, s := range bi.Settings {
				switch s.Key {
				case "vcs.revision":
					rev = s.Value
				case "vcs.modified":
					if s.Value == "true" && rev != "" {
						rev += "-dirty"
					}
				}
			}
		}
	}
	if ver == "" || ver == "(devel)" {
		ver = "devel"
	}
	return ver, rev
}

// versionLine is what `aclint version` and `aclint --version` print.
func versionLine() string {
	ver, rev := buildInfo()
	if rev == "" {
		rev = "unknown"
	}
	return fmt.Sprintf("aclint %s (commit %s, %s %s/%s)\n", ver, rev, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

func newVersionCmd(s *streams) *cobra.Command {
	var format string
	c := &cobra.Command{
		Use:   "version",
		Short: "Print aclint's version, the commit it was built from and the Go that built it",
		Long: `Print aclint's version, the commit it was built from and the Go release and platform it
was built with. A release says the version it was made as (make release VERSION=...); 'go install'
says the module version; a build in a clone says devel and the commit.`,
		Example: `  aclint version
  aclint version -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch format {
			case "text":
				_, err := fmt.Fprint(s.out, versionLine())
				return err
			case "json":
				ver, rev := buildInfo()
				b, _ := json.MarshalIndent(map[string]any{
					"version": ver, "commit": clikit.NullIfEmpty(rev), "go": runtime.Version(),
					"os": runtime.GOOS, "arch": runtime.GOARCH,
				}, "", "  ")
				_, err := fmt.Fprintf(s.out, "%s\n", b)
				return err
			}
			return clikit.Usage("version -o %q: use text or json", format)
		},
	}
	c.Flags().StringVarP(&format, "output", "o", "text", "text or json")
	return c
}

// versionBeforeCommand refuses -v or --version followed by a command:
// before a command it is aclint's version, and "aclint -v lint x" means
// lint's -v, which goes after the command.
func versionBeforeCommand(root *cobra.Command, args []string) error {
	if len(args) < 2 || args[0] != "-v" && args[0] != "--version" {
		return nil
	}
	if c, _, err := root.Find(args[1:]); err == nil && c != root {
		return clikit.Usage("%s before a command is aclint's version; for %s's own flag, put it after the command: aclint %s %s %s",
			args[0], c.Name(), c.Name(), args[0], strings.Join(args[2:], " "))
	}
	return clikit.Usage("%s prints aclint's version and takes nothing after it (got %q)", args[0], strings.Join(args[1:], " "))
}

// oneLineCobraError puts cobra's "unknown command" suggestion on the
// error's one line.
func oneLineCobraError(err error) error {
	if err == nil || !strings.HasPrefix(err.Error(), "unknown command ") {
		return err
	}
	msg, suggest, _ := strings.Cut(err.Error(), "\n\nDid you mean this?\n")
	msg = strings.TrimSpace(msg)
	if s := strings.Fields(suggest); len(s) > 0 {
		msg += " (did you mean " + strings.Join(s, " or ") + "?)"
	}
	return clikit.Usage("%s; run 'aclint --help' for the commands", msg)
}
