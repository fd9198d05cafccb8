package yarn

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
)

// Keys of yarn-site.xml that decide whether queue ACLs count at all
// (YarnConfiguration.YARN_ACL_ENABLE, default false, and YARN_ADMIN_ACL,
// default "*").
const (
	ACLEnableKey = "yarn.acl.enable"
	AdminACLKey  = "yarn.admin.acl"
)

// The rules' names.
const (
	ruleXML           = "yarn-xml"
	ruleUnread        = "yarn-unread"
	ruleRootOpen      = "yarn-root-default-open"
	ruleNarrower      = "yarn-acl-narrower"
	ruleOrphan        = "yarn-acl-orphan"
	ruleWhitespace    = "yarn-acl-whitespace"
	ruleEmpty         = "yarn-acl-empty-value"
	ruleOverridden    = "yarn-property-overridden"
	ruleFSRefused     = "yarn-fs-refused"
	ruleDisabled      = "yarn-acls-disabled"
	ruleMisplaced     = "yarn-property-misplaced"
	ruleEnableUnknown = "yarn-acl-enable-unknown"
	ruleNoQueues      = "yarn-no-queues"
)

// state is what YARN's rules read: one file, its queue tree, and what
// decides whether its ACLs count (yarn.acl.enable).
type state struct {
	conf *Conf
	cs   *CS
	// reader reads an ACL as YuniKorn does; nil when no YuniKorn is
	// beside YARN in the registry
	reader audit.ACLReader
	site   siteInfo
	// rm: the file is the ResourceManager's own configuration
	// (SiteFile), where yarn.acl.enable counts
	rm bool
	// partner, for a yarn-site.xml, is the capacity-scheduler.xml read
	// with it (csPartner): the Capacity Scheduler's configuration is the
	// two, so the queues of a queue ACL in yarn-site.xml are that file's
	partner *Conf
	// start is the placement rules as the Capacity Scheduler starts with
	// them, read once for the rules that look at them (startPlacement):
	// the rules run at once on one state, so under startOnce
	start     placementStart
	startOnce sync.Once
}

// placementStart is Setup.StartPlacement's answer, kept for one lint.
type placementStart struct {
	pl      *CSPlacement
	refused *CSRefusal
	ok      bool // the tree starts, so the rules are read at all
}

func (s *state) pos(p Pos) engine.Position {
	return engine.Position{File: s.conf.File, Line: p.Line, Col: p.Col}
}

type reporter func(at Pos, msg, hint string)

// Rules are YARN's rules, in the order they are documented: one list,
// built for whoever asks, never kept in a package variable.
func Rules() *engine.RuleList {
	return engine.NewRuleList(
		ruleYarnXML(),
		ruleYarnFSRefused(),
		ruleYarnUnread(),
		ruleYarnRootDefaultOpen(),
		ruleYarnACLNarrower(),
		ruleYarnACLOrphan(),
		ruleYarnACLWhitespace(),
		ruleYarnACLEmptyValue(),
		ruleYarnPropertyOverridden(),
		ruleYarnACLSDisabled(),
		ruleYarnPropertyMisplaced(),
		ruleYarnACLEnableUnknown(),
		ruleYarnNoQueues(),
		ruleRuleACLKeyUnread(),
		ruleRuleCapacityRefused(),
		ruleRulePlacementRefused(),
		ruleRulePlacementUnreachable(),
		ruleRulePlacementNeverPlaces(),
		ruleRuleQueueListedTwice(),
		ruleRuleSubstitutionTooDeep(),
		ruleRuleYuniKorn(),
		ruleRuleNotRun(),
	)
}

// register makes a rule of YARN; without a check, the reader reports its
// findings.
func register(r *engine.Rule, check func(s *state, report reporter)) *engine.Rule {
	r.System = System
	if check == nil {
		r.Source = "ReadConf: reading the file as Hadoop's Configuration does, before any check runs"
	} else {
		r.Check = engine.Typed(func(s *state, report func(engine.Finding)) {
			check(s, func(at Pos, msg, hint string) {
				report(engine.Finding{Rule: r.Name, Severity: r.Severity, Pos: s.pos(at), Message: msg, Hint: hint})
			})
		})
	}
	return r
}

// Lint runs YARN's rules over one Capacity Scheduler file, with
// yarn.acl.enable as the file (when it is a yarn-site.xml) or the
// yarn-site.xml next to path sets it.
func Lint(c *Conf, path string) []engine.Finding {
	site := aclEnableFor(c, path, nil, engine.Options{})
	site.dir = rmDir(c, path, nil, engine.Options{})
	return lintTree(c, ReadCS(c), site, csPartner(path, nil, engine.Options{}), nil)
}

// lintTree runs YARN's rules over a queue tree: a Capacity Scheduler
// file's, or an allocation file's (ReadFS).
func lintTree(c *Conf, tree *CS, site siteInfo, partner *Conf, reader audit.ACLReader) []engine.Finding {
	rm := !tree.FS && SiteFile(c)
	if !rm {
		partner = nil
	}
	out := engine.Run(Rules().All(), &state{conf: c, cs: tree, site: site, rm: rm, partner: partner, reader: reader})
	engine.Sort(out)
	return out
}

// aclSites calls fn for every ACL property of a queue in the tree.
func (s *state) aclSites(fn func(q *Queue, a Action, p *Property)) {
	s.cs.Walk(func(q *Queue) {
		for _, a := range []Action{Submit, Administer} {
			if p := q.From[a]; p != nil {
				fn(q, a, p)
			}
		}
	})
}

// aclCount is the tree's first ACL property, in tree order, and how many
// there are: where a finding about all of a file's ACLs points.
// everyoneEverywhere reports whether the file's ACLs let everyone submit to
// and administer every queue, as the walk up the path decides with ACLs
// on: then turning yarn.acl.enable on changes nobody's access. An ACL
// aclint cannot read (${...}) counts as one that may not.
func (s *state) everyoneEverywhere() bool {
	open := true
	s.cs.Walk(func(q *Queue) {
		for _, a := range []Action{Submit, Administer} {
			// a name no ACL can hold: only a wildcard lets it in
			if d := s.cs.Decide(q.Path, "no one,", nil, a); d.Unknown || !d.Allowed {
				open = false
			}
		}
	})
	return open && !s.cs.Truncated
}

func (s *state) aclCount() (first *Property, count int) {
	s.aclSites(func(q *Queue, a Action, p *Property) {
		if first == nil {
			first = p
		}
		count++
	})
	return first, count
}

// aclKey names where a queue's ACL is written: the property of
// capacity-scheduler.xml, or the element of the allocation file.
func (s *state) aclKey(q *Queue, a Action) string {
	if s.cs.FS {
		return fmt.Sprintf("<%s> of queue %s", s.aclName(a), q.Path)
	}
	return CSPrefix + q.Path + "." + a.Key()
}

// aclName is the ACL's name in the file: acl_submit_applications, or the
// allocation file's aclSubmitApps.
func (s *state) aclName(a Action) string {
	if s.cs.FS {
		if a == Administer {
			return "aclAdministerApps"
		}
		return "aclSubmitApps"
	}
	return a.Key()
}

const csExampleHead = "<?xml version=\"1.0\"?>\n<configuration>\n"

// ruleYarnXML is the rule yarn-xml.
func ruleYarnXML() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleXML,
		Severity: engine.Error,
		Summary:  "the file is not well-formed XML: Hadoop refuses to load it",
		Doc: "Hadoop's `Configuration` reads its files with a strict XML parser and throws on the first\n" +
			"error, so the ResourceManager does not start (or a refresh fails) with this file. An element\n" +
			"left open, an attribute given twice or a bare `&` are the usual causes.",
		Bad: csExample(
			CSPrefix+"root.queues", "prod,dev",
			CSPrefix+"root.prod.acl_submit_applications", "etl data&eng",
			CSPrefix+"root.acl_submit_applications", " ",
			CSPrefix+"root.acl_administer_queue", " "),
		Good: csExample(
			CSPrefix+"root.queues", "prod,dev",
			CSPrefix+"root.prod.acl_submit_applications", "etl data-eng",
			CSPrefix+"root.acl_submit_applications", " ",
			CSPrefix+"root.acl_administer_queue", " "),
	}, nil)
}

// ruleYarnFSRefused is the rule yarn-fs-refused.
func ruleYarnFSRefused() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleFSRefused,
		Severity: engine.Error,
		Summary:  "a Fair Scheduler allocation file the Fair Scheduler refuses: an empty ACL element, a queue name with a period, root beside other queues, a placement policy it cannot use",
		Doc: "`AllocationFileLoaderService` and `AllocationFileQueueParser` throw on these, and the\n" +
			"ResourceManager does not start with the file (a reload keeps the old one). An ACL element is\n" +
			"read as its first child's text, so an empty `<aclSubmitApps/>` fails with a\n" +
			"NullPointerException, and one that starts with an element with a ClassCastException. A queue\n" +
			"name may not contain a period or be blank, the top element must be `<allocations>`, and a\n" +
			"`root` queue, when written, must be the only top-level queue. A single space lets no one in.\n\n" +
			"The `queuePlacementPolicy` is checked as `QueuePlacementPolicy.fromXml` checks it: no rule may\n" +
			"follow one that always places (`reject`, or `user`, `primaryGroup`, `nestedUserQueue` and\n" +
			"`default` with `create` true), the last rule must always place, `reject` and `nestedUserQueue`\n" +
			"are no parent rules, `nestedUserQueue` needs one, a parent rule may not be of its child's kind\n" +
			"nor sit under `specified`, `default` or `reject`, and every rule needs a known name. Also\n" +
			"refused: a `defaultQueueSchedulingPolicy` of fifo, and a `<reservation>` or `<maxAMShare>` on\n" +
			"a queue with children or `type=\"parent\"`.",
		Bad: `<?xml version="1.0"?>
<allocations>
  <queue name="root">
    <aclSubmitApps> </aclSubmitApps>
    <aclAdministerApps> </aclAdministerApps>
    <queue name="prod">
      <aclSubmitApps></aclSubmitApps>
    </queue>
  </queue>
</allocations>
`,
		Good: `<?xml version="1.0"?>
<allocations>
  <queue name="root">
    <aclSubmitApps> </aclSubmitApps>
    <aclAdministerApps> </aclAdministerApps>
    <queue name="prod">
      <aclSubmitApps> </aclSubmitApps>
    </queue>
  </queue>
</allocations>
`,
	}, nil)
}

// ruleYarnUnread is the rule yarn-unread.
func ruleYarnUnread() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleUnread,
		Severity: engine.Warning,
		Summary:  "part of the file aclint does not read as Hadoop does (an XInclude, a CDATA section, a DOCTYPE)",
		Doc: "aclint never follows an XInclude (Hadoop reads the other file into this one), does not apply a\n" +
			"DOCTYPE's entities, and cannot tell how Hadoop's XML reader reports a CDATA section inside a\n" +
			"value. Findings and answers that depend on those parts are not given; this says where they are.",
		Bad: csExampleHead + `  <xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="queues.xml"/>
  <property>
    <name>yarn.scheduler.capacity.root.acl_submit_applications</name>
    <value> </value>
  </property>
  <property>
    <name>yarn.scheduler.capacity.root.queues</name>
    <value>default</value>
  </property>
</configuration>
`,
		Good: csExample(
			CSPrefix+"root.acl_submit_applications", " ",
			CSPrefix+"root.queues", "default"),
	}, func(s *state, report reporter) {
		for _, u := range append(s.conf.Unknown, s.cs.Unknown...) {
			report(u.Pos, "aclint does not read this as Hadoop does: "+u.Why, "write the settings into this file, or lint the file they come from as well")
		}
	})
}

// openAbove says why everyone may act at q through root's defaults: the
// root ACL of kind a not set (its default is *), or for submitting, the
// root administer ACL not set (administering lets one submit).
func openAbove(s *state, a Action) (string, bool) {
	root := s.cs.Root
	if root.From[a] == nil {
		return fmt.Sprintf("%s is not set, and YARN's default for root is * (everyone)", s.aclKey(root, a)), true
	}
	if a == Submit && root.From[Administer] == nil {
		return fmt.Sprintf("%s is not set, so root's default * lets everyone administer, and so submit to, every queue", s.aclKey(root, Administer)), true
	}
	return "", false
}

// ruleYarnRootDefaultOpen is the rule yarn-root-default-open.
func ruleYarnRootDefaultOpen() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleRootOpen,
		Severity: engine.Warning,
		Summary:  "an ACL below root restricts no one: root's ACL is not set, and its default is * (everyone)",
		Doc: "`CapacitySchedulerConfiguration.getAcl` gives the root queue `*` when its ACL is not set, and a\n" +
			"queue is allowed when its own ACL or any ancestor's allows. So while\n" +
			"`yarn.scheduler.capacity.root.acl_submit_applications` (or `acl_administer_queue`) is unset,\n" +
			"every ACL of that kind below root is decoration. Submitting is also allowed to whoever may\n" +
			"administer, so an unset root administer ACL opens submission too. Set both root ACLs, to a\n" +
			"single space (nobody) or to the administrators.",
		Bad: csExample(
			CSPrefix+"root.queues", "prod",
			CSPrefix+"root.prod.acl_submit_applications", "etl"),
		Good: csExample(
			CSPrefix+"root.queues", "prod",
			CSPrefix+"root.acl_submit_applications", " ",
			CSPrefix+"root.acl_administer_queue", " yarn-admins",
			CSPrefix+"root.prod.acl_submit_applications", "etl"),
	}, func(s *state, report reporter) {
		s.aclSites(func(q *Queue, a Action, p *Property) {
			if q == s.cs.Root || q.ACL[a].All {
				return
			}
			if why, open := openAbove(s, a); open {
				report(p.ValuePos, fmt.Sprintf("%s of %s restricts no one: %s", s.aclName(a), q.Path, why),
					fmt.Sprintf("set %s (a single space for nobody, or the administrators)", s.aclKey(s.cs.Root, a)))
			}
		})
	})
}

// admitted is who ACLs above a queue let in: everyone, or names with the
// place that names them.
type admitted struct {
	all     string // where everyone is let in ("" when nowhere)
	users   map[string]string
	groups  map[string]string
	unknown bool
}

// coveredAbove reports whether every name of q's ACL of kind a is named,
// or everyone let in, by a set ACL of the same kind above q, with none of
// those unknown: the cheap test before above builds the full picture.
func coveredAbove(q *Queue, a Action) bool {
	var room [8]ACL // the ancestors of nearly every queue: no allocation
	ancestors := room[:0]
	for x := q.Parent; x != nil; x = x.Parent {
		if x.From[a] == nil {
			continue
		}
		if x.Unknown[a] {
			return false
		}
		if x.ACL[a].All {
			return true
		}
		ancestors = append(ancestors, x.ACL[a])
	}
	if len(ancestors) == 0 {
		return false
	}
	named := func(name string, users bool) bool {
		for _, acl := range ancestors {
			list := acl.Groups
			if users {
				list = acl.Users
			}
			if hasName(list, name) {
				return true
			}
		}
		return false
	}
	for _, u := range q.ACL[a].Users {
		if !named(u.Name, true) {
			return false
		}
	}
	for _, g := range q.ACL[a].Groups {
		if !named(g.Name, false) {
			return false
		}
	}
	return true
}

// above collects what the ACLs of the same kind on q's ancestors admit
// (those set: yarn-root-default-open says root's defaults). Administrators
// may submit too, but that is what administering means; the rule is about
// an ACL meant to keep people out.
func above(s *state, q *Queue, a Action) admitted {
	ad := admitted{users: map[string]string{}, groups: map[string]string{}}
	add := func(x *Queue, k Action) {
		if x.From[k] == nil {
			return
		}
		if x.Unknown[k] {
			ad.unknown = true
			return
		}
		where := x.Path + " " + s.aclName(k)
		acl := x.ACL[k]
		if acl.All {
			if ad.all == "" {
				ad.all = where
			}
			return
		}
		for _, u := range acl.Users {
			if _, ok := ad.users[u.Name]; !ok {
				ad.users[u.Name] = where
			}
		}
		for _, g := range acl.Groups {
			if _, ok := ad.groups[g.Name]; !ok {
				ad.groups[g.Name] = where
			}
		}
	}
	for x := q.Parent; x != nil; x = x.Parent {
		add(x, a)
	}
	return ad
}

// ruleYarnACLNarrower is the rule yarn-acl-narrower.
func ruleYarnACLNarrower() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleNarrower,
		Severity: engine.Warning,
		Summary:  "an ACL narrower than the ACLs above it, adding no one: YARN has no deny, so it keeps no one out",
		Doc: "A queue is allowed when its own ACL or any ancestor's allows (`ConfiguredYarnAuthorizer` walks\n" +
			"up the path). An ACL whose names are all let in above already, and that leaves out some of\n" +
			"those, reads as a restriction but is none: it grants nothing and keeps no one out. (An ACL that\n" +
			"adds names is a grant, and is not reported.) Keep the levels above narrow and list people at the\n" +
			"lowest level that needs them.",
		Bad: csExample(
			CSPrefix+"root.queues", "prod",
			CSPrefix+"root.acl_submit_applications", " ",
			CSPrefix+"root.acl_administer_queue", " ",
			CSPrefix+"root.prod.queues", "etl",
			CSPrefix+"root.prod.acl_submit_applications", "alice,bob",
			CSPrefix+"root.prod.etl.acl_submit_applications", "alice"),
		Good: csExample(
			CSPrefix+"root.queues", "prod",
			CSPrefix+"root.acl_submit_applications", " ",
			CSPrefix+"root.acl_administer_queue", " ",
			CSPrefix+"root.prod.queues", "etl",
			CSPrefix+"root.prod.etl.acl_submit_applications", "alice,bob"),
	}, func(s *state, report reporter) {
		s.aclSites(func(q *Queue, a Action, p *Property) {
			if q == s.cs.Root || q.ACL[a].All || q.Unknown[a] {
				return
			}
			if _, open := openAbove(s, a); open {
				return // yarn-root-default-open says it
			}
			if !coveredAbove(q, a) {
				return // the ACL adds someone: a grant (or something above is unknown)
			}
			ad := above(s, q, a)
			if ad.all != "" {
				report(p.ValuePos, fmt.Sprintf("%s of %s restricts no one: %s lets everyone in", s.aclName(a), q.Path, ad.all),
					"narrow the ACL above, or remove this one")
				return
			}
			acl := q.ACL[a]
			// an ACL that adds someone is a grant, whoever else gets in from
			// above; one that adds no one and leaves out names let in above
			// reads as a restriction that is not there
			for _, u := range acl.Users {
				if _, ok := ad.users[u.Name]; !ok {
					return
				}
			}
			for _, g := range acl.Groups {
				if _, ok := ad.groups[g.Name]; !ok {
					return
				}
			}
			var extra []string
			for _, name := range slices.Sorted(maps.Keys(ad.users)) {
				if !hasName(acl.Users, name) {
					extra = append(extra, fmt.Sprintf("user %s (%s)", name, ad.users[name]))
				}
			}
			for _, name := range slices.Sorted(maps.Keys(ad.groups)) {
				if !hasName(acl.Groups, name) {
					extra = append(extra, fmt.Sprintf("group %s (%s)", name, ad.groups[name]))
				}
			}
			if len(extra) == 0 {
				return
			}
			shown := extra
			if len(shown) > 5 {
				shown = append(shown[:5:5], fmt.Sprintf("%d more", len(extra)-5))
			}
			report(p.ValuePos, fmt.Sprintf("%s of %s adds no one to the ACLs above it and leaves out %s, who may %s here anyway (YARN has no deny)",
				s.aclName(a), q.Path, strings.Join(shown, ", "), a), "narrow the ACL that lets them in above, or remove this one")
		})
	})
}

func hasName(es []Entry, name string) bool {
	for _, e := range es {
		if e.Name == name {
			return true
		}
	}
	return false
}

// ruleYarnACLOrphan is the rule yarn-acl-orphan.
func ruleYarnACLOrphan() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleOrphan,
		Severity: engine.Warning,
		Summary:  "an ACL for a queue that is not in the queue tree: it is never read",
		Doc: "The Capacity Scheduler builds its queues from `yarn.scheduler.capacity.root.queues` and each\n" +
			"queue's `.queues` list, and reads ACLs only for those queues. An ACL under another path (a\n" +
			"typo, a queue removed from its parent's list, a path that skips a level) is never read. A queue\n" +
			"ACL in yarn-site.xml is checked against the queues of the capacity-scheduler.xml linted with it (or\n" +
			"next to it), the two files the Capacity Scheduler reads together; without one, it is not reported.",
		Bad: csExample(
			CSPrefix+"root.queues", "prod",
			CSPrefix+"root.acl_submit_applications", " ",
			CSPrefix+"root.acl_administer_queue", " ",
			CSPrefix+"root.prd.acl_submit_applications", "etl"),
		Good: csExample(
			CSPrefix+"root.queues", "prod",
			CSPrefix+"root.acl_submit_applications", " ",
			CSPrefix+"root.acl_administer_queue", " ",
			CSPrefix+"root.prod.acl_submit_applications", "etl"),
	}, func(s *state, report reporter) {
		tree := s.cs
		if s.rm {
			if s.partner == nil {
				return // the queues are capacity-scheduler.xml's, which is not given
			}
			tree = NewSetup([]*Conf{s.conf, s.partner}).CS
		}
		if tree.Truncated {
			return
		}
		// the queue paths, for "did you mean": gathered only when a property
		// names no queue
		var paths []string
		nearest := func(path string) string {
			if paths == nil {
				paths = make([]string, 0, len(tree.ByPath))
				for p := range tree.ByPath {
					paths = append(paths, p)
				}
				// Nearest keeps the first of equally near names: in map order
				// the hint changed from run to run
				sort.Strings(paths)
			}
			return engine.Nearest(path, paths)
		}
		for _, p := range s.conf.Props {
			if p.read || !strings.HasPrefix(p.Name, CSPrefix) {
				continue
			}
			rest := strings.TrimPrefix(p.Name, CSPrefix)
			for _, a := range []Action{Submit, Administer} {
				path, ok := strings.CutSuffix(rest, "."+a.Key())
				if !ok || !strings.HasPrefix(path, "root") || tree.ByPath[path] != nil {
					continue // an earlier or ignored definition of a queue's ACL is yarn-property-overridden's
				}
				hint := "add the queue to its parent's .queues list, or remove this property"
				if near := nearest(path); near != "" {
					hint = fmt.Sprintf("did you mean %s?", near)
				}
				report(p.NamePos, fmt.Sprintf("no queue %s in the queue tree: this %s is never read", path, a.Key()), hint)
			}
		}
	})
}

// ruleYarnACLWhitespace is the rule yarn-acl-whitespace.
func ruleYarnACLWhitespace() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleWhitespace,
		Severity: engine.Warning,
		Summary:  "an ACL value Hadoop reads differently than it looks: users read as groups, names with blanks, * inside a list",
		Doc: "`AccessControlList` splits a value at its first space only: users before it, groups after it,\n" +
			"each list split at commas and each name trimmed. So a value that starts with a line break or\n" +
			"a tab (an XML value written over several lines) has no users at all: its names are groups. A\n" +
			"name with a blank inside (`dev ops`, after the first space) is one group that no one is in, and\n" +
			"a tab does not separate anything. `*` means everyone only as a whole list: inside a list it is a\n" +
			"user named `*`.",
		Bad: csExample(
			CSPrefix+"root.acl_submit_applications", "\n      alice,bob\n    ",
			CSPrefix+"root.acl_administer_queue", " ",
			CSPrefix+"root.queues", "default"),
		Good: csExample(
			CSPrefix+"root.acl_submit_applications", "alice,bob",
			CSPrefix+"root.acl_administer_queue", " ",
			CSPrefix+"root.queues", "default"),
	}, func(s *state, report reporter) {
		s.aclSites(func(q *Queue, a Action, p *Property) {
			acl := q.ACL[a]
			if acl.All || q.Unknown[a] {
				return
			}
			v := p.Value
			if acl.Split >= 0 && len(acl.Users) == 0 && len(acl.Groups) > 0 && (v[0] != ' ' || (len(v) > 1 && unicode.IsSpace(rune(v[1])))) {
				report(p.ValuePos, fmt.Sprintf("%s of %s has no users: it starts with %s, so everything after the first space, %s, is read as groups",
					s.aclName(a), q.Path, describeBlank(v), quoteNames(acl.Groups)),
					"write the users first, right after the opening tag, and start with one space only for groups-only ACLs")
			}
			for e := range entriesOf(acl) {
				kind := "user"
				if hasName(acl.Groups, e.Name) && !hasName(acl.Users, e.Name) {
					kind = "group"
				}
				switch {
				case strings.IndexFunc(e.Name, unicode.IsSpace) >= 0:
					report(p.ValuePos, fmt.Sprintf("%s of %s has the %s %q, with a blank inside: no one is in it (only the first space separates users from groups)",
						s.aclName(a), q.Path, kind, e.Name), "separate names with commas")
				case e.Name == "*":
					report(p.ValuePos, fmt.Sprintf("%s of %s lists * inside a list: it is a %s named *, not everyone", s.aclName(a), q.Path, kind),
						"write * alone for everyone, or remove it")
				}
			}
		})
	})
}

func describeBlank(v string) string {
	switch {
	case strings.HasPrefix(v, "\n"), strings.HasPrefix(v, "\r"):
		return "a line break"
	case strings.HasPrefix(v, "\t"):
		return "a tab"
	}
	return "more than one blank"
}

func quoteNames(es []Entry) string {
	var q []string
	for _, e := range es {
		if !e.Repeat {
			q = append(q, fmt.Sprintf("%q", e.Name))
		}
	}
	return strings.Join(q, ", ")
}

// ruleYarnACLEmptyValue is the rule yarn-acl-empty-value.
func ruleYarnACLEmptyValue() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleEmpty,
		Severity: engine.Warning,
		Summary:  "an ACL with an empty <value>: Hadoop treats it as not set, so the default applies (for root, everyone)",
		Doc: "`Configuration` keeps no value for an empty `<value></value>`: the property is not set at all,\n" +
			"and `getAcl` falls back to its default, `*` (everyone) for root and a single space (no one) for\n" +
			"other queues. To let no one in at a level, write a single space.",
		Bad: csExample(
			CSPrefix+"root.acl_submit_applications", "",
			CSPrefix+"root.acl_administer_queue", " ",
			CSPrefix+"root.queues", "default"),
		Good: csExample(
			CSPrefix+"root.acl_submit_applications", " ",
			CSPrefix+"root.acl_administer_queue", " ",
			CSPrefix+"root.queues", "default"),
	}, func(s *state, report reporter) {
		for _, p := range s.conf.Props {
			if s.cs.FS || !p.EmptyValue || !strings.HasPrefix(p.Name, CSPrefix) {
				continue
			}
			for _, a := range []Action{Submit, Administer} {
				path, ok := strings.CutSuffix(strings.TrimPrefix(p.Name, CSPrefix), "."+a.Key())
				if !ok {
					continue
				}
				what := "the default, a single space (no one at this level), applies"
				if path == "root" {
					what = "the default for root, * (everyone), applies"
				}
				report(p.ValuePos, fmt.Sprintf("%s has an empty value, which Hadoop treats as not set: %s", p.Name, what),
					"write a single space to let no one in here, or the users and groups")
			}
		}
	})
}

// ruleYarnPropertyOverridden is the rule yarn-property-overridden.
func ruleYarnPropertyOverridden() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleOverridden,
		Severity: engine.Warning,
		Summary:  "a property given twice: the later one wins, unless the earlier is final and the later is ignored",
		Doc: "`Configuration` loads properties in order: a later property of the same name replaces the\n" +
			"earlier one, except after one marked `<final>true</final>`, which keeps its value and makes\n" +
			"later ones ignored. Either way one of the two does nothing. Across files: the Capacity Scheduler's\n" +
			"configuration loads yarn-site.xml before capacity-scheduler.xml, so a key both set (a queue ACL in\n" +
			"yarn-site.xml, say) takes capacity-scheduler.xml's value unless yarn-site.xml's is final; the one\n" +
			"that does nothing is reported, with the value in force. In an allocation file, an ACL element\n" +
			"given twice for a queue (in its `<queue>`, or in a second `<queue>` of the same name, whose\n" +
			"settings the Fair Scheduler merges into the first's) is the same: the later one wins.",
		Bad: csExample(
			CSPrefix+"root.acl_submit_applications", " admins",
			CSPrefix+"root.acl_administer_queue", " ",
			CSPrefix+"root.acl_submit_applications", "alice",
			CSPrefix+"root.queues", "default"),
		Good: csExample(
			CSPrefix+"root.acl_submit_applications", "alice admins",
			CSPrefix+"root.acl_administer_queue", " ",
			CSPrefix+"root.queues", "default"),
	}, func(s *state, report reporter) {
		if s.cs.FS {
			// an allocation file: an ACL element given again for the same
			// queue, in its <queue> or in another definition of the queue
			for _, p := range s.conf.Props {
				if r := p.ReplacedBy; r != nil {
					report(p.NamePos, fmt.Sprintf("<%s> is given again for this queue at line %d, which replaces this one", p.Name, r.NamePos.Line),
						"keep one of the two")
				}
			}
			return
		}
		last := make(map[string]*Property, len(s.conf.Props))
		for _, p := range s.conf.Props {
			if prev := last[p.Name]; prev != nil {
				switch {
				case p.Ignored:
					report(p.NamePos, fmt.Sprintf("%s is given again, and ignored: the one at line %d is final", p.Name, finalLine(s.conf, p)),
						"remove this one, or change the final one")
				case p.HasValue && prev.Overridden:
					report(prev.NamePos, fmt.Sprintf("%s is given again at line %d, which replaces this value", p.Name, p.NamePos.Line),
						"keep one of the two")
				}
			}
			if p.HasValue && !p.Ignored {
				last[p.Name] = p
			} else if last[p.Name] == nil {
				last[p.Name] = p
			}
		}
		s.overriddenAcross(last, report)
	})
}

// overriddenAcross reports a Capacity Scheduler key that yarn-site.xml and
// capacity-scheduler.xml both set, on the one that does nothing: the
// Capacity Scheduler's configuration loads yarn-site.xml first, so
// capacity-scheduler.xml's value wins unless yarn-site.xml's is final.
func (s *state) overriddenAcross(last map[string]*Property, report reporter) {
	other, here := s.partner, s.rm
	if !s.rm {
		other = s.site.conf
	}
	if other == nil || other == s.conf {
		return
	}
	for _, p := range s.conf.Props {
		if last[p.Name] != p || !p.HasValue || !strings.HasPrefix(p.Name, CSPrefix) {
			continue
		}
		q, ok := other.Get(p.Name)
		if !ok || !q.HasValue || q.Value == p.Value {
			continue // the same value twice changes nothing for anyone
		}
		at := fmt.Sprintf("%s:%d:%d", q.File, q.NamePos.Line, q.NamePos.Col)
		switch {
		case here && !p.Final:
			report(p.NamePos, fmt.Sprintf("%s is set again in %s, which the Capacity Scheduler reads after %s: that value (%q) is the one in force, and this one does nothing", p.Name, at, filepath.Base(s.conf.File), q.Value),
				"remove one of the two, or mark this one <final>true</final> to keep it")
		case !here && other.IsFinal(p.Name):
			report(p.NamePos, fmt.Sprintf("%s is set final in %s (%q), which the Capacity Scheduler reads first: that value is in force, and this one is ignored", p.Name, at, q.Value),
				"remove one of the two, or drop <final> in yarn-site.xml")
		}
	}
}

func finalLine(c *Conf, p *Property) int {
	for _, q := range c.Props {
		if q == p {
			break
		}
		if q.Name == p.Name && q.Final {
			return q.NamePos.Line
		}
	}
	return 0
}

// disabledHere reports a yarn-site.xml that sets yarn.acl.enable to false
// itself (a commit that turns every queue ACL off), with or without the
// capacity-scheduler.xml beside it: what it turns off, or that aclint
// cannot see which ACLs that is.
func disabledHere(s *state, report reporter) {
	p := s.site.from
	if !s.site.known || s.site.enabled || p == nil || p.File != s.conf.File {
		return
	}
	// only the capacity-scheduler.xml beside it reads this yarn-site.xml
	// (one elsewhere has its own)
	if s.partner == nil || filepath.Dir(s.partner.File) != filepath.Dir(s.conf.File) {
		report(p.ValuePos, fmt.Sprintf("yarn.acl.enable is %q: the ResourceManager checks no queue ACL, so everyone may submit to and administer every queue; no capacity-scheduler.xml is beside this file to say which ACLs that turns off", p.Value),
			"set yarn.acl.enable to true, or lint this file with its capacity-scheduler.xml")
		return
	}
	cs := &state{conf: s.partner, cs: ReadCS(s.partner), site: s.site}
	first, count := cs.aclCount()
	if first == nil || cs.everyoneEverywhere() {
		return // no ACL to turn off, or none that keeps anyone out
	}
	report(p.ValuePos, fmt.Sprintf("yarn.acl.enable is %q: YARN checks none of the %d queue ACL(s) of %s, so everyone may submit to and administer every queue", p.Value, count, s.partner.File),
		"set yarn.acl.enable to true, or the ACLs are decoration")
}

// ruleYarnACLSDisabled is the rule yarn-acls-disabled.
func ruleYarnACLSDisabled() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleDisabled,
		Severity: engine.Warning,
		Summary:  "queue ACLs while yarn.acl.enable is off (it is false by default): the Capacity Scheduler checks none of them",
		Doc: "The ResourceManager checks queue ACLs only when `yarn.acl.enable` is true (`RMAppManager`,\n" +
			"`QueueACLsManager`; `YarnConfiguration.DEFAULT_YARN_ACL_ENABLE` is false). It reads the setting\n" +
			"from its own configuration, `yarn-site.xml`, never from capacity-scheduler.xml (see\n" +
			"yarn-property-misplaced). aclint takes it from the file itself when that is a yarn-site.xml (its\n" +
			"queue ACLs count too: the Capacity Scheduler's configuration starts from the ResourceManager's),\n" +
			"else from the yarn-site.xml linted with it, else from the one next to it, as Hadoop's\n" +
			"configuration directory keeps them. When it is off, every ACL of the Capacity Scheduler lets\n" +
			"everyone in. (The Fair Scheduler checks its allocation file's ACLs itself, whatever the setting\n" +
			"says.) When aclint finds no yarn-site.xml, yarn-acl-enable-unknown says so once, as information.\n" +
			"A yarn-site.xml that sets `yarn.acl.enable` to false itself, without queue ACLs of its own, is\n" +
			"reported at the value: with the count of the ACLs of the capacity-scheduler.xml beside it that it\n" +
			"turns off, or, with none beside it, saying that every queue ACL is off and which is not known.\n" +
			"A file whose ACLs let everyone submit to and administer every queue anyway (Hadoop's own template\n" +
			"writes `*` everywhere, and root's administer ACL is `*` by default) is not reported: turning ACLs\n" +
			"on would change nobody's access.",
		Bad: csExample(
			"yarn.acl.enable", "false",
			CSPrefix+"root.acl_submit_applications", " admins",
			CSPrefix+"root.acl_administer_queue", " admins"),
		Good: csExample(
			"yarn.acl.enable", "true",
			CSPrefix+"root.acl_submit_applications", " admins",
			CSPrefix+"root.acl_administer_queue", " admins"),
	}, func(s *state, report reporter) {
		if s.cs.FS {
			return
		}
		first, count := s.aclCount()
		if s.rm && first == nil {
			disabledHere(s, report) // the ACLs it turns off are capacity-scheduler.xml's
			return
		}
		if first == nil || (s.site.known && s.site.enabled) {
			return
		}
		if !s.site.known {
			return // yarn-acl-enable-unknown says it
		}
		if s.everyoneEverywhere() {
			return // turning ACLs on would change nobody's access
		}
		where := fmt.Sprintf("not set in %s, and false by default", s.site.file)
		if p := s.site.from; p != nil {
			where = fmt.Sprintf("%q at %s:%d:%d", p.Value, p.File, p.ValuePos.Line, p.ValuePos.Col)
		}
		report(first.NamePos, fmt.Sprintf("YARN checks none of the %d queue ACL(s) of this file: yarn.acl.enable is %s, so everyone may submit to and administer every queue", count, where),
			"set yarn.acl.enable to true in yarn-site.xml, or the ACLs are decoration")
	})
}

// ruleYarnPropertyMisplaced is the rule yarn-property-misplaced.
func ruleYarnPropertyMisplaced() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleMisplaced,
		Severity: engine.Warning,
		Summary:  "yarn.acl.enable or yarn.admin.acl in capacity-scheduler.xml: the ResourceManager reads them from yarn-site.xml only, so here they change nothing",
		Doc: "The ResourceManager reads `yarn.acl.enable` (`QueueACLsManager`, `RMAppManager`) and\n" +
			"`yarn.admin.acl` (`AdminACLsManager`) from its own configuration: `YarnConfiguration`, which\n" +
			"loads `yarn-site.xml`. The Capacity Scheduler reads capacity-scheduler.xml into a copy of that\n" +
			"configuration (`CapacityScheduler.loadCapacitySchedulerConfiguration`), which the\n" +
			"ResourceManager never looks at. So `yarn.acl.enable` set to true in capacity-scheduler.xml\n" +
			"leaves queue ACLs off when yarn-site.xml does not set it, and set to false there does not turn\n" +
			"them off. aclint knows a file's part by its name, as Hadoop does: `capacity-scheduler.xml` is\n" +
			"the Capacity Scheduler's; a file named otherwise that sets a `yarn.` key of the\n" +
			"ResourceManager is read as a yarn-site.xml.",
		Bad: csExample(
			"yarn.acl.enable", "true",
			CSPrefix+"root.acl_submit_applications", " admins",
			CSPrefix+"root.acl_administer_queue", " admins",
			CSPrefix+"root.queues", "default"),
		Good: csExample(
			CSPrefix+"root.acl_submit_applications", " admins",
			CSPrefix+"root.acl_administer_queue", " admins",
			CSPrefix+"root.queues", "default"),
	}, func(s *state, report reporter) {
		if s.cs.FS || s.rm {
			return
		}
		for _, p := range s.conf.Props {
			for _, k := range rmOnlyKeys {
				if p.Name == k {
					report(p.NamePos, fmt.Sprintf("%s is read from the ResourceManager's configuration (yarn-site.xml), never from %s: here it changes nothing", k, filepath.Base(s.conf.File)),
						"move it to yarn-site.xml")
				}
			}
		}
	})
}

// ruleYarnACLEnableUnknown is the rule yarn-acl-enable-unknown.
func ruleYarnACLEnableUnknown() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleEnableUnknown,
		Severity: engine.Info,
		Summary:  "queue ACLs whose effect aclint cannot tell: whether YARN checks them is yarn.acl.enable (false by default), in a yarn-site.xml it was not given",
		Doc: "The Capacity Scheduler's queue ACLs count only when the ResourceManager's `yarn.acl.enable`\n" +
			"is true, and it is false by default (see yarn-acls-disabled). It is set in `yarn-site.xml`. When\n" +
			"aclint lints a capacity-scheduler.xml with no yarn-site.xml given in the same run and none next\n" +
			"to it (or several given, none next to it), it cannot tell whether any of the file's ACLs is\n" +
			"checked, and says so once, at the first ACL. Lint the file with its yarn-site.xml. An\n" +
			"allocation file's ACLs do not depend on the setting.",
		Bad: csExample(
			CSPrefix+"root.acl_submit_applications", " admins",
			CSPrefix+"root.acl_administer_queue", " admins",
			CSPrefix+"root.queues", "default"),
		Good: csExample(
			CSPrefix+"root.queues", "default"),
	}, func(s *state, report reporter) {
		if s.cs.FS || s.site.known || s.rm {
			return
		}
		first, count := s.aclCount()
		if first == nil {
			return
		}
		why := "no yarn-site.xml is given with it or next to it"
		if s.site.why != "" {
			why = s.site.why
		}
		report(first.NamePos, fmt.Sprintf("whether YARN checks the %d queue ACL(s) of this file depends on yarn.acl.enable (false by default), and %s", count, why),
			"lint it with its yarn-site.xml (aclint lint capacity-scheduler.xml yarn-site.xml)")
	})
}

// ruleYarnNoQueues is the rule yarn-no-queues.
func ruleYarnNoQueues() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleNoQueues,
		Severity: engine.Error,
		Summary:  "a Capacity Scheduler file that does not set yarn.scheduler.capacity.root.queues: the Capacity Scheduler refuses to start",
		Doc: "The Capacity Scheduler builds its queues from `yarn.scheduler.capacity.root.queues` down, and\n" +
			"root must have children: `CapacitySchedulerQueueManager.parseQueue` throws \"Queue configuration\n" +
			"missing child queue names for root\" without them, so the ResourceManager does not start (and a\n" +
			"refresh keeps the old queues). An empty `<value>` is not set. A Hadoop 1 file (the JobTracker's\n" +
			"`mapred.capacity-scheduler.*` or `mapred.queue.*` keys) is named as one. aclint reports a\n" +
			"capacity-scheduler.xml that does not set it, unless the yarn-site.xml read with it does (the\n" +
			"Capacity Scheduler's configuration starts from the ResourceManager's).",
		Bad: csExample(
			CSPrefix+"root.acl_submit_applications", " admins",
			CSPrefix+"root.acl_administer_queue", " admins"),
		Good: csExample(
			CSPrefix+"root.acl_submit_applications", " admins",
			CSPrefix+"root.acl_administer_queue", " admins",
			CSPrefix+"root.queues", "default"),
	}, func(s *state, report reporter) {
		if s.cs.FS || s.rm || len(s.conf.Unknown) > 0 {
			return // an XInclude may set it: yarn-unread says what is not read
		}
		if _, ok := s.conf.Get(RootQueuesKey); ok {
			return
		}
		if sc := s.site.conf; sc != nil {
			if _, ok := sc.Get(RootQueuesKey); ok {
				return
			}
		}
		if k := hadoop1Key(s.conf); k != nil {
			report(k.NamePos, fmt.Sprintf("this is a Hadoop 1 file: %s is the JobTracker's (MRv1) capacity scheduler or queue ACL key, which YARN never reads, and it sets no yarn.scheduler.capacity.root.queues: %s", k.Name, NoQueuesReason),
				"write the queues and their ACLs as YARN's Capacity Scheduler reads them: yarn.scheduler.capacity.root.queues, yarn.scheduler.capacity.<queue>.acl_submit_applications and .acl_administer_queue")
			return
		}
		report(s.conf.RootPos, NoQueuesReason, "add yarn.scheduler.capacity.root.queues with root's queues, comma-separated")
	})
}

// hadoop1Key is the first key of a Hadoop 1 (MRv1) scheduler file in c:
// the JobTracker's capacity scheduler (mapred.capacity-scheduler.*) or
// queue settings (mapred.queue.*, mapred.queue.names); nil for none.
func hadoop1Key(c *Conf) *Property {
	for _, p := range c.Props {
		if strings.HasPrefix(p.Name, "mapred.capacity-scheduler.") || strings.HasPrefix(p.Name, "mapred.queue.") {
			return p
		}
	}
	return nil
}

// csExample writes a rule's capacity-scheduler.xml example from its
// properties, name and value in turn, one <property> block each as a
// person would write it.
//
// A parent whose children the example gives no capacity gets them at the
// end, split evenly, as a file the Capacity Scheduler starts with must
// have them (yarn-capacity-refused): the example's other lines keep their
// places.
func csExample(nameValues ...string) string {
	var b strings.Builder
	b.WriteString(csExampleHead)
	set := map[string]bool{}
	for i := 0; i+1 < len(nameValues); i += 2 {
		set[nameValues[i]] = true
		fmt.Fprintf(&b, "  <property>\n    <name>%s</name>\n    <value>%s</value>\n  </property>\n", nameValues[i], nameValues[i+1])
	}
	for i := 0; i+1 < len(nameValues); i += 2 {
		path, ok := strings.CutSuffix(strings.TrimPrefix(nameValues[i], CSPrefix), ".queues")
		if !ok || !strings.HasPrefix(nameValues[i], CSPrefix) {
			continue
		}
		var kids []string
		for _, k := range strings.Split(nameValues[i+1], ",") {
			if k = strings.TrimSpace(k); k != "" {
				kids = append(kids, k)
			}
		}
		given := false
		for _, k := range kids {
			given = given || set[CSPrefix+path+"."+k+".capacity"]
		}
		if given || len(kids) == 0 {
			continue
		}
		for j, k := range kids {
			share := 100 / len(kids)
			if j == len(kids)-1 {
				share = 100 - share*(len(kids)-1)
			}
			fmt.Fprintf(&b, "  <property>\n    <name>%s%s.%s.capacity</name>\n    <value>%d</value>\n  </property>\n", CSPrefix, path, k, share)
		}
	}
	b.WriteString("</configuration>\n")
	return b.String()
}

// entriesOf yields an ACL's users, then its groups, without joining them.
func entriesOf(acl ACL) func(yield func(Entry) bool) {
	return func(yield func(Entry) bool) {
		for _, list := range [2][]Entry{acl.Users, acl.Groups} {
			for _, e := range list {
				if !yield(e) {
					return
				}
			}
		}
	}
}
