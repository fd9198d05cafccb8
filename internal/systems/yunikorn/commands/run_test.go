package commands_test

import (
	"bytes"
	"strings"

	"github.com/aclint/aclint/internal/cli"
	"github.com/aclint/aclint/internal/systems"
)

// The command line's tests of YuniKorn's own commands (why, drift,
// limits --server, lint --server, --server itself) run aclint as a user
// does, over the registry's systems.

var testRegistry = systems.New()

// run runs aclint with args and returns its exit code, stdout and stderr.
func run(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := cli.Execute(testRegistry, args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}
