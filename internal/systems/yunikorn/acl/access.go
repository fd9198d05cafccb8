package acl

import (
	"errors"
	"fmt"
	"hash/maphash"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

// Action is the access asked for.
type Action string

const (
	Submit Action = "submit"
	Admin  Action = "admin"
)

// ParseAction reads an --action value.
func ParseAction(s string) (Action, error) {
	switch Action(s) {
	case Submit, Admin:
		return Action(s), nil
	}
	return "", fmt.Errorf("unknown action %q: use submit or admin", s)
}

// Field names of the two ACLs in the config.
const (
	SubmitField = "submitacl"
	AdminField  = "adminacl"
)

// QueueNamePattern is YuniKorn's queue name pattern.
var QueueNamePattern = regexp.MustCompile(`^[a-zA-Z0-9_:#/@-]{1,64}$`)

// ValidQueueName reports whether name matches QueueNamePattern, without
// the regexp machinery: every queue of a large config is checked. Only
// ASCII bytes are allowed, so 64 bytes are 64 characters.
func ValidQueueName(name string) bool {
	if len(name) < 1 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '_' || c == ':' || c == '#' || c == '/' || c == '@' || c == '-':
		default:
			return false
		}
	}
	return true
}

// recoveryQueue never passes a submit check in YuniKorn, and no dynamic
// queue may be called recoveryName.
const (
	recoveryQueue = "root.@recovery@"
	recoveryName  = "@recovery@"
)

// Query is an access question.
type Query struct {
	Partition string
	Queue     string
	User      string
	// Groups as the request carries them. When empty, the resolver runs,
	// as in YuniKorn.
	Groups []string
	Action Action
	// Resolver overrides the partition's own usergroupresolver.
	Resolver resolve.Resolver
	// Resolvers gives what the partition's type needs (a groups file, LDAP
	// settings) when Resolver is nil.
	Resolvers resolve.Options
	// Tags are the request's application tags (namespace and the
	// namespace's annotations, from the Kubernetes shim). nil means they
	// are not known: a queue that only a tag rule creates is then no
	// answer, and the error names the tags that would create it.
	Tags map[string]string
}

// Grant names the ACL entry that allowed access.
type Grant struct {
	Queue string
	ACL   string // submitacl or adminacl
	Kind  string // "user", "group" or "wildcard"
	Entry string // the name, or "*"
	Pos   config.Position
}

// String names the entry and where it is written, as every answer that
// cites a grant does: root.prod submitacl, group "etl" at queues.yaml:5:18.
func (g *Grant) String() string {
	what := fmt.Sprintf("%s %q", g.Kind, g.Entry)
	if g.Kind == "wildcard" {
		what = `wildcard "*"`
	}
	return fmt.Sprintf("%s %s, %s at %s", g.Queue, g.ACL, what, g.Pos)
}

// Consulted is one ACL looked at while deciding.
type Consulted struct {
	Queue  string
	ACL    string
	Value  string
	Set    bool
	Pos    config.Position
	Result string // why it did or did not match
}

// Decision is the answer to a Query with everything that explains it.
type Decision struct {
	Allowed   bool
	Query     Query
	Partition string // canonical partition name
	Queue     string // the queue asked for, as YuniKorn names it (lower case)
	Deciding  string // the queue whose ACLs were checked first
	Dynamic   bool   // the queue does not exist and would be created under Deciding
	// Parent is set when the queue asked about is a parent queue: its ACLs
	// answer, but YuniKorn never runs an application in it.
	Parent       bool
	Groups       []string
	GroupsSource string
	// GroupsDetails explain how the resolver found the groups.
	GroupsDetails []string
	DecidedBy     *Grant
	Consulted     []Consulted
	Notes         []string
	// Reason is set when the request is denied before any ACL is read.
	Reason string
}

// QueryError is a question that has no answer: an unknown partition or
// queue, or groups aclint cannot know.
type QueryError struct {
	Msg string
	// Tags, when set, are the tags of a request for which placement would
	// create the queue: the question has an answer once the request's tags
	// are given.
	Tags map[string]string
}

func (e *QueryError) Error() string { return e.Msg }

// Policy answers access questions over one accepted config. A queue's ACLs
// are parsed on first use and kept, indexed by Queue.Index; Prepare parses
// them all at once, for the questions that read every queue. A Policy may
// be asked from more than one goroutine (the language server keeps the
// model of a document for its hovers): the first uses are guarded, and
// the index Prepare builds is only read.
type Policy struct {
	cfg      *config.Config
	mu       sync.Mutex  // guards lazy and Prepare's building of slab
	prepared atomic.Bool // slab is built, and never written again
	slab     []queueACLs // by Queue.Index; set by Prepare
	lazy     map[int32]*queueACLs
	creator  Creator
	// verdicts: answer allowed or not, and what granted it, without the
	// rows and notes that explain a denial (VerdictsOnly)
	verdicts bool
}

// VerdictsOnly makes the policy answer each question with its verdict and
// the grant, leaving out the ACLs consulted and the near misses that
// explain a denial: for a proof that asks a hundred thousand questions and
// prints none of their explanations (convert). The verdicts are the same.
func (p *Policy) VerdictsOnly() *Policy {
	p.verdicts = true
	return p
}

// Creator says which placement rule would create a queue that does not
// exist: for a subject's request, or (who-can, with no subject) for some
// request. YuniKorn creates queues only through placement rules with
// create: true, so without a Creator no missing queue is ever answered.
type Creator interface {
	// Creates answers for the request of sub naming queue, with the
	// request's tags (nil: not known).
	Creates(part *config.Partition, queue string, sub Subject, tags map[string]string) Creation
	// Ways answers whether any request (with the tags given; nil: any
	// tags) could have it created, listing every rule that can.
	Ways(part *config.Partition, queue string, tags map[string]string) Creation
	// Lands names the queue placement creates for the request of sub when
	// it names no queue, the existing queue it is created under, and the
	// rule; "" when it lands in an existing queue or nowhere.
	Lands(part *config.Partition, sub Subject, tags map[string]string) (queue, under, by string)
}

// Creation is placement's answer for a queue that does not exist.
type Creation struct {
	By   string // the rule that creates it ("rule 2 (tag namespace at q.yaml:9:15)"); "" when none does
	Why  string // why none does
	Note string // a condition the answer rests on
	// Tags, when By is "": the tags of a request that a rule (NeedsBy)
	// would create the queue for; nil when none would.
	Tags    map[string]string
	NeedsBy string
	// Ways, for a question without a request (who-can): every rule that
	// can create the queue, in rule order, with what a request needs for
	// each.
	Ways []Way
}

// Way is one placement rule that creates a queue, and what a request needs
// for it to: the tags it reads, the user its user rule reads, the queue a
// provided rule reads. A rule is reached only when the rules before it do
// not place the request.
type Way struct {
	Rule   int    // 1-based, in the partition's rule order
	By     string // "rule 2 (tag namespace at q.yaml:9:15)"
	Tags   map[string]string
	User   string // the user the user rule reads ("" when the chain reads none)
	Queue  string // the queue a provided rule reads ("" when none)
	Filter string // who the rule's filter lets through ("" for everyone)
}

// Needs says in words what a request needs for the way to create the queue.
func (w Way) Needs() string {
	var parts []string
	if len(w.Tags) > 0 {
		parts = append(parts, "tags "+DescribeTags(w.Tags))
	}
	if w.User != "" {
		parts = append(parts, "user "+w.User)
	}
	if w.Queue != "" {
		parts = append(parts, "asks for queue "+w.Queue)
	}
	if len(parts) == 0 {
		parts = append(parts, "any request")
	}
	s := strings.Join(parts, ", ")
	if w.Filter != "" {
		s += "; " + w.Filter
	}
	return s
}

// SetCreator sets the placement that decides whether missing queues exist.
func (p *Policy) SetCreator(c Creator) { p.creator = c }

// queueACLs are the parsed ACLs of one queue in the order a submit check
// reads them: submitacl, then adminacl. An admin check reads the second
// alone. Two pointers, because a policy holds one per queue: the field
// names and the Strs of a LevelACL come from the queue when asked.
type queueACLs [2]*Value

// NewPolicy prepares a config for access questions. Nothing is parsed
// until a question needs it, so that one check costs the queues it
// consults, not the whole tree; Prepare parses every ACL at once. The
// policy is the config's one ACL index: YuniKorn's rules build it to
// decide whether YuniKorn accepts the config (yunikorn.Accept), and the
// questions then share it.
func NewPolicy(cfg *config.Config) *Policy {
	return &Policy{cfg: cfg, lazy: map[int32]*queueACLs{}}
}

func (p *Policy) entry(q *config.Queue) *queueACLs {
	if p.prepared.Load() {
		return p.indexed(q)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.prepared.Load() { // Prepare ran while this waited
		return p.indexed(q)
	}
	e := p.lazy[q.Index]
	if e == nil {
		submit, admin := Parse(q.SubmitACL.Value), Parse(q.AdminACL.Value)
		e = &queueACLs{&submit, &admin}
		p.lazy[q.Index] = e
	}
	return e
}

// indexed is q's entry in the index Prepare built.
func (p *Policy) indexed(q *config.Queue) *queueACLs {
	if int(q.Index) < len(p.slab) {
		if e := &p.slab[q.Index]; e[0] != nil {
			return e
		}
	}
	// a queue the index does not hold (one placement creates): parsed for
	// this answer, the shared index never written after Prepare
	submit, admin := Parse(q.SubmitACL.Value), Parse(q.AdminACL.Value)
	return &queueACLs{&submit, &admin}
}

// Prepare parses every ACL of the config now, each distinct string once
// (configs repeat a few ACLs across many queues), so that the policy can be
// read from several goroutines: lint's rules share it. A single question
// does not need it: ACLs are then parsed on first use.
func (p *Policy) Prepare() *Policy {
	if p.prepared.Load() {
		return p
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.prepared.Load() {
		return p
	}
	// repeated ACLs share one value through a bounded cache keyed by the
	// string's hash, the last ACL seen in each slot: configs repeat a few
	// ACLs across many queues, mostly near each other, and a map of every
	// distinct ACL cost a config of distinct ACLs (the tree shape) more
	// memory than it saved. Which repeats share a value changes nothing
	// an answer reads: every value of one string is the same.
	// the cache is sized to the config, at most 1<<14 slots: a file of
	// 4,000 small ConfigMaps allocated 128 KB each for it
	slots := uint64(16)
	for slots < 1<<14 && slots < 2*uint64(p.cfg.NumQueues) {
		slots <<= 1
	}
	recent := make([]*Value, slots)
	seed := maphash.MakeSeed()
	unset := Parse("")
	// the values and their entries in chunks: one allocation for many
	// ACLs
	var chunk []Value
	var room []Entry
	entries := func(n int) []Entry {
		if len(room) < n {
			room = make([]Entry, max(n, 1024))
		}
		out := room[:0:n]
		room = room[n:]
		return out
	}
	parse := func(raw string) *Value {
		if raw == "" {
			return &unset // most queues write no ACL: no lookup
		}
		slot := &recent[maphash.String(seed, raw)&(slots-1)]
		if v := *slot; v != nil && v.Raw == raw {
			return v
		}
		if len(chunk) == cap(chunk) {
			chunk = make([]Value, 0, 256)
		}
		chunk = append(chunk, parse(raw, entries))
		v := &chunk[len(chunk)-1]
		*slot = v
		return v
	}
	p.slab = make([]queueACLs, p.cfg.NumQueues)
	for _, part := range p.cfg.Partitions {
		part.Root.Walk(func(q *config.Queue) {
			if e := &p.slab[q.Index]; e[0] == nil {
				*e = queueACLs{parse(q.SubmitACL.Value), parse(q.AdminACL.Value)}
			}
		})
	}
	p.lazy = nil
	p.prepared.Store(true)
	return p
}

// ACLs returns the parsed submit and admin ACLs of q.
func (p *Policy) ACLs(q *config.Queue) (submit, admin *Value) {
	e := p.entry(q)
	return e[0], e[1]
}

// LevelACL is one ACL YuniKorn reads at one level of the queue tree.
type LevelACL struct {
	Field string // SubmitField or AdminField
	Str   *config.Str
	Value *Value
}

// Levels are the ACLs one check reads at one queue, in order (Level).
type Levels struct {
	acls [2]LevelACL
	n    int
}

// List returns the ACLs. It points into l: keep the Levels in a variable
// (lv := p.Level(q, a); for _, l := range lv.List()).
func (l *Levels) List() []LevelACL { return l.acls[:l.n] }

// Level returns the ACLs of queue q that YuniKorn's check for action reads,
// in its order: submit reads submitacl then adminacl (CheckSubmitAccess),
// admin reads adminacl (CheckAdminAccess). A check walks these from the
// queue up to root and stops at the first that allows; check and every
// audit share this rule.
func (p *Policy) Level(q *config.Queue, action Action) Levels {
	e := p.entry(q)
	admin := LevelACL{AdminField, &q.AdminACL, e[1]}
	if action == Submit {
		return Levels{[2]LevelACL{{SubmitField, &q.SubmitACL, e[0]}, admin}, 2}
	}
	return Levels{[2]LevelACL{admin}, 1}
}

// FindPartition finds a partition as YuniKorn names them, or says which
// partitions there are.
func (p *Policy) FindPartition(name string) (*config.Partition, error) {
	if part := p.cfg.Partition(name); part != nil {
		return part, nil
	}
	var names []string
	hint := ""
	for _, pt := range p.cfg.Partitions {
		names = append(names, pt.CanonicalName())
		if strings.EqualFold(pt.CanonicalName(), name) {
			hint = fmt.Sprintf(" (YuniKorn looks a request's partition up exactly, and only \"\" means default: write %s)", pt.CanonicalName())
		}
	}
	if len(names) == 0 {
		return nil, &QueryError{Msg: fmt.Sprintf("partition %q not found: the config has no partitions", name)}
	}
	// a config of 200,000 partitions must not print them all (1.7 MB):
	// the first few, the count, and the nearest name
	const shown = 10
	list := strings.Join(names[:min(len(names), shown)], ", ")
	if len(names) > shown {
		list = fmt.Sprintf("%d partitions, %s and %d more", len(names), list, len(names)-shown)
		if near := engine.Nearest(name, names); hint == "" && near != "" {
			hint = fmt.Sprintf("; did you mean %s?", near)
		}
	}
	return nil, &QueryError{Msg: fmt.Sprintf("partition %q not found; the config has: %s%s", name, list, hint)}
}

// Target is the queue an access question is about.
type Target struct {
	Path    string        // the queue asked about, lower case
	Queue   *config.Queue // the queue whose ACLs are read first
	Dynamic bool          // Path does not exist and would be created under Queue
	Note    string        // says so, when Dynamic
	Ways    []Way         // when Dynamic and asked without a request: every rule that creates it
}

// Target finds the queue for path as YuniKorn would: an existing queue, or a
// queue that placement creates for this request (sub; nil when the question
// has no user) under an existing parent queue: it has no ACLs, so its
// ancestors decide. A queue no rule creates is no queue: asking about it is
// an error, never an answer, so a typo cannot come back allowed.
func (p *Policy) Target(part *config.Partition, path string, sub *Subject, tags map[string]string) (Target, error) {
	q, missing, err := FindQueue(part.Root, path)
	if err != nil {
		return Target{}, err
	}
	t := Target{Path: strings.ToLower(path), Queue: q}
	if len(missing) == 0 {
		return t, nil
	}
	if IsRecoveryPath(path) {
		// AddApplication creates the recovery queue itself, after
		// PlaceApplication checked the submit ACLs of its parent, root
		t.Dynamic = true
		t.Note = "root.@recovery@ is not configured: a freshly started scheduler answers a request for it from root's ACLs and then creates it as its recovery queue; once it exists, YuniKorn refuses every submit check on it"
		return t, nil
	}
	near := p.nearestQueue(part, t.Path)
	if q.IsLeaf() {
		return t, &QueryError{Msg: fmt.Sprintf("queue %s does not exist and cannot be created: %s is a leaf queue, so no queue can be added below it%s", t.Path, q.Path(), near)}
	}
	for _, m := range missing {
		// NewDynamicQueue checks each part as written, before it is
		// lower-cased: the Kelvin sign is not "k" here
		if !ValidQueueName(m) {
			return t, &QueryError{Msg: fmt.Sprintf("queue %s does not exist and cannot be created: %q is not a valid queue name (%s)%s", t.Path, m, QueueNamePattern, near)}
		}
		if m == recoveryName {
			return t, &QueryError{Msg: fmt.Sprintf("queue %s does not exist and cannot be created: YuniKorn refuses to create a dynamic queue named %s at any depth (dynamic queue cannot be root.@recovery@)", t.Path, recoveryName)}
		}
	}
	c := Creation{Why: "YuniKorn creates queues only through placement rules with create: true"}
	if p.creator != nil {
		if sub != nil {
			c = p.creator.Creates(part, path, *sub, tags)
		} else {
			c = p.creator.Ways(part, path, tags)
		}
	}
	if c.By == "" {
		if c.Tags != nil {
			return t, &QueryError{Msg: fmt.Sprintf("%s does not exist in partition %s, and this question gives no request tags: placement %s creates it only for a request with the tags %s; ask again with those tags, or check the nearest existing queue, %s%s",
				t.Path, part.CanonicalName(), c.NeedsBy, DescribeTags(c.Tags), q.Path(), near), Tags: c.Tags}
		}
		return t, &QueryError{Msg: fmt.Sprintf("no such queue, and no placement rule creates it for this request: %s does not exist in partition %s (%s)%s", t.Path, part.CanonicalName(), whyNotCreated(c.Why), near)}
	}
	t.Dynamic = true
	t.Ways = c.Ways
	how := "creates it under %s for this request"
	if sub == nil {
		how = "can create it under %s"
		if len(c.Tags) > 0 {
			how += " (for a request with the tags " + DescribeTags(c.Tags) + ")"
		}
	}
	t.Note = fmt.Sprintf("queue %s does not exist; placement %s "+how+", and a new queue has no ACLs of its own, so access is decided by %s and its ancestors", t.Path, c.By, q.Path(), q.Path())
	if c.Note != "" {
		t.Note += "; " + c.Note
	}
	return t, nil
}

// DescribeTags writes tags as key=value pairs in key order, the one way
// every answer and test title names a request's tags; "(none)" for none.
func DescribeTags(tags map[string]string) string {
	if len(tags) == 0 {
		return "(none)"
	}
	keys := make([]string, 0, len(tags))
	for k := range tags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		keys[i] = k + "=" + tags[k]
	}
	return strings.Join(keys, ", ")
}

// nearestQueue suggests the existing queue nearest to path, as "; did you
// mean root.prod?", or "".
func (p *Policy) nearestQueue(part *config.Partition, path string) string {
	var names []string
	part.Root.Walk(func(q *config.Queue) { names = append(names, q.Path()) })
	if n := config.Nearest(path, names); n != "" && n != path {
		return "; did you mean " + n + "?"
	}
	return ""
}

// IsRecoveryPath reports whether YuniKorn takes a queue path for its
// recovery queue (common.IsRecoveryQueue: any case of root.@recovery@).
func IsRecoveryPath(path string) bool { return strings.EqualFold(path, recoveryQueue) }

// FindQueue looks a queue up as YuniKorn does: dot separated, starting at
// root, each part lower-cased with strings.ToLower before it is compared. It
// returns the deepest existing queue and the path parts below it that do
// not exist, as written.
func FindQueue(root *config.Queue, path string) (*config.Queue, []string, error) {
	parts := strings.Split(path, ".")
	if strings.ToLower(parts[0]) != "root" {
		return nil, nil, &QueryError{Msg: fmt.Sprintf("queue %q not found: queue paths start at root, e.g. root.%s", path, path)}
	}
	q := root
	for i := 1; i < len(parts); i++ {
		c := q.Child(parts[i])
		if c == nil {
			return q, parts[i:], nil
		}
		q = c
	}
	return q, nil, nil
}

// Decide answers q exactly as YuniKorn's placement and ACL checks would. The
// order is YuniKorn's: the partition, then the user (ConvertUGI runs before
// any queue is looked at, so a rejected user is a deny even for a queue that
// could not exist), then the queue.
func (p *Policy) Decide(q Query) (*Decision, error) {
	part, err := p.FindPartition(q.Partition)
	if err != nil {
		return nil, err
	}
	d := &Decision{Query: q, Partition: part.CanonicalName(), Queue: strings.ToLower(q.Queue)}
	sub, err := p.ResolveSubject(part, q)
	if err != nil {
		return nil, err
	}
	d.Groups, d.GroupsSource, d.GroupsDetails, d.Reason = sub.Groups, sub.Source, sub.Details, sub.Reason
	d.Notes = append(d.Notes, sub.Notes...)
	if d.Reason != "" {
		return d, nil
	}
	t, err := p.Target(part, q.Queue, &sub, q.Tags)
	if err != nil {
		return nil, err
	}
	d.Queue, d.Deciding, d.Dynamic = t.Path, t.Queue.Path(), t.Dynamic
	if !t.Dynamic && !t.Queue.IsLeaf() && q.Action == Submit {
		// CheckSubmitAccess answers a parent queue, but PlaceApplication
		// moves on from it and AddApplication never runs an app there
		d.Parent = true
		d.Notes = append(d.Notes, fmt.Sprintf("%s is a parent queue: this is its ACL answer, but YuniKorn never runs an application in a parent queue; an application that names it goes to the next placement rule (aclint place %s --queue %s%s shows where)", t.Path, q.User, t.Path, AskPartition(d.Partition)))
	}
	target := t.Queue
	if t.Note != "" {
		d.Notes = append(d.Notes, t.Note)
	}
	if q.Action == Submit && !t.Dynamic && IsRecoveryPath(d.Queue) {
		d.Reason = "root.@recovery@ is YuniKorn's recovery queue: it never passes a submit check"
		return d, nil
	}
	p.walk(d, target)
	return d, nil
}

// CheckAt answers YuniKorn's check for action (CheckSubmitAccess or
// CheckAdminAccess) on the existing queue q for a subject already
// converted, explained as check explains it. Placement asks it of the queue
// a rule picked, or of the nearest existing ancestor of a queue to create.
func (p *Policy) CheckAt(partition string, q *config.Queue, sub Subject, action Action) *Decision {
	d := &Decision{Query: Query{Partition: partition, Queue: q.Path(), User: sub.User, Groups: sub.Groups, Action: action},
		Partition: partition, Queue: q.Path(), Deciding: q.Path(), Groups: sub.Groups, GroupsSource: sub.Source}
	if action == Submit && IsRecoveryPath(q.Path()) {
		d.Reason = "root.@recovery@ is YuniKorn's recovery queue: it never passes a submit check"
		return d
	}
	p.walk(d, q)
	return d
}

// walk reads the ACLs from target up to root, in YuniKorn's order, and
// stops at the first that allows.
func (p *Policy) walk(d *Decision, target *config.Queue) {
walk:
	for cur := target; cur != nil; cur = cur.Parent {
		if d.Query.Action == Submit && IsRecoveryPath(cur.Path()) {
			// CheckSubmitAccess of the recovery queue answers false
			// without asking its parent
			d.Notes = append(d.Notes, fmt.Sprintf("%s is below YuniKorn's recovery queue root.@recovery@, whose submit check refuses everyone without asking root", d.Queue))
			break
		}
		lv := p.Level(cur, d.Query.Action)
		for _, l := range lv.List() {
			if p.consult(d, cur, l.Field, *l.Str, l.Value) {
				break walk
			}
		}
	}
	if !p.verdicts {
		p.nearMisses(d, target)
	}
}

// Subject is who asks: the user and the groups YuniKorn would use.
type Subject struct {
	User    string
	Groups  []string
	Source  string   // where the groups came from
	Details []string // how the resolver found them
	Notes   []string
	// Reason is set when YuniKorn would reject the application before any
	// ACL is read: an empty or invalid user name, a user it cannot resolve.
	Reason string
}

// ResolveSubject works out the user's groups for partition part as
// YuniKorn's ConvertUGI does: groups the request carries are used as given
// (and the user name is then checked); otherwise the resolver runs.
func (p *Policy) ResolveSubject(part *config.Partition, q Query) (Subject, error) {
	sub := Subject{User: q.User}
	if q.User == "" {
		sub.Reason = "YuniKorn would reject the application: empty user cannot resolve"
		return sub, nil
	}
	if len(q.Groups) > 0 {
		sub.Groups = q.Groups
		sub.Source = "request: groups carried by the application, used as given"
		if !RequestUserPattern.MatchString(q.User) {
			sub.Reason = fmt.Sprintf("YuniKorn would reject the application: invalid username, it contains invalid characters (%q does not match %s)", q.User, RequestUserPattern)
		}
		return sub, nil
	}
	r := q.Resolver
	if r == nil {
		// YuniKorn creates a single user group cache for the scheduler
		// (GetUserGroupCache runs once), when it builds the first partition:
		// that partition's resolver type serves every partition.
		first := p.cfg.Partitions[0]
		if first != part && first.Resolver.Value != part.Resolver.Value {
			sub.Notes = append(sub.Notes, fmt.Sprintf("YuniKorn creates one user group resolver for all partitions, from the first partition (%s, type %q); partition %s's own type %q is not used",
				first.CanonicalName(), first.Resolver.Value, part.CanonicalName(), part.Resolver.Value))
		}
		var err error
		r, err = resolve.ForType(first.Resolver.Value, q.Resolvers)
		if err != nil {
			return sub, &QueryError{Msg: err.Error()}
		}
	}
	res, err := r.Resolve(q.User)
	sub.Details = res.Details
	if r.Name() == "os" {
		// the answer is this machine's, and says so every time
		sub.Notes = append(sub.Notes, OSResolverNote)
	}
	sub.Notes = append(sub.Notes, res.Warnings...)
	var unreachable *resolve.UnreachableError
	var crash *resolve.CrashError
	switch {
	case errors.As(err, &unreachable):
		return sub, &QueryError{Msg: fmt.Sprintf("%v: aclint cannot know the groups YuniKorn would get, so it gives no answer (check the address, the bind user and password, the network and --ldap-timeout)", err)}
	case errors.As(err, &crash):
		return sub, &QueryError{Msg: err.Error()}
	}
	if err != nil {
		if !errors.Is(err, resolve.ErrUnresolvable) {
			err = fmt.Errorf("%w: %v", resolve.ErrUnresolvable, err)
		}
		sub.Reason = "YuniKorn would reject the application: " + err.Error()
		sub.Source = resolverLabel(r.Name())
		return sub, nil
	}
	sub.Groups = res.Groups
	sub.Source = res.Source
	return sub, nil
}

// OSResolverNote is said on every answer whose groups the os resolver found.
const OSResolverNote = "the os resolver read the users and groups of the machine aclint runs on (/etc/passwd and /etc/group, or NSS), not those of the scheduler's container: where they differ, YuniKorn's answer differs"

func resolverLabel(name string) string {
	if name == "" {
		return "no resolver"
	}
	return name + " resolver"
}

// consult checks one ACL and records it; it reports whether access is granted.
func (p *Policy) consult(d *Decision, q *config.Queue, field string, s config.Str, v *Value) bool {
	m, ok := v.Check(d.Query.User, d.Groups)
	if !ok && p.verdicts {
		return false
	}
	c := Consulted{Queue: q.Path(), ACL: field, Value: s.Value, Set: s.Set()}
	doc := p.cfg.Doc
	if s.Set() {
		c.Pos = doc.NodePos(s.Node)
	} else if q.Node != nil && !q.Synthetic {
		c.Pos = doc.NodePos(q.Name.Node)
	}
	if ok {
		g := &Grant{Queue: q.Path(), ACL: field}
		if m.Wildcard {
			g.Kind, g.Entry = "wildcard", "*"
			g.Pos = doc.ValuePos(s.Node, v.WildcardAt)
		} else {
			g.Kind, g.Entry = m.Entry.Kind.String(), m.Entry.Name
			g.Pos = doc.ValuePos(s.Node, m.Entry.Offset)
		}
		c.Result = fmt.Sprintf("allows: %s %s", g.Kind, g.Entry)
		if m.Wildcard {
			c.Result = "allows everyone (*)"
		}
		d.DecidedBy = g
		d.Allowed = true
		d.Consulted = append(d.Consulted, c)
		return true
	}
	c.Result = p.noMatch(d, q, s, v)
	d.Consulted = append(d.Consulted, c)
	return false
}

func (p *Policy) noMatch(d *Decision, q *config.Queue, s config.Str, v *Value) string {
	switch {
	case q.Synthetic:
		return "no ACL: root queue inserted by YuniKorn"
	case !s.Set() || s.Value == "":
		return "not set: matches nobody"
	case v.MatchesNobody():
		return "matches nobody: YuniKorn drops every entry"
	}
	var users, groups []string
	for _, e := range v.Entries {
		if !e.Effective() {
			continue
		}
		if e.Kind == User {
			users = append(users, e.Name)
		} else {
			groups = append(groups, e.Name)
		}
	}
	return fmt.Sprintf("no match: user %s not in users %s, groups %s not in groups %s",
		d.Query.User, Names(users), Names(d.Groups), Names(groups))
}

// Names writes a list of users or groups the one way every answer does:
// [etl-team, data-eng].
func Names(names []string) string {
	return "[" + strings.Join(names, ", ") + "]"
}

// nearMisses adds notes for entries that look like they name the user or one
// of the groups but do not count: dropped by YuniKorn, differing only in case,
// or in the other list.
func (p *Policy) nearMisses(d *Decision, target *config.Queue) {
	if d.Allowed {
		return
	}
	seen := map[string]bool{}
	note := func(s string) {
		if !seen[s] {
			seen[s] = true
			d.Notes = append(d.Notes, s)
		}
	}
	isGroup := map[string]bool{}
	for _, g := range d.Groups {
		isGroup[g] = true
	}
	for cur := target; cur != nil; cur = cur.Parent {
		lv := p.Level(cur, d.Query.Action)
		for _, f := range lv.List() {
			for _, e := range f.Value.Entries {
				// the position is worked out only for an entry that gets a note
				where := func() string {
					return fmt.Sprintf("%s %s at %s", cur.Path(), f.Field, p.cfg.Doc.ValuePos(f.Str.Node, e.Offset))
				}
				names := (e.Kind == User && e.Name == d.Query.User) || (e.Kind == Group && isGroup[e.Name])
				switch {
				case names && !e.Effective():
					note(fmt.Sprintf("%s names %s %q, but YuniKorn ignores it: %s", where(), e.Kind, e.Name, e.DropReason()))
				case e.Kind == User && e.Name != d.Query.User && strings.EqualFold(e.Name, d.Query.User):
					note(fmt.Sprintf("%s lists user %q; names are case-sensitive, so it does not match %q", where(), e.Name, d.Query.User))
				case e.Kind == User && isGroup[e.Name] && e.Name != d.Query.User:
					note(fmt.Sprintf("%s lists %q as a user, but it is one of the groups: groups go after the space, e.g. \" %s\"", where(), e.Name, e.Name))
				case e.Kind == Group && e.Name == d.Query.User && !isGroup[e.Name]:
					note(fmt.Sprintf("%s lists %q as a group, but it is the user: users go before the space", where(), e.Name))
				case e.Kind == Group && !isGroup[e.Name]:
					for _, g := range d.Groups {
						if strings.EqualFold(g, e.Name) {
							note(fmt.Sprintf("%s lists group %q; names are case-sensitive, so it does not match %q", where(), e.Name, g))
						}
					}
				}
			}
		}
	}
}

// whyNotCreated is placement's reason for not creating a queue, without
// the words the message already says ("no placement rule creates it for
// this request (...)" is the reason in brackets).
func whyNotCreated(why string) string {
	const lead = "no placement rule creates it for this request ("
	if inner, ok := strings.CutPrefix(why, lead); ok && strings.HasSuffix(inner, ")") {
		return strings.TrimSuffix(inner, ")")
	}
	return why
}

// AskPartition is how a command line names a partition after a question's
// words: nothing for default (every command's), else --partition P.
func AskPartition(partition string) string {
	if strings.EqualFold(partition, "default") || partition == "" {
		return ""
	}
	return " --partition " + partition
}
