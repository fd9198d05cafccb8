package cli

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/input"
	"github.com/aclint/aclint/internal/systems/yarn"
)

// yarnFiles reports whether the files a question names are YARN's
// (capacity-scheduler.xml, an allocation file, yarn-site.xml): the audit
// commands then answer as YARN does. Only regular files are looked at, and
// only their first element first: standard input, a FIFO or a device can
// be read once only, and a YuniKorn config is not read twice (nor counted
// twice by the progress line).
func yarnFiles(files []string) bool {
	for _, f := range files {
		if f == "-" {
			continue
		}
		info, err := os.Stat(f)
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		head := make([]byte, 4096)
		n, _ := io.ReadFull(fh, head)
		fh.Close()
		if !yarn.LooksLikeXML(head[:n]) {
			continue
		}
		data, err := input.ReadFile(f)
		if err != nil {
			continue
		}
		if (yarn.Sys{}).Detect(&engine.Input{Path: f, Data: data}) {
			return true
		}
	}
	return false
}

// yarnWhoCan is who-can over YARN files: PARTITION must be default (YARN
// has none), QUEUE a queue of the tree.
func yarnWhoCan(s *streams, files []string, partition, queue, action, output string) error {
	if partition != "default" {
		return usageErr("YARN queues have no partitions: ask about partition default (got %q)", partition)
	}
	var a yarn.Action
	switch action {
	case "submit":
		a = yarn.Submit
	case "admin":
		a = yarn.Administer
	default:
		return usageErr("invalid --action %q: use submit or admin", action)
	}
	setup, err := loadYarn(s, files)
	if err != nil {
		return err
	}
	q, err := setup.FindQueue(queue)
	if err != nil {
		return usageErr("%w", err)
	}
	if !setup.FS && !setup.Known {
		return usageErr("who may %s %s depends on yarn.acl.enable (false by default: everyone): %s", verbOn(a), q.Path, setup.EnableHint())
	}
	r := setup.WhoCan(q, a)
	var werr error
	switch output {
	case "json":
		werr = writeJSON(s.out, yarnWhoCanJSON(r))
	case "csv":
		werr = writeYarnWhoCanCSV(s.out, r)
	default:
		werr = writeYarnWhoCanText(s.out, r)
	}
	if werr != nil {
		return usageErr("writing output: %w", werr)
	}
	if r.Unknown {
		return &exitError{code: ExitUsage, err: fmt.Errorf("the list is not complete: an ACL on the path is not known")}
	}
	return nil
}

func holderWhere(h yarn.Holder) string {
	if h.Default {
		return "root's default, " + h.ACL + " not set"
	}
	return fmt.Sprintf("%s:%d:%d", h.File, h.Pos.Line, h.Pos.Col)
}

func writeYarnWhoCanText(w io.Writer, r *yarn.WhoCanResult) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s on %s (YARN):\n", r.Action, r.Queue)
	if r.ACLsOff {
		b.WriteString("everyone: yarn.acl.enable is false, YARN checks no queue ACL\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	lines := func(hs []yarn.Holder) []holderLine {
		out := make([]holderLine, len(hs))
		for i, h := range hs {
			out[i] = holderLine{h.Name, h.Queue, h.ACL, holderWhere(h), h.Inherited}
		}
		return out
	}
	writeHolders(&b, lines(r.Everyone), lines(r.Users), lines(r.Groups))
	writeNotes(&b, r.Notes)
	_, err := io.WriteString(w, b.String())
	return err
}

type yarnHolderJSON struct {
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

func yarnHolders(hs []yarn.Holder) []yarnHolderJSON {
	out := []yarnHolderJSON{}
	for _, h := range hs {
		out = append(out, yarnHolderJSON{h.Kind, h.Name, h.Queue, h.ACL, h.Inherited, h.Default, h.File, h.Pos.Line, h.Pos.Col})
	}
	return out
}

func yarnWhoCanJSON(r *yarn.WhoCanResult) any {
	notes := r.Notes
	if notes == nil {
		notes = []string{}
	}
	return jsonObject{
		{"system", "yarn"},
		{"action", r.Action.String()},
		{"queue", r.Queue},
		{"aclsOff", r.ACLsOff},
		{"everyone", yarnHolders(r.Everyone)},
		{"users", yarnHolders(r.Users)},
		{"groups", yarnHolders(r.Groups)},
		{"complete", !r.Unknown},
		{"notes", notes},
	}
}

func writeYarnWhoCanCSV(w io.Writer, r *yarn.WhoCanResult) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"subject_kind", "subject", "queue", "acl", "inherited", "file", "line", "column"})
	if r.ACLsOff {
		cw.Write([]string{"wildcard", "*", r.Queue, "yarn.acl.enable=false", "false", "", "0", "0"})
	}
	for _, list := range [][]yarn.Holder{r.Everyone, r.Users, r.Groups} {
		for _, h := range list {
			cw.Write([]string{h.Kind, h.Name, h.Queue, h.ACL, strconv.FormatBool(h.Inherited), h.File, strconv.Itoa(h.Pos.Line), strconv.Itoa(h.Pos.Col)})
		}
	}
	cw.Flush()
	return cw.Error()
}

// yarnAuditSetup reads the YARN files of an audit over every queue
// (access, matrix): YARN has one partition, and the Capacity Scheduler's
// answers all hang on yarn.acl.enable, so without it what says nothing.
func yarnAuditSetup(s *streams, a auditFlags, what string) (*yarn.Setup, error) {
	if a.partition != "" && a.partition != "default" {
		return nil, usageErr("YARN queues have no partitions: --partition default, or none (got %q)", a.partition)
	}
	setup, err := loadYarn(s, a.files)
	if err != nil {
		return nil, err
	}
	if !setup.FS && !setup.Known {
		return nil, usageErr("%s depends on yarn.acl.enable (false by default: everyone everywhere): %s", what, setup.EnableHint())
	}
	return setup, nil
}
