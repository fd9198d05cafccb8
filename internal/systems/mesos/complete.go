package mesos

import (
	"slices"

	"github.com/aclint/aclint/internal/audit"
)

// Complete says what may come next in a question's words: an ACL kind
// (the file's first, then every kind), a principal the kind's entries name,
// an object they name (check ACTION PRINCIPAL [OBJECT], who-can ACTION
// [OBJECT], access PRINCIPAL).
func (Sys) Complete(m audit.Model, command string, words []string) []string {
	a, ok := m.(*ACLs)
	if !ok {
		return nil
	}
	kinds := func() []string {
		written, _ := a.listed()
		var out []string
		for _, k := range written {
			out = append(out, k.Key)
		}
		for _, k := range Kinds {
			if !slices.Contains(out, k.Key) {
				out = append(out, k.Key)
			}
		}
		return out
	}
	principals := func(k *Kind) []string {
		var out []string
		kinds := Kinds
		if k != nil {
			kinds = []*Kind{k}
		}
		for _, k := range kinds {
			for _, p := range a.principals(k) {
				if !slices.Contains(out, p) {
					out = append(out, p)
				}
			}
		}
		slices.Sort(out)
		return out
	}
	switch command {
	case "access":
		if len(words) == 0 {
			return principals(nil)
		}
	case "check", "who-can":
		if len(words) == 0 {
			return kinds()
		}
		k := LookupKind(words[0])
		if k == nil {
			return nil
		}
		if command == "check" && len(words) == 1 {
			return principals(k)
		}
		if command == "check" && len(words) == 2 || command == "who-can" && len(words) == 1 {
			return a.objects(k)
		}
	}
	return nil
}
