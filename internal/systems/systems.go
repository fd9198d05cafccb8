// Package systems is the one ordered registry of the systems aclint checks.
// Importing it registers them; adding a system is a package implementing
// engine.System and one line here.
package systems

import (
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/mesos"
	"github.com/aclint/aclint/internal/systems/yarn"
	"github.com/aclint/aclint/internal/systems/ytsaurus"
	"github.com/aclint/aclint/internal/systems/yunikorn"
)

func init() {
	// in the order inputs are offered to them: the systems that recognise
	// their files by content first, YuniKorn (which takes the rest) last
	engine.RegisterSystem(mesos.Sys{})
	engine.RegisterSystem(ytsaurus.Sys{})
	engine.RegisterSystem(yarn.Sys{})
	engine.RegisterSystem(yunikorn.Sys{})
	// YuniKorn reads what no system recognises: queue configs come raw,
	// indented, in flow style or inside Kubernetes manifests
	engine.SetFallback(yunikorn.System)
}
