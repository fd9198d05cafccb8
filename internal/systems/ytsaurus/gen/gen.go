package gen

import (
	"fmt"
	"strings"
)

// YTTree returns a YTsaurus tree document with about n nodes in a
// project/team/table hierarchy under //home, a few hundred users in a few
// dozen groups, and ACEs of every kind: group grants, owner ACEs,
// descendants-only and object-only modes, tag filters, columns and the
// occasional deny.
func YTTree(n int) []byte {
	var b strings.Builder
	b.Grow(n * 160)
	const users, groups = 2000, 200
	b.WriteString("users:\n")
	for u := 0; u < users; u++ {
		fmt.Fprintf(&b, "  u%d: {member_of: [g%d, g%d], tags: [t%d]}\n", u, u%groups, (u*7)%groups, u%5)
	}
	b.WriteString("groups:\n")
	for g := 0; g < groups; g++ {
		if g%10 == 0 {
			fmt.Fprintf(&b, "  g%d: {}\n", g)
		} else {
			fmt.Fprintf(&b, "  g%d: {member_of: [g%d]}\n", g, g-g%10)
		}
	}
	b.WriteString("nodes:\n  \"/\":\n    inherit_acl: false\n    acl: [{action: allow, subjects: [everyone], permissions: [read]}]\n")
	projects := n / 100
	if projects < 1 {
		projects = 1
	}
	count := 0
	for p := 0; p < projects && count < n; p++ {
		fmt.Fprintf(&b, "  \"//home/p%d\":\n    owner: u%d\n    acl:\n", p, p%users)
		fmt.Fprintf(&b, "      - {action: allow, subjects: [g%d], permissions: [read, write]}\n", p%groups)
		b.WriteString("      - {action: allow, subjects: [owner], permissions: [remove], inheritance_mode: descendants_only}\n")
		count++
		for t := 0; t < 9 && count < n; t++ {
			fmt.Fprintf(&b, "  \"//home/p%d/team%d\":\n    owner: u%d\n    acl:\n", p, t, (p*9+t)%users)
			fmt.Fprintf(&b, "      - {action: allow, subjects: [g%d, u%d], permissions: [read, write, remove], subject_tag_filter: \"t%d | !t%d\"}\n", (p+t)%groups, (p*3+t)%users, t%5, (t+1)%5)
			if t == 3 {
				fmt.Fprintf(&b, "      - {action: deny, subjects: [u%d], permissions: [write]}\n", (p+t)%users)
			}
			count++
			for k := 0; k < 10 && count < n; k++ {
				fmt.Fprintf(&b, "  \"//home/p%d/team%d/table%d\":\n    acl:\n", p, t, k)
				fmt.Fprintf(&b, "      - {action: allow, subjects: [g%d], permissions: [read], columns: [c%d], inheritance_mode: object_only}\n", (p+t+k)%groups, k)
				count++
			}
		}
	}
	return []byte(b.String())
}
