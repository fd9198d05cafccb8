package mesos

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
)

// TestWhoCanIsAuthorize holds who-can to the local authorizer: over
// generated ACL files, every principal (named, named nowhere, none) is
// let in exactly when who-can lists it (or lists everyone, for a
// principal no list names).
func TestWhoCanIsAuthorize(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(7))
	pool := []string{"a", "b", "c"}
	objects := []string{"x", "y", "x/z", "x/%"}
	kinds := []string{"run_tasks", "register_frameworks", "teardown_frameworks", "launch_nested_containers_as_user"}
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
	asked, lists := 0, 0
	for i := 0; i < 1500; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, `{"permissive": %t`, rng.Intn(2) == 0)
		for _, key := range kinds {
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
