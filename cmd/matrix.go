package cmd

import (
	"bytes"
	"github.com/aclint/aclint/internal/progress"

	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/pkg/acl"
	"github.com/aclint/aclint/pkg/config"
	"github.com/aclint/aclint/pkg/resolve"
)

func newMatrixCmd(s *streams) *cobra.Command {
	var (
		files                             []string
		subjects, groupsFile, key, output string
		width                             int
	)
	c := &cobra.Command{
		Use:   "matrix",
		Short: "Show queues against users and groups, with each one's submit and admin access",
		Long: `Show every queue against every user and group named in any ACL (plus --subjects, and the
users of a --groups-file with their groups). A cell is "admin" (admin and submit),
"submit", or "-". A user column is asked as the user alone (or with its groups from the
groups file), a group column as a member of that group only.

csv and json stream row by row, so very large configs do not need the whole matrix in
memory. The text table splits its columns to fit the terminal (COLUMNS, or --width).`,
		Example: `  aclint matrix -f queues.yaml
  aclint matrix --subjects user:alice,group:data-eng -o csv > access.csv`,
		Args: exactArgs(0, "matrix takes no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOutput(output, "text", "json", "csv"); err != nil {
				return err
			}
			cfg, _, err := loadPolicyConfig(s, files, key)
			if err != nil {
				return err
			}
			p := newPolicy(cfg)
			principals := p.NamedPrincipals()
			extra, err := parseSubjects(subjects)
			if err != nil {
				return err
			}
			if groupsFile != "" {
				gf, err := resolve.LoadFile(groupsFile)
				if err != nil {
					return usageErr("--groups-file: %v", err)
				}
				for _, u := range gf.Users() {
					r, _ := gf.Resolve(u)
					extra = append(extra, acl.Principal{Kind: "user", Name: u, Groups: r.Groups})
				}
			}
			// the wildcard first: "everyone" has access where an ACL says "*"
			principals = append([]acl.Principal{acl.Everyone}, mergeWithGroups(principals, extra)...)
			names := make([]string, len(principals))
			for i, pr := range principals {
				names[i] = pr.String()
			}
			w := bufio.NewWriter(s.out)
			defer w.Flush()
			switch output {
			case "csv":
				cw := csv.NewWriter(w)
				cw.Write(append([]string{"partition", "queue"}, names...))
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
				err = p.Matrix(principals, func(part, queue string, cells []acl.Cell) error {
					progress.Answered()
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
			case "json":
				head, _ := json.Marshal(names)
				fmt.Fprintf(w, "{\"subjects\": %s, \"rows\": [", head)
				n := 0
				err = p.Matrix(principals, func(part, queue string, cells []acl.Cell) error {
					progress.Answered()
					vals := make([]string, len(cells))
					for i, c := range cells {
						vals[i] = c.String()
					}
					b, _ := json.Marshal(map[string]any{"partition": part, "queue": queue, "cells": vals})
					if n > 0 {
						w.WriteString(",")
					}
					n++
					_, err := fmt.Fprintf(w, "\n  %s", b)
					return err
				})
				w.WriteString("\n]}\n")
			default:
				err = writeMatrixText(w, p, principals, names, terminalWidth(width))
			}
			if err != nil {
				return usageErr("%v", err)
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringArrayVarP(&files, "file", "f", nil, "queue config or ConfigMap file, or - (repeatable; default ./queues.yaml)")
	f.StringVar(&subjects, "subjects", "", "more columns: comma-separated user:NAME or group:NAME (a bare NAME is a user)")
	f.StringVar(&groupsFile, "groups-file", "", "add the users of this groups file, each with its groups")
	f.StringVarP(&output, "output", "o", "text", "output format: text, csv or json")
	f.IntVar(&width, "width", 0, "text table width (default: $COLUMNS, or 120)")
	f.StringVar(&key, "key", config.DefaultKey, "ConfigMap data key holding the queue config")
	return c
}

func parseSubjects(list string) ([]acl.Principal, error) {
	var out []acl.Principal
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		kind, name, ok := strings.Cut(s, ":")
		switch {
		case !ok:
			kind, name = "user", s
		case kind != "user" && kind != "group":
			return nil, usageErr("--subjects %q: write user:NAME or group:NAME", s)
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

func terminalWidth(flag int) int {
	if flag > 0 {
		return flag
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 20 {
		return n
	}
	return 120
}

// writeMatrixText prints the matrix in blocks of columns that fit width; the
// queue column repeats in each block.
func writeMatrixText(w *bufio.Writer, p *acl.Policy, principals []acl.Principal, names []string, width int) error {
	type row struct {
		part, queue string
		cells       []acl.Cell
	}
	var rows []row
	qw := len("QUEUE")
	if err := p.Matrix(principals, func(part, queue string, cells []acl.Cell) error {
		progress.Answered()
		rows = append(rows, row{part, queue, append([]acl.Cell(nil), cells...)})
		qw = max(qw, len(part)+1+len(queue))
		return nil
	}); err != nil {
		return err
	}
	if len(names) == 1 {
		fmt.Fprintln(w, "no ACL names a user or a group, so only everyone (\"*\") has a column; add columns with --subjects")
	}
	for start := 0; start < len(names) || start == 0; {
		end, used := start, qw+2
		for end < len(names) && (end == start || used+max(len(names[end]), 6)+2 <= width) {
			used += max(len(names[end]), 6) + 2
			end++
		}
		var line strings.Builder
		fmt.Fprintf(&line, "%-*s", qw+2, "QUEUE")
		for _, n := range names[start:end] {
			fmt.Fprintf(&line, "%-*s", max(len(n), 6)+2, n)
		}
		fmt.Fprintln(w, strings.TrimRight(line.String(), " "))
		for _, r := range rows {
			line.Reset()
			fmt.Fprintf(&line, "%-*s", qw+2, r.part+"/"+r.queue)
			for i := start; i < end; i++ {
				fmt.Fprintf(&line, "%-*s", max(len(names[i]), 6)+2, r.cells[i])
			}
			fmt.Fprintln(w, strings.TrimRight(line.String(), " "))
		}
		if end >= len(names) {
			break
		}
		fmt.Fprintln(w)
		start = end
	}
	return nil
}
