package commands

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/input"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

// Errors keep their cause: a failure is exit 2 for the command line and
// still says, to a caller in the same process, what failed.
func TestErrorsKeepTheirCause(t *testing.T) {
	qe := &acl.QueryError{Msg: "no such queue", Tags: map[string]string{"namespace": "a"}}
	err := answerErr(qe)
	var got *acl.QueryError
	if !errors.As(err, &got) || got != qe {
		t.Errorf("answerErr lost the QueryError: %v", err)
	}
	var ee *clikit.ExitError
	if !errors.As(err, &ee) || ee.Code != clikit.ExitUsage {
		t.Errorf("answerErr is not exit 2: %v", err)
	}
	s := &streams{env: quiet{fakeEnv{}}}
	_, err = loadInputs(s, []string{"/nonexistent/queues.yaml"}, "", false)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file is not fs.ErrNotExist through the chain: %v", err)
	}
}

// fakeEnv is the little of an clikit.Env the tests here use: nothing read,
// nothing said, the default input bound.
type fakeEnv struct{ clikit.Env }

func (fakeEnv) MaxInput() int64            { return input.DefaultMaxSize }
func (fakeEnv) Registry() *engine.Registry { return engine.NewRegistry(yunikorn.System, Sys{}) }
func (fakeEnv) Seen() *engine.ReadSet      { return nil }
func (fakeEnv) Warn(string, string)        {}
