package mesos

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
)

// randomListACLs writes an --acls file over a few principals, objects and
// kinds, with every entity type, for the tests that hold an answer to
// Authorize.
func randomListACLs(rng *rand.Rand) string {
	pool := []string{"a", "b", "c"}
	objects := []string{"x", "y", "x/z", "x/%"}
	entity := func(vals []string) string {
		switch rng.Intn(4) {
		case 0:
			return `{"type": "ANY"}`
		case 1:
			return `{"type": "NONE"}`
		}
		var vs []string
		for _, v := range vals {
			if rng.Intn(2) == 0 {
				vs = append(vs, fmt.Sprintf("%q", v))
			}
		}
		return `{"values": [` + strings.Join(vs, ", ") + `]}`
	}
	var b strings.Builder
	fmt.Fprintf(&b, `{"permissive": %t`, rng.Intn(2) == 0)
	for _, key := range testKinds {
		if rng.Intn(3) == 0 {
			continue
		}
		k := LookupKind(key)
		fmt.Fprintf(&b, `, %q: [`, key)
		n := 1 + rng.Intn(3)
		for j := 0; j < n; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			obs := objects
			if k.Rule != Role {
				obs = objects[:2]
			}
			fmt.Fprintf(&b, `{"principals": %s, %q: %s}`, entity(pool), k.Object, entity(obs))
		}
		b.WriteString("]")
	}
	b.WriteString("}")
	return b.String()
}

// testKinds are the kinds randomACLs writes lists for.
var testKinds = []string{"run_tasks", "register_frameworks", "teardown_frameworks", "launch_nested_containers_as_user"}

// TestWhoCanIsAuthorize holds who-can to the local authorizer: over
// generated ACL files, every principal (named, named nowhere, none) is
// let in exactly when who-can lists it (or lists everyone, for a
// principal no list names).
func TestWhoCanIsAuthorize(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(7))
	pool := []string{"a", "b", "c"}
	objects := []string{"x", "y", "x/z", "x/%"}
	kinds := testKinds
	asked, lists := 0, 0
	for i := 0; i < 1500; i++ {
		var b strings.Builder
		b.WriteString(randomListACLs(rng))
		m, err := Sys{}.Load([]*engine.Input{{Path: "acls.json", Data: []byte(b.String())}}, engine.Options{})
		if err != nil {
			continue
		}
		a := m.(*ACLs)
		lists++
		for _, key := range kinds {
			for _, ob := range append([]string{""}, objects[:3]...) {
				words := []string{key}
				req := Request{Kind: LookupKind(key)}
				if ob != "" {
					words = append(words, ob)
					req.Objects = []string{ob}
				}
				ans, err := Sys{}.WhoCan(m, audit.Question{Words: words})
				if err != nil {
					t.Fatalf("%s: who-can %v: %v", b.String(), words, err)
				}
				listed := map[string]bool{}
				for _, g := range ans.Users {
					listed[g.Name] = true
				}
				everyone := len(ans.Everyone) > 0
				for _, p := range append([]string{"(no principal)", "someone-else"}, pool...) {
					r := req
					if p != "(no principal)" {
						p := p
						r.Principal = &p
					}
					d, err := a.Authorize(r)
					if err != nil {
						t.Fatal(err)
					}
					want := listed[p]
					named := false
					for _, n := range a.principals(req.Kind) {
						named = named || n == p
					}
					if p != "(no principal)" && !named {
						want = everyone
					}
					if d.Allowed != want {
						t.Fatalf("%s\n%v for %s: authorizer %t, who-can %t", b.String(), words, p, d.Allowed, want)
					}
					asked++
				}
			}
		}
	}
	if lists < 500 || asked < 10000 {
		t.Fatalf("too few questions: %d files, %d answers", lists, asked)
	}
}

// TestListingsAreAuthorize holds access and matrix to Authorize on random
// ACLs: every cell is check's answer for its principal and object, and
// the rows that stand for many ("everyone", "(any other)") answer as a
// principal and an object named nowhere do.
func TestListingsAreAuthorize(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(11))
	cells, files := 0, 0
	for i := 0; i < 1500; i++ {
		// half with the nested-container kinds, whose requests also pass
		// the parent list
		src := randomACLs(rng)
		if i%2 == 1 {
			src = randomListACLs(rng)
		}
		m, err := Sys{}.Load([]*engine.Input{{Path: "acls.json", Data: []byte(src)}}, engine.Options{})
		if err != nil {
			continue
		}
		files++
		mx := &matrixRecorder{}
		if err := (Sys{}).Matrix(m, audit.MatrixQuestion{Subjects: []audit.Subject{{Name: "extra"}}}, mx); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		for _, r := range mx.rows {
			for c, who := range mx.head.Subjects {
				p := strings.TrimPrefix(who, "principal:")
				switch who {
				case "everyone":
					p = "someone-new"
				case "anonymous":
					p = "-"
				}
				words := []string{r.Section, p}
				switch {
				case LookupKind(r.Section).ImplicitObject():
				case r.Object == otherObject:
					words = append(words, "object-new")
				default:
					words = append(words, r.Object)
				}
				v, err := Sys{}.Check(m, audit.Question{Words: words})
				if err != nil {
					t.Fatalf("%s: check %v: %v", src, words, err)
				}
				if got := r.Cells[c] == "allow"; got != v.Allowed {
					t.Fatalf("%s\nmatrix %s %s for %s says %s; check %v says %s", src, r.Section, r.Object, who, r.Cells[c], words, v.Answer)
				}
				cells++
				if c == 2 {
					// access for the same principal says the same
					ac := &accessRecorder{}
					if err := (Sys{}).Access(m, audit.Question{Words: []string{p}}, audit.Scope{}, ac); err != nil {
						t.Fatal(err)
					}
					if got := ac.allowed[r.Section+" "+r.Object]; got != v.Allowed {
						t.Fatalf("%s\naccess %s %s for %s says %v; check says %s", src, r.Section, r.Object, p, got, v.Answer)
					}
				}
			}
		}
	}
	if files < 500 || cells < 10000 {
		t.Fatalf("only %d files and %d cells were compared", files, cells)
	}
}

type matrixRecorder struct {
	head audit.MatrixHead
	rows []audit.MatrixRow
}

func (r *matrixRecorder) Head(h audit.MatrixHead) error { r.head = h; return nil }
func (r *matrixRecorder) Row(x audit.MatrixRow) error   { r.rows = append(r.rows, x); return nil }

type accessRecorder struct{ allowed map[string]bool }

func (r *accessRecorder) Head(audit.AccessHead) error       { r.allowed = map[string]bool{}; return nil }
func (r *accessRecorder) Section(audit.AccessSection) error { return nil }
func (r *accessRecorder) Row(x audit.AccessRow) error {
	r.allowed[x.Section+" "+x.Object] = x.Cells[0].By != nil
	return nil
}

// TestDiffIsAuthorize holds diff to check on random pairs of ACL files:
// every (kind, object, principal) whose verdict differs between OLD and
// NEW is a change in the right direction, and nothing else is.
func TestDiffIsAuthorize(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(17))
	pairs, changes := 0, 0
	for i := 0; i < 800; i++ {
		os, ns := randomACLs(rng), randomACLs(rng)
		mo, err1 := Sys{}.Load([]*engine.Input{{Path: "old.json", Data: []byte(os)}}, engine.Options{})
		mn, err2 := Sys{}.Load([]*engine.Input{{Path: "new.json", Data: []byte(ns)}}, engine.Options{})
		if err1 != nil || err2 != nil {
			continue
		}
		pairs++
		d, err := Sys{}.Diff(mo, mn, audit.DiffSides{})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		d.Changes(func(c audit.Change) {
			got[c.Section+" "+c.Object+" "+c.Subject] = c.Gained
			changes++
		})
		for _, k := range fuzzKinds {
			o, n := mo.(*ACLs), mn.(*ACLs)
			_, inO := o.Lists[k]
			_, inN := n.Lists[k]
			if !inO && !inN {
				continue
			}
			kind := LookupKind(k)
			objs := union(o.objects(kind), n.objects(kind))
			for _, ob := range objs {
				for _, p := range append([]string{"-", "someone-new"}, fuzzSubjects...) {
					words := []string{k, p}
					switch {
					case kind.ImplicitObject():
					case ob == otherObject:
						words = append(words, "object-new")
					default:
						words = append(words, ob)
					}
					vo, err := Sys{}.Check(mo, audit.Question{Words: words})
					if err != nil {
						t.Fatal(err)
					}
					vn, err := Sys{}.Check(mn, audit.Question{Words: words})
					if err != nil {
						t.Fatal(err)
					}
					who := "principal:" + p
					switch p {
					case "-":
						who = "anonymous"
					case "someone-new":
						who = "everyone"
					}
					if !slices.Contains(append(o.principals(kind), n.principals(kind)...), p) && p != "-" && p != "someone-new" {
						continue // a principal neither file names answers as everyone
					}
					g, changed := got[k+" "+ob+" "+who]
					if changed != (vo.Allowed != vn.Allowed) || changed && g != vn.Allowed {
						t.Fatalf("OLD %s\nNEW %s\n%v: check %s then %s; diff says changed %v gained %v", os, ns, words, vo.Answer, vn.Answer, changed, g)
					}
				}
			}
		}
	}
	if pairs < 300 || changes < 300 {
		t.Fatalf("only %d pairs and %d changes compared", pairs, changes)
	}
}

// TestListingsAreBounded: access on a large file answers (its work grows
// with objects times entries), while a matrix or diff that would compare
// billions of entries with requests says so and stops, rather than run for
// minutes.
func TestListingsAreBounded(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`{"permissive": false, "run_tasks": [`)
	for i := 0; i < 3000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"principals": {"values": ["p%d"]}, "users": {"values": ["u%d"]}}`, i, i)
	}
	b.WriteString("]}")
	m, err := Sys{}.Load([]*engine.Input{{Path: "big.json", Data: []byte(b.String())}}, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ac := &accessRecorder{}
	if err := (Sys{}).Access(m, audit.Question{Words: []string{"p7"}}, audit.Scope{}, ac); err != nil || !ac.allowed["run_tasks u7"] || ac.allowed["run_tasks u8"] {
		t.Fatalf("access: %v %v", err, ac.allowed["run_tasks u7"])
	}
	err = (Sys{}).Matrix(m, audit.MatrixQuestion{}, &matrixRecorder{})
	if err == nil || !strings.Contains(err.Error(), "past the") {
		t.Fatalf("matrix of 9 million cells over 3,000 entries: %v", err)
	}
	if _, err := (Sys{}).Diff(m, m, audit.DiffSides{}); err == nil || !strings.Contains(err.Error(), "aclint access PRINCIPAL") {
		t.Fatalf("diff: %v", err)
	}
}
