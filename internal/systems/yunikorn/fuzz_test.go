package yunikorn

import (
	"github.com/aclint/aclint/internal/engine"

	"strings"
	"testing"

	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// FuzzLint runs every rule and an access decision over arbitrary configs.
// Nothing may panic, findings must point inside the file, and a config with
// no error finding must answer access questions.
func FuzzLint(f *testing.F) {
	for _, r := range ruleList().All() {
		f.Add(r.Bad, "root", "sue", "dev")
		f.Add(r.Good, "root.a", "alice", "")
	}
	f.Fuzz(func(t *testing.T, text, queue, user, groups string) {
		doc := config.Parse("f.yaml", []byte(text))
		cfg := config.Decode(doc)
		findings := Lint(cfg)
		lines := len(doc.Lines())
		for _, x := range findings {
			if x.Pos.Line < 1 || x.Pos.Line > lines || x.Pos.Col < 1 || x.Message == "" || x.Rule == "" {
				t.Fatalf("bad finding %+v in a %d-line file", x, lines)
			}
		}
		if engine.HasErrors(findings) || len(cfg.Partitions) == 0 {
			return
		}
		var gs []string
		if groups != "" {
			gs = strings.Split(groups, ",")
		}
		for _, action := range []acl.Action{acl.Submit, acl.Admin} {
			d, err := acl.NewPolicy(cfg).Decide(acl.Query{Partition: cfg.Partitions[0].Name.Value, Queue: queue, User: user, Groups: gs, Action: action})
			if err != nil {
				continue
			}
			if d.Allowed && d.DecidedBy == nil {
				t.Fatalf("allowed without a deciding entry: %+v", d)
			}
		}
	})
}
