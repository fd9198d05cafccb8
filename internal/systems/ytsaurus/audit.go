package ytsaurus

import (
	"errors"
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/spf13/cobra"
)

// Load reads a Cypress document for questions (audit.Loader): a tree
// YTsaurus would not hold is an *audit.Refused with the errors.
func (Sys) Load(ins []*engine.Input, opts engine.Options) (audit.Model, error) {
	if len(ins) != 1 {
		return nil, fmt.Errorf("a YTsaurus question reads one document; %d were given", len(ins))
	}
	in := ins[0]
	if err := emptyTree(in.Path, in.Data); err != nil {
		return nil, err
	}
	doc := Parse(in.Path, in.Data)
	lo := Options{Path: opts.Value("path")}
	tree := Load(doc, lo)
	if lo.Path != "" && !tree.Bare {
		return nil, fmt.Errorf("--path is for a file holding a single node's ACL (the JSON of yt get //path/@acl); %s is a tree document", in.Path)
	}
	if tree.Errors() != nil {
		return nil, &audit.Refused{File: in.Path, Why: "YTsaurus would refuse this tree (or aclint cannot read it), so it answers no question",
			Command: "aclint lint --system ytsaurus " + in.Given(), Findings: Lint(doc, lo), Sources: map[string][]string{in.Path: doc.Lines()}, By: "YTsaurus"}
	}
	// check's own flags (Extend), read by Check
	tree.asked = askedFlags{columns: opts.Value("columns"), columnsSet: opts.Value("columns-set") == "true",
		vital: opts.Value("vital") == "true", tags: splitComma(opts.Value("tags"))}
	return tree, nil
}

// askedFlags are the flags of aclint check that only a YTsaurus question
// has.
type askedFlags struct {
	columns    string
	columnsSet bool
	vital      bool
	tags       []string
}

func splitComma(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// Extend is YTsaurus' part of aclint check: the flags of
// check-permission no other system's question has (--columns, --vital),
// and those that describe a lone ACL (--path, --tags; its user's groups
// are --groups).
func (Sys) Extend(command string, env clikit.Env) *clikit.Extension {
	if command != "check" {
		return nil
	}
	var columns, path, tags string
	var vital bool
	var c *cobra.Command
	set := func(name string) bool { return c != nil && c.Flags().Changed(name) }
	return &clikit.Extension{
		Flags: func(cmd *cobra.Command) {
			c = cmd
			f := cmd.Flags()
			f.StringVar(&columns, "columns", "", "YTsaurus: comma-separated columns to answer for too (columnar ACEs)")
			f.BoolVar(&vital, "vital", false, "YTsaurus, register_queue_consumer: the consumer to register is vital")
			f.StringVar(&path, "path", "", "YTsaurus: for a file holding one node's ACL (yt get --format json //path/@acl), the Cypress path it hangs at")
			f.StringVar(&tags, "tags", "", "YTsaurus, with a lone ACL (--path): the user's tags, comma-separated, for subject tag filters")
		},
		Values: func() map[string]string {
			return map[string]string{"columns": columns, "columns-set": fmt.Sprint(set("columns")), "vital": fmt.Sprint(vital), "path": path, "tags": tags}
		},
		Foreign: func(system string) error {
			for _, f := range []string{"columns", "vital", "path", "tags"} {
				if set(f) {
					return env.Usage("--%s asks a YTsaurus question; a %s question takes none", f, system)
				}
			}
			return nil
		},
	}
}

// WhoCanUsage is the words of a YTsaurus who-can question.
func (Sys) WhoCanUsage() audit.Usage {
	return audit.Usage{Words: "PATH PERMISSION", Example: "//home/analytics read", Files: "-f tree.yaml"}
}

// WhoCan lists the users check-permission lets have PERMISSION on PATH:
// every user the document defines (and the built-in ones) is asked, and
// each answer is Check's, so inheritance, deny, superusers and banned
// users decide exactly as in check. Users YTsaurus does not know do not
// exist for it, so there is no "everyone else"; a lone ACL, which
// describes no users, answers no who-can question.
func (Sys) WhoCan(m audit.Model, q audit.Question) (*audit.WhoCan, error) {
	t := m.(*Tree)
	if q.Action != "" {
		return nil, audit.Usagef("--action is not a YTsaurus word: the PERMISSION is the question's second word")
	}
	if len(q.Words) != 2 {
		return nil, audit.Usagef("a YTsaurus question is a PATH and a PERMISSION")
	}
	if t.Bare {
		return nil, errors.New("a lone ACL does not describe its users or their groups, so who may use it is not known: ask about one user with aclint yt check --groups, or give a tree document with its users and groups")
	}
	perm, ok := ParsePermission(q.Words[1])
	if !ok || perm == 0 || perm&(perm-1) != 0 {
		return nil, audit.Usagef("%q is not one permission YTsaurus checks (read, write, use, administer, create, remove, mount, manage, modify_children, full_read, register_queue_consumer)", q.Words[1])
	}
	path, err := NormalizePath(q.Words[0])
	if err != nil {
		return nil, audit.Usagef("%v", err)
	}
	if _, err := t.Node(path); err != nil {
		return nil, err
	}
	ans := &audit.WhoCan{System: System, Action: perm.String(), Object: path, How: "on the node", By: "YTsaurus", GroupsTitle: "-",
		Title:    fmt.Sprintf("%s on %s (YTsaurus check-permission)", perm, path),
		Everyone: []audit.Grant{}, Users: []audit.Grant{}, Groups: []audit.Grant{}, Denied: []audit.Grant{}}
	rows := 0
	for _, s := range t.Dir.Subjects() {
		if s.Group || s.Builtin && s.Name != Guest {
			continue
		}
		r, err := t.Check(Request{User: s.Name, Permission: perm, Path: path})
		if err != nil {
			return nil, err
		}
		g := t.grant(r, s, path)
		switch {
		case r.Action == Allow:
			ans.Users = append(ans.Users, g)
			if r.RowLevel != nil {
				rows++
			}
		case r.ACE != nil || r.Fast != "":
			ans.Denied = append(ans.Denied, g)
		}
	}
	ans.Notes = append(ans.Notes, "YTsaurus answers only for the users it knows: these are the users the document defines and guest (the built-in system users are left out; root and the superusers among them pass every check); a group's members are listed as users")
	if rows > 0 {
		ans.Notes = append(ans.Notes, fmt.Sprintf("row-level ACEs reach %s: %d of the users let in read only the rows their ACEs allow (aclint yt check says which)", path, rows))
	}
	ans.Detail = []audit.Field{{Key: "permission", Value: perm.String()}}
	return ans, nil
}

// grant is a user's answer with the ACE that decided it.
func (t *Tree) grant(r *Response, s *Subject, path string) audit.Grant {
	g := audit.Grant{Kind: "user", Name: s.Name}
	switch {
	case r.Fast == "superuser":
		g.Rule, g.Default, g.Note = "superuser", true, "a superuser: no ACL is read"
	case r.Fast == "banned":
		g.Rule, g.Default, g.Note = "banned", true, "every check of a banned user is denied"
	case r.ACE == nil:
		g.Rule, g.Default, g.Note = "no ACE", true, "no ACE matches"
	default:
		g.Object = r.Object
		g.Rule = fmt.Sprintf("ACE #%d", r.ACE.Index)
		g.Inherited = r.Object != path
		if r.Subject != "" && r.Subject != s.Name {
			g.Rule += " (through " + r.Subject + ")"
		}
		g.Pos = t.Doc.Pos(r.ACE.At)
	}
	return g
}

// CheckUsage is the words of a YTsaurus check question (audit.Checker).
func (Sys) CheckUsage() audit.Usage {
	return audit.Usage{Words: "USER PERMISSION PATH", Example: "alice read //home/reports", Files: "-f tree.yaml"}
}

// Check answers whether USER has PERMISSION on PATH as the master's
// check-permission does (yt check-permission USER PERMISSION PATH): the
// same answer as aclint yt check. --groups
// describes a user of a lone ACL, which defines no users.
func (Sys) Check(m audit.Model, q audit.Question) (*audit.Verdict, error) {
	t := m.(*Tree)
	if q.Action != "" {
		return nil, audit.Usagef("--action is not a YTsaurus word: the PERMISSION is the question's second word")
	}
	if len(q.Words) != 3 {
		return nil, audit.Usagef("a YTsaurus check is a USER, a PERMISSION and a PATH, as yt check-permission asks")
	}
	user := q.Words[0]
	perm, ok := ParsePermission(q.Words[1])
	if !ok || perm == 0 || perm&(perm-1) != 0 {
		return nil, audit.Usagef("%q is not one permission YTsaurus checks (read, write, use, administer, create, remove, mount, manage, modify_children, full_read, register_queue_consumer)", q.Words[1])
	}
	path, err := NormalizePath(q.Words[2])
	if err != nil {
		return nil, audit.Usagef("%v", err)
	}
	req := Request{User: user, Permission: perm, Path: path, Groups: q.Groups, Vital: t.asked.vital, Tags: t.asked.tags}
	if t.asked.columnsSet {
		req.Columns = append([]string{}, splitComma(t.asked.columns)...)
	}
	r, err := t.Check(req)
	if err != nil {
		return nil, err
	}
	return t.verdict(req, r), nil
}
