package yarn

// This file is YARN's own command (clikit.Commander): aclint yarn check,
// the ResourceManager's answer to one question with the ACLs consulted.

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/input"
)

// Commands are YARN's own commands: aclint yarn check.
func (Sys) Commands(env clikit.Env) []*cobra.Command {
	c := &cobra.Command{
		Use:   "yarn",
		Short: "Hadoop YARN: answer queue access questions over capacity-scheduler.xml and yarn-site.xml",
		Long: `Commands for Hadoop YARN's queue ACLs, answered offline over the ResourceManager's
files exactly as YARN decides. Lint the files with 'aclint lint' (recognised by their
yarn.scheduler.capacity. and yarn.acl keys). See docs/yarn.md.`,
	}
	c.AddCommand(newCheckCmd(env))
	return []*cobra.Command{env.Group(c)}
}

// loadFiles reads the files of yarn check, each as given, and loads them
// (LoadSetup); a setup Hadoop refuses is exit 2, showing why.
func loadFiles(env clikit.Env, files []string) (*Setup, error) {
	var ins []*engine.Input
	for _, file := range files {
		name, data, err := input.ReadSource(file, env.In(), env.MaxInput(), env.Seen())
		if err != nil {
			return nil, env.Usage("%w", err)
		}
		ins = append(ins, &engine.Input{Path: name, Data: data, Explicit: true, Arg: file})
	}
	setup, err := LoadSetup(ins)
	var ref *audit.Refused
	switch {
	case errors.As(err, &ref):
		return nil, env.Refused(ref)
	case err != nil:
		return nil, env.Usage("%w", err)
	}
	return setup, nil
}

// splitList reads a comma-separated flag: its items, trimmed, without
// empty ones.
func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

func newCheckCmd(env clikit.Env) *cobra.Command {
	var (
		files                  []string
		groups, action, output string
		quiet                  bool
	)
	c := &cobra.Command{
		Use:   "check -f capacity-scheduler.xml|fair-scheduler.xml [-f yarn-site.xml] QUEUE USER",
		Short: "The older form of aclint check -f FILES QUEUE USER: the same answer, kept for scripts",
		Long: `The older form of aclint check -f FILES QUEUE USER, which asks the same question and
prints the same answer: both are one verdict, rendered once. Kept for scripts; new ones
use aclint check.

Answer a queue access question exactly as YARN's ResourceManager decides it with the
Capacity Scheduler: a queue's ACL of the kind asked, or any ancestor's up the queue's
path, allows (there is no deny); submitting is allowed to whoever may submit or
administer. An unset ACL is '*' (everyone) on root and ' ' (no one) elsewhere. QUEUE is
a full path (root.prod.etl) or a leaf name no other queue has.

Queue ACLs count only when yarn.acl.enable is true (default false), which is read from
yarn-site.xml: give it with a second -f. Without it, a question the ACLs allow is
answered (allowed either way), and one they deny is not (exit 2).

-f may also be a Fair Scheduler allocation file (<allocations>): its queues and their
aclSubmitApps and aclAdministerApps, checked the same way. The Fair Scheduler checks
them itself when it adds an application, whatever yarn.acl.enable says. QUEUE is then
a full path (root.prod.etl, or prod.etl under root).

Exit codes: 0 allowed, 1 denied, 2 error (a file Hadoop refuses, an unknown queue,
an answer aclint cannot know, usage).`,
		Example: `  aclint yarn check -f capacity-scheduler.xml -f yarn-site.xml root.prod.etl alice --groups data
  aclint yarn check -f capacity-scheduler.xml -f yarn-site.xml etl bob --action admin -o json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return env.Usage("yarn check needs QUEUE USER, got %d argument(s)\nrun 'aclint yarn check --help' for usage", len(args))
			}
			if len(files) == 0 {
				return env.Usage("yarn check needs the Capacity Scheduler's file: -f capacity-scheduler.xml (and -f yarn-site.xml)")
			}
			return nil
		},
		ValidArgsFunction: func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			if len(args) != 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return queueNames(files, env.MaxInput(), env.Seen()), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			var act Action
			switch action {
			case "submit":
				act = Submit
			case "admin", "administer":
				act = Administer
			default:
				return env.Usage("invalid --action %q: use submit or admin", action)
			}
			if output != "text" && output != "json" {
				return env.Usage("invalid -o %q: use text or json", output)
			}
			setup, err := loadFiles(env, files)
			if err != nil {
				return err
			}
			q, err := setup.FindQueue(args[0])
			if err != nil {
				return env.Usage("%w", err)
			}
			gs := splitList(groups)
			ans := setup.Check(q, args[1], gs, act)
			return env.Check(setup.verdict(q, args[1], gs, act, ans), output, quiet)
		},
	}
	f := c.Flags()
	f.StringArrayVarP(&files, "file", "f", nil, "capacity-scheduler.xml, and yarn-site.xml for yarn.acl.enable (repeatable; - for standard input)")
	f.StringVar(&groups, "groups", "", "the user's groups, comma-separated, as the ResourceManager's group mapping gives them")
	f.StringVar(&action, "action", "submit", "submit or admin")
	env.VerdictFlags(c, &output, &quiet, "the question, the decision and the ACLs consulted")
	return c
}

// yarnNotes are what an answer's verdict does not say: a submission to a
// parent queue is rejected whatever the ACLs say.
func checkNotes(s *Setup, ans Answer, a Action) []string {
	notes := []string{}
	if a == Submit && ans.Queue.IsParentQueue() {
		notes = append(notes, ParentQueueNote(ans.Queue, s.FS))
	}
	if a == Submit && ans.Stopped == "" && s.refusesSubmission(ans.Queue) {
		notes = append(notes, ans.Queue.StoppedNote())
	}
	return notes
}

type aclJSON struct {
	Queue string `json:"queue"`
	ACL   string `json:"acl"`
	// Kind and Entry: in decidedBy, the entry that lets the user in
	// ("user", "group" or "everyone", and the name)
	Kind   string  `json:"kind,omitempty"`
	Entry  string  `json:"entry,omitempty"`
	Value  *string `json:"value"` // null: not set, the default applies
	File   string  `json:"file,omitempty"`
	Line   int     `json:"line,omitempty"`
	Column int     `json:"column,omitempty"`
}

func aclOf(s *Setup, q *Queue, a Action) aclJSON {
	j := aclJSON{Queue: q.Path, ACL: s.ACLName(a)}
	if p := q.From[a]; p != nil {
		v := p.Value
		j.Value, j.File, j.Line, j.Column = &v, p.File, p.ValuePos.Line, p.ValuePos.Col
	}
	return j
}

type checkJSONDoc struct {
	// Allowed is check's field: true or false, and null when the answer
	// is not known (Verdict unknown), so that a script reading it alone
	// never takes "not known" for an answer
	Allowed *bool `json:"allowed"`
	// DecidingQueue is the queue whose ACL lets the user in (null when
	// none does, or when ACLs are off)
	DecidingQueue *string   `json:"decidingQueue"`
	Queue         string    `json:"queue"`
	User          string    `json:"user"`
	Groups        []string  `json:"groups"`
	Action        string    `json:"action"`
	Verdict       string    `json:"verdict"` // allow, deny or unknown
	ACLEnable     *bool     `json:"aclEnable"`
	DecidedBy     *aclJSON  `json:"decidedBy"`
	Consulted     []aclJSON `json:"consulted"`
	Why           string    `json:"why,omitempty"`
	// ParentQueue: YARN runs no application in the queue, whatever the
	// verdict on its ACLs
	ParentQueue bool     `json:"parentQueue"`
	Notes       []string `json:"notes"`
}

func checkJSON(s *Setup, ans Answer, user string, groups []string, a Action) checkJSONDoc {
	j := checkJSONDoc{Queue: ans.Queue.Path, User: user, Groups: groups, Action: a.String(), Consulted: []aclJSON{}, Why: ans.Why,
		ParentQueue: ans.Queue.IsParentQueue(), Notes: checkNotes(s, ans, a)}
	if j.Groups == nil {
		j.Groups = []string{}
	}
	if s.Known {
		v := s.ACLEnable
		j.ACLEnable = &v
	}
	switch {
	case !ans.Known:
		j.Verdict = "unknown"
	case ans.Allowed:
		j.Verdict = "allow"
	default:
		j.Verdict = "deny"
	}
	if ans.Known {
		v := ans.Allowed
		j.Allowed = &v
	}
	if ans.Known && ans.Allowed && !ans.ACLsOff {
		dq := ans.Decision.Queue.Path
		j.DecidingQueue = &dq
		d := aclOf(s, ans.Decision.Queue, ans.Decision.Action)
		d.Kind, d.Entry, _ = ans.Decision.Queue.ACL[ans.Decision.Action].Grant(user, groups)
		j.DecidedBy = &d
	}
	kinds := []Action{a}
	if a == Submit {
		kinds = append(kinds, Administer)
	}
	for _, k := range kinds {
		for _, q := range ans.Decision.Consulted {
			j.Consulted = append(j.Consulted, aclOf(s, q, k))
		}
	}
	return j
}

// queueNames are the queues of the files -f names, for completion: the
// tree as the scheduler builds it, whether or not it would start with it;
// nothing when a file cannot be read.
func queueNames(files []string, max int64, seen *engine.ReadSet) []string {
	var confs []*Conf
	var fs *CS
	for _, f := range files {
		data, err := input.ReadFile(f, max, seen)
		if err != nil {
			return nil
		}
		if IsAllocationFile(data) {
			if fs, err = ReadFS(f, data); err != nil {
				return nil
			}
			continue
		}
		c, err := ReadConf(f, data)
		if err != nil {
			return nil
		}
		confs = append(confs, c)
	}
	setup := NewSetup(confs)
	if fs != nil {
		setup = NewFSSetup(fs, confs)
	}
	var out []string
	for _, q := range setup.Queues() {
		out = append(out, q.Path)
	}
	return out
}
