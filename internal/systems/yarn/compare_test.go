package yarn

import (
	"math/rand"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

// TestYuniKornComparison holds docs/yarn.md's table of the same ACL value
// read by YARN (ParseACL) and by YuniKorn (internal/systems/yunikorn/acl, held to YuniKorn's own
// verdicts): what a conversion must not carry over blindly.
func TestYuniKornComparison(t *testing.T) {
	type reading struct {
		all           bool
		users, groups []string
		fails         bool // YuniKorn refuses the value (validation or load)
	}
	yk := func(s string) reading {
		v := acl.Parse(s)
		r := reading{all: v.Everyone, users: []string{}, groups: []string{}, fails: v.ValidatorErr != nil || v.RuntimeErr != nil}
		for _, e := range v.Entries {
			if !e.Effective() {
				continue
			}
			if e.Kind == acl.Group {
				r.groups = append(r.groups, e.Name)
			} else {
				r.users = append(r.users, e.Name)
			}
		}
		sort.Strings(r.users)
		sort.Strings(r.groups)
		return r
	}
	yr := func(s string) reading {
		a := ParseACL(s)
		return reading{all: a.All, users: a.UserNames(), groups: a.GroupNames()}
	}
	none := []string{}
	for _, c := range []struct {
		value    string
		yarn, yk reading
	}{
		{"alice dev", reading{false, []string{"alice"}, []string{"dev"}, false}, reading{false, []string{"alice"}, []string{"dev"}, false}},
		{"alice  dev", reading{false, []string{"alice"}, []string{"dev"}, false}, reading{false, none, none, true}},
		{"alice dev ops", reading{false, []string{"alice"}, []string{"dev ops"}, false}, reading{false, none, none, true}},
		{"\n  alice\n", reading{false, none, []string{"alice"}, false}, reading{false, none, none, true}},
		{"*,alice", reading{false, []string{"*", "alice"}, none, false}, reading{false, []string{"alice"}, none, false}},
		{"alice *", reading{true, none, none, false}, reading{true, none, none, false}},
		{"system:serviceaccount:ns:sa data.eng", reading{false, []string{"system:serviceaccount:ns:sa"}, []string{"data.eng"}, false}, reading{false, none, none, false}},
		{"alice\tbob", reading{false, []string{"alice\tbob"}, none, false}, reading{false, none, none, false}},
		{" ", reading{false, none, none, false}, reading{false, none, none, false}},
	} {
		if got := yr(c.value); !reflect.DeepEqual(got, c.yarn) {
			t.Errorf("%q in YARN: %+v, the table says %+v", c.value, got, c.yarn)
		}
		if got := yk(c.value); !reflect.DeepEqual(got, c.yk) {
			t.Errorf("%q in YuniKorn: %+v, the table says %+v", c.value, got, c.yk)
		}
		// yarn-acl-yunikorn-differs speaks exactly where the readings differ
		differs := !reflect.DeepEqual(c.yarn, c.yk)
		if why := yuniKornDiffers(yunikorn.ACLReader{}, ParseACL(c.value), c.value); (why != "") != differs {
			t.Errorf("%q: yarn-acl-yunikorn-differs says %q, the readings differ: %v", c.value, why, differs)
		}
	}
}

// TestYuniKornDiffersAgrees: on random values, the rule is silent exactly
// when YARN and YuniKorn let in the same users and groups (and YuniKorn
// takes the value).
func TestYuniKornDiffersAgrees(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	pieces := []string{"alice", "bob", "*", " ", "  ", ",", "data.eng", "dev", "sa:x", "\t", "\n", "_g", "9x", "a-b"}
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for n := r.Intn(6); n >= 0; n-- {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		value := b.String()
		y := ParseACL(value)
		v := acl.Parse(value)
		same := v.Valid()
		if same {
			ykU, ykG := []string{}, []string{}
			for _, e := range v.Entries {
				if e.Effective() {
					if e.Kind == acl.Group {
						ykG = append(ykG, e.Name)
					} else {
						ykU = append(ykU, e.Name)
					}
				}
			}
			set := func(xs []string) string {
				m := map[string]bool{}
				for _, x := range xs {
					m[x] = true
				}
				var out []string
				for x := range m {
					out = append(out, x)
				}
				sort.Strings(out)
				return strings.Join(out, "\x00")
			}
			if y.All || v.Everyone {
				same = y.All == v.Everyone
			} else {
				same = set(y.UserNames()) == set(ykU) && set(y.GroupNames()) == set(ykG)
			}
		}
		if why := yuniKornDiffers(yunikorn.ACLReader{}, y, value); (why == "") != same {
			t.Fatalf("%q: rule says %q, same readings: %v", value, why, same)
		}
	}
}
