package commands

import (
	"github.com/aclint/aclint/internal/audit"

	"github.com/aclint/aclint/internal/clikit"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

// matrixPart is YuniKorn's part of matrix: every queue of every
// partition against everyone, each principal an ACL names, --subjects and
// the users of --groups-file.
func matrixPart(s *streams) *clikit.Extension {
	q := &question{s: s}
	return &clikit.Extension{
		Long:    matrixLong,
		Example: matrixExample,
		Foreign: func(system string) error {
			if q.groupsFile != "" {
				return clikit.Usage("--groups-file is for %s configs: with %s files, name the subjects with --subjects", s.env.Registry().Fallback().Name(), system)
			}
			return foreign(q.cmd, system, nil, q.key)
		},
		Flags: func(c *cobra.Command) {
			c.Flags().StringVar(&q.groupsFile, "groups-file", "", "add the users of this groups file, each with its groups")
			q.auditFlags(c, "queues where no subject has access", "text, csv or json")
			completeScope(s, c)
		},
		Answers: q,
	}
}

// Matrix shows every queue against everyone, every principal an ACL
// names, --subjects and the users of --groups-file, row by row: a cell is
// admin (and submit), submit or none.
func (q *question) Matrix(m audit.Model, mq audit.MatrixQuestion, out audit.MatrixWriter) error {
	p := m.(loaded).Policy
	principals, err := matrixPrincipals(q.s, p, mq.Subjects, q.groupsFile)
	if err != nil {
		return err
	}
	names := make([]string, len(principals))
	for i, pr := range principals {
		names[i] = pr.String()
	}
	head := audit.MatrixHead{System: yunikorn.System, Subjects: names, SectionWord: "partition", ObjectWord: "queue",
		Legend: "admin (and submit) or submit", Grows: []string{acl.NoAccess.String(), acl.SubmitOnly.String(), acl.SubmitAdmin.String()}, PathSep: ".",
		Words: []string{acl.NoAccess: acl.NoAccess.String(), acl.SubmitOnly: acl.SubmitOnly.String(), acl.SubmitAdmin: acl.SubmitAdmin.String()}}
	if len(names) == 1 {
		head.Preamble = []string{"no ACL names a user or a group, so only everyone (\"*\") has a column; add columns with --subjects"}
	}
	if err := out.Head(head); err != nil {
		return err
	}
	codes := make([]uint8, len(names)) // one row's cells, reused (MatrixWriter)
	var last []acl.Cell
	return p.Matrix(principals, acl.Scope{Partition: mq.Scope.Partition, Under: mq.Scope.Under}, func(part, queue string, cells []acl.Cell) error {
		same := last != nil && acl.SameCells(last, cells)
		if !same {
			last = append(last[:0], cells...)
			for i, c := range cells {
				codes[i] = uint8(c)
			}
		}
		return out.Row(audit.MatrixRow{Section: part, Object: queue, Codes: codes[:len(cells)], Same: same})
	})
}

// parseSubjects reads --subjects: a bare NAME is a user.
func parseSubjects(list []audit.Subject) ([]acl.Principal, error) {
	var out []acl.Principal
	for _, s := range list {
		kind := s.Kind
		switch kind {
		case "":
			kind = "user"
		case "user", "group":
		default:
			return nil, clikit.Usage("--subjects %q: write user:NAME or group:NAME", s.Kind+":"+s.Name)
		}
		out = append(out, acl.Principal{Kind: kind, Name: s.Name})
	}
	return out, nil
}

// mergeWithGroups adds extra principals; one already there keeps its place
// but takes the groups extra knows for it.
func mergeWithGroups(base, extra []acl.Principal) []acl.Principal {
	at := map[string]int{}
	for i, p := range base {
		at[p.String()] = i
	}
	for _, e := range extra {
		if i, ok := at[e.String()]; ok {
			if e.Groups != nil {
				base[i].Groups = e.Groups
			}
			continue
		}
		at[e.String()] = len(base)
		base = append(base, e)
	}
	acl.SortPrincipals(base)
	return base
}

// matrixLong is the help of matrix, as YuniKorn's part of it heads it.
const matrixLong = `Show every queue against every user and group named in any ACL (plus --subjects, and the
users of a --groups-file with their groups). A cell is "admin" (admin and submit),
"submit", or "-". A user column is asked as the user alone (or with its groups from the
groups file), a group column as a member of that group only.

Another system's files (-f) are shown as that system answers: YARN's queues, each Mesos ACL
kind's objects against its principals, each YTsaurus node against its users (--action
picks the permission, read when not given).

csv and json stream row by row, so very large configs do not need the whole matrix in
memory. The text table splits its columns to fit the terminal (COLUMNS, or --width).`

// matrixExample are the examples of matrix.
const matrixExample = `  aclint matrix -f queues.yaml
  aclint matrix --subjects user:alice,group:data-eng -o csv > access.csv`

// matrixPrincipals are a YuniKorn matrix's columns: everyone first (access
// where an ACL says "*"), then every principal an ACL names, --subjects
// and the users of --groups-file with their groups.
func matrixPrincipals(s *streams, p *acl.Policy, subjects []audit.Subject, groupsFile string) ([]acl.Principal, error) {
	extra, err := parseSubjects(subjects)
	if err != nil {
		return nil, err
	}
	if groupsFile != "" {
		gf, err := resolve.LoadFile(groupsFile, s.env.MaxInput(), s.env.Seen())
		if err != nil {
			return nil, clikit.Usage("--groups-file: %w", err)
		}
		for _, u := range gf.Users() {
			r, _ := gf.Resolve(u)
			extra = append(extra, acl.Principal{Kind: "user", Name: u, Groups: r.Groups})
		}
	}
	return append([]acl.Principal{acl.Everyone}, mergeWithGroups(p.NamedPrincipals(), extra)...), nil
}
