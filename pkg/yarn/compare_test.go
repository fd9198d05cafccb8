package yarn

import (
	"reflect"
	"sort"
	"testing"

	"github.com/aclint/aclint/pkg/acl"
)

// TestYuniKornComparison holds docs/yarn.md's table of the same ACL value
// read by YARN (ParseACL) and by YuniKorn (pkg/acl, held to YuniKorn's own
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
	}
}
