package placement

import (
	"strings"
	"sync"

	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// Placer places applications on one config YuniKorn accepts. A partition's
// rules are built, and its queues indexed by path, once: convert's proof
// asks a placer hundreds of thousands of questions, and building the rules
// for each (a thousand mappings are a thousand rules) or walking each
// queue's children for each lookup made it cubic in the mappings and
// quadratic in the queues.
type Placer struct {
	cfg    *config.Config
	policy *acl.Policy

	mu    sync.Mutex
	parts map[*config.Partition]*prepared
}

// prepared is what a partition's questions share.
type prepared struct {
	rules []*Rule
	err   error
	// byPath holds every queue by its lower-cased path, the first of
	// two that lower-case alike (as getQueueInternal's walk finds it)
	byPath map[string]*config.Queue
}

// New prepares a config for placement questions.
func New(cfg *config.Config, policy *acl.Policy) *Placer {
	return &Placer{cfg: cfg, policy: policy}
}

func (pl *Placer) prepare(part *config.Partition) *prepared {
	pl.mu.Lock()
	defer pl.mu.Unlock()
	if p := pl.parts[part]; p != nil {
		return p
	}
	p := &prepared{byPath: map[string]*config.Queue{}}
	p.rules, p.err = Build(part)
	if part.Root != nil {
		index(p.byPath, part.Root, "root") // the root is found by that name, whatever it is written
	}
	if pl.parts == nil {
		pl.parts = map[*config.Partition]*prepared{}
	}
	pl.parts[part] = p
	return p
}

// index puts q and the queues below it in m under their lower-cased paths.
func index(m map[string]*config.Queue, q *config.Queue, path string) {
	if _, dup := m[path]; dup {
		return
	}
	m[path] = q
	for _, c := range q.Children {
		if name := c.LowerName(); !strings.Contains(name, ".") { // a name with a dot is never one step of a path
			index(m, c, path+"."+name)
		}
	}
}

// rules are the partition's placement rules, built once.
func (pl *Placer) rules(part *config.Partition) ([]*Rule, error) {
	p := pl.prepare(part)
	return p.rules, p.err
}

// queue is getQueueInternal: the whole name lower-cased, from root; nil
// when no queue has that path.
func (pl *Placer) queue(part *config.Partition, name string) *config.Queue {
	lower := strings.ToLower(name)
	if first, _, _ := strings.Cut(lower, "."); first != "root" {
		return nil
	}
	return pl.prepare(part).byPath[lower]
}
