package yarn

import (
	"slices"

	"github.com/aclint/aclint/internal/audit"
)

// Complete says what may come next in a question's words: a queue (its
// full path), then a user any ACL names (check QUEUE USER, access USER,
// place USER, where a u: mapping's users come too).
func (Sys) Complete(m audit.Model, command string, words []string) []string {
	s, ok := m.(*Setup)
	if !ok {
		return nil
	}
	queues := func() []string {
		var out []string
		for path := range s.CS.ByPath {
			out = append(out, path)
		}
		slices.Sort(out)
		return out
	}
	users := func() []string {
		var out []string
		for _, x := range s.Subjects(nil) {
			if x.Kind == "user" {
				out = append(out, x.Name)
			}
		}
		return out
	}
	switch {
	case command == "place" && len(words) == 0:
		out := users()
		if !s.FS {
			if pl, r := s.StartPlacement(); r == nil {
				for _, v := range pl.Views() {
					if v.Match == "user" && !slices.Contains(out, v.Value) {
						out = append(out, v.Value)
					}
				}
			}
		}
		slices.Sort(out)
		return out
	case command == "access" && len(words) == 0:
		return users()
	case (command == "check" || command == "who-can") && len(words) == 0:
		return queues()
	case command == "check" && len(words) == 1:
		return users()
	}
	return nil
}
