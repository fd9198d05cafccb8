package cmd

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/pkg/acl"
)

func newWhoCanCmd(s *streams) *cobra.Command {
	var (
		files               []string
		action, key, output string
	)
	c := &cobra.Command{
		Use:   "who-can PARTITION QUEUE",
		Short: "List every user and group that may submit to (or administer) a queue, and the ACL that grants each",
		Long: `List who has access to a queue, like kubectl-who-can: everyone (*), users and groups,
each with the queue and ACL that grants it (on the queue itself, or inherited from an
ancestor), and the ACL entries YuniKorn drops on the way.

With Hadoop YARN files (-f capacity-scheduler.xml or an allocation file, and
yarn-site.xml), it lists who YARN lets in, with the same walk up the queue's path:
PARTITION is then default.

Exit codes: 0 answered, 2 error (a config YuniKorn rejects, unknown partition or queue, usage).`,
		Example: `  aclint who-can -f queues.yaml default root.prod.etl
  aclint who-can default root.prod --action admin -o csv`,
		Args:              exactArgs(2, "who-can needs PARTITION QUEUE"),
		ValidArgsFunction: partitionQueueArgs(true),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOutput(output, "text", "json", "csv"); err != nil {
				return err
			}
			if yarnFiles(files) {
				return yarnWhoCan(s, files, args[0], args[1], action, output)
			}
			act, err := acl.ParseAction(action)
			if err != nil {
				return usageErr("invalid --action: %w", err)
			}
			if err := checkOutput(output, "text", "json", "csv"); err != nil {
				return err
			}
			l, err := load(s, files, key, nil)
			if err != nil {
				return err
			}
			r, err := l.Policy.WhoCan(args[0], args[1], act)
			if err != nil {
				return usageErr("%w", err)
			}
			r.Notes = append(l.Notes, r.Notes...)
			switch output {
			case "json":
				return writeJSON(s.out, whoCanJSON(r))
			case "csv":
				return writeWhoCanCSV(s.out, r)
			}
			return writeWhoCanText(s.out, r)
		},
	}
	f := c.Flags()
	s.configFlags(f, &files, &key)
	f.StringVar(&action, "action", "submit", "access to list: submit or admin")
	f.StringVarP(&output, "output", "o", "text", "output format: text, json or csv")
	return c
}

func whoCanJSON(r *acl.WhoCanResult) any {
	type dropped struct {
		Queue  string `json:"queue"`
		ACL    string `json:"acl"`
		Kind   string `json:"kind"`
		Name   string `json:"name"`
		Reason string `json:"reason"`
		File   string `json:"file"`
		Line   int    `json:"line"`
		Column int    `json:"column"`
	}
	ds := []dropped{}
	for _, d := range r.Dropped {
		ds = append(ds, dropped{d.Queue, d.ACL, d.Kind, d.Name, d.Reason, d.Pos.File, d.Pos.Line, d.Pos.Col})
	}
	notes := r.Notes
	if notes == nil {
		notes = []string{}
	}
	return jsonObject{
		{"action", string(r.Action)},
		{"partition", r.Partition},
		{"queue", r.Target.Path},
		{"decidingQueue", r.Target.Queue.Path()},
		{"dynamic", r.Target.Dynamic},
		{"everyone", holdersJSON(r.Everyone)},
		{"users", holdersJSON(r.Users)},
		{"groups", holdersJSON(r.Groups)},
		{"dropped", ds},
		{"notes", notes},
	}
}

func writeWhoCanCSV(w io.Writer, r *acl.WhoCanResult) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"subject_kind", "subject", "queue", "acl", "inherited", "file", "line", "column"})
	for _, list := range [][]acl.Holder{r.Everyone, r.Users, r.Groups} {
		for _, h := range list {
			cw.Write([]string{h.Kind, h.Name, h.Queue, h.ACL, strconv.FormatBool(h.Inherited), h.Pos.File, strconv.Itoa(h.Pos.Line), strconv.Itoa(h.Pos.Col)})
		}
	}
	cw.Flush()
	return cw.Error()
}

func writeWhoCanText(w io.Writer, r *acl.WhoCanResult) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s on %s in partition %s:\n", r.Action, r.Target.Path, r.Partition)
	lines := func(hs []acl.Holder) []holderLine {
		out := make([]holderLine, len(hs))
		for i, h := range hs {
			out[i] = holderLine{h.Name, h.Queue, h.ACL, h.Pos.String(), h.Inherited}
		}
		return out
	}
	writeHolders(&b, lines(r.Everyone), lines(r.Users), lines(r.Groups))
	if len(r.Dropped) > 0 {
		b.WriteString("dropped by YuniKorn:\n")
		for _, d := range r.Dropped {
			fmt.Fprintf(&b, "  %s %q in %s %s at %s: %s\n", d.Kind, d.Name, d.Queue, d.ACL, d.Pos, d.Reason)
		}
	}
	writeNotes(&b, r.Notes)
	_, err := io.WriteString(w, b.String())
	return err
}

// holderLine is one grant of a who-can list: who, by which queue's ACL,
// and where that is written.
type holderLine struct {
	name, queue, acl, where string
	inherited               bool
}

// writeHolders writes a who-can list's everyone, users and groups
// sections, as every system's who-can prints them.
func writeHolders(b *strings.Builder, everyone, users, groups []holderLine) {
	line := func(h holderLine) {
		how := "on the queue"
		if h.inherited {
			how = "inherited"
		}
		fmt.Fprintf(b, "  %-24s %s %s (%s) at %s\n", h.name, h.queue, h.acl, how, h.where)
	}
	if len(everyone) > 0 {
		b.WriteString("everyone:\n")
		for _, h := range everyone {
			line(h)
		}
	} else {
		b.WriteString("everyone: no\n")
	}
	for _, sec := range []struct {
		name string
		hs   []holderLine
	}{{"users", users}, {"groups", groups}} {
		if len(sec.hs) == 0 {
			fmt.Fprintf(b, "%s: none\n", sec.name)
			continue
		}
		fmt.Fprintf(b, "%s:\n", sec.name)
		for _, h := range sec.hs {
			line(h)
		}
	}
}
