package cli

// plural picks the word for a count: 1 fix, 2 fixes.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
