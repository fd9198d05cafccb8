package cli

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"github.com/aclint/aclint/internal/systems/yarn"
)

// yarnAccess is access over YARN files.
func yarnAccess(s *streams, a auditFlags, user, groups string) error {
	setup, err := yarnAuditSetup(s, a, user+"'s access")
	if err != nil {
		return err
	}
	gs := parseList(groups)
	if a.under != "" {
		if _, err := setup.FindQueue(a.under); err != nil {
			return usageErr("--under: %w", err)
		}
	}
	var rows []yarn.AccessRow
	unknown := false
	for _, r := range setup.Access(user, gs) {
		if a.under != "" && r.Queue.Path != a.under && !strings.HasPrefix(r.Queue.Path, a.under+".") {
			continue
		}
		if a.onlyAccess && r.Submit == nil && r.Admin == nil && !r.Unknown {
			continue
		}
		unknown = unknown || r.Unknown
		rows = append(rows, r)
	}
	var werr error
	switch a.output {
	case "json":
		werr = writeJSON(s.out, yarnAccessJSON(user, gs, rows))
	case "csv":
		werr = writeYarnAccessCSV(s.out, rows)
	default:
		werr = writeYarnAccessText(s.out, user, gs, rows)
	}
	if werr != nil {
		return usageErr("writing output: %w", werr)
	}
	if unknown {
		return &exitError{code: ExitUsage, err: fmt.Errorf("the listing is not complete: an ACL on the way is not known (marked ?)")}
	}
	return nil
}

func yarnQueueKind(q *yarn.Queue) string {
	if len(q.Children) > 0 || q.MarkedParent {
		return "parent"
	}
	return "leaf"
}

func yarnGrant(h *yarn.Holder, unknown bool) string {
	switch {
	case h == nil && unknown:
		return "?"
	case h == nil:
		return "-"
	case h.Queue == "":
		return "everyone (" + h.ACL + ")"
	}
	how := ""
	if h.Inherited {
		how = ", inherited"
	}
	return fmt.Sprintf("%s %s via %s %s%s", h.Kind, h.Name, h.Queue, h.ACL, how)
}

func writeYarnAccessText(w io.Writer, user string, groups []string, rows []yarn.AccessRow) error {
	var b strings.Builder
	fmt.Fprintf(&b, "YARN: user %s, groups [%s]\n", user, strings.Join(groups, ", "))
	for _, r := range rows {
		q := r.Queue.Path
		if yarnQueueKind(r.Queue) == "parent" {
			q += " (parent)"
		}
		fmt.Fprintf(&b, "  %-40s submit: %-48s admin: %s\n", q, yarnGrant(r.Submit, r.Unknown), yarnGrant(r.Admin, r.Unknown))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeYarnAccessCSV(w io.Writer, rows []yarn.AccessRow) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"queue", "submit", "submit_via_queue", "submit_via_acl", "submit_entry", "admin", "admin_via_queue", "admin_via_acl", "admin_entry", "queue_kind"})
	cell := func(h *yarn.Holder) []string {
		if h == nil {
			return []string{"false", "", "", ""}
		}
		return []string{"true", h.Queue, h.ACL, h.Kind + ":" + h.Name}
	}
	for _, r := range rows {
		rec := append([]string{r.Queue.Path}, cell(r.Submit)...)
		rec = append(rec, cell(r.Admin)...)
		cw.Write(append(rec, yarnQueueKind(r.Queue)))
	}
	cw.Flush()
	return cw.Error()
}

func yarnAccessJSON(user string, groups []string, rows []yarn.AccessRow) any {
	if groups == nil {
		groups = []string{}
	}
	grant := func(h *yarn.Holder) any {
		if h == nil {
			return nil
		}
		return yarnHolderJSON(h)
	}
	qs := []any{}
	for _, r := range rows {
		qs = append(qs, jsonObject{
			{"queue", r.Queue.Path},
			{"queueKind", yarnQueueKind(r.Queue)},
			{"submit", grant(r.Submit)},
			{"admin", grant(r.Admin)},
			{"known", !r.Unknown},
		})
	}
	// access's one JSON shape (docs/audits.md), as YuniKorn's: YARN has
	// one partition, default, and takes the groups as given
	subject := jsonObject{{"groups", groups}, {"groupsSource", "--groups, as the ResourceManager's group mapping gives them"}, {"reason", ""}, {"notes", []string{}}}
	part := jsonObject{{"partition", "default"}, {"subject", subject}, {"queues", qs}}
	return jsonObject{{"system", yarn.System}, {"user", user}, {"partitions", []any{part}}}
}

// yarnHolderJSON is a YARN grant in the JSON of access and diff.
func yarnHolderJSON(h *yarn.Holder) any {
	type holder struct {
		Kind      string `json:"kind"`
		Name      string `json:"name"`
		Queue     string `json:"queue"`
		ACL       string `json:"acl"`
		Inherited bool   `json:"inherited"`
		Default   bool   `json:"default"`
		File      string `json:"file,omitempty"`
		Line      int    `json:"line,omitempty"`
		Column    int    `json:"column,omitempty"`
	}
	return holder{h.Kind, h.Name, h.Queue, h.ACL, h.Inherited, h.Default, h.File, h.Pos.Line, h.Pos.Col}
}
