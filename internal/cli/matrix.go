package cli

import (
	"bytes"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/progress"

	"bufio"
	"encoding/csv"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/audit"

	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

func newMatrixCmd(s *streams) *cobra.Command {
	var (
		a                            auditFlags
		subjects, groupsFile, layout string
		action                       string
		width                        int
	)
	c := &cobra.Command{
		Use:     "matrix",
		Short:   "Show queues against users and groups, with each one's submit and admin access",
		Long:    matrixLong,
		Example: matrixExample,
		Args:    clikit.ExactArgs(0, "matrix takes no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := clikit.CheckOutput(a.output, "text", "json", "csv"); err != nil {
				return err
			}
			if err := checkLayout(layout); err != nil {
				return err
			}
			if q, err := s.question(a.files); err != nil || q != nil {
				if err != nil {
					return err
				}
				if groupsFile != "" {
					return clikit.Usage("--groups-file is for %s configs: with %s files, name the subjects with --subjects", s.reg.Fallback().Name(), q.sys.Name())
				}
				return askMatrix(s, q, matrixAsk{q: audit.MatrixQuestion{Subjects: subjectList(subjects), Scope: audit.Scope{Partition: a.partition, Under: a.under}, Action: action},
					only: a.onlyAccess, output: a.output, layout: layout, width: width})
			}
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
			w := bufio.NewWriter(s.out)
			defer w.Flush()
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
			switch a.output {
			case "csv":
				err = writeMatrixCSV(w, rows, names)
			case "json":
				err = writeMatrixJSON(w, rows, names)
			default:
				err = writeMatrixText(w, rows, names, terminalWidth(width), layout)
			}
			if err != nil {
				return clikit.Usage("%w", err)
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&subjects, "subjects", "", "more columns: comma-separated user:NAME or group:NAME (a bare NAME is a user)")
	f.StringVar(&groupsFile, "groups-file", "", "add the users of this groups file, each with its groups")
	f.StringVar(&action, "action", "", "the one action the cells answer, for a system with many (a permission); where a cell names the strongest access (admin, submit) it is not taken")
	f.IntVar(&width, "width", 0, "text table width (default: $COLUMNS, or 120)")
	a.register(s, f, "queues where no subject has access", "text, csv or json")
	f.StringVar(&layout, "layout", "auto", "text only: grid (a column per subject), list (per queue, who gains access there), or auto (grid while it fits in "+strconv.Itoa(maxGridBlocks)+" blocks of --width)")
	return c
}

// subjectList reads --subjects for any system: KIND:NAME, or a bare NAME
// whose kind the system chooses (a user, a principal).
func subjectList(list string) []audit.Subject {
	var out []audit.Subject
	for _, v := range clikit.ParseList(list) {
		kind, name, ok := strings.Cut(v, ":")
		if !ok {
			kind, name = "", v
		}
		out = append(out, audit.Subject{Kind: kind, Name: name})
	}
	return out
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

// matrixLong is newMatrixCmd's help.
const matrixLong = `Show every queue against every user and group named in any ACL (plus --subjects, and the
users of a --groups-file with their groups). A cell is "admin" (admin and submit),
"submit", or "-". A user column is asked as the user alone (or with its groups from the
groups file), a group column as a member of that group only.

Another system's files (-f) are shown as that system answers: YARN's queues, each Mesos ACL
kind's objects against its principals, each YTsaurus node against its users (--action
picks the permission, read when not given).

csv and json stream row by row, so very large configs do not need the whole matrix in
memory. The text table splits its columns to fit the terminal (COLUMNS, or --width).`

// matrixExample are newMatrixCmd's examples.
const matrixExample = `  aclint matrix -f queues.yaml
  aclint matrix --subjects user:alice,group:data-eng -o csv > access.csv`

// matrixRows streams a matrix's rows to emit, in order.
type matrixRows = func(emit func(part, queue string, cells []acl.Cell) error) error

// writeMatrixCSV writes the matrix as CSV, row by row.
func writeMatrixCSV(w *bufio.Writer, rows matrixRows, names []string) (err error) {
	cw := csv.NewWriter(w)
	cw.Write(printableFields(append([]string{"partition", "queue"}, names...)))
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
		js.Item(clikit.Object{{"section", part}, {"object", queue}, {"cells", vals}})
		return js.Err()
	})
	if cerr := js.Close(); err == nil {
		err = cerr
	}
	return err
}

func checkLayout(layout string) error {
	if layout != "auto" && layout != "grid" && layout != "list" {
		return clikit.Usage("invalid --layout %q: use auto, grid or list", layout)
	}
	return nil
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
		gf, err := resolve.LoadFile(groupsFile, s.maxInput)
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
