package mesos

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/aclint/aclint/internal/budget"
	"github.com/aclint/aclint/internal/systems/mesos/gen"
)

// bigACLs has 1,000 entries in each of the 54 kinds (54,000 entries, about
// 5 MB), drawing on a few hundred principals and objects.
var bigACLs = func() []byte {
	var kinds []gen.KindObject
	for _, k := range Kinds {
		ko := gen.KindObject{Key: k.Key, Object: k.Object, Role: k.Rule == Role, AnyOnly: k.ImplicitObject()}
		if k.Rule == Endpoint {
			ko.Values = AuthorizableEndpoints
		}
		kinds = append(kinds, ko)
	}
	return gen.MesosACLs(kinds, 1000)
}()

// BenchmarkStdJSON is the yardstick: encoding/json reading the file into
// an any, the standard way to read JSON in Go.
func BenchmarkStdJSON(b *testing.B) {
	b.SetBytes(int64(len(bigACLs)))
	for i := 0; i < b.N; i++ {
		var v any
		if err := json.Unmarshal(bigACLs, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseJSON is aclint's reading of the JSON, positions kept.
func BenchmarkParseJSON(b *testing.B) {
	b.SetBytes(int64(len(bigACLs)))
	for i := 0; i < b.N; i++ {
		if _, err := ParseJSON(bigACLs); err != nil {
			b.Fatal(err.Msg)
		}
	}
}

// BenchmarkLint is `aclint lint` on Mesos ACLs without output.
func BenchmarkLint(b *testing.B) {
	b.SetBytes(int64(len(bigACLs)))
	for i := 0; i < b.N; i++ {
		Lint(Parse("acls.json", bigACLs))
	}
}

// BenchmarkCheck is `aclint mesos check` without output: read, decode, one
// decision that walks a whole list.
func BenchmarkCheck(b *testing.B) {
	b.SetBytes(int64(len(bigACLs)))
	for i := 0; i < b.N; i++ {
		check(b)
	}
}

func check(tb testing.TB) {
	a := Decode(Parse("acls.json", bigACLs))
	if a.Errors() != nil {
		tb.Fatalf("generated ACLs rejected: %d errors, the first %v", len(a.Errors()), a.Errors()[0])
	}
	if _, err := a.Authorize(Request{Kind: LookupKind("reserve_resources"), Principal: p("nobody"), Objects: []string{"team7/a"}}); err != nil {
		tb.Fatal(err)
	}
}

// TestScaleBudget holds lint and check on 54,000 entries to at most three
// times encoding/json reading the same file into an any (best of three
// runs each). It measures time, so make test runs it alone.
func TestScaleBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("scale budget skipped in -short mode")
	}
	best := func(f func()) time.Duration { return budget.Best(3, f) }
	base := best(func() {
		var v any
		_ = json.Unmarshal(bigACLs, &v)
	})
	l := best(func() { Lint(Parse("acls.json", bigACLs)) })
	c := best(func() { check(t) })
	t.Logf("%d bytes: encoding/json %v, lint %v (%.2fx), check %v (%.2fx)", len(bigACLs), base, l, float64(l)/float64(base), c, float64(c)/float64(base))
	if lim := budget.Limit(3); float64(l) > lim*float64(base) || float64(c) > lim*float64(base) {
		t.Errorf("over budget: lint %.2fx, check %.2fx of encoding/json (limit %gx)", float64(l)/float64(base), float64(c)/float64(base), lim)
	}
}
