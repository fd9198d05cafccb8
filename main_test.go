package main

import (
	"bytes"
	"os"
	"strings"

	"errors"
	"github.com/aclint/aclint/cmd"
	"os/exec"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run the real aclint binary: the test binary
// re-executes itself as "aclint" with main's exact behaviour and exit codes.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"aclint": main})
}

// TestScripts runs testdata/script/*.txtar: CLI behaviour, output and exit
// codes. Refresh expected output with: go test -run TestScripts -update
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits": exits,
		},
	})
}

// exits N CMD ARGS... runs CMD like exec and asserts its exact exit code,
// keeping stdout and stderr for the commands that follow.
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad code %q", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("exits: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// TestReadmeExamples keeps the outputs quoted in README.md true: each command
// shown there must print exactly what the README says.
func TestReadmeExamples(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"lint", "--color", "never", "examples/queues.yaml"},
		{"check", "-f", "examples/queues.yaml", "default", "root.prod.etl", "alice", "--groups", "prod-team"},
		{"check", "-f", "examples/queues.yaml", "default", "root.prod.reports", "bob"},
	} {
		var out, errOut bytes.Buffer
		cmd.Execute(args, strings.NewReader(""), &out, &errOut)
		if !bytes.Contains(readme, out.Bytes()) {
			t.Errorf("README.md does not show the current output of aclint %s:\n%s", strings.Join(args, " "), out.String())
		}
	}
}
