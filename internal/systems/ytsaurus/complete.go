package ytsaurus

import (
	"github.com/aclint/aclint/internal/audit"
)

// Complete says what may come next in a question's words: a user the
// tree defines, a permission, a node's path (check USER PERMISSION PATH,
// who-can PATH PERMISSION, access USER).
func (Sys) Complete(m audit.Model, command string, words []string) []string {
	t, ok := m.(*Tree)
	if !ok {
		return nil
	}
	users := func() []string {
		var out []string
		for _, s := range t.Dir.Subjects() {
			if !s.Group {
				out = append(out, s.Name)
			}
		}
		return out
	}
	paths := func() []string {
		var out []string
		for _, n := range t.Order {
			out = append(out, n.Path)
		}
		return out
	}
	switch {
	case command == "access" && len(words) == 0, command == "check" && len(words) == 0:
		return users()
	case command == "check" && len(words) == 1, command == "who-can" && len(words) == 1:
		return permissionDomain
	case command == "check" && len(words) == 2, command == "who-can" && len(words) == 0:
		return paths()
	}
	return nil
}
