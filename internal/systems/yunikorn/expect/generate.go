package expect

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/limits"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

// GenerateOptions say what a snapshot covers.
type GenerateOptions struct {
	// Config is how the test file names the config (relative to itself).
	Config []string
	// Under limits the snapshot to a queue and its descendants ("" for all).
	Under string
	// MaxCases refuses a snapshot larger than this (0: no limit).
	MaxCases int
	// Limits, when set and the config writes limits, adds a limits case
	// for every user and group a limit names (and a user no limit names)
	// on every leaf queue in scope.
	Limits *limits.Model
}

// TooLargeError is a snapshot that would exceed GenerateOptions.MaxCases.
type TooLargeError struct{ Cases, Max int }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the snapshot would hold %d cases, more than %d: limit it to a subtree with --under QUEUE", e.Cases, e.Max)
}

// Generate writes a test file that records today's answer for every user
// and group an ACL names, on every existing queue, for submit and admin.
// Users are asked by name alone (resolver: none, as the file says), groups
// through a user no ACL names who carries exactly that group. The answers
// come from Decide, the code the cases later run through, so a fresh
// snapshot passes by construction.
func Generate(w io.Writer, p *acl.Policy, cfg *config.Config, o GenerateOptions) error {
	principals := p.NamedPrincipals()
	named := limitPrincipals(cfg)
	member := memberName(append(append([]acl.Principal{}, principals...), named...))
	var targets []leafTarget
	for _, part := range cfg.Partitions {
		part.Root.Walk(func(q *config.Queue) {
			path := q.Path()
			if o.Under == "" || strings.EqualFold(path, o.Under) || strings.HasPrefix(strings.ToLower(path), strings.ToLower(o.Under)+".") {
				targets = append(targets, leafTarget{part, path})
			}
		})
	}
	if o.Under != "" && len(targets) == 0 {
		return fmt.Errorf("--under %s: no queue of the config has that path", o.Under)
	}
	var leaves []leafTarget
	if o.Limits != nil && len(named) > 0 {
		for _, t := range targets {
			if q, _, _ := acl.FindQueue(t.part.Root, t.queue); q != nil && q.IsLeaf() {
				leaves = append(leaves, t)
			}
		}
	}
	n := len(targets)*len(principals)*2 + len(leaves)*(len(named)+1)
	if o.MaxCases > 0 && n > o.MaxCases {
		return &TooLargeError{n, o.MaxCases}
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "# aclint test file: a snapshot of today's access, written by 'aclint test --generate'.")
	fmt.Fprintln(bw, "# Keep the cases that matter, delete the rest, and run 'aclint test' in CI (docs/test.md).")
	if len(o.Config) == 1 {
		fmt.Fprintf(bw, "config: %s\n", yamlScalar(o.Config[0]))
	} else if len(o.Config) > 1 {
		fmt.Fprintln(bw, "config:")
		for _, c := range o.Config {
			fmt.Fprintf(bw, "  - %s\n", yamlScalar(c))
		}
	}
	first := cfg.Partitions[0].CanonicalName()
	fmt.Fprintf(bw, "partition: %s\n", yamlScalar(first))
	fmt.Fprintln(bw, "# users are checked by name alone: with no resolver YuniKorn gives a user one")
	fmt.Fprintln(bw, "# group, the user's own name. Delete this line to use the partition's resolver.")
	fmt.Fprintln(bw, "resolver: none")
	if len(principals) == 0 {
		fmt.Fprintln(bw, "# no ACL names a user or a group: every case asks what a user no ACL names gets")
		principals = []acl.Principal{{Kind: "user", Name: member}}
	}
	fmt.Fprintln(bw, "cases:")
	for _, pr := range principals {
		if pr.Kind == "user" {
			fmt.Fprintf(bw, "  # user %s\n", pr.Name)
		} else {
			fmt.Fprintf(bw, "  # group %s, as the only group of a user no ACL names\n", pr.Name)
		}
		for _, t := range targets {
			for _, action := range []acl.Action{acl.Submit, acl.Admin} {
				q := acl.Query{Partition: t.part.CanonicalName(), Queue: t.queue, Action: action, Resolver: resolve.None{}}
				if pr.Kind == "user" {
					q.User = pr.Name
				} else {
					q.User, q.Groups = member, []string{pr.Name}
				}
				d, err := p.Decide(q)
				if err != nil {
					return err
				}
				got := Deny
				if d.Allowed {
					got = Allow
				}
				var b strings.Builder
				fmt.Fprintf(&b, "  - {user: %s", yamlScalar(q.User))
				if q.Groups != nil {
					fmt.Fprintf(&b, ", groups: [%s]", yamlScalar(pr.Name))
				}
				if q.Partition != first {
					fmt.Fprintf(&b, ", partition: %s", yamlScalar(q.Partition))
				}
				fmt.Fprintf(&b, ", queue: %s", yamlScalar(t.queue))
				if action == acl.Admin {
					b.WriteString(", action: admin")
				}
				fmt.Fprintf(&b, ", expect: %s}\n", got)
				bw.WriteString(b.String())
			}
		}
	}
	if len(leaves) > 0 {
		if err := generateLimits(bw, p, o.Limits, leaves, named, member, first); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// memberName is a user name no ACL names, for the group cases.
func memberName(principals []acl.Principal) string {
	taken := map[string]bool{}
	for _, pr := range principals {
		taken[pr.Name] = true
	}
	name := "aclint-member"
	for i := 2; taken[name]; i++ {
		name = "aclint-member-" + strconv.Itoa(i)
	}
	return name
}

// plainScalar is what --generate writes unquoted: names whose ':' and
// '#' stand between other characters, where YAML reads them as text.
var plainScalar = regexp.MustCompile(`^[A-Za-z0-9_./]([A-Za-z0-9_.@/:#-]*[A-Za-z0-9_.@/-])?$`)

// yamlScalar writes s so that YAML reads it back as the same string: plain
// when that is safe, else double-quoted with JSON's escapes (which YAML's
// double-quoted style shares).
func yamlScalar(s string) string {
	switch strings.ToLower(s) {
	case "null", "~", "true", "false", "yes", "no", "on", "off", "y", "n":
		return strconv.Quote(s)
	}
	if plainScalar.MatchString(s) && !strings.Contains(s, ": ") && !strings.Contains(s, " #") {
		return s
	}
	return jsonQuote(s)
}

func jsonQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r >= 0x7f && r < 0xa0 || r == 0x2028 || r == 0x2029 || r >= 0xd800 && r < 0xe000 || r == 0xfeff || r == 0xfffe || r == 0xffff:
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
