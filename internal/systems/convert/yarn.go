// Package convert turns another scheduler's queue access into a YuniKorn
// queues.yaml and proves what it kept: it asks both systems, through
// aclint's own models of them, every access question that can tell them
// apart, and reports each answer that differs. It stands on the systems
// (internal/systems/yarn, internal/systems/yunikorn, internal/systems/yunikorn/acl); cmd only runs it.
package convert

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/internal/systems/yarn"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

// Result is a conversion: the YuniKorn config, what differs in access and
// what was not converted.
type Result struct {
	YAML []byte
	// Differences are the access answers YuniKorn gives differently from
	// YARN, each for one queue, action and principal.
	Differences []Difference
	// NotConverted lists what the YuniKorn config does not carry, with
	// where it is written: capacities, placement, preemption, queues
	// whose names YuniKorn refuses.
	NotConverted []string
	// Notes say what the conversion assumed.
	Notes []string
	// Placement are the applications YARN and the YuniKorn config place
	// differently; PlaceAsked how many were asked.
	Placement  []PlaceDifference
	PlaceAsked int
	// dropped are the queues left out whose access YARN gives someone:
	// each answer YARN gives there is lost, and so a difference
	dropped []*yarn.Queue
	// accepted is the accepted file the differences were matched against
	accepted *Accepted
	// parents are the queues a placement rule names as a parent: YuniKorn
	// takes a queue for a parent there only with parent: true
	parents map[string]bool
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Stopped reports whether YARN takes no application in q: the queue model
// says it is STOPPED, by its own state or an ancestor's, read as Hadoop
// reads it (yarn.Queue.Stopped: upper-cased and not trimmed, so a state
// that is not exactly a QueueState refuses the files before convert runs).
func Stopped(s *yarn.Setup, q *yarn.Queue) bool {
	return !s.FS && q.Stopped != nil
}

// Difference is one access answer that differs.
type Difference struct {
	Queue     string
	Action    yarn.Action
	Principal string // "user alice", "group data", "everyone"
	// User is the principal's user name, "" for a group or everyone.
	User     string
	YARN     bool
	YuniKorn bool
	Why      string
	// Cause is why the two answer otherwise (Causes); Accepted the
	// accepted file's entry that accepts it, nil when none does.
	Cause    string
	Accepted *AcceptEntry
}

func (d Difference) String() string { return d.example() + d.Why }

// example is the difference without why, for a report line whose cause
// says it.
func (d Difference) example() string {
	verb := map[bool]string{true: "may", false: "may not"}
	return fmt.Sprintf("%s %s: YARN: %s %s, YuniKorn: %s %s", d.Queue, d.Action, d.Principal, verb[d.YARN], d.Principal, verb[d.YuniKorn])
}

// probe names are the user and group that stand for "someone no ACL names":
// chosen so that no real ACL names them.
const probeUser, probeGroup = "aclint-probe-user", "aclint-probe-group"

// Options are what the command line adds to the files.
type Options struct {
	// ACLEnable is --acl-enable: "true" or "false" for a Capacity
	// Scheduler whose files do not say yarn.acl.enable, "" when not given.
	ACLEnable string
	// Resolver gives the groups of a request that carries none, as the
	// cluster resolves them (--resolver, --groups-file, the LDAP flags);
	// nil: YuniKorn's default, the user's own name.
	Resolver resolve.Resolver
	// Accepted are the differences the team accepts (--accept).
	Accepted *Accepted
}

// FromModel converts what YARN's audit.Loader loaded (the command line
// reads the files as every question does, and hands the model over
// unread).
func FromModel(m any, opts Options) (*Result, error) {
	aclEnable := opts.ACLEnable
	s, ok := m.(*yarn.Setup)
	if !ok {
		return nil, fmt.Errorf("convert yarn reads Hadoop YARN files: capacity-scheduler.xml (or an allocation file) and yarn-site.xml")
	}
	switch aclEnable {
	case "":
	case "true", "false":
		if s.FS {
			return nil, &OptionError{"--acl-enable is for the Capacity Scheduler: the Fair Scheduler checks its ACLs whatever yarn.acl.enable says"}
		}
		if s.Known && s.ACLEnableFrom != nil {
			return nil, &OptionError{fmt.Sprintf("--acl-enable: yarn.acl.enable is already set in %s", s.ACLEnableFrom.File)}
		}
		s.ACLEnable, s.Known = aclEnable == "true", true
	default:
		return nil, &OptionError{fmt.Sprintf("invalid --acl-enable %q: use true or false", aclEnable)}
	}
	return FromYARN(s, opts)
}

// OptionError is a flag that does not fit the files.
type OptionError struct{ msg string }

func (e *OptionError) Error() string { return e.msg }

// FromYARN converts a YARN setup (Capacity or Fair Scheduler) into a
// YuniKorn config of one partition, default, with the queue tree and every
// queue's submit and admin ACL as YARN reads them: root's defaults written
// out (* in YARN, nothing in YuniKorn), and when yarn.acl.enable is off
// (Capacity Scheduler), everyone let in at root, as YARN then lets everyone
// in. It then compares the two.
func FromYARN(s *yarn.Setup, opts Options) (*Result, error) {
	opts.Resolver = newCached(opts.Resolver)
	if !s.FS && !s.Known {
		return nil, fmt.Errorf("yarn.acl.enable is not known: give yarn-site.xml beside the scheduler's file (aclint convert yarn capacity-scheduler.xml yarn-site.xml), or say it with --acl-enable true|false (queue ACLs count only when it is true; default false)")
	}
	if s.CS.Root.Name != "root" {
		return nil, fmt.Errorf("the allocation file's root queue is named %q: the Fair Scheduler places it by comparing with \"root\" ignoring case, but its queues are then named %s.*, which aclint does not convert", s.CS.Root.Name, s.CS.Root.Name)
	}
	if s.CS.Truncated {
		return nil, fmt.Errorf("the queue tree is deeper or larger than aclint reads: not converted")
	}
	r := &Result{accepted: opts.Accepted}
	aclsOff := !s.FS && !s.ACLEnable
	if aclsOff {
		r.Notes = append(r.Notes, "yarn.acl.enable is false: YARN checks no queue ACL, so root lets everyone submit and administer in the YuniKorn config")
	}
	if len(s.Unknown) > 0 {
		return nil, fmt.Errorf("%s; the conversion would not be proven", s.Unknown[0])
	}
	var substituted []string
	s.CS.Walk(func(q *yarn.Queue) {
		for _, a := range []yarn.Action{yarn.Submit, yarn.Administer} {
			if p := q.From[a]; q.Unknown[a] && p != nil {
				substituted = append(substituted, fmt.Sprintf("%s of %s (%s:%d:%d)", s.ACLName(a), q.Path, p.File, p.ValuePos.Line, p.ValuePos.Col))
			}
		}
	})
	if len(substituted) > 0 {
		return nil, fmt.Errorf("%s %s ${...}, which Hadoop's Configuration substitutes from settings and system properties aclint does not have: who YARN lets in there is not known, so the conversion would not be proven; write the ACL out", strings.Join(substituted, ", "), plural(len(substituted), "uses", "use"))
	}
	rs, err := placementRules(s)
	if err != nil {
		return nil, err
	}
	r.parents = rs.parents
	root := queueNode(s, s.CS.Root, aclsOff, r)
	part := mapping("name", str("default"))
	if opts.Resolver != nil && resolve.Selects(opts.Resolver.Name()) {
		part.Content = append(part.Content, str("usergroupresolver"), mapping("type", str(opts.Resolver.Name())))
	}
	if len(rs.nodes) > 0 {
		part.Content = append(part.Content, str("placementrules"), &yaml.Node{Kind: yaml.SequenceNode, Content: rs.nodes})
	}
	part.Content = append(part.Content, str("queues"), &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{root}})
	r.Notes = append(r.Notes, rs.notes...)
	doc := mapping("partitions", &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{part}})
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	out := buf.Bytes()
	r.YAML = append([]byte("# Converted from YARN by aclint convert yarn: queues, their submit and admin ACLs, and placement rules.\n"), out...)
	r.NotConverted = append(r.NotConverted, notConverted(s)...)
	if opts.Resolver != nil {
		r.Notes = append(r.Notes, resolverNote(opts.Resolver))
	}
	// the converted config, read once: both proofs ask it
	cfg := config.Decode(config.Parse("converted.yaml", r.YAML))
	r.Differences, err = compare(s, cfg, r.dropped, opts.Resolver)
	if err != nil {
		return nil, err
	}
	if r.Placement, r.PlaceAsked, err = provePlacement(s, cfg, acl.NewPolicy(cfg).VerdictsOnly(), opts); err != nil {
		return nil, err
	}
	if err := noAnswer(opts.Resolver); err != nil {
		return nil, err
	}
	for i, d := range r.Differences {
		r.Differences[i].Accepted = opts.Accepted.match(d.Cause, d.User, d.Queue)
	}
	return r, nil
}

// resolverNote says under which groups the proof asked.
func resolverNote(r resolve.Resolver) string {
	if resolve.Selects(r.Name()) {
		return fmt.Sprintf("a request that carries no groups is asked with the groups the %s resolver gives, in both systems (Hadoop's group mapping reads the same directory), and the YuniKorn config sets usergroupresolver type %s", r.Name(), r.Name())
	}
	return "a request that carries no groups is asked with its user's groups from the groups file, in both systems, as the groups requests carry on the cluster (on Kubernetes the admission controller writes them into user.info): the YuniKorn config sets no usergroupresolver"
}

func str(v string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: v} }

// mapping builds a YAML mapping from keys and values, in the order given.
func mapping(kv ...any) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(kv); i += 2 {
		n.Content = append(n.Content, str(kv[i].(string)), kv[i+1].(*yaml.Node))
	}
	return n
}

// queueNode is a queue of the YuniKorn config: name, parent, submitacl,
// adminacl, queues, in that order.
func queueNode(s *yarn.Setup, q *yarn.Queue, aclsOff bool, r *Result) *yaml.Node {
	n := mapping("name", str(q.Name))
	var kids []*yaml.Node
	seen := map[string]string{}
	for _, c := range q.Children {
		if c.Repeat {
			continue
		}
		if Stopped(s, c) {
			r.NotConverted = append(r.NotConverted, fmt.Sprintf("queue %s: STOPPED in YARN, which takes no application there; left out, so YuniKorn has no such queue and takes none either", c.Path))
			continue
		}
		if !acl.ValidQueueName(c.Name) {
			r.NotConverted = append(r.NotConverted, fmt.Sprintf("queue %s: YuniKorn refuses the name %q (queue names are 1 to 64 of a-z A-Z 0-9 _ : # / @ -), so it and the queues below it are left out, and whoever YARN lets in there loses that access", c.Path, c.Name))
			r.dropped = append(r.dropped, c)
			continue
		}
		if prev, ok := seen[strings.ToLower(c.Name)]; ok {
			r.NotConverted = append(r.NotConverted, fmt.Sprintf("queue %s: YuniKorn's queue names ignore case, and %s is already there, so it and the queues below it are left out, and whoever YARN lets in there loses that access", c.Path, prev))
			r.dropped = append(r.dropped, c)
			continue
		}
		seen[strings.ToLower(c.Name)] = c.Path
		kids = append(kids, queueNode(s, c, aclsOff, r))
	}
	if len(kids) == 0 && (q.Parent == nil || q.MarkedParent) || r.parents[q.Path] {
		n.Content = append(n.Content, str("parent"), &yaml.Node{Kind: yaml.ScalarNode, Value: "true", Tag: "!!bool"})
	}
	for _, a := range []yarn.Action{yarn.Submit, yarn.Administer} {
		key := "submitacl"
		if a == yarn.Administer {
			key = "adminacl"
		}
		v, ok := yuniKornACL(q.ACL[a])
		if aclsOff {
			v, ok = "", false
			if q == s.CS.Root {
				v, ok = "*", true
			}
		}
		if ok && !(aclsOff && q == s.CS.Root) {
			if where := openAbove(q, a, aclsOff); where != "" {
				// an ancestor lets everyone in: the ACL has no effect in
				// YARN either, and YuniKorn would flag it (shadowed-acl)
				r.NotConverted = append(r.NotConverted, fmt.Sprintf("%s of %s: it has no effect, as %s lets everyone in (in YARN too)", s.ACLName(a), q.Path, where))
				continue
			}
		}
		if ok {
			n.Content = append(n.Content, str(key), &yaml.Node{Kind: yaml.ScalarNode, Value: v, Style: yaml.DoubleQuotedStyle})
		}
	}
	if len(kids) > 0 {
		n.Content = append(n.Content, str("queues"), &yaml.Node{Kind: yaml.SequenceNode, Content: kids})
	}
	return n
}

// openAbove names the ACL above q (or q's own admin ACL, for submitting)
// that lets everyone act, or "".
func openAbove(q *yarn.Queue, a yarn.Action, aclsOff bool) string {
	if a == yarn.Submit && q.ACL[yarn.Administer].All && !aclsOff {
		return q.Path + " admin ACL"
	}
	for x := q.Parent; x != nil; x = x.Parent {
		if aclsOff && x.Parent == nil {
			return x.Path + " (yarn.acl.enable is false)"
		}
		if x.ACL[a].All {
			return x.Path + " " + a.String() + " ACL"
		}
		if a == yarn.Submit && x.ACL[yarn.Administer].All {
			return x.Path + " admin ACL"
		}
	}
	return ""
}

// yuniKornACL writes a YARN ACL in YuniKorn's grammar: "*", or users, one
// space, groups.
func yuniKornACL(a yarn.ACL) (string, bool) {
	if a.All {
		return "*", true
	}
	// only the names YuniKorn's ACL parser keeps: the others it would drop
	// silently (and aclint lint would warn about them); the comparison
	// reports each
	var users, groups []string
	for _, n := range a.UserNames() {
		if acl.IsUserName(n) {
			users = append(users, n)
		}
	}
	for _, n := range a.GroupNames() {
		if acl.IsGroupName(n) {
			groups = append(groups, n)
		}
	}
	switch {
	case len(users) == 0 && len(groups) == 0:
		return "", false
	case len(groups) == 0:
		return strings.Join(users, ","), true
	}
	return strings.Join(users, ",") + " " + strings.Join(groups, ","), true
}

// notConverted lists the scheduler and queue settings the YuniKorn config
// does not carry: every yarn.scheduler.capacity. key but the queue lists
// and the queue ACLs, per-queue keys counted by their setting and global
// keys by their own names. The ResourceManager's other settings
// (yarn-site.xml's) are not the scheduler's and are not listed.
func notConverted(s *yarn.Setup) []string {
	var out []string
	if s.FS {
		return []string{"the allocation file's settings other than queues, their aclSubmitApps and aclAdministerApps and the placement policy (resources, weights, scheduling policies, preemption, reservations) are not converted"}
	}
	counts := map[string]int{}
	for _, p := range s.Conf.Props {
		name := p.Name
		if !strings.HasPrefix(name, yarn.CSPrefix) || p.Ignored || p.Overridden {
			continue
		}
		rest := name[len(yarn.CSPrefix):]
		if placementKey(rest) {
			continue // carried as placement rules, or named in the notes
		}
		for _, a := range []yarn.Action{yarn.Submit, yarn.Administer} {
			if path, ok := strings.CutSuffix(rest, "."+a.Key()); ok && strings.HasPrefix(path, "root") && s.CS.ByPath[path] == nil {
				out = append(out, fmt.Sprintf("%s of %s: no such queue in the tree, so YARN never reads it", a.Key(), path))
			}
		}
		if strings.HasSuffix(rest, ".queues") || strings.HasSuffix(rest, "."+yarn.Submit.Key()) || strings.HasSuffix(rest, "."+yarn.Administer.Key()) {
			continue
		}
		kind := name // a global setting, by its own name
		if i := strings.LastIndexByte(rest, '.'); i > 0 && s.CS.ByPath[rest[:i]] != nil {
			kind = yarn.CSPrefix + "<queue>." + rest[i+1:]
		} else if _, setting, ok := queueSetting(s, rest); ok {
			kind = yarn.CSPrefix + "<queue>." + setting
		}
		counts[kind]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, fmt.Sprintf("%s: %d %s, left out (convert carries the queues, their ACLs and placement)", k, counts[k], plural(counts[k], "setting", "settings")))
	}
	return out
}

// placementKey says whether a key is one of the Capacity Scheduler's placement settings, which
// placementRules carries (or names what it cannot).
func placementKey(rest string) bool {
	switch rest {
	case "queue-mappings", "queue-mappings-override.enable", "mapping-rule-format", "mapping-rule-json":
		return true
	}
	return false
}

// queueSetting splits a key below yarn.scheduler.capacity. into the
// longest queue path it starts with and the setting after it
// (root.a.accessible-node-labels.x.capacity: root.a and
// accessible-node-labels.x.capacity).
func queueSetting(s *yarn.Setup, rest string) (string, string, bool) {
	best := ""
	for i := 0; i < len(rest); i++ {
		if rest[i] == '.' && s.CS.ByPath[rest[:i]] != nil {
			best = rest[:i]
		}
	}
	if best == "" {
		return "", "", false
	}
	return best, rest[len(best)+1:], true
}

// Same reports whether access and placement are the same in both.
func (r *Result) Same() bool { return len(r.Differences) == 0 && len(r.Placement) == 0 }

// AllAccepted reports whether an accepted entry takes every difference.
func (r *Result) AllAccepted() bool {
	for _, d := range r.Differences {
		if d.Accepted == nil {
			return false
		}
	}
	for _, d := range r.Placement {
		if d.Accepted == nil {
			return false
		}
	}
	return true
}
