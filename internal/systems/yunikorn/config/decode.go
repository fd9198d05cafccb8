package config

import (
	"github.com/aclint/aclint/internal/progress"

	"github.com/aclint/aclint/internal/engine"

	"fmt"
	"sort"
	"strings"
	"unsafe"

	"gopkg.in/yaml.v3"
)

// Key sets of YuniKorn's config structs, from the model in schema.go (which
// the JSON Schema is generated from too).
var (
	schedulerKeys = keysOf("scheduler")
	partitionKeys = keysOf("partition")
	queueKeys     = keysOf("queue")
	resourceKeys  = keysOf("resources")
	templateKeys  = keysOf("childtemplate")
	ruleKeys      = keysOf("rule")
	filterKeys    = keysOf("filter")
	limitKeys     = keysOf("limit")
	resolverKeys  = keysOf("usergroupresolver")
	preemptKeys   = keysOf("preemption")
	nodeSortKeys  = keysOf("nodesortpolicy")
)

// Go type names YuniKorn's decoder uses in its messages.
const (
	tSchedulerConfig = "configs.SchedulerConfig"
	tPartition       = "configs.PartitionConfig"
	tQueue           = "configs.QueueConfig"
	tResources       = "configs.Resources"
	tTemplate        = "configs.ChildTemplate"
	tRule            = "configs.PlacementRule"
	tFilter          = "configs.Filter"
	tLimit           = "configs.Limit"
	tResolver        = "configs.UserGroupResolver"
	tPreemption      = "configs.PartitionPreemptionConfig"
	tNodeSort        = "configs.NodeSortingPolicy"
)

// Decode builds the typed model from a parsed document, recording every
// problem YuniKorn's strict decoder would reject instead of stopping at the
// first. The structure (root insertion) is applied as YuniKorn applies it.
func Decode(doc *Document) *Config {
	c := &Config{Doc: doc}
	if doc.Root == nil {
		c.Default = doc.Empty()
		return c
	}
	d := &decoder{doc: doc, cfg: c}
	d.mapping(doc.Root, tSchedulerConfig, schedulerKeys, func(key string, k, v *yaml.Node) {
		switch key {
		case "partitions":
			d.list(v, "[]"+tPartition, func(item *yaml.Node) {
				c.Partitions = append(c.Partitions, d.partition(item))
			})
		case "checksum":
			c.Checksum = d.str(k, v)
		}
	})
	if d.aborted {
		c.Partitions = nil // yaml.v3 gave up; there is no model to check
	}
	for _, p := range c.Partitions {
		p.Root.Walk(func(q *Queue) {
			q.Index = int32(c.NumQueues)
			c.NumQueues++
			q.setPath()
			q.indexChildren()
		})
	}
	progress.Queues(c.NumQueues)
	return c
}

type decoder struct {
	doc *Document
	cfg *Config
	// aliases being expanded, as yaml.v3 tracks them: an alias met again
	// inside its own expansion is a cycle yaml.v3 rejects.
	expanding map[*yaml.Node]bool

	// yaml.v3's defence against alias bombs, mirrored: it counts decoded
	// nodes and those decoded inside an alias expansion, and gives up with
	// "document contains excessive aliasing" when aliases dominate.
	decodeCount, aliasCount, aliasDepth int
	aborted                             bool

	// queues are allocated in chunks: a large config holds one Queue per
	// queue, and one allocation for many is cheaper for the allocator and
	// the collector alike
	queues []Queue
}

// queuesPerChunk fills a 16 KB allocation, one of the allocator's size
// classes, with nothing left over.
const queuesPerChunk = 16384 / int(unsafe.Sizeof(Queue{}))

// newQueue is a zero Queue from the current chunk.
func (d *decoder) newQueue() *Queue {
	if len(d.queues) == cap(d.queues) {
		d.queues = make([]Queue, 0, queuesPerChunk)
	}
	d.queues = d.queues[:len(d.queues)+1]
	q := &d.queues[len(d.queues)-1]
	q.Extra = &noExtra
	return q
}

// visit counts one decoded node and reports false once decoding has been
// abandoned for excessive aliasing.
func (d *decoder) visit(n *yaml.Node) bool {
	if d.aborted {
		return false
	}
	d.decodeCount++
	if d.aliasDepth > 0 {
		d.aliasCount++
	}
	if d.aliasCount > 100 && d.decodeCount > 1000 && float64(d.aliasCount)/float64(d.decodeCount) > allowedAliasRatio(d.decodeCount) {
		d.aborted = true
		d.problem(SyntaxError, n, "expand the aliases into plain YAML; YuniKorn's decoder refuses documents built mostly from aliases",
			"YAML: document contains excessive aliasing")
		return false
	}
	return true
}

// allowedAliasRatio is yaml.v3's: 99% of decoded nodes may come from aliases
// up to 400,000 nodes, sliding down to 10% at 4,000,000.
func allowedAliasRatio(decodeCount int) float64 {
	const low, high = 400000, 4000000
	switch {
	case decodeCount <= low:
		return 0.99
	case decodeCount >= high:
		return 0.10
	}
	return 0.99 - 0.89*(float64(decodeCount-low)/float64(high-low))
}

// enter follows n when it is an alias and reports false for a cycle, which
// YuniKorn's decoder rejects. The returned func ends the expansion.
func (d *decoder) enter(n *yaml.Node) (*yaml.Node, func(), bool) {
	if !d.visit(n) {
		return nil, nil, false
	}
	if n == nil || n.Kind != yaml.AliasNode {
		return n, func() {}, true
	}
	if d.expanding[n] {
		d.problem(SyntaxError, n, "an anchor cannot be used inside its own value; write the repeated part out",
			"YAML: anchor '%s' value contains itself", n.Value)
		return nil, nil, false
	}
	if d.expanding == nil {
		d.expanding = map[*yaml.Node]bool{}
	}
	d.expanding[n] = true
	d.aliasDepth++
	return resolve(n), func() { delete(d.expanding, n); d.aliasDepth-- }, true
}

func (d *decoder) problem(kind ProblemKind, n *yaml.Node, hint, format string, args ...any) {
	d.cfg.Problems = append(d.cfg.Problems, Problem{Kind: kind, Pos: d.doc.NodePos(n), Message: fmt.Sprintf(format, args...), Hint: hint})
}

// resolve follows aliases, as yaml.v3 does when decoding.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// yamlKind names a node's kind as yaml.v3 does in "cannot unmarshal" errors.
func yamlKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "!!map"
	case yaml.SequenceNode:
		return "!!seq"
	case yaml.ScalarNode:
		if n.ShortTag() == "!!str" {
			return fmt.Sprintf("!!str `%s`", shorten(n.Value))
		}
		return fmt.Sprintf("%s `%s`", n.ShortTag(), shorten(n.Value))
	}
	return "node"
}

func shorten(s string) string {
	if len(s) > 20 {
		return s[:17] + "..."
	}
	return s
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	return "a scalar"
}

func (d *decoder) wrongType(n *yaml.Node, field, want, goType, hint string) {
	d.problem(WrongType, n, hint, "%s must be %s, found %s (YuniKorn: cannot unmarshal %s into %s)",
		field, want, describe(n), yamlKind(n), goType)
}

// mapping visits the known keys of mapping n, reporting unknown and duplicate
// keys. A null node is an empty struct, as for yaml.v3.
func (d *decoder) mapping(n *yaml.Node, goType string, keys []string, fn func(key string, k, v *yaml.Node)) {
	n, leave, ok := d.enter(n)
	if !ok {
		return
	}
	defer leave()
	if isNull(n) {
		return
	}
	if n.Kind != yaml.MappingNode {
		d.problem(WrongType, n, "write a mapping of key: value pairs here",
			"expected a mapping, found %s (YuniKorn: cannot unmarshal %s into %s)", describe(n), yamlKind(n), goType)
		return
	}
	pairs := d.pairs(n)
	for i := 0; i < len(pairs); i += 2 {
		k, v := pairs[i], pairs[i+1]
		known := false
		for _, name := range keys {
			if k.Value == name {
				known = true
				break
			}
		}
		if !d.visit(k) {
			return
		}
		if isNull(resolve(k)) {
			continue // yaml.v3 cannot decode a null key into a field name and skips it
		}
		if !known {
			d.unknownKey(k, goType, keys)
			continue
		}
		fn(k.Value, k, v)
	}
}

// pairs returns a mapping's key/value nodes with merge keys expanded as
// yaml.v3 does: keys written in the mapping win over merged ones, and among
// merged mappings the first one wins. Duplicates are checked among the
// written keys only.
func (d *decoder) pairs(n *yaml.Node) []*yaml.Node {
	if len(n.Content)%2 == 0 && !hasMergeKey(n) {
		// the usual mapping: its own content, read-only, no copy
		d.duplicates(n.Content)
		return n.Content
	}
	var explicit, merged []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Value == "<<" && k.ShortTag() == "!!merge" {
			merged = append(merged, d.merge(v)...)
			continue
		}
		explicit = append(explicit, k, v)
	}
	d.duplicates(explicit)
	if len(merged) == 0 {
		return explicit
	}
	have := map[string]bool{}
	for i := 0; i < len(explicit); i += 2 {
		have[explicit[i].Value] = true
	}
	out := explicit
	for i := 0; i < len(merged); i += 2 {
		if k := merged[i]; !have[k.Value] {
			have[k.Value] = true
			out = append(out, k, merged[i+1])
		}
	}
	return out
}

func hasMergeKey(n *yaml.Node) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Value == "<<" && k.ShortTag() == "!!merge" {
			return true
		}
	}
	return false
}

// merge expands the value of a "<<" merge key: a mapping, an alias to one, or
// a list of those. yaml.v3 fails on anything else.
func (d *decoder) merge(v *yaml.Node) []*yaml.Node {
	wantMap := func(n *yaml.Node) bool {
		r := resolve(n)
		if r == nil || r.Kind != yaml.MappingNode {
			d.problem(SyntaxError, n, "merge a mapping (<<: *anchor) or a list of mappings (<<: [*a, *b])",
				"YAML: map merge requires map or sequence of maps as the value")
			return false
		}
		return true
	}
	if v.Kind == yaml.SequenceNode {
		var out []*yaml.Node
		for _, m := range v.Content {
			if !wantMap(m) {
				return nil
			}
			out = append(out, d.mergeOne(m)...)
		}
		return out
	}
	if !wantMap(v) {
		return nil
	}
	return d.mergeOne(v)
}

func (d *decoder) mergeOne(v *yaml.Node) []*yaml.Node {
	v, leave, ok := d.enter(v)
	if !ok {
		return nil
	}
	defer leave()
	return d.pairs(v)
}

func (d *decoder) duplicates(pairs []*yaml.Node) {
	n := len(pairs) / 2
	if n < 2 {
		return
	}
	report := func(first, k *yaml.Node) {
		d.problem(DuplicateKey, k, "remove one of the two entries; YuniKorn rejects the file while both are there",
			"key %q is already defined at line %d (YuniKorn: mapping key %q already defined)", k.Value, d.doc.NodePos(first).Line, k.Value)
	}
	same := func(a, b *yaml.Node) bool { return a.Kind == b.Kind && a.Value == b.Value }
	if n <= 8 {
		// small mappings, the usual case: compare pairwise, no allocation
		for i := 2; i < len(pairs); i += 2 {
			for j := 0; j < i; j += 2 {
				if same(pairs[j], pairs[i]) {
					report(pairs[j], pairs[i])
					break
				}
			}
		}
		return
	}
	type id struct {
		kind  yaml.Kind
		value string
	}
	seen := make(map[id]*yaml.Node, n)
	for i := 0; i < len(pairs); i += 2 {
		k := pairs[i]
		if first, ok := seen[id{k.Kind, k.Value}]; ok {
			report(first, k)
			continue
		}
		seen[id{k.Kind, k.Value}] = k
	}
}

// PropertyNames are the queue properties YuniKorn reads
// (Queue.UpdateQueueProperties). Written as queue keys instead of under
// properties:, they reject the config.
var PropertyNames = []string{
	"application.sort.policy", "application.sort.priority", "priority.offset", "priority.policy",
	"preemption.policy", "preemption.delay", "application.unschedasks.backoff",
	"application.unschedasks.backoff.delay", "quota.preemption.delay",
}

func (d *decoder) unknownKey(k *yaml.Node, goType string, keys []string) {
	if r := d.doc.Running; r != nil {
		// a running scheduler's dump is what YuniKorn marshalled from the
		// config it loaded: a field aclint does not know is a newer
		// scheduler's, read past (its documented form is all aclint
		// relies on), and said once
		if !contains(r.Unknown, k.Value) {
			r.Unknown = append(r.Unknown, k.Value)
		}
		return
	}
	hint := "remove the key; valid keys here: " + strings.Join(sorted(keys), ", ")
	msg := fmt.Sprintf("unknown key %q: YuniKorn rejects the whole config (field %s not found in type %s)", k.Value, k.Value, goType)
	switch {
	case goType == tSchedulerConfig && (strings.HasSuffix(k.Value, ".yaml") || strings.HasPrefix(k.Value, "log.") || strings.HasPrefix(k.Value, "admissionController.") || strings.HasPrefix(k.Value, "service.")):
		// do not tell the user to delete the config they meant
		d.problem(UnknownKey, k, "lint the whole ConfigMap (with apiVersion, kind: ConfigMap and data:), or only the text of its queues.yaml value",
			"unknown key %q: this looks like a ConfigMap's data section, not a queue config; YuniKorn would reject it as a config (field %s not found in type %s)", k.Value, k.Value, goType)
		return
	case (goType == tQueue || goType == tTemplate) && contains(PropertyNames, k.Value):
		d.problem(UnknownKey, k, "move it under properties: (properties: {"+k.Value+": ...})",
			"unknown key %q: it is a queue property, which belongs under properties:; YuniKorn rejects the whole config (field %s not found in type %s)", k.Value, k.Value, goType)
		return
	}
	if s := suggest(k.Value, keys); s != "" {
		msg = fmt.Sprintf("unknown key %q, did you mean %q? YuniKorn rejects the whole config (field %s not found in type %s)", k.Value, s, k.Value, goType)
		hint = fmt.Sprintf("rename it to %s (YuniKorn's keys are all lower case)", s)
		if !strings.EqualFold(s, k.Value) {
			hint = fmt.Sprintf("rename it to %s", s)
		}
	}
	d.problem(UnknownKey, k, hint, "%s", msg)
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// Nearest returns the candidate nearest to word (ignoring case), or "" when
// none is close enough to be a likely typo.
func Nearest(word string, candidates []string) string { return engine.Nearest(word, candidates) }

func suggest(key string, keys []string) string { return engine.Nearest(key, keys) }

// list visits the items of a sequence; null is an empty list.
func (d *decoder) list(n *yaml.Node, goType string, fn func(*yaml.Node)) bool {
	n, leave, ok := d.enter(n)
	if !ok {
		return false
	}
	defer leave()
	if isNull(n) {
		return false
	}
	if n.Kind != yaml.SequenceNode {
		d.problem(WrongType, n, "write a YAML list here, one item per line starting with \"- \"",
			"expected a list, found %s (YuniKorn: cannot unmarshal %s into %s)", describe(n), yamlKind(n), goType)
		return false
	}
	for _, item := range n.Content {
		fn(item)
	}
	return true
}

// str reads a string field exactly as yaml.v3 would.
func (d *decoder) str(k, v *yaml.Node) Str {
	s := Str{Key: k, Node: v}
	if !d.visit(v) {
		return s
	}
	v = resolve(v)
	if v.Kind != yaml.ScalarNode {
		hint := "write a single string value"
		if isACLKey(k.Value) {
			hint = `write the ACL as one string: "user1,user2 group1,group2"`
		}
		d.wrongType(v, k.Value, "a string", "string", hint)
		return s
	}
	switch v.ShortTag() {
	case "!!null":
	case "!!binary":
		// decoded into a local: taking s.Value's address would move every
		// Str of the config to the heap (5 MB for 100,000 queues)
		var value string
		if err := v.Decode(&value); err != nil {
			d.problem(WrongType, v, "fix the base64 data or drop the !!binary tag", "%s: %v", k.Value, err)
		}
		s.Value = value
	default:
		s.Value = v.Value
	}
	return s
}

// scalar decodes a scalar into out using yaml.v3 itself, so the rules for
// booleans and numbers are exactly YuniKorn's.
func (d *decoder) scalar(k, v *yaml.Node, out any, want, goType, hint string) bool {
	if !d.visit(v) {
		return false
	}
	r := resolve(v)
	if r.Kind != yaml.ScalarNode {
		d.wrongType(r, k.Value, want, goType, hint)
		return false
	}
	if err := r.Decode(out); err != nil {
		d.problem(WrongType, r, hint, "%s must be %s, found %q (YuniKorn: cannot unmarshal %s into %s)",
			k.Value, want, r.Value, yamlKind(r), goType)
		return false
	}
	return true
}

func (d *decoder) boolean(k, v *yaml.Node) bool {
	var b bool
	d.scalar(k, v, &b, "a boolean", "bool", "write true or false, unquoted")
	return b
}

func (d *decoder) uint(k, v *yaml.Node) uint64 {
	var u uint64
	d.scalar(k, v, &u, "a whole number of 0 or more", "uint64", "write a non-negative whole number, unquoted")
	return u
}

func (d *decoder) strMap(k, v *yaml.Node) StrMap {
	m := StrMap{Key: k, Node: v}
	r := resolve(v)
	if isNull(r) {
		return m
	}
	if r.Kind != yaml.MappingNode {
		d.wrongType(r, k.Value, "a mapping of names to values", "map[string]string", "write one name: value pair per line")
		return m
	}
	pairs := d.pairs(r)
	m.Entries = make(map[string]string, len(pairs)/2)
	m.Nodes = make(map[string]*yaml.Node, len(pairs)/2)
	for i := 0; i < len(pairs); i += 2 {
		pk, pv := resolve(pairs[i]), pairs[i+1]
		if pk.Kind != yaml.ScalarNode {
			d.wrongType(pk, k.Value+" key", "a string", "string", "use a plain name as the key")
			continue
		}
		s := d.str(pk, pv)
		m.Entries[pk.Value] = s.Value
		m.Nodes[pk.Value] = pv
	}
	return m
}

func (d *decoder) floatMap(k, v *yaml.Node) (map[string]float64, map[string]*yaml.Node) {
	r := resolve(v)
	if isNull(r) {
		return nil, nil
	}
	if r.Kind != yaml.MappingNode {
		d.wrongType(r, k.Value, "a mapping of resource names to weights", "map[string]float64", "write one resource: weight pair per line")
		return nil, nil
	}
	values, nodes := map[string]float64{}, map[string]*yaml.Node{}
	pairs := d.pairs(r)
	for i := 0; i < len(pairs); i += 2 {
		var f float64
		if d.scalar(pairs[i], pairs[i+1], &f, "a number", "float64", "write a number, unquoted") {
			values[pairs[i].Value], nodes[pairs[i].Value] = f, pairs[i+1]
		}
	}
	return values, nodes
}

func (d *decoder) strList(k, v *yaml.Node) []Str {
	var out []Str
	d.list(v, "[]string", func(item *yaml.Node) {
		out = append(out, d.str(k, item))
	})
	return out
}

func (d *decoder) partition(n *yaml.Node) *Partition {
	p := &Partition{Node: n}
	d.mapping(n, tPartition, partitionKeys, func(key string, k, v *yaml.Node) {
		switch key {
		case "name":
			p.Name = d.str(k, v)
		case "queues":
			p.QueuesSet = d.list(v, "[]"+tQueue, func(item *yaml.Node) {
				p.Queues = append(p.Queues, d.queue(item, nil))
			})
		case "placementrules":
			d.list(v, "[]"+tRule, func(item *yaml.Node) {
				p.PlacementRules = append(p.PlacementRules, d.rule(item))
			})
		case "limits":
			p.Limits, p.LimitsKey = d.limits(v), k
		case "preemption":
			p.Preemption = v
			d.mapping(v, tPreemption, preemptKeys, func(key string, k, v *yaml.Node) {
				var b *bool
				d.scalar(k, v, &b, "a boolean", "bool", "write true or false, unquoted")
			})
		case "nodesortpolicy":
			d.mapping(v, tNodeSort, nodeSortKeys, func(key string, k, v *yaml.Node) {
				if key == "type" {
					p.NodeSortPolicy = d.str(k, v)
				} else {
					p.ResourceWeights, p.ResourceWeightNodes = d.floatMap(k, v)
				}
			})
		case "usergroupresolver":
			p.ResolverNode = v
			d.mapping(v, tResolver, resolverKeys, func(key string, k, v *yaml.Node) {
				p.Resolver = d.str(k, v)
			})
		}
	})
	// Root insertion, as checkQueuesStructure does it.
	if len(p.Queues) == 1 && strings.ToLower(p.Queues[0].Name.Value) == "root" {
		p.Root = p.Queues[0]
		p.Root.ParentFlag = true
	} else {
		p.RootInserted = true
		p.Root = &Queue{Name: Str{Value: "root"}, ParentFlag: true, Synthetic: true, Children: p.Queues, Node: n, Extra: &noExtra}
		for _, q := range p.Queues {
			q.Parent = p.Root
		}
	}
	return p
}

func (d *decoder) queue(n *yaml.Node, parent *Queue) *Queue {
	q := d.newQueue()
	q.Node, q.Parent = n, parent
	// the queue's own Extra, made on the first key that needs one
	extra := func() *Extra {
		if q.Extra == &noExtra {
			q.Extra = &Extra{}
		}
		return q.Extra
	}
	d.mapping(n, tQueue, queueKeys, func(key string, k, v *yaml.Node) {
		switch key {
		case "name":
			q.Name = d.str(k, v)
		case "parent":
			q.ParentFlag = d.boolean(k, v)
			extra().ParentNode = k
		case "resources":
			e := extra()
			e.ResourcesNode = k
			e.Guaranteed, e.Max = d.resources(v, tResources)
		case "maxapplications":
			e := extra()
			e.MaxApplications = d.uint(k, v)
			e.MaxAppsNode = v
		case "properties":
			extra().Properties = d.strMap(k, v)
		case "adminacl":
			q.AdminACL = d.str(k, v)
		case "submitacl":
			q.SubmitACL = d.str(k, v)
		case "childtemplate":
			if e := extra(); e.Template == nil {
				e.Template = &Template{}
			}
			q.ChildTemplate = v
			d.mapping(v, tTemplate, templateKeys, func(key string, k, v *yaml.Node) {
				switch key {
				case "maxapplications":
					q.TemplateMaxApps = d.uint(k, v)
					q.TemplateMaxAppsNode = v
				case "properties":
					q.TemplateProperties = d.strMap(k, v)
				case "resources":
					q.TemplateGuaranteed, q.TemplateMax = d.resources(v, tResources)
				}
			})
		case "queues":
			if v.Kind == yaml.SequenceNode && q.Children == nil {
				q.Children = make([]*Queue, 0, len(v.Content))
			}
			d.list(v, "[]"+tQueue, func(item *yaml.Node) {
				q.Children = append(q.Children, d.queue(item, q))
			})
		case "limits":
			e := extra()
			e.Limits, e.LimitsKey = d.limits(v), k
		}
	})
	if q.Node != nil && q.Name.Node == nil {
		q.Name.Node = n
	}
	return q
}

func (d *decoder) resources(n *yaml.Node, goType string) (g, m StrMap) {
	d.mapping(n, goType, resourceKeys, func(key string, k, v *yaml.Node) {
		if key == "guaranteed" {
			g = d.strMap(k, v)
		} else {
			m = d.strMap(k, v)
		}
	})
	return g, m
}

func (d *decoder) rule(n *yaml.Node) *PlacementRule {
	r := &PlacementRule{Node: n}
	d.mapping(n, tRule, ruleKeys, func(key string, k, v *yaml.Node) {
		switch key {
		case "name":
			r.Name = d.str(k, v)
		case "create":
			r.Create = d.boolean(k, v)
		case "value":
			r.Value = d.str(k, v)
		case "parent":
			if !isNull(resolve(v)) {
				r.Parent = d.rule(v)
			}
		case "filter":
			d.mapping(v, tFilter, filterKeys, func(key string, k, v *yaml.Node) {
				switch key {
				case "type":
					r.Filter.Type = d.str(k, v)
				case "users":
					r.Filter.Users = d.strList(k, v)
				case "groups":
					r.Filter.Groups = d.strList(k, v)
				}
			})
		}
	})
	return r
}

func (d *decoder) limits(n *yaml.Node) []*Limit {
	var out []*Limit
	d.list(n, "[]"+tLimit, func(item *yaml.Node) {
		l := &Limit{Node: item}
		d.mapping(item, tLimit, limitKeys, func(key string, k, v *yaml.Node) {
			switch key {
			case "limit":
				l.Limit = d.str(k, v)
			case "users":
				l.Users = d.strList(k, v)
				l.UsersList = resolve(v).Kind == yaml.SequenceNode
			case "groups":
				l.Groups = d.strList(k, v)
				l.GroupsList = resolve(v).Kind == yaml.SequenceNode
			case "maxresources":
				l.MaxResources = d.strMap(k, v)
			case "maxapplications":
				l.MaxApplications = d.uint(k, v)
				l.MaxAppsNode = v
			}
		})
		out = append(out, l)
	})
	return out
}

func contains(list []string, x string) bool {
	for _, v := range list {
		if v == x {
			return true
		}
	}
	return false
}
