package ytsaurus

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Request is one check-permission question.
type Request struct {
	User       string
	Permission Permission // a single permission
	Path       string
	// Columns, when set, asks for a per-column answer too.
	Columns []string
	// Vital is the vitality of a queue consumer being registered
	// (register_queue_consumer only).
	Vital bool
	// Groups and Tags describe a user a lone ACL does not: the groups the
	// user is in (beyond users and everyone) and the user's tags.
	Groups []string
	Tags   []string
}

// Result is an allow or deny with the node and subject of the deciding
// ACE (empty when no ACE decided).
type Result struct {
	Action  Action
	Object  string // path of the node whose ACL held the ACE
	Subject string // the subject the ACE matched through, owner resolved
	ACE     *ACE
}

// ColumnResult is the answer for one requested column.
type ColumnResult struct {
	Column string
	Result
}

// RowLevelACE is a row-level ACE the reader must apply.
type RowLevelACE struct {
	Predicate string
	Mode      string
}

// Step is one ACE the walk met, and what it did.
type Step struct {
	Node    *Node
	ACE     *ACE
	Effect  string // applied: how; skipped: why
	Applied bool
}

// Response is YTsaurus' TPermissionCheckResponse, with the walk that
// produced it.
type Response struct {
	Result
	Columns []ColumnResult // nil when no columns were asked (or known)
	// RowLevel is nil when no row-level ACE reaches the object; otherwise
	// it lists those that name the user, and is empty (the user reads no
	// rows) when none does.
	RowLevel []RowLevelACE
	User     *Subject
	Fast     string // "banned" or "superuser" when the fast lane answered
	Steps    []Step
	Notes    []string
}

// adHocUser is a user a lone ACL does not describe: in users and the
// groups given (with the built-in groups above them), with the tags given.
func (t *Tree) adHocUser(req Request) *Subject {
	u := &Subject{Name: req.User, Tags: map[string]bool{}}
	set := map[string]bool{}
	var add func(g string)
	add = func(g string) {
		if set[g] {
			return
		}
		set[g] = true
		if p := builtinGroups[g]; p != "" {
			add(p)
		}
	}
	add(Users)
	for _, g := range req.Groups {
		add(g)
	}
	for g := range set {
		u.closure = append(u.closure, g)
	}
	sort.Strings(u.closure)
	for _, tag := range req.Tags {
		u.Tags[tag] = true
	}
	return u
}

// ErrNoSuchUser is YTsaurus' answer for a user it does not know.
var ErrNoSuchUser = errors.New("No such user")

// ErrRefused is returned for a tree YTsaurus would not hold.
var ErrRefused = errors.New("YTsaurus refuses this tree")

// Check answers a request as the master's CheckPermission does.
func (t *Tree) Check(req Request) (*Response, error) {
	if t.Errors() != nil {
		return nil, ErrRefused
	}
	if (len(req.Groups) > 0 || len(req.Tags) > 0) && !t.Bare {
		return nil, errors.New("groups and tags of the user are for a lone ACL; a tree document describes its users")
	}
	u := t.Dir.User(req.User)
	var notes []string
	switch {
	case u == nil && t.Bare && t.Dir.Lookup(req.User) == nil:
		u = t.adHocUser(req)
		notes = append(notes, fmt.Sprintf("a lone ACL does not describe its users: %s is taken as an ordinary user, in %s", req.User, strings.Join(u.closure, ", ")))
	case u == nil:
		if s := t.Dir.Lookup(req.User); s != nil {
			return nil, fmt.Errorf("%w %s: %s is a group", ErrNoSuchUser, yq(req.User), yq(s.Name))
		}
		return nil, fmt.Errorf("%w %s", ErrNoSuchUser, yq(req.User))
	case len(req.Groups) > 0 || len(req.Tags) > 0:
		return nil, fmt.Errorf("%s is a built-in user; its groups and tags are YTsaurus'", yq(u.Name))
	}
	node, err := t.Node(req.Path)
	if err != nil {
		return nil, err
	}
	if req.Permission == FullRead && req.Columns != nil {
		return nil, errors.New("full_read is checked for every column of the table; it takes no --columns")
	}
	r := &Response{User: u, Notes: notes}
	if u.Name != req.User {
		r.Notes = append(r.Notes, fmt.Sprintf("%s is an alias of user %s", yq(req.User), yq(u.Name)))
	}
	// Fast lane, in the master's order: banned before superusers.
	switch {
	case u.Banned:
		r.Action, r.Fast = Deny, "banned"
		r.fastColumns(req.Columns)
		return r, nil
	case u.Name == Root || u.In(Superusers):
		r.Action, r.Fast = Allow, "superuser"
		r.fastColumns(req.Columns)
		return r, nil
	}
	c := checker{t: t, r: r, user: u, perm: req.Permission, vital: req.Vital, owner: node.Owner}
	c.mask = req.Permission
	if req.Permission&(Read|FullRead) != 0 {
		c.mask |= Read | FullRead
	}
	c.fullRead = req.Permission == FullRead
	c.columns = map[string]*Result{}
	c.wanted = map[string]bool{}
	for _, col := range req.Columns {
		c.wanted[col] = true
	}
	if c.fullRead {
		// full_read asks about every column of the table; the columns a
		// columnar ACE names are the ones that can differ
		for _, col := range t.columnarColumns(node) {
			c.wanted[col] = true
			req.Columns = append(req.Columns, col)
		}
		if len(req.Columns) > 0 {
			r.Notes = append(r.Notes, "full_read covers every column of the table; the columns columnar ACEs name are: "+strings.Join(req.Columns, ", "))
		}
	}
	if node.Owner == "" {
		r.Notes = append(r.Notes, fmt.Sprintf("%s has no owner in the document: ACEs naming owner match nobody there", node.Path))
	}
	c.walk(node)
	c.respond(req.Columns)
	if r.Action == Allow && r.ACE != nil {
		allows := 0
		for _, st := range r.Steps {
			if st.Applied && st.ACE.Action == Allow && !st.ACE.HasColumns && st.ACE.RowPredicate == nil {
				allows++
			}
		}
		if allows > 1 {
			r.Notes = append(r.Notes, "several ACEs allow; YTsaurus reports the last one it meets on the walk up, as here")
		}
	}
	if c.fullRead {
		r.Columns = nil
	}
	return r, nil
}

func (r *Response) fastColumns(cols []string) {
	if cols == nil {
		return
	}
	r.Columns = make([]ColumnResult, len(cols))
	for i, c := range cols {
		r.Columns[i] = ColumnResult{Column: c, Result: Result{Action: r.Action}}
	}
}

// columnarColumns lists the columns the columnar ACEs on the walk from
// node name, in order.
func (t *Tree) columnarColumns(n *Node) []string {
	var out []string
	seen := map[string]bool{}
	t.walkUp(n, func(cur *Node, depth int) bool {
		for _, a := range cur.ACL {
			for _, col := range a.Columns {
				if !seen[col] {
					seen[col] = true
					out = append(out, col)
				}
			}
		}
		return true
	})
	return out
}

// walkUp visits n and its ancestors as the ACE iterator does: depth counts
// every node, and a node that does not inherit ends the walk after its own
// ACL.
func (t *Tree) walkUp(n *Node, fn func(cur *Node, depth int) bool) {
	depth := 0
	for cur := n; cur != nil; depth++ {
		if !fn(cur, depth) || !cur.Inherit {
			return
		}
		p := Parent(cur.Path)
		if p == "" {
			return
		}
		cur, _ = t.Node(p)
	}
}

type checker struct {
	t        *Tree
	r        *Response
	user     *Subject
	perm     Permission
	mask     Permission
	vital    bool
	owner    string
	fullRead bool

	wanted          map[string]bool
	columns         map[string]*Result // restricted columns met so far
	fullReadGranted bool
	rowLevel        []RowLevelACE
	hasRowLevel     bool
	stopped         bool
}

func (c *checker) walk(n *Node) {
	c.t.walkUp(n, func(cur *Node, depth int) bool {
		for _, a := range cur.ACL {
			if c.stopped {
				return false
			}
			c.process(cur, a, depth)
		}
		return !c.stopped
	})
}

func (c *checker) step(cur *Node, a *ACE, depth int, applied bool, format string, args ...any) {
	c.r.Steps = append(c.r.Steps, Step{Node: cur, ACE: a, Applied: applied, Effect: fmt.Sprintf(format, args...)})
}

// process is TPermissionChecker::ProcessAce.
func (c *checker) process(cur *Node, a *ACE, depth int) {
	if a.TagFilter != nil && !a.TagFilter.Matches(c.user.Tags) {
		c.step(cur, a, depth, false, "skipped: the user's tags do not satisfy subject_tag_filter %s", yq(a.TagFilter.Text))
		return
	}
	for _, col := range a.Columns {
		if c.wanted[col] && c.columns[col] == nil {
			c.columns[col] = &Result{}
		}
	}
	if _, ok := a.Mode.Inherited(depth); !ok {
		c.step(cur, a, depth, false, "skipped: inheritance_mode %s does not reach %s", a.Mode, depthWords(depth))
		return
	}
	if a.Permissions&c.mask == 0 {
		c.step(cur, a, depth, false, "skipped: it is about %s, not %s", orNone(a.Permissions), c.perm.String())
		return
	}
	if c.perm == RegisterQueueConsumer && c.vital && (a.Vital == nil || !*a.Vital) {
		c.step(cur, a, depth, false, "skipped: a vital consumer is asked about and the ACE is not vital")
		return
	}
	if a.RowPredicate != nil && !c.hasRowLevel {
		c.hasRowLevel = true
	}
	matched := c.match(a)
	if len(matched) == 0 {
		if a.RowPredicate != nil {
			// not skipped: any row-level ACE that reaches the node gives
			// every reader a row-level list, empty for one it does not name
			c.step(cur, a, depth, true, "row-level, for %s only: the user is not one of them, but the table now has row-level ACEs, so the user's row_level_acl lists only the row-level ACEs that name them (none: no rows)", strings.Join(a.Subjects, ", "))
			return
		}
		c.step(cur, a, depth, false, "skipped: none of its subjects (%s) is the user or one of the user's groups", strings.Join(a.Subjects, ", "))
		return
	}
	if a.Permissions&FullRead != 0 {
		c.fullReadGranted = true
	}
	for _, s := range matched {
		switch {
		case a.HasColumns:
			var cols []string
			for _, col := range a.Columns {
				res := c.columns[col]
				if res == nil {
					continue
				}
				cols = append(cols, col)
				setResult(res, a, cur.Path, s)
				if c.fullRead && res.Action == Deny {
					c.deny(a, cur.Path, s)
					break
				}
			}
			c.step(cur, a, depth, true, "%s for columns %s, through %s", a.Action, strings.Join(cols, ", "), s)
		case a.RowPredicate != nil:
			c.rowLevel = append(c.rowLevel, RowLevelACE{Predicate: *a.RowPredicate, Mode: orDefault(a.RowMode, "fail")})
			c.step(cur, a, depth, true, "row-level: the reader sees only rows where %s, through %s", *a.RowPredicate, s)
		default:
			setResult(&c.r.Result, a, cur.Path, s)
			c.step(cur, a, depth, true, "%s, through %s", a.Action, s)
			if c.r.Action == Deny {
				c.deny(a, cur.Path, s)
			}
		}
		if c.stopped {
			return
		}
	}
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func orNone(p Permission) string {
	if p == 0 {
		return "no permission"
	}
	return p.Describe()
}

func depthWords(d int) string {
	switch d {
	case 0:
		return "the node itself"
	case 1:
		return "its children"
	}
	return fmt.Sprintf("nodes %d levels below it", d)
}

// match returns the subjects of the ACE that the user matches, in order;
// "owner" stands for the checked node's owner.
func (c *checker) match(a *ACE) []string {
	var out []string
	for _, name := range a.Subjects {
		if name == Owner && c.owner != "" {
			name = c.owner
		}
		s := c.t.Dir.Lookup(name)
		if s == nil {
			// a lone ACL's subject: the user by name, or a group the user
			// was said to be in
			if name == c.user.Name || c.user.In(name) {
				out = append(out, name)
			}
			continue
		}
		if s.Group && c.user.In(s.Name) || !s.Group && s.Name == c.user.Name {
			out = append(out, s.Name)
		}
	}
	return out
}

// setResult is ProcessMatchingAceAction: a deny sticks, an allow is
// overwritten by every later match.
func setResult(r *Result, a *ACE, object, subject string) {
	if r.Action == Deny {
		return
	}
	r.Action, r.Object, r.Subject, r.ACE = a.Action, object, subject, a
}

func (c *checker) deny(a *ACE, object, subject string) {
	c.r.Result = Result{Action: Deny, Object: object, Subject: subject, ACE: a}
	c.rowLevel, c.hasRowLevel = nil, false
	c.stopped = true
}

// respond is GetResponse.
func (c *checker) respond(cols []string) {
	r := c.r
	if r.Action == Undefined {
		r.Result = Result{Action: Deny}
		c.rowLevel, c.hasRowLevel = nil, false
	}
	if r.Action == Allow && cols != nil {
		r.Columns = make([]ColumnResult, len(cols))
		var denied *Result
		for i, col := range cols {
			res, ok := c.columns[col]
			switch {
			case !ok:
				r.Columns[i] = ColumnResult{col, Result{Action: r.Action, Object: r.Object, Subject: r.Subject, ACE: r.ACE}}
			default:
				cr := *res
				if cr.Action == Undefined && !c.fullReadGranted {
					cr.Action = Deny
					if denied == nil {
						d := cr
						denied = &d
					}
				}
				r.Columns[i] = ColumnResult{col, cr}
			}
		}
		if c.fullRead && denied != nil {
			r.Result = Result{Action: Deny, Object: denied.Object, Subject: denied.Subject, ACE: denied.ACE}
			for i := range r.Columns {
				r.Columns[i].Result = r.Result
			}
			c.rowLevel, c.hasRowLevel = nil, false
		}
	}
	if c.fullReadGranted {
		c.rowLevel, c.hasRowLevel = nil, false
	}
	if c.hasRowLevel && c.fullRead {
		r.Result = Result{Action: Deny}
		c.rowLevel, c.hasRowLevel = nil, false
		r.Notes = append(r.Notes, "the table has row-level ACEs and full_read is not explicitly allowed: full_read is denied")
	}
	if c.hasRowLevel {
		r.RowLevel = append([]RowLevelACE{}, c.rowLevel...)
	}
}

// EffectiveEntry is one entry of @effective_acl, with the node it comes
// from.
type EffectiveEntry struct {
	ACE  *ACE
	Node *Node
	Mode Mode // the inheritance mode as seen from the asked node
}

// EffectiveACL is @effective_acl as GetEffectiveAcl computes it: every ACE
// that reaches the node, its mode rewritten for the distance, up to the
// first node that does not inherit.
func (t *Tree) EffectiveACL(path string) ([]EffectiveEntry, error) {
	if t.Errors() != nil {
		return nil, ErrRefused
	}
	n, err := t.Node(path)
	if err != nil {
		return nil, err
	}
	var out []EffectiveEntry
	t.walkUp(n, func(cur *Node, depth int) bool {
		for _, a := range cur.ACL {
			if m, ok := a.Mode.Inherited(depth); ok {
				out = append(out, EffectiveEntry{ACE: a, Node: cur, Mode: m})
			}
		}
		return true
	})
	return out, nil
}
