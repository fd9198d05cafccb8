package cli

import "strings"

// plural picks the word for a count: 1 fix, 2 fixes.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// joinWords joins names as a sentence lists them: "a", "a and b",
// "a, b and c".
func joinWords(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
