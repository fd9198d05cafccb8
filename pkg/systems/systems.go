// Package systems is the one ordered registry of the systems aclint checks.
// Importing it registers them; adding a system is a package implementing
// lint.System and one line here.
package systems

import (
	"github.com/aclint/aclint/pkg/lint"
	"github.com/aclint/aclint/pkg/mesos"
	"github.com/aclint/aclint/pkg/yarn"
	"github.com/aclint/aclint/pkg/ytsaurus"
	"github.com/aclint/aclint/pkg/yunikorn"
)

func init() {
	// in the order inputs are offered to them: the systems that recognise
	// their files by content first, YuniKorn (which takes the rest) last
	lint.RegisterSystem(mesos.Sys{})
	lint.RegisterSystem(ytsaurus.Sys{})
	lint.RegisterSystem(yarn.Sys{})
	lint.RegisterSystem(yunikorn.Sys{})
	// YuniKorn reads what no system recognises: queue configs come raw,
	// indented, in flow style or inside Kubernetes manifests
	lint.SetFallback(yunikorn.System)
}
