// Command aclint lints YuniKorn queue configs and answers access questions
// exactly as the scheduler decides them.
package main

import (
	"os"

	"github.com/aclint/aclint/cmd"
)

func main() {
	os.Exit(cmd.Execute(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
