package cmd

// This file writes every verdict aclint's check commands give (check,
// mesos check, yt check, place): the first line, the explanation, the
// notes, -o json with one encoder's settings, -q and the exit code.

import (
	"fmt"
	"github.com/aclint/aclint/pkg/admission"
	"io"
	"strings"

	"github.com/aclint/aclint/pkg/acl"
	"github.com/aclint/aclint/pkg/lint"
	"github.com/aclint/aclint/pkg/mesos"
	"github.com/aclint/aclint/pkg/placement"
	"github.com/aclint/aclint/pkg/ytsaurus"
)

// verdict is one answer of a check command.
type verdict struct {
	ok   bool
	code int // the exit code when not ok; ExitFail (1) when 0
	// text writes the text output; json is the JSON document
	text func(io.Writer) error
	json func() any
}

// writeVerdict prints a verdict as -o and -q ask, and gives its exit code:
// 0 when ok.
func writeVerdict(s *streams, v verdict, output string, quiet bool) error {
	if !quiet {
		var err error
		if output == "json" {
			err = writeJSON(s.out, v.json())
		} else {
			err = v.text(s.out)
		}
		if err != nil {
			return usageErr("writing output: %w", err)
		}
	}
	if v.ok {
		return nil
	}
	if v.code == 0 {
		return &exitError{code: ExitFail}
	}
	return &exitError{code: v.code}
}

// writeNotes ends a text verdict with its notes.
func writeNotes(b *strings.Builder, notes []string) {
	if len(notes) == 0 {
		return
	}
	b.WriteString("notes:\n")
	for _, n := range notes {
		fmt.Fprintf(b, "  - %s\n", lint.Printable(n))
	}
}

func writeDecisionText(w io.Writer, d *acl.Decision, explain bool) error {
	verdict := "denied"
	if d.Allowed {
		verdict = "allowed"
	}
	// groups may come from LDAP or a groups file: no newline of theirs may
	// start a line of ours (a CI log reads "::error::" at a line's start)
	groups := lint.Printable(acl.Names(d.Groups))
	var b strings.Builder
	fmt.Fprintln(&b, verdict)
	fmt.Fprintf(&b, "%s on %s in partition %s for user %s, groups %s", d.Query.Action, d.Queue, d.Partition, d.Query.User, groups)
	if d.GroupsSource != "" {
		fmt.Fprintf(&b, " (%s)", d.GroupsSource)
	}
	fmt.Fprintln(&b)
	if explain {
		fmt.Fprintf(&b, "groups: %s\n", groups)
		if d.GroupsSource != "" {
			fmt.Fprintf(&b, "groups from: %s\n", d.GroupsSource)
		}
		for _, l := range d.GroupsDetails {
			fmt.Fprintf(&b, "  %s\n", lint.Printable(l))
		}
	}
	switch {
	case d.Reason != "":
		fmt.Fprintf(&b, "reason: %s\n", lint.Printable(d.Reason))
	case d.DecidedBy != nil:
		g := d.DecidedBy
		what := fmt.Sprintf("%s %q", g.Kind, g.Entry)
		if g.Kind == "wildcard" {
			what = `wildcard "*"`
		}
		fmt.Fprintf(&b, "decided by: %s %s, %s at %s\n", g.Queue, g.ACL, what, g.Pos)
	}
	if !d.Allowed && len(d.Consulted) > 0 {
		fmt.Fprintln(&b, "consulted, from the queue up to root:")
		eachConsulted(&b, d.Consulted, "  ", func(c acl.Consulted) {
			where, val := "", ""
			switch {
			case c.Set:
				val = " " + strconvQuote(c.Value)
				where = " at " + c.Pos.String()
			case c.Pos.File != "":
				where = " (queue at " + c.Pos.String() + ")"
			}
			fmt.Fprintf(&b, "  %s %s%s%s: %s\n", lint.Printable(c.Queue), c.ACL, val, where, lint.Printable(c.Result))
		})
	}
	if len(d.Notes) > 0 {
		fmt.Fprintln(&b, "notes:")
		for _, n := range d.Notes {
			fmt.Fprintf(&b, "  - %s\n", lint.Printable(n))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func strconvQuote(s string) string {
	return string(jsonValue(s))
}

type jsonGrant struct {
	Queue  string `json:"queue"`
	ACL    string `json:"acl"`
	Kind   string `json:"kind"`
	Entry  string `json:"entry"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

type jsonConsulted struct {
	Queue  string `json:"queue"`
	ACL    string `json:"acl"`
	Value  string `json:"value"`
	Set    bool   `json:"set"`
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	Result string `json:"result"`
}

func decisionJSON(d *acl.Decision) any {
	out := struct {
		Allowed      bool            `json:"allowed"`
		Action       string          `json:"action"`
		Partition    string          `json:"partition"`
		Queue        string          `json:"queue"`
		DecidingQ    string          `json:"decidingQueue"`
		Dynamic      bool            `json:"dynamic"`
		ParentQueue  bool            `json:"parentQueue"`
		User         string          `json:"user"`
		Groups       []string        `json:"groups"`
		GroupsSource string          `json:"groupsSource"`
		GroupsDetail []string        `json:"groupsDetails"`
		Reason       string          `json:"reason,omitempty"`
		DecidedBy    *jsonGrant      `json:"decidedBy"`
		Consulted    []jsonConsulted `json:"consulted"`
		Notes        []string        `json:"notes"`
	}{
		Allowed: d.Allowed, Action: string(d.Query.Action), Partition: d.Partition, Queue: d.Queue,
		DecidingQ: d.Deciding, Dynamic: d.Dynamic, ParentQueue: d.Parent, User: d.Query.User, Groups: d.Groups,
		GroupsSource: d.GroupsSource, GroupsDetail: d.GroupsDetails, Reason: d.Reason, Consulted: []jsonConsulted{}, Notes: d.Notes,
	}
	if out.Groups == nil {
		out.Groups = []string{}
	}
	if out.Notes == nil {
		out.Notes = []string{}
	}
	if out.GroupsDetail == nil {
		out.GroupsDetail = []string{}
	}
	if g := d.DecidedBy; g != nil {
		out.DecidedBy = &jsonGrant{g.Queue, g.ACL, g.Kind, g.Entry, g.Pos.File, g.Pos.Line, g.Pos.Col}
	}
	for _, c := range d.Consulted {
		out.Consulted = append(out.Consulted, jsonConsulted{c.Queue, c.ACL, c.Value, c.Set, c.Pos.File, c.Pos.Line, c.Pos.Col, c.Result})
	}
	return out
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
	writeNotes(&b, d.Notes)
	_, err := io.WriteString(w, b.String())
	return err
}

func checkObject(c mesos.Check) string {
	if c.Object == nil {
		return "any " + strings.TrimSuffix(c.Kind.Object, "s")
	}
	return strings.TrimSuffix(c.Kind.Object, "s") + " " + strconvQuote(*c.Object)
}

func mesosJSON(acls *mesos.ACLs, req mesos.Request, d *mesos.Decision) any {
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
	return out
}

func ytObjectName(path string) string { return "node " + path }

type ytResultJSON struct {
	Action      string `json:"action"`
	ObjectName  string `json:"object_name,omitempty"`
	SubjectName string `json:"subject_name,omitempty"`
}

func ytResult(r ytsaurus.Result) ytResultJSON {
	out := ytResultJSON{Action: r.Action.String()}
	if r.Object != "" {
		out.ObjectName = ytObjectName(r.Object)
	}
	out.SubjectName = r.Subject
	return out
}

// writeYTJSON prints what yt check-permission prints, without the ids.
func ytJSON(r *ytsaurus.Response) any {
	type rowLevel struct {
		Predicate string `json:"row_access_predicate"`
		Mode      string `json:"inapplicable_row_access_predicate_mode"`
	}
	out := struct {
		ytResultJSON
		Columns  []ytResultJSON `json:"columns,omitempty"`
		RowLevel *[]rowLevel    `json:"row_level_acl,omitempty"`
	}{ytResultJSON: ytResult(r.Result)}
	if r.Columns != nil {
		out.Columns = []ytResultJSON{}
		for _, c := range r.Columns {
			out.Columns = append(out.Columns, ytResult(c.Result))
		}
	}
	if r.RowLevel != nil {
		// present, and [] when no row-level ACE names the user
		list := []rowLevel{}
		for _, rl := range r.RowLevel {
			list = append(list, rowLevel{rl.Predicate, rl.Mode})
		}
		out.RowLevel = &list
	}
	return out
}

func describeACE(tree *ytsaurus.Tree, node string, a *ytsaurus.ACE) string {
	pos := tree.Doc.Pos(a.At)
	return fmt.Sprintf("ACE #%d at %s (%s): %s %s for %s, %s", a.Index, node, pos, a.Action, a.Permissions.Describe(), strings.Join(a.Subjects, ", "), a.Mode)
}

func writeYTText(w io.Writer, tree *ytsaurus.Tree, req ytsaurus.Request, r *ytsaurus.Response) error {
	var b strings.Builder
	if r.Action == ytsaurus.Allow {
		b.WriteString("allowed\n")
	} else {
		b.WriteString("denied\n")
	}
	fmt.Fprintf(&b, "%s on %s for user %s (%s)\n", req.Permission, req.Path, r.User.Name, r.User.DescribeGroups())
	switch {
	case r.Fast == "banned":
		fmt.Fprintf(&b, "reason: user %s is banned: YTsaurus denies a banned user everything, before looking at superusers or ACLs\n", r.User.Name)
	case r.Fast == "superuser":
		fmt.Fprintf(&b, "reason: %s is a superuser (root, or in superusers): YTsaurus allows without looking at ACLs\n", r.User.Name)
	case r.ACE != nil && r.Action == ytsaurus.Deny:
		fmt.Fprintf(&b, "denied by: %s, through %s\n", describeACE(tree, r.Object, r.ACE), r.Subject)
	case r.ACE != nil:
		fmt.Fprintf(&b, "allowed by: %s, through %s\n", describeACE(tree, r.Object, r.ACE), r.Subject)
	default:
		fmt.Fprintf(&b, "reason: no ACE allows %s (deny by default)\n", req.Permission)
	}
	if len(r.Columns) > 0 {
		b.WriteString("columns:\n")
		for _, c := range r.Columns {
			how := "(as the node)"
			switch {
			case c.ACE != nil:
				how = fmt.Sprintf("by ACE #%d at %s, through %s", c.ACE.Index, c.Object, c.Subject)
			case c.Action == ytsaurus.Deny && r.Action == ytsaurus.Allow:
				how = "(a columnar ACE restricts it, and no columnar allow matches the user)"
			case c.Action == ytsaurus.Undefined:
				how = "(a columnar ACE restricts it and none matches, but full_read is allowed explicitly, so it is not denied)"
			}
			fmt.Fprintf(&b, "  %s: %s %s\n", c.Column, c.Action, how)
		}
	}
	for _, rl := range r.RowLevel {
		fmt.Fprintf(&b, "row-level: rows where %s (inapplicable: %s)\n", rl.Predicate, rl.Mode)
	}
	if r.RowLevel != nil && len(r.RowLevel) == 0 {
		b.WriteString("row-level: the table has row-level ACEs and none names this user: row_level_acl is empty, so the user reads no rows\n")
	}
	if len(r.Steps) > 0 {
		b.WriteString("walk, from the node up:\n")
		for _, st := range r.Steps {
			fmt.Fprintf(&b, "  %s: %s\n", describeACE(tree, st.Node.Path, st.ACE), st.Effect)
		}
	}
	writeNotes(&b, r.Notes)
	_, err := io.WriteString(w, b.String())
	return err
}

func writePlaceText(w io.Writer, app placement.App, r *placement.Result, d *placement.Derivation) error {
	var b strings.Builder
	switch {
	case r.Crash != "":
		b.WriteString("crash\n")
	case r.Placed:
		b.WriteString("placed\n")
	default:
		b.WriteString("rejected\n")
	}
	q := app.Queue
	if q == "" {
		q = "(none)"
	}
	fmt.Fprintf(&b, "application of user %s, groups %s", r.User, acl.Names(r.Groups))
	if r.GroupsSource != "" {
		fmt.Fprintf(&b, " (%s)", r.GroupsSource)
	}
	fmt.Fprintf(&b, ", queue %s, tags %s, in partition %s\n", q, acl.DescribeTags(app.Tags), r.Partition)
	if d != nil {
		fmt.Fprintf(&b, "from the pod: queue from %s; user from %s; tags %s\n", d.Queue, d.User, d.Tags)
	}
	if r.NoRules != "" {
		fmt.Fprintf(&b, "no rules: %s\n", r.NoRules)
	}
	if len(r.Rules) > 0 {
		b.WriteString("rules, in order:\n")
	}
	for _, st := range r.Rules {
		fmt.Fprintf(&b, "  %d. %s", st.Index, st.Rule)
		if st.Pos.File != "" {
			fmt.Fprintf(&b, " at %s", st.Pos)
		}
		fmt.Fprintf(&b, ": %s", st.Result)
		if st.Queue != "" {
			fmt.Fprintf(&b, " %s", st.Queue)
		}
		if st.Reason != "" {
			fmt.Fprintf(&b, " (%s)", st.Reason)
		}
		if st.Filter != "" && !strings.Contains(st.Reason, st.Filter) {
			fmt.Fprintf(&b, "; filter: %s", st.Filter)
		}
		b.WriteString("\n")
		if st.Decision != nil && !st.Decision.Allowed {
			writeConsulted(&b, st.Decision, "     ")
		}
	}
	if r.Fallback != "" {
		fmt.Fprintf(&b, "fallback: %s\n", r.Fallback)
	}
	switch {
	case r.Placed:
		fmt.Fprintf(&b, "queue: %s", r.Queue)
		if r.Created {
			fmt.Fprintf(&b, " (created under %s)", r.CreatedUnder)
		} else {
			b.WriteString(" (exists)")
		}
		b.WriteString("\n")
		if g := grantOf(r.Decision); g != nil {
			fmt.Fprintf(&b, "submit: allowed by %s\n", g.String())
		}
	default:
		fmt.Fprintf(&b, "reason: %s\n", r.Reason)
		if r.Decision != nil && !r.Decision.Allowed {
			writeConsulted(&b, r.Decision, "  ")
		}
	}
	writeNotes(&b, r.Notes)
	_, err := io.WriteString(w, b.String())
	return err
}

func grantOf(d *acl.Decision) *acl.Grant {
	if d == nil {
		return nil
	}
	return d.DecidedBy
}

func writeConsulted(b *strings.Builder, d *acl.Decision, indent string) {
	if d.Reason != "" {
		fmt.Fprintf(b, "%ssubmit denied: %s\n", indent, d.Reason)
		return
	}
	fmt.Fprintf(b, "%ssubmit denied on %s, consulted up to root:\n", indent, d.Deciding)
	eachConsulted(b, d.Consulted, indent+"  ", func(c acl.Consulted) {
		val := ""
		if c.Set {
			val = " " + strconvQuote(c.Value)
		}
		fmt.Fprintf(b, "%s  %s %s%s: %s\n", indent, c.Queue, c.ACL, val, c.Result)
	})
}

// maxConsulted is how many consulted ACLs a text answer lists: the first
// half (nearest the queue) and the last (nearest root). A queue 4,900
// levels deep consults 9,800 ACLs; -o json lists every one.
const maxConsulted = 40

func eachConsulted(b *strings.Builder, cs []acl.Consulted, indent string, write func(acl.Consulted)) {
	if len(cs) <= maxConsulted {
		for _, c := range cs {
			write(c)
		}
		return
	}
	for _, c := range cs[:maxConsulted/2] {
		write(c)
	}
	fmt.Fprintf(b, "%s... %d more ACLs consulted, none lets the request in (-o json lists every one)\n", indent, len(cs)-maxConsulted)
	for _, c := range cs[len(cs)-maxConsulted/2:] {
		write(c)
	}
}

func placeJSON(app placement.App, r *placement.Result) any {
	type ruleJSON struct {
		Index  int    `json:"index"`
		Rule   string `json:"rule"`
		File   string `json:"file,omitempty"`
		Line   int    `json:"line,omitempty"`
		Column int    `json:"column,omitempty"`
		Result string `json:"result"`
		Queue  string `json:"queue"`
		Filter string `json:"filter,omitempty"`
		Reason string `json:"reason"`
	}
	out := struct {
		Placed    bool       `json:"placed"`
		Queue     *string    `json:"queue"`
		Created   bool       `json:"created"`
		Under     string     `json:"createdUnder,omitempty"`
		Partition string     `json:"partition"`
		User      string     `json:"user"`
		Groups    []string   `json:"groups"`
		Requested string     `json:"requestedQueue"`
		Tags      any        `json:"tags"`
		Rules     []ruleJSON `json:"rules"`
		NoRules   string     `json:"noRules,omitempty"`
		Fallback  string     `json:"fallback"`
		DecidedBy *jsonGrant `json:"decidedBy"`
		Reason    string     `json:"reason,omitempty"`
		Crash     string     `json:"crash,omitempty"`
		Notes     []string   `json:"notes"`
	}{Placed: r.Placed, Created: r.Created, Under: r.CreatedUnder, Partition: r.Partition, User: r.User, Groups: r.Groups,
		Requested: app.Queue, Tags: app.Tags, Rules: []ruleJSON{}, NoRules: r.NoRules, Fallback: r.Fallback, Reason: r.Reason, Crash: r.Crash, Notes: r.Notes}
	if r.Placed {
		out.Queue = &r.Queue
	}
	if out.Groups == nil {
		out.Groups = []string{}
	}
	if out.Notes == nil {
		out.Notes = []string{}
	}
	if out.Tags == nil {
		out.Tags = map[string]string{}
	}
	for _, st := range r.Rules {
		out.Rules = append(out.Rules, ruleJSON{st.Index, st.Rule, st.Pos.File, st.Pos.Line, st.Pos.Col, st.Result, st.Queue, st.Filter, st.Reason})
	}
	if g := grantOf(r.Decision); g != nil && r.Placed {
		out.DecidedBy = &jsonGrant{g.Queue, g.ACL, g.Kind, g.Entry, g.Pos.File, g.Pos.Line, g.Pos.Col}
	}
	return out
}

// gateVerdict is the answer for a pod the admission controller refuses
// (exit 1) or does not send to YuniKorn (exit 2).
func gateVerdict(g *admission.Gate) verdict {
	msg, first, code := g.Bypass, "not scheduled by YuniKorn", ExitUsage
	if g.Rejected != "" {
		msg, first, code = g.Rejected, "rejected", ExitFail
	}
	return verdict{code: code,
		text: func(w io.Writer) error {
			_, err := fmt.Fprintf(w, "%s\nreason: %s\n", first, msg)
			return err
		},
		json: func() any {
			return map[string]any{"placed": false, "queue": nil, "reason": msg, "admission": first}
		}}
}
