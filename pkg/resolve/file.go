package resolve

import (
	"fmt"
	"os"
	"sort"
	"strings"

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
}

// FileError is a problem in a groups file, with its line.
type FileError struct {
	Path string
	Line int
	Msg  string
}

func (e *FileError) Error() string { return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg) }

// LoadFile reads and checks a groups file.
func LoadFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
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
	// reject cycles now, with the line of a group in the cycle
	for g := range f.groups {
		if _, err := f.expand(g, nil); err != nil {
			return nil, err
		}
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
		}
	}
	return nil
}

// expand returns g followed by the groups it belongs to, depth first.
func (f *File) expand(g string, path []string) ([]string, error) {
	for _, p := range path {
		if p == g {
			cycle := append(append([]string(nil), path...), g)
			return nil, &FileError{f.Path, f.groupLine[g], "groups form a cycle: " + strings.Join(cycle, " -> ")}
		}
	}
	out := []string{g}
	for _, parent := range f.groups[g] {
		more, err := f.expand(parent, append(path, g))
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	return out, nil
}

// Name is "file".
func (*File) Name() string { return "file" }

// Resolve returns the user's groups, each followed by the groups it belongs
// to, without repeats.
func (f *File) Resolve(user string) (Result, error) {
	seen := map[string]bool{}
	var out []string
	for _, g := range f.users[user] {
		exp, err := f.expand(g, nil)
		if err != nil {
			return Result{}, err
		}
		for _, x := range exp {
			if !seen[x] {
				seen[x] = true
				out = append(out, x)
			}
		}
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
