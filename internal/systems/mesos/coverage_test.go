package mesos

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

func TestUnreachable(t *testing.T) {
	for _, c := range []struct {
		name, kind, entries string
		want                string // "entry<-by,by; ..." for each unreachable entry
	}{
		{"NONE first shadows the grant", "teardown_frameworks",
			`{"principals": {"type": "NONE"}, "framework_principals": {"type": "ANY"}}, {"principals": {"values": ["admin"]}, "framework_principals": {"type": "ANY"}}`,
			"1<-0"},
		{"two entries cover a third together", "run_tasks",
			`{"principals": {"values": ["a"]}, "users": {"type": "ANY"}}, {"principals": {"values": ["b"]}, "users": {"type": "ANY"}}, {"principals": {"values": ["a", "b"]}, "users": {"values": ["root"]}}`,
			"2<-0,1"},
		{"a superset decides first", "run_tasks",
			`{"principals": {"values": ["a", "b"]}, "users": {"values": ["x", "y"]}}, {"principals": {"values": ["a"]}, "users": {"values": ["y"]}}`,
			"1<-0"},
		{"disjoint users", "run_tasks",
			`{"principals": {"values": ["a"]}, "users": {"values": ["x"]}}, {"principals": {"values": ["a"]}, "users": {"values": ["y"]}}`, ""},
		{"ANY after names is still reachable (unauthenticated, others)", "run_tasks",
			`{"principals": {"values": ["a"]}, "users": {"type": "ANY"}}, {"principals": {"type": "ANY"}, "users": {"type": "ANY"}}`, ""},
		{"SOME objects do not cover a request about all users", "run_tasks",
			`{"principals": {"values": ["a"]}, "users": {"values": ["x"]}}, {"principals": {"values": ["a"]}, "users": {"type": "NONE"}}`, ""},
		{"nested roles under a recursive role", "reserve_resources",
			`{"principals": {"values": ["ops"]}, "roles": {"values": ["king/%"]}}, {"principals": {"values": ["ops"]}, "roles": {"values": ["king/a", "king/b/%"]}}`,
			"1<-0"},
		{"the role itself is not under it", "reserve_resources",
			`{"principals": {"values": ["ops"]}, "roles": {"values": ["king/%"]}}, {"principals": {"values": ["ops"]}, "roles": {"values": ["king"]}}`, ""},
		{"a recursive role never covers a request about all roles", "reserve_resources",
			`{"principals": {"values": ["ops"]}, "roles": {"values": ["king/%"]}}, {"principals": {"values": ["ops"]}, "roles": {"type": "ANY"}}`, ""},
		{"a deeper recursive role is covered", "reserve_resources",
			`{"principals": {"values": ["ops"]}, "roles": {"values": ["a/%", "b"]}}, {"principals": {"values": ["ops"]}, "roles": {"values": ["a/b/%"]}}`,
			"1<-0"},
		{"implicit objects: only the subject counts", "view_flags",
			`{"principals": {"values": ["ops"]}, "flags": {"type": "ANY"}}, {"principals": {"values": ["ops"]}, "flags": {"type": "NONE"}}`,
			"1<-0"},
		{"an entry that matches nothing is left to other rules", "run_tasks",
			`{"principals": {"type": "ANY"}, "users": {"type": "ANY"}}, {"principals": {}, "users": {"type": "ANY"}}`, ""},
	} {
		a := decode(t, fmt.Sprintf(`{%q: [%s]}`, c.kind, c.entries))
		if a.Errors() != nil {
			t.Fatalf("%s: %v", c.name, a.Issues)
		}
		var got []string
		for _, u := range a.unreachable(LookupKind(c.kind)) {
			var by []string
			for _, b := range u.By {
				by = append(by, fmt.Sprint(b.Index))
			}
			got = append(got, fmt.Sprintf("%d<-%s", u.Entry.Index, strings.Join(by, ",")))
		}
		if g := strings.Join(got, "; "); g != c.want {
			t.Errorf("%s: %q, want %q", c.name, g, c.want)
		}
	}
}

// TestCoverageAgreesWithAuthorize holds the exact analysis to the
// authorizer itself on random lists: an entry called unreachable never
// decides a request, every other entry that can match decides one, and a
// fall-through request is one permissive decides.
func TestCoverageAgreesWithAuthorize(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 3000; i++ {
		checkCoverage(t, randomACLs(r))
	}
}

func FuzzCoverage(f *testing.F) {
	f.Add(int64(1), uint8(3))
	f.Add(int64(42), uint8(6))
	f.Fuzz(func(t *testing.T, seed int64, n uint8) {
		checkCoverage(t, randomACLsN(rand.New(rand.NewSource(seed)), int(n%9)))
	})
}

var (
	fuzzKinds    = []string{"run_tasks", "reserve_resources", "view_flags", "mark_agents_gone", "register_frameworks"}
	fuzzSubjects = []string{"a", "b", "c"}
	fuzzObjects  = []string{"x", "y", "k", "k/a", "k/a/b", "k/%", "k/a/%", "x/%", "kk/a"}
)

func randomACLs(r *rand.Rand) string { return randomACLsN(r, 1+r.Intn(6)) }

func randomACLsN(r *rand.Rand, n int) string {
	k := LookupKind(fuzzKinds[r.Intn(len(fuzzKinds))])
	entity := func(values []string) string {
		switch r.Intn(5) {
		case 0:
			return `{"type": "ANY"}`
		case 1:
			return `{"type": "NONE"}`
		case 2:
			if r.Intn(3) == 0 {
				return fmt.Sprintf(`{"type": "NONE", "values": [%q]}`, values[r.Intn(len(values))])
			}
		}
		var vs []string
		for _, v := range values {
			if r.Intn(3) == 0 {
				vs = append(vs, fmt.Sprintf("%q", v))
			}
		}
		if len(vs) == 0 {
			vs = append(vs, fmt.Sprintf("%q", values[r.Intn(len(values))]))
		}
		return `{"values": [` + strings.Join(vs, ", ") + `]}`
	}
	var entries []string
	for i := 0; i < n; i++ {
		obj := entity(fuzzObjects)
		if k.Rule == AnyOnly && strings.Contains(obj, "values") && !strings.Contains(obj, `"type"`) {
			obj = `{"type": "ANY"}`
		}
		entries = append(entries, fmt.Sprintf(`{"principals": %s, %q: %s}`, entity(fuzzSubjects), k.Object, obj))
	}
	return fmt.Sprintf(`{"permissive": %v, %q: [%s]}`, r.Intn(2) == 0, k.Key, strings.Join(entries, ", "))
}

func checkCoverage(t *testing.T, text string) {
	a := decode(t, text)
	if a.Errors() != nil {
		t.Fatalf("%s: %v", text, a.Issues)
	}
	var k *Kind
	for key := range a.Lists {
		k = LookupKind(key)
	}
	if k == nil {
		return
	}
	// every value named, values nobody names, nested and not
	subjects := []*string{nil, p("zz")}
	for _, s := range fuzzSubjects {
		subjects = append(subjects, p(s))
	}
	objects := [][]string{nil, {"zz"}, {"k/zz"}, {"k/a/zz"}, {"x/zz"}, {"kk/a/zz"}}
	for _, o := range fuzzObjects {
		objects = append(objects, []string{o})
	}
	unreachable := map[*Entry]bool{}
	for _, u := range a.unreachable(k) {
		unreachable[u.Entry] = true
	}
	decides := map[*Entry]bool{}
	permissiveDecides := false
	for _, s := range subjects {
		for _, o := range objects {
			d, err := a.Authorize(Request{Kind: k, Principal: s, Objects: o})
			if err != nil {
				t.Fatal(err)
			}
			if c := d.Checks[0]; c.By != nil {
				decides[c.By.Entry] = true
			} else {
				permissiveDecides = true
			}
		}
	}
	regionsOf := map[*Entry][]region{}
	for _, r := range a.Rules(k) {
		regionsOf[r.Entry] = append(regionsOf[r.Entry], regionOf(k, r))
	}
	for _, e := range a.Lists[k.Key] {
		switch {
		case unreachable[e] && decides[e]:
			t.Errorf("%s: %s is called unreachable but decides a request", text, e.Name())
		case !unreachable[e] && !decides[e] && !emptyRegions(regionsOf[e]):
			t.Errorf("%s: %s decides nothing but is not called unreachable", text, e.Name())
		}
	}
	if _, _, ok := a.fallThrough(k); ok != permissiveDecides {
		t.Errorf("%s: fallThrough %v, but permissive decides a request: %v", text, ok, permissiveDecides)
	}
}
