package cli

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

func newWhoCanCmd(s *streams) *cobra.Command {
	var (
		files               []string
		action, key, output string
		req                 requestFlags
		resolvers           resolverFlags
	)
	c := &cobra.Command{
		Use:   "who-can PARTITION QUEUE",
		Short: "List every user and group that may submit to (or administer) a queue, and the ACL that grants each",
		Long: `List who has access to a queue, like kubectl-who-can: everyone (*), users and groups,
each with the queue and ACL that grants it (on the queue itself, or inherited from an
ancestor), and the ACL entries YuniKorn drops on the way.

A queue that does not exist is answered when placement can create it: every rule
that can, in rule order, with what a request needs for each (the tags a tag rule
reads, the user a user rule reads, the queue a provided rule reads, the rule's
filter); a rule is reached only when the rules before it place nothing. --tag
narrows this to requests with those tags; --pod to the pod's own request, with the
identity the admission controller gives it (as check --pod decides it).

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
				if req.pod != "" || len(req.tags) > 0 {
					return usageErr("--pod and --tag describe a request to YuniKorn, which YARN never sees")
				}
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
			q := acl.Query{Partition: args[0]}
			pr, err := askFor(cmd, &q, nil, "", &req, &resolvers, l.Config.Doc.Settings)
			if err != nil {
				return err
			}
			if pr != nil && !pr.Reaches() {
				format := output
				if format == "csv" {
					format = "text"
				}
				return writeVerdict(s, gateVerdict(pr.Gate, "allowed"), format, false)
			}
			var sub *acl.Subject
			if pr != nil {
				part, err := l.Policy.FindPartition(args[0])
				if err != nil {
					return usageErr("%w", err)
				}
				rs, err := l.Policy.ResolveSubject(part, q)
				if err != nil {
					return usageErr("%w", err)
				}
				sub = &rs
			}
			r, err := l.Policy.WhoCanFor(args[0], args[1], act, sub, q.Tags)
			if err != nil {
				return answerErr(err)
			}
			r.Notes = append(l.Notes, r.Notes...)
			if pr != nil {
				r.Notes = append(r.Notes, pr.Notes()...)
			}
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
	req.register(f)
	resolvers.register(c)
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
		{"createdBy", waysJSON(r.Target.Ways)},
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
	if len(r.Target.Ways) > 0 {
		fmt.Fprintf(&b, "%s does not exist; placement creates it, in rule order (a rule is reached only when the ones before it place nothing):\n", r.Target.Path)
		for _, w := range r.Target.Ways {
			fmt.Fprintf(&b, "  %s: %s\n", w.By, w.Needs())
		}
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

// waysJSON lists the rules that create a queue, with what each needs.
func waysJSON(ways []acl.Way) []jsonObject {
	out := []jsonObject{}
	for _, w := range ways {
		tags := w.Tags
		if tags == nil {
			tags = map[string]string{}
		}
		out = append(out, jsonObject{{"rule", w.Rule}, {"by", w.By}, {"tags", tags}, {"user", w.User}, {"queue", w.Queue}, {"filter", w.Filter}, {"needs", w.Needs()}})
	}
	return out
}
