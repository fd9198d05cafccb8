package resolve

import (
	"fmt"
	"sort"
	"strings"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/input"

	"gopkg.in/yaml.v3"
)

// File resolves groups from a YAML or JSON file, for audits and what-if
// questions. Two forms are read:
//
//	carol: [eng, qa]                       # user -> groups
//
//	users: {carol: [eng]}                  # the full form: users, and
//	groups: {eng: [staff]}                 # groups that belong to groups
//
// In the full form a group's own groups follow it, flattened depth first
// without repeats; a cycle is an error. A user not in the file has no
// groups (beyond those a request carries).
type File struct {
	Path      string
	users     map[string][]string
	groups    map[string][]string
	groupLine map[string]int // where each group is defined, for errors
	order     []string       // groups in file order, so errors are the same every run
}

// FileError is a problem in a groups file, with its line.
type FileError struct {
	Path string
	Line int
	Msg  string
}

func (e *FileError) Error() string { return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg) }

// LoadFile reads and checks a groups file, up to max bytes (0:
// input.DefaultMaxSize).
func LoadFile(path string, max int64, seen *engine.ReadSet) (*File, error) {
	data, err := input.ReadFile(path, max, seen)
	if err != nil {
		return nil, err
	}
	return ParseFile(path, data)
}

// ParseFile reads a groups file already read, path naming it in messages.
func ParseFile(path string, data []byte) (*File, error) {
	f := &File{Path: path, users: map[string][]string{}, groups: map[string][]string{}, groupLine: map[string]int{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &FileError{path, 1, "not valid YAML or JSON: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if len(doc.Content) == 0 {
		return f, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, &FileError{path, root.Line, "expected a mapping of users to groups, or users: and groups: sections"}
	}
	full := false
	for i := 0; i < len(root.Content); i += 2 {
		if k := root.Content[i].Value; k == "users" || k == "groups" {
			if root.Content[i+1].Kind == yaml.MappingNode {
				full = true
			}
		}
	}
	if !full {
		return f, f.readMap(root, f.users, "user")
	}
	for i := 0; i < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "users":
			if err := f.readMap(v, f.users, "user"); err != nil {
				return nil, err
			}
		case "groups":
			if err := f.readMap(v, f.groups, "group"); err != nil {
				return nil, err
			}
		default:
			return nil, &FileError{path, k.Line, fmt.Sprintf("unknown section %q: the full form has users: and groups:", k.Value)}
		}
	}
	if err := f.checkCycles(); err != nil {
		return nil, err
	}
	return f, nil
}

func (f *File) readMap(n *yaml.Node, into map[string][]string, what string) error {
	if n.Kind != yaml.MappingNode {
		return &FileError{f.Path, n.Line, fmt.Sprintf("expected a mapping of %s names to lists of groups", what)}
	}
	for i := 0; i < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value == "" {
			return &FileError{f.Path, k.Line, fmt.Sprintf("a %s name must be a non-empty string", what)}
		}
		if _, dup := into[k.Value]; dup {
			return &FileError{f.Path, k.Line, fmt.Sprintf("%s %q is listed twice", what, k.Value)}
		}
		var groups []string
		switch v.Kind {
		case yaml.SequenceNode:
			for _, g := range v.Content {
				if g.Kind != yaml.ScalarNode || g.Value == "" {
					return &FileError{f.Path, g.Line, fmt.Sprintf("groups of %s %q must be non-empty strings", what, k.Value)}
				}
				groups = append(groups, g.Value)
			}
		case yaml.ScalarNode:
			if v.ShortTag() != "!!null" {
				return &FileError{f.Path, v.Line, fmt.Sprintf("groups of %s %q must be a list, e.g. [eng, qa]", what, k.Value)}
			}
		default:
			return &FileError{f.Path, v.Line, fmt.Sprintf("groups of %s %q must be a list, e.g. [eng, qa]", what, k.Value)}
		}
		into[k.Value] = groups
		if what == "group" {
			f.groupLine[k.Value] = k.Line
			f.order = append(f.order, k.Value)
		}
	}
	return nil
}

// checkCycles rejects groups that belong to themselves, naming the first
// cycle found walking the groups in file order, with the line of the group
// that closes it. Each group is visited once, so deep or wide hierarchies
// cost linear time.
func (f *File) checkCycles() error {
	const (
		unvisited = iota
		active
		done
	)
	state := make(map[string]int, len(f.groups))
	var path []string
	var visit func(g string) error
	visit = func(g string) error {
		switch state[g] {
		case done:
			return nil
		case active:
			start := 0
			for i, p := range path {
				if p == g {
					start = i
					break
				}
			}
			cycle := append(append([]string(nil), path[start:]...), g)
			return &FileError{f.Path, f.groupLine[g], "groups form a cycle: " + strings.Join(cycle, " -> ")}
		}
		state[g] = active
		path = append(path, g)
		for _, parent := range f.groups[g] {
			if err := visit(parent); err != nil {
				return err
			}
		}
		path = path[:len(path)-1]
		state[g] = done
		return nil
	}
	for _, g := range f.order {
		if err := visit(g); err != nil {
			return err
		}
	}
	return nil
}

// expand appends g and the groups it belongs to, depth first, skipping any
// already in seen. The file has no cycles (checkCycles), and a group's whole
// ancestry is appended the first time it is met, so skipping a seen group
// loses nothing.
func (f *File) expand(g string, seen map[string]bool, out []string) []string {
	if seen[g] {
		return out
	}
	seen[g] = true
	out = append(out, g)
	for _, parent := range f.groups[g] {
		out = f.expand(parent, seen, out)
	}
	return out
}

// Name is "file".
func (*File) Name() string { return "file" }

// Resolve returns the user's groups, each followed by the groups it belongs
// to, without repeats.
func (f *File) Resolve(user string) (Result, error) {
	seen := map[string]bool{}
	var out []string
	for _, g := range f.users[user] {
		out = f.expand(g, seen, out)
	}
	src := fmt.Sprintf("groups file %s", f.Path)
	if _, ok := f.users[user]; !ok {
		src += fmt.Sprintf(" (no entry for %s)", user)
	}
	return Result{Groups: out, Source: src}, nil
}

// Users lists the users the file names, sorted (for audits).
func (f *File) Users() []string {
	var out []string
	for u := range f.users {
		out = append(out, u)
	}
	sort.Strings(out)
	return out
}
