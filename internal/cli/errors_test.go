package cli

import (
	"errors"
	"io"
	"io/fs"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/clikit"
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
	if !errors.As(err, &ee) || ee.Code != ExitUsage {
		t.Errorf("answerErr is not exit 2: %v", err)
	}
	s := &streams{in: strings.NewReader(""), out: io.Discard, err: io.Discard}
	_, err = loadInputs(s, []string{"/nonexistent/queues.yaml"}, "", false)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file is not fs.ErrNotExist through the chain: %v", err)
	}
}
