package cmd

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is set at link time (-ldflags "-X github.com/aclint/aclint/cmd.version=v1.2.3");
// otherwise it comes from the module's build information.
var version = ""

// buildInfo returns aclint's version and the commit it was built from.
func buildInfo() (ver, commit string) {
	ver, commit = version, ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		if ver == "" {
			ver = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				commit = s.Value
			case "vcs.modified":
				if s.Value == "true" && commit != "" {
					commit += "-dirty"
				}
			}
		}
	}
	if ver == "" || ver == "(devel)" {
		ver = "devel"
	}
	return ver, commit
}

func newVersionCmd(s *streams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print aclint's version and the commit it was built from",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := fmt.Fprint(s.out, cmd.Root().VersionTemplate())
			return err
		},
	}
}
