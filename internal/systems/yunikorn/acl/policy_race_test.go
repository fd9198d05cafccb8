package acl

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// A Policy may be asked from several goroutines at once (the language
// server keeps a document's model for its hovers): the ACLs parsed on
// first use and the index Prepare builds are guarded, and every goroutine
// gets the same answers. Run under -race, this fails if they are not.
func TestPolicyFromGoroutines(t *testing.T) {
	var b strings.Builder
	b.WriteString("partitions:\n  - name: default\n    queues:\n      - name: root\n        queues:\n")
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "          - name: q%d\n            submitacl: \"u%d g%d\"\n", i, i, i)
	}
	p := NewPolicy(config.Decode(config.Parse("q.yaml", []byte(b.String()))))
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				d, err := p.Decide(Query{Partition: "default", Queue: fmt.Sprintf("root.q%d", i), User: fmt.Sprintf("u%d", i), Groups: []string{}, Action: Submit})
				if err != nil || !d.Allowed {
					t.Errorf("u%d on root.q%d: %v %v", i, i, d, err)
					return
				}
				if g%2 == 0 && i == 25 {
					p.Prepare()
				}
			}
		}()
	}
	wg.Wait()
}
