package yarn_test

import (
	"bytes"
	"strings"

	"github.com/aclint/aclint/internal/cli"
	"github.com/aclint/aclint/internal/systems"
)

// run runs aclint with args over the registry's systems, as a user does,
// for YARN's tests of the command line: exit code, stdout, stderr.
func run(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := cli.Execute(systems.New(), args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}
