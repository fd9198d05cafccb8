// Package htmlreport writes the self-contained HTML access report of a
// YuniKorn queue config: the queue tree of every partition with each
// queue's own ACLs and the entries YuniKorn drops, placement rules, lint
// findings, a search over who can reach what, and the access matrix as a
// heat map.
//
// The page answers its searches in the browser from data aclint computes
// here: for every queue, the grants of its own level (the entries of the
// ACLs YuniKorn's check reads at that queue, dropped entries already left
// out, each with its position). The page only walks the tree: a check goes
// from the queue up to root and stops at the first level that lets the
// request in, which is acl.Policy.Level's rule; a test compares the page's
// answers in a real browser with aclint's own.
package htmlreport

import (
	"sort"
	"strconv"
	"strings"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/limits"
	"github.com/aclint/aclint/internal/systems/yunikorn/placement"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
	"github.com/aclint/aclint/internal/systems/yunikorn/resources"
)

// Data is what the page embeds, as JSON. Field names are short: a
// 10,000-queue config has 10,000 queue objects.
type Data struct {
	Tool        string   `json:"tool"`
	Sources     []string `json:"sources"`
	UserPattern string   `json:"userPattern"` // YuniKorn's pattern for a request's user name
	// Resolver is the usergroupresolver YuniKorn runs for a request that
	// carries no groups (the first partition's, for every partition): ""
	// when it runs none and the user's name is the only group; otherwise
	// the page cannot know the groups and says so.
	Resolver   string      `json:"resolver"`
	Principals []Principal `json:"principals"` // every user and group an ACL names
	Partitions []Partition `json:"partitions"`
	Queues     []Queue     `json:"queues"` // every partition's queues, parents before children
	Findings   []Finding   `json:"findings"`
	Notes      []string    `json:"notes"`
	// Limits is the user and group manager the page's limits answers walk
	// (limits.State); nil when no partition writes limits.
	Limits *Limits `json:"limits,omitempty"`
}

// Limits is limits.State with short figures.
type Limits struct {
	Users      map[string]map[string]*Fig `json:"users"`
	Groups     map[string]map[string]*Fig `json:"groups"`
	UserWild   map[string]*Fig            `json:"userWild"`
	Configured map[string][]string        `json:"configured"`
	GroupWild  map[string]bool            `json:"groupWild"`
}

// Fig is a figure: applications (0: none), resources in YuniKorn's units,
// and where it is written.
type Fig struct {
	Apps uint64           `json:"a,omitempty"`
	Res  map[string]int64 `json:"r,omitempty"`
	Pos  string           `json:"p,omitempty"`
}

// LimitRow is one entry of a queue's limits as written.
type LimitRow struct {
	Name   string            `json:"n"`
	Users  []string          `json:"u,omitempty"`
	Groups []string          `json:"g,omitempty"`
	Apps   uint64            `json:"a,omitempty"`
	Res    map[string]string `json:"r,omitempty"`
	Pos    string            `json:"p"`
}

// Principal is a user ("u") or group ("g") some ACL names.
type Principal struct {
	Kind string `json:"k"`
	Name string `json:"n"`
}

// Partition is one partition with its placement rules.
type Partition struct {
	Name     string `json:"name"`
	Root     int    `json:"root"` // index into Queues
	Resolver string `json:"resolver"`
	Rules    []Rule `json:"rules"`
	// RulesError is set when YuniKorn cannot build the rules.
	RulesError string `json:"rulesError,omitempty"`
	Findings   []int  `json:"findings"` // findings not inside a queue of this partition
}

// Rule is one placement rule, as YuniKorn runs it.
type Rule struct {
	Describe string `json:"d"`
	Create   bool   `json:"c"`
	Filter   string `json:"f,omitempty"`
	Pos      string `json:"p,omitempty"`
	Implicit string `json:"i,omitempty"` // why YuniKorn adds a rule not written
}

// Queue is one queue of the tree.
type Queue struct {
	Name     string `json:"n"`
	Path     string `json:"path"`
	Parent   int    `json:"p"` // -1 for root
	Children []int  `json:"c,omitempty"`
	Leaf     bool   `json:"leaf,omitempty"`
	Pos      string `json:"pos,omitempty"`
	Submit   *ACL   `json:"s,omitempty"` // the submitacl as written; nil when not set
	Admin    *ACL   `json:"a,omitempty"`
	// Grants of this level: who the ACLs YuniKorn reads here let in.
	Grants   []Grant   `json:"g,omitempty"`
	Dropped  []Dropped `json:"d,omitempty"`
	Findings []int     `json:"f,omitempty"`
	Note     string    `json:"note,omitempty"`
	// Own is the queue's own maxapplications and max resources; Lim its
	// limits as written.
	Own *Fig       `json:"own,omitempty"`
	Lim []LimitRow `json:"lim,omitempty"`
	// Tpl is the queue's childtemplate: the maxapplications and max
	// resources every queue created under it starts with.
	Tpl *Fig `json:"tpl,omitempty"`
}

// ACL is an ACL value as written.
type ACL struct {
	Raw string `json:"raw"`
	Pos string `json:"pos"`
	// Error is set when YuniKorn cannot use the value at all.
	Error string `json:"err,omitempty"`
}

// Grant is one entry that lets someone in at a queue's level.
type Grant struct {
	// Who is an index into Principals, or -1 for everyone (the wildcard).
	Who   int    `json:"w"`
	Admin bool   `json:"a,omitempty"` // the entry is in the adminacl
	Pos   string `json:"p"`
}

// Dropped is an entry YuniKorn ignores.
type Dropped struct {
	ACL  string `json:"acl"`
	Name string `json:"n"`
	Why  string `json:"why"`
	Pos  string `json:"p"`
}

// Finding is a lint finding.
type Finding struct {
	Severity string `json:"sev"`
	Rule     string `json:"rule"`
	Message  string `json:"msg"`
	Pos      string `json:"pos"`
}

// Build computes the page's data for a config YuniKorn accepts, with the
// findings of linting it.
func Build(cfg *config.Config, p *acl.Policy, findings []engine.Finding, tool string, sources []string) *Data {
	d := &Data{Tool: tool, Sources: sources, UserPattern: acl.RequestUserPattern.String(),
		Principals: []Principal{}, Queues: []Queue{}, Findings: []Finding{}, Notes: []string{}}
	if len(cfg.Partitions) > 0 && resolve.Selects(cfg.Partitions[0].Resolver.Value) {
		d.Resolver = cfg.Partitions[0].Resolver.Value
	}
	b := &builder{d: d, doc: cfg.Doc, p: p, md: limits.New(cfg), who: map[Principal]int{}}
	for _, pr := range p.NamedPrincipals() {
		x := Principal{Kind: pr.Kind[:1], Name: pr.Name}
		b.who[x] = len(d.Principals)
		d.Principals = append(d.Principals, x)
	}
	if st := b.md.State(); st != nil {
		d.Limits = limitsData(st)
	}
	for pi, part := range cfg.Partitions {
		dp := Partition{Name: part.CanonicalName(), Resolver: part.Resolver.Value, Rules: []Rule{}, Findings: []int{}}
		dp.Root = len(d.Queues)
		b.queue(part, pi, part.Root, -1)
		dp.Rules, dp.RulesError = rulesOf(part, b.doc)
		d.Partitions = append(d.Partitions, dp)
	}
	b.findings(findings)
	return d
}

// builder is one Build: the report so far, the principals by index, and
// where each queue starts, to hang each finding on the queue it is in.
type builder struct {
	d     *Data
	doc   *config.Document
	p     *acl.Policy
	md    *limits.Model
	who   map[Principal]int
	spans []span
}

type span struct {
	line, queue int
	part        int
}

// queue adds q and the queues below it, and returns q's index.
func (b *builder) queue(part *config.Partition, pi int, q *config.Queue, parent int) int {
	d, doc := b.d, b.doc
	i := len(d.Queues)
	d.Queues = append(d.Queues, Queue{Name: q.Name.Value, Path: q.Path(), Parent: parent, Leaf: q.IsLeaf()})
	dq := &d.Queues[i]
	if q.Synthetic {
		dq.Note = "root queue inserted by YuniKorn: it has no ACL"
	} else if q.Node != nil {
		pos := doc.NodePos(q.Name.Node)
		dq.Pos = pos.String()
		b.spans = append(b.spans, span{pos.Line, i, pi})
	}
	b.acls(dq, q)
	if f := b.md.QueueFigure(part, q); f != nil {
		dq.Own = fig(f)
	}
	for _, l := range part.LimitsOf(q) {
		dq.Lim = append(dq.Lim, limitRow(l, doc))
	}
	if !q.IsLeaf() && !q.TemplateEmpty() {
		dq.Tpl = &Fig{Apps: q.TemplateMaxApps, Pos: doc.NodePos(q.ChildTemplate).String()}
		if res, _ := resources.FromConf(q.TemplateMax.Entries); len(res) > 0 {
			dq.Tpl.Res = map[string]int64(res)
		}
	}
	for _, c := range q.Children {
		ci := b.queue(part, pi, c, i)
		d.Queues[i].Children = append(d.Queues[i].Children, ci)
	}
	return i
}

// acls are a queue's ACLs, their grants and the names YuniKorn drops: the
// submit level reads submitacl and adminacl; the admin level is the
// adminacl alone, so its grants carry Admin.
func (b *builder) acls(dq *Queue, q *config.Queue) {
	doc := b.doc
	levels := b.p.Level(q, acl.Submit)
	for _, lv := range levels.List() {
		admin := lv.Field == acl.AdminField
		if lv.Str == nil || !lv.Str.Set() {
			continue
		}
		a := &ACL{Raw: lv.Str.Value, Pos: doc.NodePos(lv.Str.Node).String()}
		if lv.Value.RuntimeErr != nil {
			a.Error = lv.Value.RuntimeErr.Error()
		}
		if admin {
			dq.Admin = a
		} else {
			dq.Submit = a
		}
		if lv.Value.RuntimeErr != nil {
			continue
		}
		if lv.Value.Everyone {
			dq.Grants = append(dq.Grants, Grant{Who: -1, Admin: admin, Pos: doc.ValuePos(lv.Str.Node, lv.Value.WildcardAt).String()})
		}
		for _, e := range lv.Value.Entries {
			pos := doc.ValuePos(lv.Str.Node, e.Offset).String()
			if !e.Effective() {
				dq.Dropped = append(dq.Dropped, Dropped{ACL: lv.Field, Name: e.Name, Why: e.DropReason(), Pos: pos})
				continue
			}
			if lv.Value.Everyone {
				continue // the wildcard lets everyone in; entries decide nothing
			}
			dq.Grants = append(dq.Grants, Grant{Who: b.who[Principal{Kind: e.Kind.String()[:1], Name: e.Name}], Admin: admin, Pos: pos})
		}
	}
}

// rulesOf are a partition's placement rules as YuniKorn builds them.
func rulesOf(part *config.Partition, doc *config.Document) ([]Rule, string) {
	out := []Rule{}
	rules, err := placement.Build(part)
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	for _, r := range rules {
		x := Rule{Describe: r.Describe(), Create: r.Create}
		switch {
		case r.Conf != nil:
			x.Pos = doc.NodePos(r.Conf.Node).String()
			x.Filter = describeFilter(r.Conf.Filter)
		case r.Name == "recovery":
			x.Implicit = "added by YuniKorn: only forced applications (recovery) reach it"
		default:
			x.Implicit = "added by YuniKorn because the partition has no placement rules"
		}
		out = append(out, x)
	}
	return out, msg
}

// findings hang each finding on the queue whose name comes last before
// its line, or on the first partition.
func (b *builder) findings(findings []engine.Finding) {
	d := b.d
	sort.SliceStable(b.spans, func(i, j int) bool { return b.spans[i].line < b.spans[j].line })
	for _, f := range findings {
		fi := len(d.Findings)
		d.Findings = append(d.Findings, Finding{Severity: f.Severity.String(), Rule: f.Rule, Message: f.Message, Pos: f.Pos.String()})
		k := sort.Search(len(b.spans), func(i int) bool { return b.spans[i].line > f.Pos.Line }) - 1
		switch {
		case f.Pos.File == b.doc.File && k >= 0:
			q := &d.Queues[b.spans[k].queue]
			q.Findings = append(q.Findings, fi)
		case len(d.Partitions) > 0:
			d.Partitions[0].Findings = append(d.Partitions[0].Findings, fi)
		}
	}
}

func describeFilter(f config.Filter) string {
	if len(f.Users) == 0 && len(f.Groups) == 0 && !f.Type.Set() {
		return ""
	}
	var parts []string
	t := f.Type.Value
	if t == "" {
		t = "allow"
	}
	parts = append(parts, "type "+t)
	names := func(list []config.Str) string {
		var s []string
		for _, x := range list {
			s = append(s, x.Value)
		}
		return "[" + strings.Join(s, ", ") + "]"
	}
	if len(f.Users) > 0 {
		parts = append(parts, "users "+names(f.Users))
	}
	if len(f.Groups) > 0 {
		parts = append(parts, "groups "+names(f.Groups))
	}
	return strings.Join(parts, ", ")
}

func fig(f *limits.Figure) *Fig {
	if f == nil {
		return nil
	}
	out := &Fig{Apps: f.MaxApplications, Pos: f.Source.At.String()}
	if f.MaxResources != nil {
		out.Res = map[string]int64(f.MaxResources)
	}
	return out
}

func limitsData(st *limits.State) *Limits {
	out := &Limits{Users: map[string]map[string]*Fig{}, Groups: map[string]map[string]*Fig{}, UserWild: map[string]*Fig{},
		Configured: st.Configured, GroupWild: st.GroupWild}
	conv := func(m map[string]*limits.Figure) map[string]*Fig {
		r := map[string]*Fig{}
		for p, f := range m {
			r[p] = fig(f)
		}
		return r
	}
	for n, m := range st.Users {
		out.Users[n] = conv(m)
	}
	for n, m := range st.Groups {
		out.Groups[n] = conv(m)
	}
	out.UserWild = conv(st.UserWild)
	return out
}

func limitRow(l *config.Limit, doc *config.Document) LimitRow {
	r := LimitRow{Name: l.Limit.Value, Apps: l.MaxApplications, Pos: doc.NodePos(l.Node).String()}
	for _, u := range l.Users {
		r.Users = append(r.Users, u.Value)
	}
	for _, g := range l.Groups {
		r.Groups = append(r.Groups, g.Value)
	}
	if len(l.MaxResources.Entries) > 0 {
		r.Res = l.MaxResources.Entries
	}
	return r
}

// LimitsText is how the page's search states a user's limits on a leaf
// queue (the row's data-limits): the browser test compares it with
// limits.Answer through this one function.
func LimitsText(a *limits.Answer) string {
	apps := "none"
	if a.MaxApplications != 0 {
		apps = strconv.FormatUint(a.MaxApplications, 10)
	}
	res := "none"
	if a.MaxResources != nil {
		var parts []string
		for _, k := range a.MaxResources.Names() {
			parts = append(parts, k+" "+strconv.FormatInt(a.MaxResources[k], 10))
		}
		res = strings.Join(parts, ", ")
	}
	group := "none"
	if a.Tracked {
		group = a.TrackedGroup
	}
	return "apps " + apps + "; resources " + res + "; group " + group
}
