package mesos

// This file is aclint mesos check, Mesos' own command (clikit.Commander):
// the local authorizer's answer to one request with every flag a request
// has, and the entries it consulted.

import (
	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/input"
)

// Commands are Mesos' own commands: aclint mesos check.
func (Sys) Commands(env clikit.Env) []*cobra.Command {
	c := &cobra.Command{
		Use:   "mesos",
		Short: "Apache Mesos ACLs (--acls): answer access questions as the local authorizer does",
		Long: `Commands for Apache Mesos' authorization ACLs, the JSON that the master's and
agent's --acls flag takes. Lint them with 'aclint lint' (Mesos ACL files are
recognised by their content, or forced with --system mesos).`,
	}
	c.AddCommand(newCheckCmd(env))
	return []*cobra.Command{env.Group(c)}
}

func newCheckCmd(env clikit.Env) *cobra.Command {
	var (
		file, principal, commandUser, output string
		parentUser                           string
		objects                              []string
		quiet                                bool
	)
	c := &cobra.Command{
		Use:   "check [-f ACLS] ACTION",
		Short: "The older form of aclint check -f ACLS ACTION PRINCIPAL [OBJECT...]: the same answer, kept for scripts",
		Long: `The older form of aclint check -f ACLS ACTION PRINCIPAL [OBJECT...], which asks the
same question (with --command-user and --parent-user) and prints the same answer: both
are one verdict, rendered once. Kept for scripts; new ones use aclint check.

Answer an authorization question exactly as Mesos' local authorizer does. ACTION
is the ACL kind's JSON key (run_tasks, register_frameworks, get_endpoints, ...).

The first entry of the kind whose principals and object both match the request
decides; when none matches, permissive decides (true unless set). No --principal
is an unauthenticated request, or a framework without a principal (subject ANY);
no --object is a request about all objects (object ANY). register_frameworks takes
--object once per role of the framework, and every role must be allowed. Kinds
whose object Mesos always treats as ANY (view_flags, the maintenance and agent
kinds, ...) ignore --object.

For launch_nested_containers_under_parent_with_user (and the session kind),
--command-user asks about a launch with a command: Mesos then also checks the
*_as_user list against the command's user ("" for a command without a user).
Asking about launch_nested_containers_as_user (or the session kind) is asking
about such a launch: --object is the command's user, and the parent list must
allow the executor's user too (--parent-user; ANY when not given), because
Mesos never checks an *_as_user list alone.

Without -f, the question is about a Mesos started without --acls: there is no
authorizer, and every request is allowed.

Exit codes: 0 allowed, 1 denied, 2 error (ACLs Mesos refuses to start with,
unknown ACTION, usage).`,
		Example: `  aclint mesos check -f acls.json run_tasks --principal etl --object root
  aclint mesos check -f acls.json register_frameworks --principal spark --object analytics --object analytics/batch
  aclint mesos check -f acls.json get_endpoints --object /metrics/snapshot -o json`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return env.Usage("mesos check needs one ACTION (an ACL kind such as run_tasks), got %d argument(s)\nrun 'aclint mesos check --help' for usage", len(args))
			}
			return nil
		},
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return KindKeys(), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			kind := LookupKind(args[0])
			if kind == nil {
				return env.Usage("%s", UnknownAction(args[0]))
			}
			if output != "text" && output != "json" {
				return env.Usage("invalid -o %q: use text or json", output)
			}
			req := Request{Kind: kind, Objects: objects}
			if cmd.Flags().Changed("principal") {
				req.Principal = &principal
			}
			if cmd.Flags().Changed("command-user") {
				if NestedChild(kind.Key) == "" {
					return env.Usage("--command-user is for launch_nested_containers_under_parent_with_user and launch_nested_container_sessions_under_parent_with_user")
				}
				req.Command = true
				if commandUser != "" {
					req.CommandUser = &commandUser
				}
			}
			if cmd.Flags().Changed("parent-user") {
				if NestedParent(kind.Key) == "" {
					return env.Usage("--parent-user is for launch_nested_containers_as_user and launch_nested_container_sessions_as_user")
				}
				req.ParentUser = &parentUser
			}
			var acls *ACLs
			if file != "" {
				var err error
				if acls, err = loadFile(env, file); err != nil {
					return err
				}
			}
			d, err := acls.Authorize(req)
			if err != nil {
				return env.Usage("%w", err)
			}
			return env.Check(acls.verdict(req, d), output, quiet)
		},
	}
	f := c.Flags()
	f.StringVarP(&file, "file", "f", "", "the --acls JSON file, or - for standard input (default: Mesos without --acls)")
	f.StringVar(&principal, "principal", "", "the request's principal (default: none, an unauthenticated request)")
	f.StringArrayVar(&objects, "object", nil, "the request's object: a user, role, path or principal, per ACTION (repeatable for register_frameworks' roles)")
	f.StringVar(&commandUser, "command-user", "", "for the *_under_parent_with_user kinds: the launch carries a command run as this user (\"\" for none)")
	f.StringVar(&parentUser, "parent-user", "", "for the *_as_user kinds: the user of the executor the nested container is launched under (default: none given, ANY)")
	env.VerdictFlags(c, &output, &quiet, "the request, the decision and the entries consulted")
	return c
}

// loadFile reads an ACL file for mesos check, refusing one Mesos refuses
// to start with, showing why.
func loadFile(env clikit.Env, file string) (*ACLs, error) {
	name, data, err := input.ReadSource(file, env.In(), env.MaxInput(), env.Seen())
	if err != nil {
		return nil, env.Usage("%w", err)
	}
	m, err := Sys{}.Load([]*engine.Input{{Path: name, Data: data, Explicit: true, Arg: file}}, engine.Options{})
	if err != nil {
		return nil, env.Refused(err.(*audit.Refused))
	}
	return m.(*ACLs), nil
}

type entryJSON struct {
	Entry  string `json:"entry"`
	Role   string `json:"role,omitempty"` // the "/%" role of a split entry
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

type checkJSONDoc struct {
	Action    string     `json:"action"`
	Object    *string    `json:"object"`
	Allowed   bool       `json:"allowed"`
	DecidedBy *entryJSON `json:"decidedBy"`
	Consulted []skipJSON `json:"consulted"`
}

type skipJSON struct {
	entryJSON
	Reason string `json:"reason"`
}
