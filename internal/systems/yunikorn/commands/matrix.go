package commands

import (
	"bytes"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/progress"

	"bufio"
	"encoding/csv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

// matrixPart is YuniKorn's part of matrix: every queue of every
// partition against everyone, each principal an ACL names, --subjects and
// the users of --groups-file.
func matrixPart(s *streams) *clikit.Extension {
	var (
		a          auditFlags
		groupsFile string
	)
	return &clikit.Extension{
		Long:    matrixLong,
		Example: matrixExample,
		Foreign: func(system string) error {
			if groupsFile != "" {
				return clikit.Usage("--groups-file is for %s configs: with %s files, name the subjects with --subjects", s.env.Registry().Fallback().Name(), system)
			}
			return foreign(system, nil, a.key)
		},
		Flags: func(c *cobra.Command) {
			f := c.Flags()
			f.StringVar(&groupsFile, "groups-file", "", "add the users of this groups file, each with its groups")
			a.register(s, f, "queues where no subject has access", "text, csv or json")
			completeScope(s, c)
		},
		Run: func(cmd *cobra.Command, args []string) error {
			subjects, _ := cmd.Flags().GetString("subjects")
			layout, _ := cmd.Flags().GetString("layout")
			width, _ := cmd.Flags().GetInt("width")
			l, err := load(s, a.files, a.key, nil)
			if err != nil {
				return err
			}
			p := l.Policy
			principals, err := matrixPrincipals(s, p, subjects, groupsFile)
			if err != nil {
				return err
			}
			names := make([]string, len(principals))
			for i, pr := range principals {
				names[i] = pr.String()
			}
			scope := a.scope()
			// --only-access: a row where nobody has access is left out
			rows := func(emit func(part, queue string, cells []acl.Cell) error) error {
				return p.Matrix(principals, scope, func(part, queue string, cells []acl.Cell) error {
					progress.Answered()
					if a.onlyAccess && acl.NoneHas(cells) {
						return nil
					}
					return emit(part, queue, cells)
				})
			}
			w := bufio.NewWriter(s.env.Out())
			switch a.output {
			case "csv":
				err = writeMatrixCSV(w, rows, names)
			case "json":
				err = writeMatrixJSON(w, rows, names)
			default:
				err = writeMatrixText(s, w, rows, names, clikit.TerminalWidth(width), layout)
			}
			if ferr := w.Flush(); err == nil {
				err = ferr
			}
			if err != nil {
				return clikit.Usage("%w", err)
			}
			return nil
		},
	}
}

func parseSubjects(list string) ([]acl.Principal, error) {
	var out []acl.Principal
	for _, s := range clikit.ParseList(list) {
		kind, name, ok := strings.Cut(s, ":")
		switch {
		case !ok:
			kind, name = "user", s
		case kind != "user" && kind != "group":
			return nil, clikit.Usage("--subjects %q: write user:NAME or group:NAME", s)
		}
		out = append(out, acl.Principal{Kind: kind, Name: name})
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

// matrixRows streams a matrix's rows to emit, in order.
type matrixRows = func(emit func(part, queue string, cells []acl.Cell) error) error

// writeMatrixCSV writes the matrix as CSV, row by row.
func writeMatrixCSV(w *bufio.Writer, rows matrixRows, names []string) (err error) {
	cw := csv.NewWriter(w)
	cw.Write(clikit.PrintableFields(append([]string{"partition", "queue"}, names...)))
	cw.Flush()
	// the names go through encoding/csv for its quoting; the
	// cells are fixed words that never need it and are written
	// as they are, which keeps a large matrix bound by writing
	var head bytes.Buffer
	hw := csv.NewWriter(&head)
	cellText := [...]string{acl.NoAccess: ",-", acl.SubmitOnly: ",submit", acl.SubmitAdmin: ",admin"}
	// most queues write no ACL and repeat the row before them:
	// the cells are rendered again only when they change
	var last []acl.Cell
	var tail []byte
	err = rows(func(part, queue string, cells []acl.Cell) error {
		head.Reset()
		hw.Write([]string{part, queue})
		hw.Flush()
		w.Write(bytes.TrimSuffix(head.Bytes(), []byte("\n")))
		if last == nil || !acl.SameCells(last, cells) {
			last = append(last[:0], cells...)
			tail = tail[:0]
			for _, c := range cells {
				tail = append(tail, cellText[c]...)
			}
			tail = append(tail, '\n')
		}
		_, err := w.Write(tail)
		return err
	})
	return err
}

// writeMatrixJSON streams the matrix's one JSON shape.
func writeMatrixJSON(w *bufio.Writer, rows matrixRows, names []string) (err error) {
	js := &clikit.Stream{W: w}
	js.Open("rows", "system", yunikorn.System, "subjects", names, "notes", []string{})
	err = rows(func(part, queue string, cells []acl.Cell) error {
		vals := make([]string, len(cells))
		for i, c := range cells {
			vals[i] = c.String()
		}
		js.Item(clikit.Object{{Key: "section", Value: part}, {Key: "object", Value: queue}, {Key: "cells", Value: vals}})
		return js.Err()
	})
	if cerr := js.Close(); err == nil {
		err = cerr
	}
	return err
}

// matrixPrincipals are a YuniKorn matrix's columns: everyone first (access
// where an ACL says "*"), then every principal an ACL names, --subjects
// and the users of --groups-file with their groups.
func matrixPrincipals(s *streams, p *acl.Policy, subjects, groupsFile string) ([]acl.Principal, error) {
	extra, err := parseSubjects(subjects)
	if err != nil {
		return nil, err
	}
	if groupsFile != "" {
		gf, err := resolve.LoadFile(groupsFile, s.env.MaxInput())
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
