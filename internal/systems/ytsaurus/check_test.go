package ytsaurus

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func load(t *testing.T, text string) *Tree {
	t.Helper()
	tr := Load(Parse("tree.yaml", []byte(text)), Options{})
	if tr.Errors() != nil {
		t.Fatalf("tree refused: %v", tr.Errors())
	}
	return tr
}

func check(t *testing.T, tr *Tree, user string, p Permission, path string, cols ...string) *Response {
	t.Helper()
	req := Request{User: user, Permission: p, Path: path}
	if cols != nil {
		req.Columns = cols
	}
	r, err := tr.Check(req)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Inheritance modes at each depth below the node holding the ACE: depth 0
// is the node, 1 its child, 2 a grandchild.
func TestInheritanceModes(t *testing.T) {
	for mode, want := range map[string][3]bool{
		"object_only":                {true, false, false},
		"object_and_descendants":     {true, true, true},
		"descendants_only":           {false, true, true},
		"immediate_descendants_only": {false, true, false},
	} {
		tr := load(t, "users: {alice: {}}\nnodes:\n  \"//a\": {acl: [{action: allow, subjects: [alice], permissions: [read], inheritance_mode: "+mode+"}]}\n")
		for depth, path := range []string{"//a", "//a/b", "//a/b/c"} {
			if got := check(t, tr, "alice", Read, path).Action == Allow; got != want[depth] {
				t.Errorf("%s at depth %d: allowed %v, want %v", mode, depth, got, want[depth])
			}
		}
	}
}

func TestInheritACL(t *testing.T) {
	tr := load(t, `users: {alice: {}, bob: {}}
nodes:
  "/": {acl: [{action: allow, subjects: [everyone], permissions: [read]}]}
  "//a": {inherit_acl: false, acl: [{action: allow, subjects: [alice], permissions: [read]}]}
  "//a/b": {acl: [{action: allow, subjects: [bob], permissions: [write]}]}
`)
	if check(t, tr, "bob", Read, "//a/b").Action != Deny {
		t.Error("inherit_acl false on //a cuts the root's everyone read for //a/b")
	}
	if check(t, tr, "alice", Read, "//a/b").Action != Allow {
		t.Error("//a's own ACL still reaches //a/b")
	}
	if check(t, tr, "bob", Read, "//other").Action != Allow {
		t.Error("an unlisted node inherits the root")
	}
}

func TestDenyWinsAndReporting(t *testing.T) {
	tr := load(t, `users: {alice: {member_of: [eng]}}
groups: {eng: {}, ops: {}}
nodes:
  "//a": {acl: [{action: deny, subjects: [ops, eng, alice], permissions: [write]}, {action: allow, subjects: [eng, alice], permissions: [read]}]}
  "//a/b": {acl: [{action: allow, subjects: [alice], permissions: [write, read]}]}
`)
	r := check(t, tr, "alice", Write, "//a/b")
	if r.Action != Deny || r.Object != "//a" || r.Subject != "eng" {
		t.Errorf("a deny above wins over an allow below; the first matching subject is reported: %+v", r.Result)
	}
	r = check(t, tr, "alice", Read, "//a/b")
	if r.Action != Allow || r.Object != "//a" || r.Subject != "alice" {
		t.Errorf("the last allow met is reported, with the last matching subject of its ACE: %+v", r.Result)
	}
	if r := check(t, tr, "alice", Remove, "//a/b"); r.Action != Deny || r.ACE != nil {
		t.Errorf("no matching ACE is a deny without ACE: %+v", r.Result)
	}
}

func TestOwner(t *testing.T) {
	tr := load(t, `users: {alice: {member_of: [team]}, bob: {}}
groups: {team: {}}
nodes:
  "//home": {owner: bob, acl: [{action: allow, subjects: [owner], permissions: [remove], inheritance_mode: descendants_only}]}
  "//home/a": {owner: alice}
  "//home/t": {owner: team}
`)
	if check(t, tr, "alice", Remove, "//home/a").Action != Allow {
		t.Error("owner is the checked node's owner")
	}
	if check(t, tr, "bob", Remove, "//home/a").Action != Deny {
		t.Error("not the owner of the node holding the ACE")
	}
	if check(t, tr, "alice", Remove, "//home/t").Action != Allow {
		t.Error("an owner group matches its members")
	}
	if check(t, tr, "bob", Remove, "//home/x").Action != Deny {
		t.Error("a node without owner: owner matches nobody")
	}
}

func TestSubjectsAndFastLane(t *testing.T) {
	tr := load(t, `users:
  alice: {aliases: [a.smith], member_of: [admins]}
  bob: {banned: true, member_of: [admins]}
  carol: {tags: [drinks]}
  dave: {tags: [drinks, smoothie]}
groups:
  admins: {member_of: [superusers]}
nodes:
  "//a": {acl: [{action: allow, subjects: [a.smith, users], permissions: [write], subject_tag_filter: "drinks & !smoothie"}]}
`)
	if r := check(t, tr, "a.smith", Read, "//a"); r.Action != Allow || r.Fast != "superuser" || r.User.Name != "alice" {
		t.Errorf("an alias names the user; superusers through groups are allowed: %+v", r)
	}
	if r := check(t, tr, "bob", Read, "//a"); r.Action != Deny || r.Fast != "banned" {
		t.Errorf("banned wins over superuser: %+v", r)
	}
	if check(t, tr, "carol", Write, "//a").Action != Allow || check(t, tr, "dave", Write, "//a").Action != Deny {
		t.Error("subject tag filters")
	}
	if check(t, tr, "guest", Write, "//a").Action != Deny {
		t.Error("guest is not in users")
	}
	if _, err := tr.Check(Request{User: "nobody", Permission: Read, Path: "/"}); !errors.Is(err, ErrNoSuchUser) {
		t.Errorf("unknown user: %v", err)
	}
	if _, err := tr.Check(Request{User: "admins", Permission: Read, Path: "/"}); err == nil || !strings.Contains(err.Error(), "is a group") {
		t.Errorf("a group is not a user: %v", err)
	}
}

func TestColumnsAndFullRead(t *testing.T) {
	tr := load(t, `users: {alice: {member_of: [pii]}, bob: {}, carol: {}}
groups: {pii: {}}
nodes:
  "//t":
    acl:
      - {action: allow, subjects: [users], permissions: [read]}
      - {action: allow, subjects: [pii], permissions: [read], columns: [email], inheritance_mode: descendants_only}
      - {action: allow, subjects: [carol], permissions: [full_read]}
`)
	r := check(t, tr, "bob", Read, "//t", "email", "name")
	if r.Action != Allow || r.Columns[0].Action != Deny || r.Columns[1].Action != Allow {
		t.Errorf("a columnar ACE restricts its column even where its mode does not reach: %+v", r.Columns)
	}
	if r := check(t, tr, "alice", Read, "//t/child", "email"); r.Columns[0].Action != Allow || r.Columns[0].Subject != "pii" {
		t.Errorf("a columnar allow gives the column back: %+v", r.Columns)
	}
	if r := check(t, tr, "bob", FullRead, "//t"); r.Action != Deny {
		t.Errorf("full_read with a restricted column not allowed is denied: %+v", r.Result)
	}
	if r := check(t, tr, "carol", FullRead, "//t"); r.Action != Allow {
		t.Errorf("an explicit full_read allow: %+v", r.Result)
	}
	if r := check(t, tr, "carol", Read, "//t", "email"); r.Columns[0].Action != Undefined {
		t.Errorf("explicit full_read leaves a restricted column undefined, not denied (as GetResponse does): %+v", r.Columns)
	}
	tr = load(t, `users: {bob: {}}
nodes:
  "//t": {acl: [{action: allow, subjects: [users], permissions: [full_read]}, {action: allow, subjects: [users], permissions: [read], row_access_predicate: "region = 'eu'"}]}
  "//u": {acl: [{action: allow, subjects: [users], permissions: [read], row_access_predicate: "region = 'eu'"}, {action: allow, subjects: [users], permissions: [read]}]}
  "//v": {acl: [{action: deny, subjects: [users], permissions: [read]}, {action: allow, subjects: [users], permissions: [full_read]}]}
`)
	if check(t, tr, "bob", Read, "//t").Action != Allow {
		t.Error("full_read implies read")
	}
	if r := check(t, tr, "bob", Read, "//u"); r.Action != Allow || len(r.RowLevel) != 1 || r.RowLevel[0].Mode != "fail" {
		t.Errorf("a row-level ACE is returned to the reader: %+v", r)
	}
	if r := check(t, tr, "bob", FullRead, "//u"); r.Action != Deny {
		t.Errorf("full_read with a row-level ACE is denied: %+v", r.Result)
	}
	if r := check(t, tr, "bob", Read, "//t"); r.RowLevel != nil {
		t.Errorf("explicit full_read drops the row-level ACL: %+v", r.RowLevel)
	}
	if check(t, tr, "bob", FullRead, "//v").Action != Deny {
		t.Error("deny read denies full_read")
	}

	// a row-level ACE for someone else still gives every reader a
	// row-level list: empty, so the reader reads no rows
	tr = load(t, `users: {bob: {}, eve: {member_of: [eu]}}
groups: {eu: {}}
nodes:
  "//w": {acl: [{action: allow, subjects: [eu], permissions: [read], row_access_predicate: "region = 'eu'"}, {action: allow, subjects: [users], permissions: [read]}]}
  "//x": {acl: [{action: allow, subjects: [users], permissions: [read]}]}
`)
	r = check(t, tr, "bob", Read, "//w")
	if r.Action != Allow || r.RowLevel == nil || len(r.RowLevel) != 0 {
		t.Errorf("a reader the row-level ACE does not name gets an empty row-level list: %+v", r.RowLevel)
	}
	if len(r.Steps) == 0 || !r.Steps[0].Applied || !strings.Contains(r.Steps[0].Effect, "row-level, for eu only") {
		t.Errorf("the row-level ACE is not skipped for bob: %+v", r.Steps)
	}
	if r := check(t, tr, "eve", Read, "//w"); len(r.RowLevel) != 1 {
		t.Errorf("eve is named: %+v", r.RowLevel)
	}
	if r := check(t, tr, "bob", Read, "//x"); r.RowLevel != nil {
		t.Errorf("no row-level ACE, no row-level list: %+v", r.RowLevel)
	}
}

func TestVital(t *testing.T) {
	tr := load(t, `users: {bob: {}}
nodes:
  "//q": {acl: [{action: allow, subjects: [bob], permissions: [register_queue_consumer], vital: false}]}
`)
	if r, _ := tr.Check(Request{User: "bob", Permission: RegisterQueueConsumer, Path: "//q"}); r.Action != Allow {
		t.Error("a non-vital consumer")
	}
	if r, _ := tr.Check(Request{User: "bob", Permission: RegisterQueueConsumer, Path: "//q", Vital: true}); r.Action != Deny {
		t.Error("a vital consumer needs a vital ACE")
	}
}

func TestEffectiveACL(t *testing.T) {
	tr := load(t, `nodes:
  "/": {acl: [{action: allow, subjects: [everyone], permissions: [read], inheritance_mode: object_only}]}
  "//a": {acl: [{action: allow, subjects: [users], permissions: [write], inheritance_mode: immediate_descendants_only}, {action: allow, subjects: [users], permissions: [remove], inheritance_mode: descendants_only}]}
`)
	got := func(path string) []string {
		es, err := tr.EffectiveACL(path)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range es {
			out = append(out, e.ACE.Permissions.String()+":"+e.Mode.String())
		}
		return out
	}
	if g := got("//a/b"); !reflect.DeepEqual(g, []string{"write:object_only", "remove:object_and_descendants"}) {
		t.Errorf("//a/b: %v", g)
	}
	if g := got("//a/b/c"); !reflect.DeepEqual(g, []string{"remove:object_and_descendants"}) {
		t.Errorf("//a/b/c: %v", g)
	}
	if g := got("/"); !reflect.DeepEqual(g, []string{"read:object_only"}) {
		t.Errorf("/: %v", g)
	}
}

func TestBareACL(t *testing.T) {
	d := Parse("acl.json", []byte(`[{"action": "allow", "subjects": ["users"], "permissions": ["read"], "inheritance_mode": "object_and_descendants"}]`))
	tr := Load(d, Options{Path: "//home/x"})
	if tr.Errors() != nil || !tr.Bare {
		t.Fatal(tr.Issues)
	}
	if r := check(t, tr, "guest", Read, "//home/x"); r.Action != Deny {
		t.Error("guest")
	}
	if r := check(t, tr, "root", Read, "//home/x"); r.Action != Allow {
		t.Error("root")
	}
	if r := check(t, tr, "queue_agent", Read, "//home/x/y"); r.Action != Allow || r.Object != "//home/x" {
		t.Errorf("built-in users are in users: %+v", r.Result)
	}
}
