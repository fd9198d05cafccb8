package cli

import (
	"bytes"
	"strings"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems"
)

// run runs aclint with args over the registry's systems, as a user does:
// exit code, stdout, stderr.
func run(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := Execute(testRegistry, args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// testRegistry is the systems aclint runs with.
var testRegistry = systems.New()

// runWith runs aclint over the systems of reg.
func runWith(reg *engine.Registry, args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := Execute(reg, args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}
