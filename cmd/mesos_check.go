package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/pkg/config"
	"github.com/aclint/aclint/pkg/mesos"
)

func newMesosCheckCmd(s *streams) *cobra.Command {
	var (
		file, principal, commandUser, output string
		parentUser                           string
		objects                              []string
		quiet                                bool
	)
	c := &cobra.Command{
		Use:   "check [-f ACLS] ACTION",
		Short: "Answer whether a principal may perform ACTION, and which ACL entry decides it",
		Long: `Answer an authorization question exactly as Mesos' local authorizer does. ACTION
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
				return usageErr("mesos check needs one ACTION (an ACL kind such as run_tasks), got %d argument(s)\nrun 'aclint mesos check --help' for usage", len(args))
			}
			return nil
		},
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return mesos.KindKeys(), cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			kind := mesos.LookupKind(args[0])
			if kind == nil {
				return usageErr("%s", unknownAction(args[0]))
			}
			if output != "text" && output != "json" {
				return usageErr("invalid -o %q: use text or json", output)
			}
			req := mesos.Request{Kind: kind, Objects: objects}
			if cmd.Flags().Changed("principal") {
				req.Principal = &principal
			}
			if cmd.Flags().Changed("command-user") {
				if mesos.NestedChild(kind.Key) == "" {
					return usageErr("--command-user is for launch_nested_containers_under_parent_with_user and launch_nested_container_sessions_under_parent_with_user")
				}
				req.Command = true
				if commandUser != "" {
					req.CommandUser = &commandUser
				}
			}
			if cmd.Flags().Changed("parent-user") {
				if mesos.NestedParent(kind.Key) == "" {
					return usageErr("--parent-user is for launch_nested_containers_as_user and launch_nested_container_sessions_as_user")
				}
				req.ParentUser = &parentUser
			}
			var acls *mesos.ACLs
			if file != "" {
				var err error
				if acls, err = loadMesosACLs(s, file); err != nil {
					return err
				}
			}
			d, err := acls.Authorize(req)
			if err != nil {
				return usageErr("%v", err)
			}
			if !quiet {
				if output == "json" {
					err = writeMesosJSON(s.out, acls, req, d)
				} else {
					err = writeMesosText(s.out, acls, req, d)
				}
				if err != nil {
					return usageErr("writing output: %v", err)
				}
			}
			if !d.Allowed {
				return &exitError{code: ExitFail}
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVarP(&file, "file", "f", "", "the --acls JSON file, or - for standard input (default: Mesos without --acls)")
	f.StringVar(&principal, "principal", "", "the request's principal (default: none, an unauthenticated request)")
	f.StringArrayVar(&objects, "object", nil, "the request's object: a user, role, path or principal, per ACTION (repeatable for register_frameworks' roles)")
	f.StringVar(&commandUser, "command-user", "", "for the *_under_parent_with_user kinds: the launch carries a command run as this user (\"\" for none)")
	f.StringVar(&parentUser, "parent-user", "", "for the *_as_user kinds: the user of the executor the nested container is launched under (default: none given, ANY)")
	f.StringVarP(&output, "output", "o", "text", "output format: text or json")
	f.BoolVarP(&quiet, "quiet", "q", false, "print nothing; answer with the exit code only")
	_ = c.RegisterFlagCompletionFunc("output", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return []string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp
	})
	return c
}

// unknownAction explains an ACTION that is not an ACL kind.
func unknownAction(name string) string {
	if ob, ok := mesos.ObsoleteKinds[name]; ok {
		return fmt.Sprintf("%s is not an ACL kind of current Mesos (%s): ask about %s", name, ob.What, ob.Now)
	}
	msg := fmt.Sprintf("unknown ACTION %q: it must be an ACL kind's JSON key", name)
	if near := config.Nearest(name, mesos.KindKeys()); near != "" {
		return msg + fmt.Sprintf(" (did you mean %s?)", near)
	}
	return msg + "; the kinds are: " + strings.Join(mesos.KindKeys(), ", ")
}

// loadMesosACLs reads an ACL file and refuses one Mesos refuses to start
// with, showing why.
func loadMesosACLs(s *streams, file string) (*mesos.ACLs, error) {
	name, data, err := config.ReadSource(file, s.in)
	if err != nil {
		return nil, usageErr("%v", err)
	}
	doc := mesos.Parse(name, data)
	acls := mesos.Decode(doc)
	if acls.Rejected() {
		return nil, refusedErr(name, "Mesos refuses to start with these ACLs, so they answer no question", "aclint lint "+file, mesos.Lint(doc), doc.Lines())
	}
	return acls, nil
}

// describeMesosRequest renders the request in one line.
func describeMesosRequest(req mesos.Request) string {
	var b strings.Builder
	b.WriteString(req.Kind.Key)
	if req.Principal != nil {
		fmt.Fprintf(&b, " by principal %s", strconvQuote(*req.Principal))
	} else {
		b.WriteString(" by an unauthenticated request (no principal)")
	}
	switch {
	case req.Kind.ImplicitObject():
		fmt.Fprintf(&b, " on any %s", req.Kind.Object)
	case len(req.Objects) == 0:
		fmt.Fprintf(&b, " on all %s", req.Kind.Object)
	default:
		q := make([]string, len(req.Objects))
		for i, o := range req.Objects {
			q[i] = strconvQuote(o)
		}
		fmt.Fprintf(&b, " on %s %s", req.Kind.Object, strings.Join(q, ", "))
	}
	if req.Command {
		if req.CommandUser != nil {
			fmt.Fprintf(&b, ", with a command as user %s", strconvQuote(*req.CommandUser))
		} else {
			b.WriteString(", with a command without a user")
		}
	}
	return b.String()
}

func writeMesosText(w io.Writer, acls *mesos.ACLs, req mesos.Request, d *mesos.Decision) error {
	var b strings.Builder
	if d.Allowed {
		b.WriteString("allowed\n")
	} else {
		b.WriteString("denied\n")
	}
	b.WriteString(describeMesosRequest(req) + "\n")
	if acls != nil {
		for _, c := range d.Checks {
			prefix := ""
			if len(d.Checks) > 1 {
				verdict := "denied"
				if c.Allowed {
					verdict = "allowed"
				}
				fmt.Fprintf(&b, "%s %s: %s\n", c.Kind.Key, checkObject(c), verdict)
				prefix = "  "
			}
			if c.By != nil {
				fmt.Fprintf(&b, "%sdecided by: %s at %s: %s\n", prefix, c.By.Name(), acls.Doc.Pos(c.By.Entry.Node.Off), c.Explain())
			} else {
				where := "not set, true by default"
				if acls.PermissiveNode != nil {
					where = acls.Doc.Pos(acls.PermissiveNode.Off).String()
				}
				fmt.Fprintf(&b, "%sno entry matched: permissive=%t (%s)\n", prefix, acls.Permissive, where)
			}
			if len(c.Consulted) > 0 {
				fmt.Fprintf(&b, "%sconsulted first, in order:\n", prefix)
				for _, sk := range c.Consulted {
					fmt.Fprintf(&b, "%s  %s at %s: %s\n", prefix, sk.Rule.Name(), acls.Doc.Pos(sk.Rule.Entry.Node.Off), sk.Reason)
				}
			}
		}
	}
	if len(d.Notes) > 0 {
		b.WriteString("notes:\n")
		for _, n := range d.Notes {
			fmt.Fprintf(&b, "  - %s\n", n)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func checkObject(c mesos.Check) string {
	if c.Object == nil {
		return "any " + strings.TrimSuffix(c.Kind.Object, "s")
	}
	return strings.TrimSuffix(c.Kind.Object, "s") + " " + strconvQuote(*c.Object)
}

type mesosEntryJSON struct {
	Entry  string `json:"entry"`
	Role   string `json:"role,omitempty"` // the "/%" role of a split entry
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

type mesosCheckJSON struct {
	Action    string          `json:"action"`
	Object    *string         `json:"object"`
	Allowed   bool            `json:"allowed"`
	DecidedBy *mesosEntryJSON `json:"decidedBy"`
	Consulted []mesosSkipJSON `json:"consulted"`
}

type mesosSkipJSON struct {
	mesosEntryJSON
	Reason string `json:"reason"`
}

func writeMesosJSON(w io.Writer, acls *mesos.ACLs, req mesos.Request, d *mesos.Decision) error {
	entry := func(r *mesos.Rule) *mesosEntryJSON {
		if r == nil {
			return nil
		}
		p := acls.Doc.Pos(r.Entry.Node.Off)
		return &mesosEntryJSON{Entry: r.Entry.Name(), Role: r.Recursive, File: p.File, Line: p.Line, Column: p.Col}
	}
	out := struct {
		Allowed    bool             `json:"allowed"`
		Action     string           `json:"action"`
		Principal  *string          `json:"principal"`
		Objects    []string         `json:"objects"`
		DecidedBy  *mesosEntryJSON  `json:"decidedBy"`
		Permissive *bool            `json:"permissive"`
		Notes      []string         `json:"notes"`
		Checks     []mesosCheckJSON `json:"checks"`
	}{Allowed: d.Allowed, Action: req.Kind.Key, Principal: req.Principal, Objects: req.Objects, Notes: d.Notes, Checks: []mesosCheckJSON{}}
	if out.Objects == nil {
		out.Objects = []string{}
	}
	if out.Notes == nil {
		out.Notes = []string{}
	}
	if acls != nil {
		out.Permissive = &acls.Permissive
		if c := d.DecidedBy(); c != nil {
			out.DecidedBy = entry(c.By)
		}
		for _, c := range d.Checks {
			cj := mesosCheckJSON{Action: c.Kind.Key, Object: c.Object, Allowed: c.Allowed, DecidedBy: entry(c.By), Consulted: []mesosSkipJSON{}}
			for _, sk := range c.Consulted {
				cj.Consulted = append(cj.Consulted, mesosSkipJSON{*entry(sk.Rule), sk.Reason})
			}
			out.Checks = append(out.Checks, cj)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
