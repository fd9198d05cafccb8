package ytsaurus

import (
	"fmt"
	"math/rand"
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
	users := []string{"u1", "u2", "u3", "u4"}
	groups := []string{"g1", "g2"}
	subjects := append(append([]string{"everyone", "users", "owner"}, users...), groups...)
	paths := []string{"/", "//a", "//a/b", "//a/b/c"}
	perms := []string{"read", "write", "remove", "administer"}
	modes := []string{"object_and_descendants", "object_only", "descendants_only", "immediate_descendants_only"}
	pick := func(from []string) string { return from[rng.Intn(len(from))] }
	trees, asked := 0, 0
	for i := 0; i < 600; i++ {
		var b strings.Builder
		b.WriteString("users:\n")
		for _, u := range users {
			fmt.Fprintf(&b, "  %s: {member_of: [%s]", u, pick(groups))
			if rng.Intn(8) == 0 {
				b.WriteString(", banned: true")
			}
			b.WriteString("}\n")
		}
		fmt.Fprintf(&b, "groups:\n  g1: {}\n  g2: {member_of: [%s]}\nnodes:\n", pick([]string{"g1", "users"}))
		for _, p := range paths {
			fmt.Fprintf(&b, "  %q:\n    owner: %s\n    inherit_acl: %t\n    acl:\n", p, pick(users), rng.Intn(4) != 0)
			for j := rng.Intn(3); j > 0; j-- {
				fmt.Fprintf(&b, "      - {action: %s, subjects: [%s], permissions: [%s], inheritance_mode: %s}\n",
					pick([]string{"allow", "allow", "deny"}), pick(subjects), pick(perms), pick(modes))
			}
		}
		m, err := Sys{}.Load([]*engine.Input{{Path: "tree.yaml", Data: []byte(b.String())}}, engine.Options{})
		if err != nil {
			t.Fatalf("%s\n%v", b.String(), err)
		}
		tree := m.(*Tree)
		trees++
		for _, p := range paths {
			for _, perm := range perms {
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
				for _, u := range users {
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
