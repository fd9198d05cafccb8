package cli

import (
	"bufio"
	"encoding/csv"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/progress"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
)

func newAccessCmd(s *streams) *cobra.Command {
	var (
		a         auditFlags
		groups    string
		req       requestFlags
		resolvers resolverFlags
	)
	c := &cobra.Command{
		Use:     "access USER | access --pod POD.yaml [--namespace NS.yaml] (--submitter USER | --without-admission-controller)",
		Short:   "List every queue with USER's submit and admin access and the grant for each",
		Long:    accessLong,
		Example: accessExample,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 && (req.pod == "" || len(args) != 0) {
				return usageErr("access needs USER (USER may be left out with --pod), got %d argument(s)\nrun 'aclint access --help' for usage", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOutput(a.output, "text", "json", "csv"); err != nil {
				return err
			}
			if ok, err := s.yarnFiles(a.files); err != nil {
				return err
			} else if ok {
				if len(args) == 0 {
					return usageErr("--pod is a Kubernetes pod, which YARN never sees: give USER")
				}
				return yarnAccess(s, a, args[0], groups)
			}
			l, err := load(s, a.files, a.key, nil)
			if err != nil {
				return err
			}
			notes := l.Notes
			var q acl.Query
			pr, err := askFor(cmd, &q, args, groups, &req, &resolvers, l.Config.Doc.Settings)
			if err != nil {
				return err
			}
			if pr != nil && !pr.Reaches() {
				format := a.output
				if format == "csv" {
					format = "text"
				}
				return writeVerdict(s, gateVerdict(pr.Gate, "rows"), format, false)
			}
			if pr != nil {
				notes = append(notes, pr.Notes()...)
			}
			w := bufio.NewWriter(s.out)
			defer w.Flush()
			var begin func(acl.AccessResult) error
			var emit func(acl.AccessRow) error
			switch a.output {
			case "csv":
				var end func()
				begin, emit, end = accessCSV(w)
				defer end()
			case "json":
				var end func()
				begin, emit, end = accessJSON(w, q.User, notes)
				defer end()
			default:
				begin, emit = accessText(w, q.User, notes)
			}
			row := emit
			emit = func(r acl.AccessRow) error {
				progress.Answered()
				if a.onlyAccess && r.Submit == nil && r.Admin == nil {
					return nil
				}
				return row(r)
			}
			if err := l.Policy.Access(q, a.scope(), begin, emit); err != nil {
				return usageErr("%w", err)
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&groups, "groups", "", "comma-separated groups as the request carries them (default: the resolver finds them)")
	a.register(s, f, "queues where the user has neither submit nor admin", "text, json or csv")
	req.register(s, f)
	resolvers.register(s, c)
	return c
}

// queueKind is how an access row's queue is marked: a parent queue, or
// one placement creates.
func queueKind(r acl.AccessRow) string {
	switch {
	case r.CreatedBy != "":
		return "created"
	case r.Parent:
		return "parent"
	}
	return "leaf"
}

func accessText(w *bufio.Writer, user string, notes []string) (func(acl.AccessResult) error, func(acl.AccessRow) error) {
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
	begin := func(a acl.AccessResult) error {
		fmt.Fprintf(w, "partition %s: user %s, groups %s (%s)\n", a.Partition, user, acl.Names(a.Subject.Groups), a.Subject.Source)
		for _, n := range append(notes, a.Subject.Notes...) {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
		if a.Subject.Reason != "" {
			fmt.Fprintf(w, "  denied everywhere: %s\n", a.Subject.Reason)
		}
		return nil
	}
	emit := func(r acl.AccessRow) error {
		queue := r.Queue
		switch {
		case r.CreatedBy != "":
			queue += " (created)"
		case r.Parent:
			queue += " (parent)"
		}
		_, err := fmt.Fprintf(w, "  %-40s submit: %-48s admin: %s\n", queue, grant(r.Submit), grant(r.Admin))
		if err == nil && r.CreatedBy != "" {
			_, err = fmt.Fprintf(w, "    does not exist: placement %s creates it for this request when it names no queue\n", r.CreatedBy)
		}
		return err
	}
	return begin, emit
}

func accessCSV(w *bufio.Writer) (func(acl.AccessResult) error, func(acl.AccessRow) error, func()) {
	cw := csv.NewWriter(w)
	cw.Write([]string{"partition", "queue", "submit", "submit_via_queue", "submit_via_acl", "submit_entry", "admin", "admin_via_queue", "admin_via_acl", "admin_entry", "queue_kind"})
	// one row slice for every row; the rows below a grant share its
	// holder, so its entry text is built once
	line := make([]string, 11)
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
	begin := func(acl.AccessResult) error { return nil }
	emit := func(r acl.AccessRow) error {
		line[0], line[1] = r.Partition, r.Queue
		cell(line[2:6], r.Submit)
		cell(line[6:10], r.Admin)
		line[10] = queueKind(r)
		return cw.Write(line)
	}
	return begin, emit, cw.Flush
}

// accessJSON streams {"system", "user", "partitions": [{"partition", "subject",
// "queues": [...]}]} through one jsonStream.
func accessJSON(w *bufio.Writer, user string, notes []string) (func(acl.AccessResult) error, func(acl.AccessRow) error, func()) {
	js := &jsonStream{w: w}
	js.open("partitions", "system", yunikorn.System, "user", user)
	inPartition := false
	begin := func(a acl.AccessResult) error {
		if inPartition {
			js.close()
		}
		inPartition = true
		js.open("queues", "partition", a.Partition, "subject", map[string]any{"groups": nonNil(a.Subject.Groups), "groupsSource": a.Subject.Source, "reason": a.Subject.Reason, "notes": nonNil(append(notes, a.Subject.Notes...))})
		return js.err
	}
	emit := func(r acl.AccessRow) error {
		js.item(struct {
			Queue     string      `json:"queue"`
			Kind      string      `json:"queueKind"`
			CreatedBy string      `json:"createdBy,omitempty"`
			Submit    *holderJSON `json:"submit"`
			Admin     *holderJSON `json:"admin"`
		}{r.Queue, queueKind(r), r.CreatedBy, toHolderJSON(r.Submit), toHolderJSON(r.Admin)})
		return js.err
	}
	end := func() {
		if inPartition {
			js.close()
		}
		js.close()
	}
	return begin, emit, end
}

// accessLong is newAccessCmd's help.
const accessLong = `List every queue of every partition with the user's submit and admin access and the
ACL entry that grants each, like kubectl auth can-i --list. Groups come from --groups,
or from a resolver as in check.

Parent queues are marked: their ACLs answer, but YuniKorn never runs an application
in a parent queue. After the configured queues comes the queue that placement creates
for this user's request when it names no queue (with the request's tags from --tag or
--pod), marked with the rule that creates it, as check answers it. Queues a provided
rule creates for any name asked for are answered by check one at a time.

--partition and --under QUEUE narrow the listing to one partition and one subtree;
--only-access leaves out the queues where the user has neither submit nor admin.

With Hadoop YARN files (-f capacity-scheduler.xml or an allocation file, and
yarn-site.xml), it lists YARN's answers for every queue of the tree, with --groups as
the user's groups.

--pod lists for a pod's identity as check --pod decides it (USER may be left out).

Exit codes: 0 listed, 1 the pod is rejected by the admission controller, 2 error (a config YuniKorn rejects, unknown partition or queue,
usage).`

// accessExample are newAccessCmd's examples.
const accessExample = `  aclint access -f queues.yaml alice --groups data-eng
  aclint access -f queues.yaml alice --groups data-eng --under root.prod --only-access
  aclint access bob --resolver file --groups-file people.yaml -o csv`
