// Package gen writes large synthetic YuniKorn queue configs for benchmarks
// and scale tests.
package gen

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
)

// Config returns a queues.yaml with one partition and about n queues in three
// levels under root, with a mix of ACLs: users, groups, wildcards, groups-only
// values and the occasional name YuniKorn drops.
func Config(n int) []byte {
	var b strings.Builder
	b.Grow(n * 120)
	b.WriteString("partitions:\n  - name: default\n    queues:\n      - name: root\n        adminacl: \" admins\"\n        queues:\n")
	const top, mid = 50, 40
	leaves := n / (top * mid)
	if leaves < 1 {
		leaves = 1
	}
	writeTree(&b, top, mid, leaves, true)
	return []byte(b.String())
}

// writeTree writes root's children: top departments of mid teams of
// leaves leaf queues, with a submit ACL on each department and leaf and an
// admin ACL on each team. With findings, every fourth leaf's ACL names a
// service account (a name YuniKorn's ACL parser drops); without, a group.
func writeTree(b *strings.Builder, top, mid, leaves int, findings bool) {
	for t := 0; t < top; t++ {
		fmt.Fprintf(b, "          - name: dept%d\n            submitacl: \"lead%d dept%d\"\n            queues:\n", t, t, t)
		for m := 0; m < mid; m++ {
			fmt.Fprintf(b, "              - name: team%d\n                adminacl: \" team%d-%d-admins\"\n                queues:\n", m, t, m)
			for l := 0; l < leaves; l++ {
				fmt.Fprintf(b, "                  - name: q%d\n", l)
				switch l % 4 {
				case 0:
					fmt.Fprintf(b, "                    submitacl: \"user%d,user%d grp%d\"\n", l, l+1, l%97)
				case 1:
					fmt.Fprintf(b, "                    submitacl: \" grp%d,grp%d\"\n", l%89, 89+l%83)
				case 2:
					if findings {
						fmt.Fprintf(b, "                    submitacl: \"svc%d,system:serviceaccount:ns%d:sa\"\n", l, t)
					} else {
						fmt.Fprintf(b, "                    submitacl: \"svc%d ns%d-workloads\"\n", l, t)
					}
				}
			}
		}
	}
}

// AuditConfig returns a queues.yaml with about n queues whose ACLs name
// about subjects distinct users and groups (half each), for the audit
// commands' scale budget. variant changes one department's submitacl and
// renames a few leaves, for diff.
func AuditConfig(n, subjects int, variant bool) []byte {
	var b strings.Builder
	b.Grow(n * 110)
	half := subjects / 2
	b.WriteString("partitions:\n  - name: default\n    queues:\n      - name: root\n        adminacl: \" admins\"\n        queues:\n")
	const top, mid = 50, 40
	leaves := max(n/(top*mid), 1)
	k := 0
	for t := 0; t < top; t++ {
		acl := fmt.Sprintf("u%d g%d", t%half, t%half)
		if variant && t == 7 {
			acl = fmt.Sprintf("u%d g%d,g%d", t%half, t%half, (t+1)%half)
		}
		fmt.Fprintf(&b, "          - name: dept%d\n            submitacl: \"%s\"\n            queues:\n", t, acl)
		for m := 0; m < mid; m++ {
			fmt.Fprintf(&b, "              - name: team%d\n                queues:\n", m)
			for l := 0; l < leaves; l++ {
				name := fmt.Sprintf("q%d", l)
				if variant && t == 3 && m == 0 && l < 5 {
					name = fmt.Sprintf("renamed%d", l)
				}
				fmt.Fprintf(&b, "                  - name: %s\n                    submitacl: \"u%d,u%d g%d\"\n", name, k%half, (k+1)%half, k%half)
				k++
			}
		}
	}
	return []byte(b.String())
}

// EditorConfig returns a queues.yaml of about n queues (root, departments,
// teams, leaves), for the language server's latency: a config someone edits.
// With findings, its ACLs are those of Config, so a quarter of the leaves
// name a service account (an ignored-name warning each, thousands in all);
// without, those leaves name a group instead and the config lints clean.
func EditorConfig(n int, findings bool) []byte {
	leaves := max(5, int(math.Round(math.Cbrt(float64(n))*1.1)))
	top := max(1, int(math.Round(math.Sqrt(float64(n)/float64(leaves)))))
	var b strings.Builder
	b.Grow(n * 100)
	b.WriteString("partitions:\n  - name: default\n    queues:\n      - name: root\n        adminacl: \" admins\"\n        queues:\n")
	writeTree(&b, top, top, leaves, findings)
	return []byte(b.String())
}

// Tree returns a queues.yaml of n queues shaped as real configs are, as
// ../shared/bench/gen_tree.py writes them: a tree 4 levels deep, 2 to 11
// children a level, 70% of the queues with a submitacl of 1 to 3 users
// and 0 to 2 groups (quoted when it has groups, plain otherwise), 20% with
// an adminacl of one group.
func Tree(n int) []byte {
	r := rand.New(rand.NewSource(5))
	var b strings.Builder
	b.Grow(n * 95)
	b.WriteString("partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: ' admins'\n        queues:\n")
	count := 0
	var q func(depth int, ind string)
	q = func(depth int, ind string) {
		count++
		fmt.Fprintf(&b, "%s- name: q%d\n", ind, count)
		if r.Float64() < 0.7 {
			users := make([]string, 1+r.Intn(3))
			for i := range users {
				users[i] = fmt.Sprintf("user%d", r.Intn(5000))
			}
			groups := make([]string, r.Intn(3))
			for i := range groups {
				groups[i] = fmt.Sprintf("group%d", r.Intn(500))
			}
			if len(groups) > 0 {
				fmt.Fprintf(&b, "%s  submitacl: \"%s %s\"\n", ind, strings.Join(users, ","), strings.Join(groups, ","))
			} else {
				fmt.Fprintf(&b, "%s  submitacl: %s\n", ind, strings.Join(users, ","))
			}
		}
		if r.Float64() < 0.2 {
			fmt.Fprintf(&b, "%s  adminacl: \" group%d\"\n", ind, r.Intn(500))
		}
		if depth < 4 && count < n {
			kids := 2 + r.Intn(10)
			fmt.Fprintf(&b, "%s  queues:\n", ind)
			for i := 0; i < kids && count < n; i++ {
				q(depth+1, ind+"    ")
			}
		}
	}
	for count < n {
		q(1, "          ")
	}
	return []byte(b.String())
}
