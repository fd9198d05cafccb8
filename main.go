// Command aclint lints access control configs (Apache YuniKorn, Apache
// Mesos, YTsaurus, Hadoop YARN) and answers access questions exactly as each
// system decides them.
package main

import (
	"os"
	"runtime/debug"

	"github.com/aclint/aclint/internal/cli"
	"github.com/aclint/aclint/internal/systems"
)

// gcPercent is the collector's target when GOGC is not set. aclint is a
// short run that builds one large tree and keeps it to the end, so the
// default (100) collects the same live tree again and again while it
// grows; 150 cuts that cost by about a tenth of the whole run for a few
// percent more peak memory (measured by make bench, docs/performance.md).
const gcPercent = 150

func main() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
	os.Exit(cli.Main(systems.New(), os.Args[1:]))
}
