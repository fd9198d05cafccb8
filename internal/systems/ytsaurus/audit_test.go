package ytsaurus

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
)

// TestWhoCanIsCheck holds who-can to check-permission: over generated
// trees, every user the tree defines is listed as let in exactly when
// Check allows it, and as denied exactly when an ACE (or a ban) denies it.
func TestWhoCanIsCheck(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(11))
	trees, asked := 0, 0
	for i := 0; i < 600; i++ {
		var b strings.Builder
		b.WriteString(randomTree(rng))
		m, err := Sys{}.Load([]*engine.Input{{Path: "tree.yaml", Data: []byte(b.String())}}, engine.Options{})
		if err != nil {
			t.Fatalf("%s\n%v", b.String(), err)
		}
		tree := m.(*Tree)
		trees++
		for _, p := range testPaths {
			for _, perm := range testPerms {
				ans, err := Sys{}.WhoCan(m, audit.Question{Words: []string{p, perm}})
				if err != nil {
					t.Fatal(err)
				}
				in, out := map[string]bool{}, map[string]bool{}
				for _, g := range ans.Users {
					in[g.Name] = true
				}
				for _, g := range ans.Denied {
					out[g.Name] = true
				}
				pm, _ := ParsePermission(perm)
				for _, u := range testUsers {
					r, err := tree.Check(Request{User: u, Permission: pm, Path: p})
					if err != nil {
						t.Fatal(err)
					}
					denied := r.Action != Allow && (r.ACE != nil || r.Fast != "")
					if in[u] != (r.Action == Allow) || out[u] != denied {
						t.Fatalf("%s\n%s %s for %s: check %s, who-can lists it let in %t, denied %t", b.String(), p, perm, u, r.Action, in[u], out[u])
					}
					asked++
				}
			}
		}
	}
	if trees < 600 || asked < 30000 {
		t.Fatalf("too few questions: %d trees, %d answers", trees, asked)
	}
}

var (
	testUsers = []string{"u1", "u2", "u3", "u4"}
	testPaths = []string{"/", "//a", "//a/b", "//a/b/c"}
	testPerms = []string{"read", "write", "remove", "administer"}
)

// randomTree writes a tree document over a few users, groups and nodes,
// with deny, banned users, owners and every inheritance mode.
func randomTree(rng *rand.Rand) string {
	groups := []string{"g1", "g2"}
	subjects := append(append([]string{"everyone", "users", "owner"}, testUsers...), groups...)
	modes := []string{"object_and_descendants", "object_only", "descendants_only", "immediate_descendants_only"}
	pick := func(from []string) string { return from[rng.Intn(len(from))] }
	var b strings.Builder
	b.WriteString("users:\n")
	for _, u := range testUsers {
		fmt.Fprintf(&b, "  %s: {member_of: [%s]", u, pick(groups))
		if rng.Intn(8) == 0 {
			b.WriteString(", banned: true")
		}
		b.WriteString("}\n")
	}
	fmt.Fprintf(&b, "groups:\n  g1: {}\n  g2: {member_of: [%s]}\nnodes:\n", pick([]string{"g1", "users"}))
	for _, p := range testPaths {
		fmt.Fprintf(&b, "  %q:\n    owner: %s\n    inherit_acl: %t\n    acl:\n", p, pick(testUsers), rng.Intn(4) != 0)
		for j := rng.Intn(3); j > 0; j-- {
			fmt.Fprintf(&b, "      - {action: %s, subjects: [%s], permissions: [%s], inheritance_mode: %s}\n",
				pick([]string{"allow", "allow", "deny"}), pick(subjects), pick(testPerms), pick(modes))
		}
	}
	return b.String()
}

// TestListingsAreCheck holds access and matrix to check on random trees:
// every node is a row, every user a column, and each cell is the verdict
// aclint check gives for the same words.
func TestListingsAreCheck(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(13))
	cells := 0
	for i := 0; i < 300; i++ {
		src := randomTree(rng)
		m, err := Sys{}.Load([]*engine.Input{{Path: "tree.yaml", Data: []byte(src)}}, engine.Options{})
		if err != nil {
			t.Fatalf("%s\n%v", src, err)
		}
		perm := testPerms[i%len(testPerms)]
		mx := &matrixRecorder{}
		if err := (Sys{}).Matrix(m, audit.MatrixQuestion{Action: perm}, mx); err != nil {
			t.Fatal(err)
		}
		if len(mx.rows) != len(testPaths) {
			t.Fatalf("%s\nmatrix has %d rows, the tree %d nodes", src, len(mx.rows), len(testPaths))
		}
		for _, u := range testUsers {
			ac := &accessRecorder{}
			if err := (Sys{}).Access(m, audit.Question{Words: []string{u}}, audit.Scope{}, ac); err != nil {
				t.Fatal(err)
			}
			col := slices.Index(mx.head.Subjects, "user:"+u)
			if col < 0 {
				t.Fatalf("matrix has no column for %s: %v", u, mx.head.Subjects)
			}
			for _, r := range mx.rows {
				for _, p := range testPerms {
					v, err := Sys{}.Check(m, audit.Question{Words: []string{u, p, r.Object}})
					if err != nil {
						t.Fatal(err)
					}
					if got := ac.allowed[r.Object+" "+p]; got != v.Allowed {
						t.Fatalf("%s\naccess %s %s for %s says %v; check says %s", src, r.Object, p, u, got, v.Answer)
					}
					if p == perm && (r.Cells[col] == perm) != v.Allowed {
						t.Fatalf("%s\nmatrix %s %s for %s says %s; check says %s", src, r.Object, p, u, r.Cells[col], v.Answer)
					}
					cells++
				}
			}
		}
	}
	if cells < 15000 {
		t.Fatalf("only %d cells compared", cells)
	}
}

type matrixRecorder struct {
	head audit.MatrixHead
	rows []audit.MatrixRow
}

func (r *matrixRecorder) Head(h audit.MatrixHead) error { r.head = h; return nil }
func (r *matrixRecorder) Row(x audit.MatrixRow) error   { r.rows = append(r.rows, x); return nil }

// accessRecorder keeps each (node, permission) answer of a listing.
type accessRecorder struct {
	actions []string
	allowed map[string]bool
}

func (r *accessRecorder) Head(h audit.AccessHead) error {
	r.actions, r.allowed = h.Actions, map[string]bool{}
	return nil
}
func (r *accessRecorder) Section(audit.AccessSection) error { return nil }
func (r *accessRecorder) Row(x audit.AccessRow) error {
	for i, c := range x.Cells {
		r.allowed[x.Object+" "+r.actions[i]] = c.By != nil
	}
	return nil
}

// TestDiffIsCheck holds diff to check on random pairs of trees: every
// (node, user, permission) whose verdict differs between OLD and NEW is a
// change in the right direction, and nothing else is.
func TestDiffIsCheck(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(19))
	changes := 0
	for i := 0; i < 200; i++ {
		os, ns := randomTree(rng), randomTree(rng)
		mo, err := Sys{}.Load([]*engine.Input{{Path: "old.yaml", Data: []byte(os)}}, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		mn, err := Sys{}.Load([]*engine.Input{{Path: "new.yaml", Data: []byte(ns)}}, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		d, err := Sys{}.Diff(mo, mn, audit.DiffSides{})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		d.Changes(func(c audit.Change) { got[c.Object+" "+c.Subject+" "+c.Action] = c.Gained; changes++ })
		for _, p := range testPaths {
			for _, u := range testUsers {
				for _, perm := range listedPermissions {
					words := []string{u, perm.String(), p}
					vo, err := Sys{}.Check(mo, audit.Question{Words: words})
					if err != nil {
						t.Fatal(err)
					}
					vn, err := Sys{}.Check(mn, audit.Question{Words: words})
					if err != nil {
						t.Fatal(err)
					}
					g, changed := got[p+" user:"+u+" "+perm.String()]
					if changed != (vo.Allowed != vn.Allowed) || changed && g != vn.Allowed {
						t.Fatalf("OLD %s\nNEW %s\n%v: check %s then %s; diff says changed %v gained %v", os, ns, words, vo.Answer, vn.Answer, changed, g)
					}
				}
			}
		}
	}
	if changes < 1000 {
		t.Fatalf("only %d changes compared", changes)
	}
}

// TestListingsAreBounded: a matrix or diff that would ask check-permission
// tens of millions of times says so and stops; access, linear in the
// nodes, answers.
func TestListingsAreBounded(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("users:\n")
	for i := 0; i < 1500; i++ {
		fmt.Fprintf(&b, "  u%d: {}\n", i)
	}
	b.WriteString("nodes:\n")
	for i := 0; i < 1500; i++ {
		fmt.Fprintf(&b, "  \"//n%d\":\n    acl:\n      - {action: allow, subjects: [u%d], permissions: [read]}\n", i, i)
	}
	m, err := Sys{}.Load([]*engine.Input{{Path: "big.yaml", Data: []byte(b.String())}}, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ac := &accessRecorder{}
	if err := (Sys{}).Access(m, audit.Question{Words: []string{"u7"}}, audit.Scope{}, ac); err != nil || !ac.allowed["//n7 read"] || ac.allowed["//n8 read"] {
		t.Fatalf("access: %v", err)
	}
	if err := (Sys{}).Matrix(m, audit.MatrixQuestion{}, &matrixRecorder{}); err == nil || !strings.Contains(err.Error(), "--under PATH") {
		t.Fatalf("matrix of 2.25 million cells: %v", err)
	}
	if err := (Sys{}).Matrix(m, audit.MatrixQuestion{Scope: audit.Scope{Under: "//n7"}}, &matrixRecorder{}); err != nil {
		t.Fatalf("matrix under one node: %v", err)
	}
	if _, err := (Sys{}).Diff(m, m, audit.DiffSides{}); err == nil || !strings.Contains(err.Error(), "past the") {
		t.Fatalf("diff: %v", err)
	}
}

// TestDiffNewUsers: a user only NEW defines has no access in OLD, where
// YTsaurus does not know them, so what NEW lets them do is a gain; a user
// only OLD defined loses what they had.
func TestDiffNewUsers(t *testing.T) {
	t.Parallel()
	load := func(users string) audit.Model {
		doc := "users:\n" + users + "nodes:\n  \"//home\":\n    acl:\n      - {action: allow, subjects: [users], permissions: [write]}\n"
		m, err := Sys{}.Load([]*engine.Input{{Path: "t.yaml", Data: []byte(doc)}}, engine.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	old, new := load("  alice: {}\n  carol: {}\n"), load("  alice: {}\n  bob: {}\n")
	d, err := Sys{}.Diff(old, new, audit.DiffSides{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	d.Changes(func(c audit.Change) {
		if c.Object == "//home" && c.Action == "write" {
			got[c.Subject] = c.Gained
		}
	})
	if g, ok := got["user:bob"]; !ok || !g {
		t.Errorf("bob, new in NEW with write on //home: %v", got)
	}
	if g, ok := got["user:carol"]; !ok || g {
		t.Errorf("carol, gone from NEW, had write on //home: %v", got)
	}
	if _, ok := got["user:alice"]; ok {
		t.Errorf("alice's access did not change: %v", got)
	}
}
