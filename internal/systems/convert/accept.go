package convert

import (
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/internal/engine"
)

// A team records which differences it accepts in a file kept beside the
// configs (convert --accept FILE), each entry a cause, optionally scoped to
// queues and users, and always with a reason:
//
//	accepted:
//	  - cause: no-groups
//	    reason: pods carry their creator's groups (the admission controller)
//	  - cause: yarn-rejects-acl
//	    queues: [root.prod.*]
//	    reason: prod jobs the ACLs refuse go to root.default, which we watch
//
// convert then exits 0 when every difference is accepted, and 1 listing
// the ones that are not.

// Accepted is a read accepted file.
type Accepted struct {
	Path    string
	Entries []*AcceptEntry
}

// AcceptEntry is one accepted kind of difference.
type AcceptEntry struct {
	Cause string
	// Queues are queue paths, or PATH.* for every queue below PATH; none:
	// every queue.
	Queues []string
	// Users are user names; none: everyone.
	Users     []string
	Reason    string
	Line, Col int
	// Used counts the differences the entry accepts in this run.
	Used int
}

// Where is the entry's position, for the report.
func (e *AcceptEntry) Where(path string) string {
	return fmt.Sprintf("%s:%d:%d", path, e.Line, e.Col)
}

// ParseAccepted reads an accepted file; an error names the line and what
// to write.
func ParseAccepted(path string, data []byte) (*Accepted, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	errAt := func(n *yaml.Node, format string, args ...any) error {
		return fmt.Errorf("%s:%d:%d: %s", path, n.Line, n.Column, fmt.Sprintf(format, args...))
	}
	out := &Accepted{Path: path}
	if len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s: empty: write accepted: with one entry per accepted cause (docs/migration.md)", path)
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, errAt(root, "the file is a mapping with one key, accepted")
	}
	var list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if k.Value != "accepted" {
			return nil, errAt(k, "unknown key %q: the file has one key, accepted", engine.Printable(k.Value))
		}
		list = v
	}
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil, errAt(root, "accepted: is a list of entries, each with cause and reason")
	}
	for _, n := range list.Content {
		e, err := acceptEntry(n, errAt)
		if err != nil {
			return nil, err
		}
		out.Entries = append(out.Entries, e)
	}
	return out, nil
}

// acceptEntry reads one entry of accepted:.
func acceptEntry(n *yaml.Node, errAt func(*yaml.Node, string, ...any) error) (*AcceptEntry, error) {
	if n.Kind != yaml.MappingNode {
		return nil, errAt(n, "an entry is a mapping: cause, reason, and optionally queues and users")
	}
	e := &AcceptEntry{Line: n.Line, Col: n.Column}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		var err error
		switch k.Value {
		case "cause":
			e.Cause, err = scalar(v, errAt)
			if _, ok := causeOf(e.Cause); err == nil && !ok {
				err = errAt(v, "unknown cause %q: causes are %s", engine.Printable(e.Cause), strings.Join(causeIDs(), ", "))
			}
		case "reason":
			e.Reason, err = scalar(v, errAt)
		case "queues":
			e.Queues, err = names(v, errAt)
		case "users":
			e.Users, err = names(v, errAt)
		default:
			err = errAt(k, "unknown key %q: an entry has cause, reason, queues and users", engine.Printable(k.Value))
		}
		if err != nil {
			return nil, err
		}
	}
	switch {
	case e.Cause == "":
		return nil, errAt(n, "the entry names no cause: write cause: with one of %s", strings.Join(causeIDs(), ", "))
	case strings.TrimSpace(e.Reason) == "":
		return nil, errAt(n, "the entry accepting %s gives no reason: write reason: with why the team accepts it", e.Cause)
	}
	return e, nil
}

func scalar(v *yaml.Node, errAt func(*yaml.Node, string, ...any) error) (string, error) {
	if v.Kind != yaml.ScalarNode {
		return "", errAt(v, "expected a single value")
	}
	return v.Value, nil
}

// names reads a list of names (or one name).
func names(v *yaml.Node, errAt func(*yaml.Node, string, ...any) error) ([]string, error) {
	if v.Kind == yaml.ScalarNode && v.Value != "" {
		return []string{v.Value}, nil
	}
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		return nil, errAt(v, "expected a list of names")
	}
	var out []string
	for _, x := range v.Content {
		s, err := scalar(x, errAt)
		if err != nil {
			return nil, err
		}
		if s == "" {
			return nil, errAt(x, "an empty name")
		}
		out = append(out, s)
	}
	return out, nil
}

// match is the entry that accepts a difference of cause for user (""
// when the difference is not a user's) in any of queues, or nil. The first
// entry that matches is counted.
func (a *Accepted) match(cause, user string, queues ...string) *AcceptEntry {
	if a == nil {
		return nil
	}
	for _, e := range a.Entries {
		if e.Cause == cause && (len(e.Users) == 0 || slices.Contains(e.Users, user)) && (len(e.Queues) == 0 || anyQueue(e.Queues, queues)) {
			e.Used++
			return e
		}
	}
	return nil
}

// anyQueue: one of queues is one of scope (YuniKorn's queue names ignore
// case), or below a PATH.* of it.
func anyQueue(scope, queues []string) bool {
	for _, q := range queues {
		for _, s := range scope {
			if below, ok := strings.CutSuffix(s, ".*"); ok {
				if len(q) > len(below)+1 && strings.EqualFold(q[:len(below)+1], below+".") {
					return true
				}
			} else if q != "" && strings.EqualFold(q, s) {
				return true
			}
		}
	}
	return false
}

// Unused are the entries that accepted nothing in this run.
func (a *Accepted) Unused() []*AcceptEntry {
	if a == nil {
		return nil
	}
	var out []*AcceptEntry
	for _, e := range a.Entries {
		if e.Used == 0 {
			out = append(out, e)
		}
	}
	return out
}
