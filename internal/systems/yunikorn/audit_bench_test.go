package yunikorn

import (
	"encoding/csv"
	"io"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/internal/budget"
	"github.com/aclint/aclint/internal/gen"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

var (
	auditOld = gen.AuditConfig(100000, 5000, false)
	auditNew = gen.AuditConfig(100000, 5000, true)
)

// loadAccepted is what every audit command does first: parse, decode, and
// check that YuniKorn accepts the config (Accept), keeping the policy the
// error rules built.
func loadAccepted(data []byte) *acl.Policy {
	l := Accept([]*config.Document{config.Parse("queues.yaml", data)}, nil)
	if len(l.Errors) > 0 {
		panic("generated config rejected")
	}
	return l.Policy
}

func whoCanBig() {
	if _, err := loadAccepted(auditOld).WhoCan("default", "root.dept49.team39.q49", acl.Submit); err != nil {
		panic(err)
	}
}

func accessBig() {
	cw := csv.NewWriter(io.Discard)
	err := loadAccepted(auditOld).Access(acl.Query{User: "u7", Groups: []string{"g7"}, Resolver: resolve.None{}}, acl.Scope{},
		func(acl.AccessResult) error { return nil },
		func(r acl.AccessRow) error {
			return cw.Write([]string{r.Partition, r.Queue, r.Submit.Describe(), r.Admin.Describe()})
		})
	if err != nil {
		panic(err)
	}
}

// diffBig loads both configs at once, as aclint diff does.
func diffBig() *acl.DiffResult {
	done := make(chan *acl.Policy)
	go func() { done <- loadAccepted(auditOld) }()
	n := loadAccepted(auditNew)
	return acl.Diff(<-done, n)
}

func BenchmarkWhoCan(b *testing.B) {
	for i := 0; i < b.N; i++ {
		whoCanBig()
	}
}

func BenchmarkAccess(b *testing.B) {
	for i := 0; i < b.N; i++ {
		accessBig()
	}
}

func BenchmarkDiff(b *testing.B) {
	for i := 0; i < b.N; i++ {
		diffBig()
	}
}

// TestAuditScaleBudget holds who-can, access and diff to 3x the time of a
// bare YAML decode of their input (both files for diff), on 100,000 queues
// naming 5,000 users and groups. It measures time, so make test runs it
// alone.
func TestAuditScaleBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("scale budget skipped in -short mode")
	}
	best := func(f func()) time.Duration { return budget.Best(3, f) }
	decode := func(data []byte) {
		var n yaml.Node
		_ = yaml.Unmarshal(data, &n)
	}
	base := best(func() { decode(auditOld) })
	base2 := best(func() { decode(auditOld); decode(auditNew) })
	res := diffBig()
	if len(res.Changes) == 0 || len(res.Queues) != 10 {
		t.Fatalf("the generated change should grant and rename: %d changes, %d queues", len(res.Changes), len(res.Queues))
	}
	for _, c := range []struct {
		name  string
		f     func()
		limit time.Duration
	}{
		{"who-can", whoCanBig, base}, {"access", accessBig, base}, {"diff", func() { diffBig() }, base2},
	} {
		d := best(c.f)
		t.Logf("%s: %v, %.2fx of a bare decode (%v)", c.name, d, float64(d)/float64(c.limit), c.limit)
		if lim := budget.Limit(3); float64(d) > lim*float64(c.limit) {
			t.Errorf("%s over budget: %.2fx (limit %gx)", c.name, float64(d)/float64(c.limit), lim)
		}
	}
}
