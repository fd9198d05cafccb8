package cmd

import (
	"github.com/aclint/aclint/internal/progress"

	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/pkg/acl"
	"github.com/aclint/aclint/pkg/config"
)

func newAccessCmd(s *streams) *cobra.Command {
	var (
		files                          []string
		groups, key, output, partition string
		resolvers                      resolverFlags
	)
	c := &cobra.Command{
		Use:   "access USER",
		Short: "List every queue with USER's submit and admin access and the grant for each",
		Long: `List every queue of every partition with the user's submit and admin access and the
ACL entry that grants each, like kubectl auth can-i --list. Groups come from --groups,
or from a resolver as in check.

Exit codes: 0 listed, 2 error (a config YuniKorn rejects, unknown partition, usage).`,
		Example: `  aclint access -f queues.yaml alice --groups data-eng
  aclint access bob --resolver file --groups-file people.yaml -o csv`,
		Args: exactArgs(1, "access needs USER"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOutput(output, "text", "json", "csv"); err != nil {
				return err
			}
			cfg, notes, err := loadPolicyConfig(s, files, key)
			if err != nil {
				return err
			}
			q := acl.Query{User: args[0]}
			if err := resolvers.subject(cmd, &q, groups); err != nil {
				return err
			}
			w := bufio.NewWriter(s.out)
			defer w.Flush()
			var begin func(acl.AccessResult) error
			var emit func(acl.AccessRow) error
			grant := func(h *acl.Holder) string {
				if h == nil {
					return "-"
				}
				how := ""
				if h.Inherited {
					how = ", inherited"
				}
				return fmt.Sprintf("%s %s via %s %s%s", h.Kind, h.Name, h.Queue, h.ACL, how)
			}
			switch output {
			case "csv":
				cw := csv.NewWriter(w)
				cw.Write([]string{"partition", "queue", "submit", "submit_via_queue", "submit_via_acl", "submit_entry", "admin", "admin_via_queue", "admin_via_acl", "admin_entry"})
				// one row slice for every row; the rows below a grant share
				// its holder, so its entry text is built once
				line := make([]string, 10)
				entries := map[*acl.Holder]string{}
				cell := func(out []string, h *acl.Holder) {
					if h == nil {
						out[0], out[1], out[2], out[3] = "false", "", "", ""
						return
					}
					e, ok := entries[h]
					if !ok {
						e = h.Kind + ":" + h.Name
						entries[h] = e
					}
					out[0], out[1], out[2], out[3] = "true", h.Queue, h.ACL, e
				}
				begin = func(acl.AccessResult) error { return nil }
				emit = func(r acl.AccessRow) error {
					line[0], line[1] = r.Partition, r.Queue
					cell(line[2:6], r.Submit)
					cell(line[6:10], r.Admin)
					return cw.Write(line)
				}
				defer cw.Flush()
			case "json":
				first := true
				fmt.Fprintf(w, "{\"user\": %q, \"partitions\": [", args[0])
				rows := 0
				begin = func(a acl.AccessResult) error {
					if !first {
						w.WriteString("]},")
					}
					first = false
					head, _ := json.Marshal(map[string]any{"groups": nonNil(a.Subject.Groups), "groupsSource": a.Subject.Source, "reason": a.Subject.Reason, "notes": nonNil(append(notes, a.Subject.Notes...))})
					fmt.Fprintf(w, "\n  {\"partition\": %q, \"subject\": %s, \"queues\": [", a.Partition, head)
					rows = 0
					return nil
				}
				emit = func(r acl.AccessRow) error {
					b, err := json.Marshal(struct {
						Queue  string      `json:"queue"`
						Submit *holderJSON `json:"submit"`
						Admin  *holderJSON `json:"admin"`
					}{r.Queue, toHolderJSON(r.Submit), toHolderJSON(r.Admin)})
					if rows > 0 {
						w.WriteString(",")
					}
					rows++
					fmt.Fprintf(w, "\n    %s", b)
					return err
				}
				defer func() {
					if !first {
						w.WriteString("]}")
					}
					w.WriteString("\n]}\n")
				}()
			default:
				begin = func(a acl.AccessResult) error {
					fmt.Fprintf(w, "partition %s: user %s, groups [%s] (%s)\n", a.Partition, args[0], strings.Join(a.Subject.Groups, ", "), a.Subject.Source)
					for _, n := range append(notes, a.Subject.Notes...) {
						fmt.Fprintf(w, "  note: %s\n", n)
					}
					if a.Subject.Reason != "" {
						fmt.Fprintf(w, "  denied everywhere: %s\n", a.Subject.Reason)
					}
					return nil
				}
				emit = func(r acl.AccessRow) error {
					_, err := fmt.Fprintf(w, "  %-40s submit: %-48s admin: %s\n", r.Queue, grant(r.Submit), grant(r.Admin))
					return err
				}
			}
			row := emit
			emit = func(r acl.AccessRow) error {
				progress.Answered()
				return row(r)
			}
			if err := newPolicy(cfg).Access(q, partition, begin, emit); err != nil {
				return usageErr("%v", err)
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringArrayVarP(&files, "file", "f", nil, "queue config or ConfigMap file, or - (repeatable; default ./queues.yaml)")
	f.StringVar(&groups, "groups", "", "comma-separated groups as the request carries them, used exactly as given")
	f.StringVar(&partition, "partition", "", "list only this partition")
	f.StringVarP(&output, "output", "o", "text", "output format: text, json or csv")
	f.StringVar(&key, "key", config.DefaultKey, "ConfigMap data key holding the queue config")
	resolvers.register(c)
	return c
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
