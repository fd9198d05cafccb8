// Package systems builds the one registry of the systems aclint checks.
// Adding a system is a package implementing engine.System and one line
// here.
package systems

import (
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/convert"
	"github.com/aclint/aclint/internal/systems/mesos"
	"github.com/aclint/aclint/internal/systems/rbac"
	"github.com/aclint/aclint/internal/systems/yarn"
	"github.com/aclint/aclint/internal/systems/ytsaurus"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/commands"
)

// New is the registry: the systems in the order inputs are offered to
// them, those that recognise their files by content first, YuniKorn last;
// YuniKorn also reads what no system recognises (queue configs come raw,
// indented, in flow style or inside Kubernetes manifests).
func New() *engine.Registry {
	// YARN-to-YuniKorn conversion is neither system's: it reads both,
	// and neither imports it
	return engine.NewRegistry(yunikorn.System,
		mesos.Sys{},
		ytsaurus.Sys{},
		yarn.Sys{YuniKorn: yunikorn.ACLReader{}}, // YARN compares its ACLs with YuniKorn's reading
		rbac.Sys{},                               // manifests without a ConfigMap; the gate in front of YuniKorn's questions
		commands.Sys{},
	).WithExtras(convert.Commands{})
}
