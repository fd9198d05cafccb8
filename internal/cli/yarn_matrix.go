package cli

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"github.com/aclint/aclint/internal/systems/yarn"
)

// yarnMatrix is matrix over YARN files: queues against everyone and every
// user and group named in an ACL (and --subjects).
func yarnMatrix(s *streams, a auditFlags, subjects string) error {
	setup, err := yarnAuditSetup(s, a, "the matrix")
	if err != nil {
		return err
	}
	var extra []yarn.Subject
	for _, v := range parseList(subjects) {
		kind, name, ok := strings.Cut(v, ":")
		if !ok {
			kind, name = "user", v
		}
		if kind != "user" && kind != "group" {
			return usageErr("--subjects %q: use user:NAME or group:NAME", v)
		}
		extra = append(extra, yarn.Subject{Kind: kind, Name: name})
	}
	cols := setup.Subjects(extra)
	header := []string{"queue"}
	for _, c := range cols {
		if c.Kind == "everyone" {
			header = append(header, "everyone")
		} else {
			header = append(header, c.Kind+":"+c.Name)
		}
	}
	var rows [][]string
	unknown := false
	for _, q := range setup.Queues() {
		row := []string{q.Path}
		any := false
		for _, c := range cols {
			cell := setup.Cell(q, c)
			unknown = unknown || cell == "?"
			any = any || cell != "-"
			row = append(row, cell)
		}
		if a.onlyAccess && !any {
			continue
		}
		rows = append(rows, row)
	}
	var werr error
	switch a.output {
	case "csv":
		cw := csv.NewWriter(s.out)
		cw.Write(header)
		cw.WriteAll(rows)
		werr = cw.Error()
	case "json":
		// matrix's one JSON shape (docs/audits.md): YARN has one
		// partition, default
		rs := []any{}
		for _, r := range rows {
			rs = append(rs, jsonObject{{"partition", "default"}, {"queue", r[0]}, {"cells", r[1:]}})
		}
		werr = writeJSON(s.out, jsonObject{{"system", yarn.System}, {"subjects", header[1:]}, {"rows", rs}})
	default:
		widths := make([]int, len(header))
		for _, r := range append([][]string{header}, rows...) {
			for i, c := range r {
				widths[i] = max(widths[i], len(c))
			}
		}
		var b strings.Builder
		for _, r := range append([][]string{header}, rows...) {
			for i, c := range r {
				if i == len(r)-1 {
					b.WriteString(c)
				} else {
					fmt.Fprintf(&b, "%-*s  ", widths[i], c)
				}
			}
			b.WriteString("\n")
		}
		_, werr = io.WriteString(s.out, b.String())
	}
	if werr != nil {
		return usageErr("writing output: %w", werr)
	}
	if unknown {
		return &exitError{code: ExitUsage, err: fmt.Errorf("the matrix is not complete: an ACL on the way is not known (marked ?)")}
	}
	return nil
}
