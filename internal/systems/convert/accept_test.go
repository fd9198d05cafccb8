package convert

import (
	"strings"
	"testing"
)

func TestParseAccepted(t *testing.T) {
	for _, c := range []struct{ text, err string }{
		{"", "empty"},
		{"- cause: no-groups\n", "accepted.yaml:1:1: the file is a mapping"},
		{"accept:\n  - cause: no-groups\n", `accepted.yaml:1:1: unknown key "accept"`},
		{"accepted: no-groups\n", "accepted.yaml:1:1: accepted: is a list"},
		{"accepted:\n  - no-groups\n", "accepted.yaml:2:5: an entry is a mapping"},
		{"accepted:\n  - cause: nogroups\n    reason: x\n", `accepted.yaml:2:12: unknown cause "nogroups"`},
		{"accepted:\n  - cause: no-groups\n    reason: \" \"\n", "accepted.yaml:2:5: the entry accepting no-groups gives no reason"},
		{"accepted:\n  - reason: x\n", "accepted.yaml:2:5: the entry names no cause"},
		{"accepted:\n  - cause: [no-groups]\n    reason: x\n", "accepted.yaml:2:12: expected a single value"},
		{"accepted:\n  - cause: no-groups\n    reason: x\n    queues: []\n", "accepted.yaml:4:13: expected a list of names"},
		{"accepted:\n  - cause: no-groups\n    reason: x\n    users: [\"\"]\n", "accepted.yaml:4:13: an empty name"},
		{"accepted:\n  - cause: no-groups\n    reason: x\n    queues: root.a\n    users: [bob]\n", ""},
	} {
		_, err := ParseAccepted("accepted.yaml", []byte(c.text))
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.err)
		}
	}
}

// TestAcceptScope: an entry takes a difference of its cause, for the
// users it names, in the queues it names (PATH.* every queue below PATH,
// any case, as YuniKorn's names); the first entry that takes it counts it.
func TestAcceptScope(t *testing.T) {
	a, err := ParseAccepted("a.yaml", []byte(`accepted:
  - cause: no-groups
    queues: [root.prod.*, root.dev]
    users: [alice]
    reason: x
  - cause: no-groups
    queues: root.users.*
    reason: y
  - cause: short-queue-name
    reason: z
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cause, user string
		queues      []string
		want        int // the entry's index, -1 none
	}{
		{causeNoGroups, "alice", []string{"root.prod.etl"}, 0},
		{causeNoGroups, "alice", []string{"ROOT.Prod.etl"}, 0},
		{causeNoGroups, "alice", []string{"root.prod"}, -1},
		{causeNoGroups, "alice", []string{"root.production"}, -1},
		{causeNoGroups, "alice", []string{"root.dev"}, 0},
		{causeNoGroups, "alice", []string{"root.dev.x"}, -1},
		{causeNoGroups, "bob", []string{"root.prod.etl"}, -1},
		{causeNoGroups, "bob", []string{"", "root.users.bob"}, 1},
		{causeNoGroups, "", []string{"root.users.x"}, 1},
		{causeShortName, "anyone", []string{"root.x"}, 2},
		{causeDefaultQueue, "alice", []string{"root.prod.etl"}, -1},
	} {
		got := -1
		if e := a.match(c.cause, c.user, c.queues...); e != nil {
			for i, x := range a.Entries {
				if x == e {
					got = i
				}
			}
		}
		if got != c.want {
			t.Errorf("%s %s %v: entry %d, want %d", c.cause, c.user, c.queues, got, c.want)
		}
	}
	if a.Entries[0].Used != 3 || a.Entries[1].Used != 2 || len(a.Unused()) != 0 {
		t.Errorf("used %d %d, unused %d", a.Entries[0].Used, a.Entries[1].Used, len(a.Unused()))
	}
	var none *Accepted
	if none.match(causeNoGroups, "alice") != nil || none.Unused() != nil {
		t.Error("no accepted file accepts nothing")
	}
}
