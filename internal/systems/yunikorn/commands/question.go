package commands

import (
	"errors"
	"slices"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/admission"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// question is YuniKorn's answers to one shared command as its flags ask
// them: audit.Loader and the command's capability (audit.Checker,
// WhoCanner, Accesser, Matrixer, Differ or Placer), bound to the flags
// YuniKorn's part registered and to the streams it was lent. The command
// line reads the question's files, asks Load, then the capability, and
// renders the answer as it renders every system's.
type question struct {
	s   *streams
	cmd *cobra.Command // the command whose flags these are
	// servers are the --server URLs: their configs are fetched by Load
	servers []string
	key     string
	// the flags of the request and of the user's groups
	groups    string
	req       requestFlags
	resolvers resolverFlags
	// how the config is loaded: only the ACLs on the paths asked about
	// (onePath), and the errors that do not refuse it (tolerate)
	onePath  bool
	tolerate func(engine.Finding) bool
	// refusedSides: a config YuniKorn rejects is an *audit.Refused, which
	// diff reports as a side it did not compare
	refusedSides bool
	// what only some commands ask: check's -v and --explain, place's
	// --queue and --forced, matrix's --groups-file, the audits' scope
	verbose, explain, forced bool
	queue, groupsFile        string
	// gate is the system in front of YuniKorn whose files came with the
	// question (Kubernetes RBAC): the answers follow a subject through it
	gate audit.Gate
}

// loaded is YuniKorn's model: the config YuniKorn would run.
type loaded struct{ *yunikorn.Loaded }

// configFlags registers -f, --key and --server with its options for the
// question: where it reads its config. The command line reads -f; each
// --server goes to q.servers, for Load to fetch.
func (q *question) configFlags(c *cobra.Command) {
	q.cmd = c
	f := c.Flags()
	f.StringArrayP("file", "f", nil, "queue config or ConfigMap file, or - for standard input (repeatable; default ./queues.yaml)")
	f.StringVar(&q.key, "key", config.DefaultKey, "ConfigMap data key holding the queue config")
	q.s.serverOptionFlags(f)
	f.Var(serverValue{&q.servers}, "server", "answer over the config a running YuniKorn scheduler runs: its REST address, as in http://yunikorn-service.yunikorn:9080 (GET /ws/v1/config)")
}

// Load reads the config YuniKorn would run from the question's inputs
// (none: ./queues.yaml, else the built-in default) and the configs the
// --server schedulers run, merged as YuniKorn merges its ConfigMaps; a
// config YuniKorn rejects is exit 2 with its first errors.
func (q *question) Load(ins []*engine.Input, _ engine.Options) (audit.Model, error) {
	l, err := q.load(ins, q.tolerate, q.onePath)
	if err != nil {
		return nil, err
	}
	return loaded{l}, nil
}

// load is Load with its own reading of the config, and the Loaded even
// when YuniKorn refuses it (err then says so).
func (q *question) load(ins []*engine.Input, tolerate func(engine.Finding) bool, onePath bool) (*yunikorn.Loaded, error) {
	urls, fetched, err := q.s.fetchServers(q.servers)
	if err != nil {
		return nil, err
	}
	all := slices.Clone(ins)
	for _, u := range urls {
		all = append(all, &engine.Input{Path: u, Arg: u, Data: fetched[u], Explicit: true})
	}
	var paths []string
	seen := map[string]bool{}
	for _, in := range all {
		if !seen[in.Arg] {
			seen[in.Arg] = true
			paths = append(paths, in.Arg)
		}
	}
	if len(paths) == 0 {
		all = nil // none named: the default applies
	}
	opts := q.s.readOptions(q.key, false)
	opts.OnePath = onePath
	l, err := yunikorn.LoadRead(paths, all, opts, tolerate)
	if l != nil {
		for _, w := range l.Warnings {
			engine.Fprintf(q.s.env.Err(), "aclint: %s\n", w)
		}
	}
	var rej *yunikorn.RejectedError
	switch {
	case errors.As(err, &rej) && q.refusedSides:
		doc := rej.Doc
		return l, &audit.Refused{File: doc.Describe(), Why: "YuniKorn rejects this config, so it answers no access question", Command: "aclint lint",
			Findings: rej.Errors, Sources: map[string][]string{doc.File: doc.Lines()}, By: "YuniKorn", OnReload: "YuniKorn keeps running the old config"}
	case errors.As(err, &rej):
		return l, refusal(rej)
	case err != nil:
		return nil, clikit.Usage("%w", err)
	}
	return l, nil
}

// CheckWords checks a question's words before its config is read: check
// QUEUE USER (USER may be left out with --pod), who-can QUEUE, place USER
// (nothing with --pod), each with --partition or the partition first.
func (q *question) CheckWords(command string, args []string) error {
	_, err := q.words(command, args)
	return err
}

// words are the question's words with the partition first (partitioned).
func (q *question) words(command string, args []string) ([]string, error) {
	usage := map[string]string{
		"check":   "QUEUE USER (USER may be left out with --pod)",
		"who-can": "QUEUE",
		"place":   "USER (or --pod POD.yaml)",
	}[command]
	if usage == "" {
		return args, nil
	}
	return partitioned(q.cmd, command, usage, args, q.req.pod != "")
}

// action is --action as YuniKorn reads it: submit when not given.
func action(a string) (acl.Action, error) {
	if a == "" {
		a = "submit"
	}
	act, err := acl.ParseAction(a)
	if err != nil {
		return act, clikit.Usage("invalid --action: %w", err)
	}
	return act, nil
}

// gated is a pod that never reaches the core, for a listing: the
// admission controller refuses it (exit 1) or it is not YuniKorn's (exit
// 2).
func gated(g admission.Gate) *audit.Gated {
	if g.Rejected != "" {
		return &audit.Gated{Answer: "rejected", Said: "the admission controller refuses to create the pod: " + g.Rejected, Reason: g.Rejected, Why: g.Why, Rejected: true}
	}
	return &audit.Gated{Answer: "not scheduled by YuniKorn", Said: g.Bypass, Reason: g.Bypass, Why: g.Why}
}
