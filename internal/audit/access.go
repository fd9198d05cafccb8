package audit

// Scope narrows a listing over every object: --partition (a system with
// sections of its own, such as YuniKorn's partitions, keeps one) and
// --under (one object and everything below it).
type Scope struct{ Partition, Under string }

// Accesser is a Loader that lists one subject's access to every object the
// inputs describe (aclint access): for each object, each action the
// system checks there, and the rule that grants it. Each cell is the
// answer the system's own check gives, so access never says more than
// check would.
type Accesser interface {
	Loader
	AccessUsage() Usage
	// Access writes the listing to out, section by section and row by
	// row, as it goes: a large tree is never held whole.
	Access(m Model, q Question, scope Scope, out AccessWriter) error
}

// AccessWriter receives a listing: its head once, then each section
// followed by its rows.
type AccessWriter interface {
	Head(h AccessHead) error
	Section(s AccessSection) error
	Row(r AccessRow) error
}

// AccessHead says what a listing is about and how its parts are named.
type AccessHead struct {
	System  string
	Subject string // the user or principal asked about
	// Actions are the columns, in order: "submit", "admin"; "read",
	// "write".
	Actions []string
	// SectionWord and ObjectWord name a section and an object in text and
	// CSV headers: "partition" and "queue", "object type" and "object".
	// RuleWord names what holds a rule in CSV headers: "acl", "rule".
	SectionWord, ObjectWord, RuleWord string
	Notes                             []string
}

// AccessSection is one part of a listing: a partition, a Mesos ACL kind,
// a whole tree.
type AccessSection struct {
	Name string
	// Title heads the section in text ("partition default: user alice,
	// groups [a] (--groups)"); the lines after it are Notes and, when
	// set, Reason (why the subject has nothing anywhere).
	Title        string
	Groups       []string
	GroupsSource string
	Reason       string
	Notes        []string
}

// AccessRow is one object and the subject's answer for each action.
type AccessRow struct {
	Section string
	Object  string
	// Kind says what the object is: "leaf", "parent", "created" (a
	// queue placement would create), "map_node", "role".
	Kind string
	// CreatedBy names the placement rule that creates the object, for a
	// row of Kind "created".
	CreatedBy string
	Cells     []Cell // one per action of the head
}

// Cell is one action's answer in a listing.
type Cell struct {
	// By is the rule that grants the action; nil when the subject may
	// not.
	By *Grant
	// Unknown says the answer is not known (a value aclint cannot
	// read): the listing is then not complete, and exits 2.
	Unknown bool
}

// HasAccess reports whether any cell of a row grants, or may grant,
// access: --only-access keeps those rows.
func (r AccessRow) HasAccess() bool {
	for _, c := range r.Cells {
		if c.By != nil || c.Unknown {
			return true
		}
	}
	return false
}
