// Package commands is YuniKorn's part of the command line: the commands
// only YuniKorn has (limits, test, report, drift, schema), its
// part of the shared ones (the flags of a request to the scheduler, the
// group resolvers, the ConfigMap key, a running scheduler) and its
// answers to them. The command line reaches all of it through the
// registry (clikit.Commander, clikit.Extender) and never by name.
package commands

import (
	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/systems/yunikorn"
)

// Sys is YuniKorn's system with its commands: the registry's entry for
// YuniKorn.
type Sys struct{ yunikorn.Sys }

// streams is what YuniKorn's commands are lent (env) and the state its
// flags share within one command (how --server is reached).
type streams struct {
	env    clikit.Env
	server serverFlags
}

// Commands are the commands only YuniKorn has.
func (Sys) Commands(env clikit.Env) []*cobra.Command {
	s := &streams{env: env}
	return []*cobra.Command{
		newLimitsCmd(s),
		newDriftCmd(s),
		newWhyCmd(s),
		clikit.Outputs(newTestCmd(s), "text", "json", "junit"),
		clikit.Outputs(newReportCmd(s), "html"),
		newSchemaCmd(s),
	}
}

// Extend is YuniKorn's part of the shared commands.
func (Sys) Extend(command string, env clikit.Env) *clikit.Extension {
	s := &streams{env: env}
	switch command {
	case "check":
		return checkPart(s)
	case "place":
		return placePart(s)
	case "who-can":
		return whoCanPart(s)
	case "access":
		return accessPart(s)
	case "matrix":
		return matrixPart(s)
	case "diff":
		return diffPart(s)
	case "lint":
		return lintPart(s)
	}
	return nil
}
