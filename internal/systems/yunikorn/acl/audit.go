package acl

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unsafe"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// Holder is a subject that has access, with the ACL that grants it.
type Holder struct {
	Kind      string // "wildcard", "user" or "group"
	Name      string // "*" for the wildcard
	Queue     string // the queue whose ACL grants it
	ACL       string // submitacl or adminacl
	Inherited bool   // granted on an ancestor of the queue asked about
	Pos       config.Position
}

// DroppedEntry is an ACL entry on the path that YuniKorn ignores.
type DroppedEntry struct {
	Queue, ACL, Kind, Name, Reason string
	Pos                            config.Position
}

// WhoCanResult lists every subject with access to one queue.
type WhoCanResult struct {
	Action    Action
	Partition string
	Target    Target
	Everyone  []Holder // every ACL on the path that lets everyone in, nearest first
	Users     []Holder // by name; the nearest grant of each
	Groups    []Holder
	Dropped   []DroppedEntry
	Notes     []string
}

// WhoCan answers who has action on a queue: every ACL that CheckSubmitAccess
// or CheckAdminAccess would read, from the queue up to root.
func (p *Policy) WhoCan(partition, queue string, action Action) (*WhoCanResult, error) {
	return p.WhoCanFor(partition, queue, action, nil, nil)
}

// WhoCanFor answers WhoCan for a queue placement creates, for the request
// of sub (nil: any user) with tags (nil: any tags): the rules that create
// it for such a request decide whether it exists.
func (p *Policy) WhoCanFor(partition, queue string, action Action, sub *Subject, tags map[string]string) (*WhoCanResult, error) {
	part, err := p.FindPartition(partition)
	if err != nil {
		return nil, err
	}
	t, err := p.Target(part, queue, sub, tags)
	if err != nil {
		return nil, err
	}
	r := &WhoCanResult{Action: action, Partition: part.CanonicalName(), Target: t}
	if t.Note != "" {
		r.Notes = append(r.Notes, t.Note)
	}
	if action == Submit && !t.Dynamic && IsRecoveryPath(t.Path) {
		r.Notes = append(r.Notes, "root.@recovery@ is YuniKorn's recovery queue: nobody passes its submit check")
		return r, nil
	}
	seen := map[string]bool{}
	doc := p.cfg.Doc
	for cur := t.Queue; cur != nil; cur = cur.Parent {
		if action == Submit && IsRecoveryPath(cur.Path()) {
			r.Notes = append(r.Notes, fmt.Sprintf("%s is below YuniKorn's recovery queue root.@recovery@, whose submit check refuses everyone without asking root", t.Path))
			break
		}
		lv := p.Level(cur, action)
		for _, l := range lv.List() {
			h := Holder{Queue: cur.Path(), ACL: l.Field, Inherited: cur != t.Queue}
			everyone, users, groups := l.Value.Grants()
			if everyone {
				h.Kind, h.Name, h.Pos = "wildcard", "*", doc.ValuePos(l.Str.Node, l.Value.WildcardAt)
				r.Everyone = append(r.Everyone, h)
			}
			for _, e := range append(users, groups...) {
				key := e.Kind.String() + ":" + e.Name
				if seen[key] {
					continue
				}
				seen[key] = true
				g := h
				g.Kind, g.Name, g.Pos = e.Kind.String(), e.Name, doc.ValuePos(l.Str.Node, e.Offset)
				if e.Kind == User {
					r.Users = append(r.Users, g)
				} else {
					r.Groups = append(r.Groups, g)
				}
			}
			for _, e := range l.Value.Entries {
				if !e.Effective() {
					r.Dropped = append(r.Dropped, DroppedEntry{Queue: cur.Path(), ACL: l.Field, Kind: e.Kind.String(), Name: e.Name,
						Reason: e.DropReason(), Pos: doc.ValuePos(l.Str.Node, e.Offset)})
				}
			}
		}
	}
	byName := func(hs []Holder) { sort.SliceStable(hs, func(i, j int) bool { return hs[i].Name < hs[j].Name }) }
	byName(r.Users)
	byName(r.Groups)
	return r, nil
}

// AccessRow is one queue's answer for one subject.
type AccessRow struct {
	Partition string
	Queue     string
	Submit    *Holder // nil: denied
	Admin     *Holder
	Reason    string // the request is rejected before ACLs are read
	// Parent is set for a parent queue: its ACLs answer, but YuniKorn never
	// runs an application in it.
	Parent bool
	// CreatedBy names the placement rule that creates this queue for the
	// request (it does not exist yet); "" for a configured queue.
	CreatedBy string
}

// Scope narrows an audit to one partition and one subtree.
type Scope struct {
	Partition string // "": every partition
	Under     string // "": the whole tree; else a queue path, the queue and everything below it
}

// scopedPart is a partition in scope and its subtree (nil: all of it).
type scopedPart struct {
	part  *config.Partition
	under *config.Queue
}

// scoped finds the partitions in scope and, with Under, the subtree in
// each; a partition without that queue is left out, and a queue no
// partition in scope has is an error, so a typo never lists nothing and
// passes.
func (p *Policy) scoped(s Scope) ([]scopedPart, error) {
	parts := p.cfg.Partitions
	if s.Partition != "" {
		part, err := p.FindPartition(s.Partition)
		if err != nil {
			return nil, err
		}
		parts = []*config.Partition{part}
	}
	var out []scopedPart
	for _, part := range parts {
		if s.Under == "" {
			out = append(out, scopedPart{part: part})
		} else if q, missing, err := FindQueue(part.Root, s.Under); err == nil && len(missing) == 0 {
			out = append(out, scopedPart{part, q})
		}
	}
	if len(out) == 0 && len(parts) > 0 {
		return nil, &QueryError{Msg: fmt.Sprintf("--under %s: no partition in scope has that queue%s", s.Under, p.nearestQueue(parts[0], strings.ToLower(s.Under)))}
	}
	return out, nil
}

// inScope reports whether q is in the subtree under (nil: all), and whether
// the walk must go below q to reach it.
func inScope(q, under *config.Queue) (emit, descend bool) {
	if under == nil {
		return true, true
	}
	for cur := q; cur != nil; cur = cur.Parent {
		if cur == under {
			return true, true
		}
	}
	for cur := under; cur != nil; cur = cur.Parent {
		if cur == q {
			return false, true
		}
	}
	return false, false
}

// AccessResult describes the subject of an access listing, per partition.
type AccessResult struct {
	Partition string
	Subject   Subject
}

// Access lists, for every queue of every partition (or only partition, when
// not empty), whether the subject of q may submit and administer, and the
// grant for each. Rows are emitted queue by queue, parents first, so large
// configs stream. begin is called once per partition with the resolved
// subject.
//
// After the configured queues of a partition comes the queue placement
// creates for this request (with q.Tags) when it names no queue, marked with
// the rule that creates it: check answers that queue too. Queues a provided
// rule would create for any name asked for are not listed (there is no end
// to them); check answers each.
func (p *Policy) Access(q Query, scope Scope, begin func(AccessResult) error, emit func(AccessRow) error) error {
	p.Prepare() // every queue is read
	parts, err := p.scoped(scope)
	if err != nil {
		return err
	}
	for _, sp := range parts {
		part, under := sp.part, sp.under
		sub, err := p.ResolveSubject(part, q)
		if err != nil {
			return err
		}
		if err := begin(AccessResult{Partition: part.CanonicalName(), Subject: sub}); err != nil {
			return err
		}
		var walk func(q *config.Queue, submit, admin *Holder) error
		walk = func(q *config.Queue, submit, admin *Holder) error {
			row := AccessRow{Partition: part.CanonicalName(), Queue: q.Path(), Reason: sub.Reason, Parent: !q.IsLeaf()}
			if sub.Reason == "" {
				row.Submit = p.levelGrant(q, Submit, sub, inherit(submit))
				row.Admin = p.levelGrant(q, Admin, sub, inherit(admin))
				if q.Path() == recoveryQueue {
					row.Submit = nil
				}
			}
			show, descend := inScope(q, under)
			if show {
				if err := emit(row); err != nil {
					return err
				}
			}
			if !descend {
				return nil
			}
			for _, c := range q.Children {
				if err := walk(c, row.Submit, row.Admin); err != nil {
					return err
				}
			}
			return nil
		}
		if err := walk(part.Root, nil, nil); err != nil {
			return err
		}
		if sub.Reason != "" || p.creator == nil {
			continue
		}
		// (not through Target: that asks whether a request naming the queue
		// creates it, and a rule before could place such a request
		// elsewhere; this is where a request naming none lands)
		if queue, at, by := p.creator.Lands(part, sub, q.Tags); queue != "" {
			parent, missing, err := FindQueue(part.Root, at)
			if err != nil || len(missing) > 0 {
				continue
			}
			if show, _ := inScope(parent, under); !show {
				continue
			}
			row := AccessRow{Partition: part.CanonicalName(), Queue: queue, CreatedBy: by,
				Submit: p.grantFrom(parent, Submit, sub), Admin: p.grantFrom(parent, Admin, sub)}
			if err := emit(row); err != nil {
				return err
			}
		}
	}
	return nil
}

// grantFrom is the grant for a queue created below q: q's own or an
// ancestor's, always inherited.
func (p *Policy) grantFrom(q *config.Queue, action Action, sub Subject) *Holder {
	var chain []*config.Queue
	for cur := q; cur != nil; cur = cur.Parent {
		chain = append(chain, cur)
	}
	var h *Holder
	for i := len(chain) - 1; i >= 0; i-- {
		h = p.levelGrant(chain[i], action, sub, inherit(h))
	}
	return inherit(h)
}

func inherit(h *Holder) *Holder {
	if h == nil || h.Inherited {
		return h // already marked: the rows below share it, read-only
	}
	c := *h
	c.Inherited = true
	return &c
}

// levelGrant is the grant at queue q: the first of its own ACLs that allows
// the subject (YuniKorn's order), or else what its parent grants.
func (p *Policy) levelGrant(q *config.Queue, action Action, sub Subject, fromParent *Holder) *Holder {
	lv := p.Level(q, action)
	for _, l := range lv.List() {
		if m, ok := l.Value.Check(sub.User, sub.Groups); ok {
			h := &Holder{Queue: q.Path(), ACL: l.Field}
			if m.Wildcard {
				h.Kind, h.Name, h.Pos = "wildcard", "*", p.cfg.Doc.ValuePos(l.Str.Node, l.Value.WildcardAt)
			} else {
				h.Kind, h.Name, h.Pos = m.Entry.Kind.String(), m.Entry.Name, p.cfg.Doc.ValuePos(l.Str.Node, m.Entry.Offset)
			}
			return h
		}
	}
	return fromParent
}

// Principal is a subject of an access matrix or diff: a user (with the
// groups it is known to have) or a group.
type Principal struct {
	Kind   string // "user" or "group"
	Name   string
	Groups []string // a user's groups, when known
}

func (pr Principal) String() string {
	if pr.Kind == EveryoneKind {
		return "everyone"
	}
	return pr.Kind + ":" + pr.Name
}

// EveryoneKind is the kind of the Everyone principal.
const EveryoneKind = "everyone"

// Everyone is the wildcard as a subject of a matrix: a column that has
// access exactly where an ACL on the path is "*" (or lets everyone in).
var Everyone = Principal{Kind: EveryoneKind, Name: "*"}

// NamedPrincipals lists every user and group an ACL of the config names
// and YuniKorn keeps, sorted.
func (p *Policy) NamedPrincipals() []Principal {
	p.Prepare() // every queue is read
	type key struct {
		kind Kind
		name string
	}
	seen := map[key]bool{}
	var out []Principal
	for _, part := range p.cfg.Partitions {
		part.Root.Walk(func(q *config.Queue) {
			if !q.SubmitACL.Set() && !q.AdminACL.Set() {
				return
			}
			submit, admin := p.ACLs(q)
			for _, v := range []*Value{submit, admin} {
				for _, e := range v.Entries {
					k := key{e.Kind, e.Name}
					if e.Effective() && !seen[k] {
						seen[k] = true
						out = append(out, Principal{Kind: e.Kind.String(), Name: e.Name})
					}
				}
			}
		})
	}
	SortPrincipals(out)
	return out
}

// SortPrincipals orders users before groups, then by name.
func SortPrincipals(ps []Principal) {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Kind != ps[j].Kind {
			return ps[i].Kind == "user"
		}
		return ps[i].Name < ps[j].Name
	})
}

// Cell is a principal's access to one queue.
type Cell uint8

const (
	NoAccess Cell = iota
	SubmitOnly
	SubmitAdmin // adminacl grants submit too
)

func (c Cell) String() string {
	switch c {
	case SubmitOnly:
		return "submit"
	case SubmitAdmin:
		return "admin"
	}
	return "-"
}

// SameCells reports whether two rows of the matrix are equal, compared as
// bytes (a Cell is one byte), so that a writer can reuse what it rendered.
func SameCells(a, b []Cell) bool {
	return len(a) == len(b) && (len(a) == 0 || bytes.Equal(unsafe.Slice((*byte)(&a[0]), len(a)), unsafe.Slice((*byte)(&b[0]), len(b))))
}

// Matrix calls emit for every queue of every partition with each
// principal's access, parents first. A queue's row starts as its parent's
// (access is inherited down the tree) and only the principals its own ACLs
// name are looked up, so a row costs a copy plus its ACL entries, not a
// check per principal. One row per tree level is kept and reused, so a
// large matrix streams instead of being held in memory; emit must not keep
// cells.
func (p *Policy) Matrix(principals []Principal, scope Scope, emit func(partition, queue string, cells []Cell) error) error {
	p.Prepare() // every queue is read
	x := newPrincipalIndex(principals)
	var rows [][]Cell // one per depth
	parts, err := p.scoped(scope)
	if err != nil {
		return err
	}
	for _, sp := range parts {
		part, under := sp.part, sp.under
		var walk func(q *config.Queue, parent []Cell, depth int) error
		walk = func(q *config.Queue, parent []Cell, depth int) error {
			if len(rows) <= depth {
				rows = append(rows, make([]Cell, len(principals)))
			}
			row := rows[depth]
			if parent != nil {
				copy(row, parent)
			} else {
				clear(row)
			}
			// submit reads submitacl and adminacl; adminacl grants both
			submit, admin := p.Level(q, Submit), p.Level(q, Admin)
			x.raise(row, submit.List(), SubmitOnly)
			x.raise(row, admin.List(), SubmitAdmin)
			if q.Path() == recoveryQueue {
				for i, c := range row {
					if c == SubmitOnly {
						row[i] = NoAccess
					}
				}
			}
			show, descend := inScope(q, under)
			if show {
				if err := emit(part.CanonicalName(), q.Path(), row); err != nil {
					return err
				}
			}
			if !descend {
				return nil
			}
			for _, c := range q.Children {
				if err := walk(c, row, depth+1); err != nil {
					return err
				}
			}
			return nil
		}
		if err := walk(part.Root, nil, 0); err != nil {
			return err
		}
	}
	return nil
}

// principalIndex finds the matrix columns an ACL entry lets in: a user
// entry its user, a group entry the group and every user known to be in it.
// The wildcard lets in every column, the "everyone" one included.
type principalIndex struct {
	users, groups map[string][]int
}

func newPrincipalIndex(ps []Principal) principalIndex {
	x := principalIndex{users: map[string][]int{}, groups: map[string][]int{}}
	for i, pr := range ps {
		switch pr.Kind {
		case EveryoneKind:
		case "group":
			x.groups[pr.Name] = append(x.groups[pr.Name], i)
		default:
			x.users[pr.Name] = append(x.users[pr.Name], i)
			for _, g := range pr.Groups {
				if l := x.groups[g]; len(l) == 0 || l[len(l)-1] != i {
					x.groups[g] = append(l, i)
				}
			}
		}
	}
	return x
}

// raise lifts the cells the ACLs let in to at least c.
func (x principalIndex) raise(row []Cell, levels []LevelACL, c Cell) {
	for _, l := range levels {
		everyone := l.Value.EachGrant(func(e Entry) {
			cols := x.users[e.Name]
			if e.Kind != User {
				cols = x.groups[e.Name]
			}
			for _, i := range cols {
				row[i] = max(row[i], c)
			}
		})
		if everyone {
			for i := range row {
				row[i] = max(row[i], c)
			}
			return
		}
	}
}

// Change is one subject gaining or losing access to one queue.
type Change struct {
	Partition, Queue string
	Principal        string // "everyone", "user:NAME" or "group:NAME"
	Action           Action
	Gained           bool
	// Via names the ACL that grants it: in the new config for a gain, in
	// the old one for a loss.
	Via *Holder
}

// QueueChange is a queue that exists in only one of the configs.
type QueueChange struct {
	Partition, Queue string
	Added            bool
}

// DiffResult is what a config change does to access. Changes is filled by
// Diff; DiffTo hands them to its caller instead.
type DiffResult struct {
	Changes           []Change
	Queues            []QueueChange
	PartitionsAdded   []string
	PartitionsRemoved []string
	// Warnings are what applying the change to a running scheduler does
	// beyond access.
	Warnings []string
}

// Diff compares access between two accepted configs: for every partition
// and queue in both, which principals (every user and group named in either
// config, and everyone) gain or lose submit or admin, including changes
// that come from an ancestor's ACL; and the queues and partitions added and
// removed.
func Diff(old, new *Policy) *DiffResult {
	var changes []Change
	res := DiffTo(old, new, func(c Change) { changes = append(changes, c) })
	res.Changes = changes
	return res
}

// DiffTo is Diff with every change handed to emit as it is found (queue by
// queue, parents before children) instead of kept, so that memory stays
// that of the two configs however many (queue, subject) pairs change.
func DiffTo(old, new *Policy, emit func(Change)) *DiffResult {
	old.Prepare()
	new.Prepare()
	res := &DiffResult{}
	principals := mergePrincipals(old.NamedPrincipals(), new.NamedPrincipals())
	u := newUniverse(principals)
	for _, po := range old.cfg.Partitions {
		pn := new.cfg.Partition(po.CanonicalName())
		if pn == nil {
			res.PartitionsRemoved = append(res.PartitionsRemoved, po.CanonicalName())
			res.Warnings = append(res.Warnings, fmt.Sprintf("partition %s is removed: a running YuniKorn removes a partition from inside the config reload while holding the scheduler's lock that the removal waits for, so the reload hangs and the scheduler stops responding; restart the scheduler with the new config instead of applying it as an update", po.CanonicalName()))
			continue
		}
		d := &differ{old: old, new: new, u: u, res: res, emit: emit, part: po.CanonicalName(), buf: buffers{words: u.words}}
		d.walk(po.Root, pn.Root, [2]bits{}, [2]bits{}, 0)
	}
	for _, pn := range new.cfg.Partitions {
		if old.cfg.Partition(pn.CanonicalName()) == nil {
			res.PartitionsAdded = append(res.PartitionsAdded, pn.CanonicalName())
			// everything a new partition grants is a gain
			d := &differ{old: old, new: new, u: u, res: res, emit: emit, part: pn.CanonicalName(), buf: buffers{words: u.words}}
			d.added(pn.Root, [2]bits{}, false, 0)
		}
	}
	return res
}

// added reports a queue that only the new config has, and its subtree: what
// its own ACLs grant beyond what it inherits is a gain, so that a new queue
// with submitacl "*" trips --fail-on gain.
func (d *differ) added(nq *config.Queue, nParent [2]bits, listed bool, depth int) {
	if listed {
		d.res.Queues = append(d.res.Queues, QueueChange{Partition: d.part, Queue: nq.Path(), Added: true})
	}
	var nSets [2]bits
	for i, action := range []Action{Submit, Admin} {
		inherited := nParent[i]
		if inherited == nil {
			inherited = d.buf.at(depth, 2*i)
			clear(inherited)
		}
		nSets[i] = d.u.grants(d.new, nq, action, inherited, d.buf.at(depth, 2*i+1))
		if action == Submit && IsRecoveryPath(nq.Path()) {
			nSets[i] = d.buf.at(depth, 2*i+1)
			clear(nSets[i])
			continue
		}
		for b := 0; b <= len(d.u.principals); b++ {
			if !nSets[i].has(b) || inherited.has(b) {
				continue
			}
			if b > 0 && nSets[i].has(0) && !inherited.has(0) {
				break // everyone gains: naming each principal again says nothing more
			}
			c := Change{Partition: d.part, Queue: nq.Path(), Action: action, Gained: true, Principal: "everyone"}
			pr := Principal{}
			if b > 0 {
				pr = d.u.principals[b-1]
				c.Principal = pr.String()
			}
			c.Via = d.new.grantFor(nq, action, pr)
			d.emit(c)
		}
	}
	for _, nc := range nq.Children {
		d.added(nc, nSets, listed, depth+1)
	}
}

func mergePrincipals(a, b []Principal) []Principal {
	seen := map[string]bool{}
	var out []Principal
	for _, p := range append(append([]Principal(nil), a...), b...) {
		if !seen[p.String()] {
			seen[p.String()] = true
			out = append(out, p)
		}
	}
	SortPrincipals(out)
	return out
}

// universe numbers the principals for bit sets; bit 0 is everyone.
type universe struct {
	principals    []Principal
	users, groups map[string]int
	words         int
}

func newUniverse(ps []Principal) *universe {
	u := &universe{principals: ps, users: map[string]int{}, groups: map[string]int{}, words: (len(ps) + 1 + 63) / 64}
	for i, p := range ps {
		if p.Kind == "group" {
			u.groups[p.Name] = i + 1
		} else {
			u.users[p.Name] = i + 1
		}
	}
	return u
}

type bits []uint64

func (b bits) set(i int)      { b[i/64] |= 1 << (i % 64) }
func (b bits) has(i int) bool { return b[i/64]&(1<<(i%64)) != 0 }

// grants is the set of principals a queue's own ACLs let in for an action,
// on top of those inherited, built from the ACLs' set view (Value.Grants):
// the wildcard lets in everyone and every principal. The set is written
// into buf; when the queue's ACLs add no one, inherited itself is returned
// (callers only read the sets), so a tree of queues without ACLs costs no
// copies.
func (u *universe) grants(p *Policy, q *config.Queue, action Action, inherited, buf bits) bits {
	out, own := inherited, false // inherited is shared until someone is added
	lv := p.Level(q, action)
	for _, l := range lv.List() {
		everyone := l.Value.EachGrant(func(e Entry) {
			names := u.users
			if e.Kind != User {
				names = u.groups
			}
			i, ok := names[e.Name]
			if !ok || out != nil && out.has(i) {
				return
			}
			if !own {
				copy(buf, inherited)
				if inherited == nil {
					clear(buf)
				}
				out, own = buf, true
			}
			out.set(i)
		})
		if everyone {
			for i := range buf {
				buf[i] = ^uint64(0)
			}
			return buf
		}
	}
	if out == nil {
		clear(buf)
		return buf
	}
	return out
}

// buffers hands out the sets of one depth of the tree walk: a queue's sets
// are read by its children only, so the next sibling reuses them once the
// queue's subtree is done, and a diff allocates per depth, not per queue.
type buffers struct {
	words int
	depth [][4]bits
}

func (b *buffers) at(depth, slot int) bits {
	for len(b.depth) <= depth {
		var row [4]bits
		for i := range row {
			row[i] = make(bits, b.words)
		}
		b.depth = append(b.depth, row)
	}
	return b.depth[depth][slot]
}

type differ struct {
	old, new *Policy
	u        *universe
	res      *DiffResult
	emit     func(Change)
	part     string
	buf      buffers
}

func (d *differ) walk(oq, nq *config.Queue, oParent, nParent [2]bits, depth int) {
	if nq == nil {
		d.res.Queues = append(d.res.Queues, QueueChange{Partition: d.part, Queue: oq.Path()})
		return
	}
	if oq == nil {
		d.added(nq, nParent, true, depth)
		return
	}
	var oSets, nSets [2]bits
	for i, action := range []Action{Submit, Admin} {
		oSets[i] = d.u.grants(d.old, oq, action, oParent[i], d.buf.at(depth, 2*i))
		nSets[i] = d.u.grants(d.new, nq, action, nParent[i], d.buf.at(depth, 2*i+1))
		if action == Submit && IsRecoveryPath(oq.Path()) {
			// nobody passes the recovery queue's submit check, and its
			// children do not inherit from above it
			oSets[i], nSets[i] = d.buf.at(depth, 2*i), d.buf.at(depth, 2*i+1)
			clear(oSets[i])
			clear(nSets[i])
			continue
		}
		for w := range oSets[i] {
			if oSets[i][w] == nSets[i][w] {
				continue
			}
			for b := w * 64; b < (w+1)*64 && b <= len(d.u.principals); b++ {
				was, is := oSets[i].has(b), nSets[i].has(b)
				if was == is {
					continue
				}
				c := Change{Partition: d.part, Queue: nq.Path(), Action: action, Gained: is, Principal: "everyone"}
				pr := Principal{}
				if b > 0 {
					pr = d.u.principals[b-1]
					c.Principal = pr.String()
				}
				pol, q := d.old, oq
				if is {
					pol, q = d.new, nq
				}
				c.Via = pol.grantFor(q, action, pr)
				d.emit(c)
			}
		}
	}
	// children, matched by name as YuniKorn matches them (ignoring case)
	seen := map[string]bool{}
	for _, oc := range oq.Children {
		name := strings.ToLower(oc.Name.Value)
		seen[name] = true
		d.walk(oc, nq.Child(name), oSets, nSets, depth+1)
	}
	for _, nc := range nq.Children {
		if !seen[strings.ToLower(nc.Name.Value)] {
			d.walk(nil, nc, oSets, nSets, depth+1)
		}
	}
}

// grantFor finds the ACL that grants principal pr action on q, walking up as
// a check does; the zero principal stands for everyone.
func (p *Policy) grantFor(q *config.Queue, action Action, pr Principal) *Holder {
	sub := Subject{User: pr.Name, Groups: pr.Groups}
	if pr.Kind == "group" {
		sub = Subject{Groups: []string{pr.Name}}
	}
	for cur := q; cur != nil; cur = cur.Parent {
		if pr.Name == "" {
			lv := p.Level(cur, action)
			for _, l := range lv.List() {
				if l.Value.Everyone {
					return &Holder{Kind: "wildcard", Name: "*", Queue: cur.Path(), ACL: l.Field, Inherited: cur != q, Pos: p.cfg.Doc.ValuePos(l.Str.Node, l.Value.WildcardAt)}
				}
			}
			continue
		}
		if h := p.levelGrant(cur, action, sub, nil); h != nil {
			h.Inherited = cur != q
			return h
		}
	}
	return nil
}

// Describe says where a holder's grant is, for text output.
func (h *Holder) Describe() string {
	if h == nil {
		return ""
	}
	what := fmt.Sprintf("%s %q", h.Kind, h.Name)
	if h.Kind == "wildcard" {
		what = `"*"`
	}
	return fmt.Sprintf("%s %s %s at %s", h.Queue, h.ACL, what, h.Pos)
}
