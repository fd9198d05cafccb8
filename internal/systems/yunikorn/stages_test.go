package yunikorn

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	"github.com/aclint/aclint/internal/engine"
)

// TestValidateConfStages holds PassesValidate to yunikorn-core: each config
// of testdata/yunikorn-stages/validate-conf.jsonl was given to core's
// configs.LoadSchedulerConfigFromByteArray (what POST /ws/v1/validate-conf
// runs) and to scheduler.NewClusterContext (a scheduler starting with
// it). Every error rule's bad example is among them, and the ACLs and root
// names whose two answers differ. aclint finds an error of a rule that
// validate-conf does not pass exactly when validate-conf refuses, and a
// config the scheduler will not start with has an error either way; so
// lint --server can tell "validate-conf accepts it, the scheduler does
// not" from a disagreement.
func TestValidateConfStages(t *testing.T) {
	f, err := os.Open("../../../testdata/yunikorn-stages/validate-conf.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	passes := PassingValidate()
	for sc.Scan() {
		var v struct {
			Name                 string
			Config               string
			ValidateConf, Starts bool
		}
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		n++
		rep, err := Sys{}.Lint(&engine.Input{Path: "q.yaml", Data: []byte(v.Config), Explicit: true}, engine.Options{})
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		refused, passing := 0, 0
		for _, fd := range rep.Findings {
			if fd.Severity != engine.Error {
				continue
			}
			if passes[fd.Rule] {
				passing++
			} else {
				refused++
			}
		}
		if (refused > 0) == v.ValidateConf {
			t.Errorf("%s: validate-conf accepts it: %v; aclint's errors of rules it does not pass: %d", v.Name, v.ValidateConf, refused)
		}
		if !v.Starts && refused+passing == 0 {
			t.Errorf("%s: the scheduler does not start with it, and aclint finds no error", v.Name)
		}
	}
	if n < 70 {
		t.Fatalf("only %d vectors", n)
	}
}
