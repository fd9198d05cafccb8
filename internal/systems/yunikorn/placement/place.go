package placement

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"

	"gopkg.in/yaml.v3"
)

// App is what the shim sends for an application.
type App struct {
	Partition string
	User      string
	// Groups as the request carries them; none means the resolver runs.
	Groups []string
	Queue  string // the queue the pod asks for, "" for none
	Tags   map[string]string
	// Resolver overrides the partition's resolver; Resolvers gives what a
	// resolver type needs.
	Resolver  resolve.Resolver
	Resolvers resolve.Options
}

// Forced reports whether the app carries application.create.force=true
// (any case of the key, a value strconv.ParseBool reads as true).
func (a App) Forced() bool {
	for k, v := range a.Tags {
		if strings.EqualFold(k, "application.create.force") {
			b, err := strconv.ParseBool(v)
			return err == nil && b
		}
	}
	return false
}

// tag is Application.GetTag: the first tag whose key equals name ignoring
// case. Go's map order decides between keys that differ only in case; aclint
// takes them in sorted order and says so.
func (a App) tag(name string) (string, string) {
	var keys []string
	for k := range a.Tags {
		if strings.EqualFold(k, name) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return "", ""
	}
	if len(keys) > 1 {
		return a.Tags[keys[0]], fmt.Sprintf("tags %s differ only in case: YuniKorn reads whichever its map yields first, so the answer can change from run to run", strings.Join(keys, ", "))
	}
	return a.Tags[keys[0]], ""
}

// Step is what one rule did.
type Step struct {
	Index  int    // 1-based position in the partition's rules
	Rule   string // the rule chain, described
	Pos    config.Position
	Filter string // how the filter decided, "" without a filter
	Queue  string // the queue name the rule produced, as YuniKorn spells it
	Result string // placed, no match, filtered, rejected, next rule
	Reason string
	// Decision is the submit check on the queue (or its nearest existing
	// ancestor) when one ran.
	Decision *acl.Decision
}

// Result is where the application lands, or why it is rejected.
type Result struct {
	Placed       bool
	Queue        string // the queue's path as YuniKorn stores it (lower case)
	Created      bool   // the queue does not exist and is created for the app
	CreatedUnder string // the existing queue the new ones go under
	Partition    string
	User         string
	Groups       []string
	GroupsSource string
	Rules        []Step
	Fallback     string // what the root.default fallback did
	NoRules      string // why the partition has no rules at all
	// Decision is the submit check that let the app in (or, for a
	// rejection by createQueue, kept it out).
	Decision *acl.Decision
	Reason   string // why the app is rejected
	Notes    []string
	// Crash is set when YuniKorn's scheduler would panic placing the app.
	Crash string
}

// Place answers where app lands, as AddApplication on a freshly started
// scheduler does. An error is a question without an answer: an unknown
// partition, or groups aclint cannot know.
func (pl *Placer) Place(app App) (*Result, error) {
	part, err := pl.policy.FindPartition(app.Partition)
	if err != nil {
		return nil, err
	}
	res := &Result{Partition: part.CanonicalName(), User: app.User}
	forced := app.Forced()
	sub, err := pl.convert(part, app, forced)
	if err != nil {
		return nil, err
	}
	res.Groups, res.GroupsSource, res.User = sub.Groups, sub.Source, sub.User
	res.Notes = append(res.Notes, sub.Notes...)
	if sub.Reason != "" {
		res.Reason = sub.Reason
		return res, nil
	}
	rules, err := pl.rules(part)
	if err != nil {
		var be *BuildError
		if errors.As(err, &be) {
			res.NoRules = fmt.Sprintf("the placement rules of partition %s cannot be built (%s, at %s): a freshly started YuniKorn runs the partition with no rules at all, not even the root.default fallback, so every application is rejected; as an update the config is refused", res.Partition, be.Msg, pl.cfg.Doc.NodePos(ruleNode(be.Rule)))
		}
		res.Reason = "application rejected: no placement rule matched"
		return res, nil
	}
	c := &run{pl: pl, part: part, app: app, sub: sub, forced: forced, res: res}
	c.place(rules)
	return res, nil
}

// convert is ConvertUGI, with force.
func (pl *Placer) convert(part *config.Partition, app App, forced bool) (acl.Subject, error) {
	q := acl.Query{Partition: app.Partition, User: app.User, Groups: app.Groups, Resolver: app.Resolver, Resolvers: app.Resolvers}
	if !forced {
		return pl.policy.ResolveSubject(part, q)
	}
	// a forced app: an empty user becomes nobody/nogroup, and a user whose
	// groups cannot be resolved gets nogroup; the user name is then checked
	if q.User == "" {
		return acl.Subject{User: "nobody", Groups: []string{"nogroup"}, Source: "forced application without a user: YuniKorn's anonymous user and group"}, nil
	}
	if len(q.Groups) == 0 {
		sub, err := pl.policy.ResolveSubject(part, q)
		if err == nil && sub.Reason == "" {
			return sub, nil
		}
		q.Groups = []string{"nogroup"}
	}
	sub, err := pl.policy.ResolveSubject(part, q)
	if len(app.Groups) == 0 {
		sub.Source = "forced application whose groups could not be resolved: YuniKorn gives it the group nogroup"
	}
	return sub, err
}

type run struct {
	pl     *Placer
	part   *config.Partition
	app    App
	sub    acl.Subject
	forced bool
	res    *Result
	// probe: ACLs are not checked (and, with noFilter, filters let every
	// request through), to learn which rule would create a queue
	noACL, noFilter bool
	// numbers are the rules' 1-based positions in the partition when place
	// runs a subset of them (nil: their order in the list given)
	numbers []int
}

// errCrash marks a rule result that makes YuniKorn's scheduler panic.
var errCrash = errors.New("crash")

// lookup is getQueueInternal: the whole name lower-cased, from root.
func (c *run) lookup(name string) *config.Queue {
	return c.pl.queue(c.part, name)
}

// place is PlaceApplication, then AddApplication's queue lookup and
// creation.
func (c *run) place(rules []*Rule) {
	res := c.res
	name := ""
	for i, r := range rules {
		last := i == len(rules)-1
		step := Step{Index: i + 1, Rule: r.Describe()}
		if c.numbers != nil {
			step.Index = c.numbers[i]
		}
		if r.Conf != nil {
			step.Pos = c.pl.cfg.Doc.NodePos(ruleNode(r.Conf))
		} else if r.Name == "provided" {
			step.Rule = "provided (implicit: the partition has no placement rules; create false)"
		} else {
			step.Rule = "recovery (implicit, always last: only forced applications)"
		}
		var err error
		name, step.Filter, step.Reason, err = c.rule(r)
		step.Queue = name
		if err != nil {
			step.Result = "rejected"
			if errors.Is(err, errCrash) {
				res.Crash = step.Reason
				step.Result = "crash"
			}
			res.Rules = append(res.Rules, step)
			res.Reason = fmt.Sprintf("application rejected: rule %d (%s) failed: %s; YuniKorn stops at a rule that fails and tries no other rule or the root.default fallback", step.Index, r.Name, step.Reason)
			return
		}
		if last && name == "" {
			if q := c.lookup("root.default"); q != nil {
				name = "root.default"
				res.Fallback = "no rule placed the application: root.default exists, so YuniKorn tries it"
			} else {
				res.Fallback = "no rule placed the application and root.default does not exist"
			}
		}
		if name == "" {
			if step.Result == "" {
				step.Result = "no match"
			}
			res.Rules = append(res.Rules, step)
			continue
		}
		if name == "root.@recovery@" && c.forced {
			step.Result = "placed"
			step.Reason = "a forced application goes to the recovery queue without any check"
			res.Rules = append(res.Rules, step)
			break
		}
		if ok := c.check(&step, name, last && res.Fallback != "" && !strings.Contains(res.Fallback, "does not exist")); !ok {
			if step.Result == "crash" {
				res.Rules = append(res.Rules, step)
				res.Crash = step.Reason
				res.Reason = "YuniKorn's scheduler panics placing this application: " + step.Reason
				return
			}
			name = ""
			res.Rules = append(res.Rules, step)
			continue
		}
		step.Result = "placed"
		res.Rules = append(res.Rules, step)
		break
	}
	if name == "" {
		res.Reason = "application rejected: no placement rule matched"
		return
	}
	c.add(name)
}

func ruleNode(r *config.PlacementRule) *yaml.Node {
	if r.Name.Node != nil {
		return r.Name.Node
	}
	return r.Node
}

// check is PlaceApplication's test of the name a rule returned: a missing
// queue needs submit access on its nearest existing ancestor; an existing
// one must be a leaf and allow submit.
func (c *run) check(step *Step, name string, fallback bool) bool {
	if fallback {
		step.Reason = "root.default fallback: "
	}
	q := c.lookup(name)
	if q == nil {
		cur := name
		for q == nil {
			i := strings.LastIndex(cur, ".")
			if i < 0 {
				step.Result = "crash"
				step.Reason = fmt.Sprintf("the rule returned %q, which has no dot and does not exist: PlaceApplication cuts it at a dot that is not there (slice bounds out of range) and the scheduler process dies", name)
				return false
			}
			cur = cur[:i]
			q = c.lookup(cur)
		}
		return c.submit(step, q,
			fmt.Sprintf("%s does not exist; submit is denied on %s, the nearest existing queue above it", name, q.Path()),
			fmt.Sprintf("%s does not exist; submit is allowed on %s, the nearest existing queue above it", name, q.Path()))
	}
	if !q.IsLeaf() {
		step.Result = "next rule"
		step.Reason += fmt.Sprintf("%s is a parent queue: applications go to leaf queues only", q.Path())
		return false
	}
	return c.submit(step, q, fmt.Sprintf("submit denied on %s", q.Path()), fmt.Sprintf("%s exists and submit is allowed", q.Path()))
}

// submit is the access half of check: submit on q, as CheckAt decides it,
// with the step's reason either way (nothing when placement runs without
// ACLs).
func (c *run) submit(step *Step, q *config.Queue, denied, allowed string) bool {
	if c.noACL {
		return true
	}
	d := c.pl.policy.CheckAt(c.res.Partition, q, c.sub, acl.Submit)
	step.Decision = d
	if !d.Allowed {
		step.Result = "next rule"
		step.Reason += denied
		return false
	}
	step.Reason += allowed
	return true
}

// add is AddApplication after placement: an existing queue is used; a
// missing root.@recovery@ is created as the recovery queue; otherwise
// createQueue builds the missing queues under the deepest existing one,
// after checking submit access there and that it is not a leaf.
func (c *run) add(name string) {
	res := c.res
	if q := c.lookup(name); q != nil {
		res.Placed, res.Queue = true, q.Path()
		res.Decision = c.lastDecision()
		return
	}
	if acl.IsRecoveryPath(name) {
		res.Placed, res.Queue, res.Created, res.CreatedUnder = true, "root.@recovery@", true, "root"
		res.Decision = c.lastDecision()
		res.Notes = append(res.Notes, "root.@recovery@ is created as YuniKorn's recovery queue; once it exists, no submit check passes on it")
		return
	}
	if !strings.HasPrefix(name, "root") || !strings.Contains(name, ".") {
		res.Reason = fmt.Sprintf("application rejected: illegal queue name passed in: %s", name)
		return
	}
	var toCreate []string
	cur := name
	q := c.lookup(cur)
	for q == nil {
		i := strings.LastIndex(cur, ".")
		toCreate = append(toCreate, cur[i+1:])
		cur = cur[:i]
		q = c.lookup(cur)
	}
	if !c.noACL {
		d := c.pl.policy.CheckAt(res.Partition, q, c.sub, acl.Submit)
		res.Decision = d
		if !d.Allowed {
			res.Reason = fmt.Sprintf("application rejected: submit access to queue %s denied during create of: %s", cur, name)
			return
		}
	}
	if q.IsLeaf() {
		res.Reason = fmt.Sprintf("application rejected: creation of queue %s failed parent is already a leaf: %s (PlaceApplication does not check this for a queue to create, so no later rule is tried)", name, q.Path())
		return
	}
	path := q.Path()
	for i := len(toCreate) - 1; i >= 0; i-- {
		part := toCreate[i]
		if !acl.ValidQueueName(part) {
			res.Reason = fmt.Sprintf("application rejected: %q is not a valid queue name, so the queue cannot be created", part)
			return
		}
		if part == "@recovery@" {
			res.Reason = "application rejected: dynamic queue cannot be root.@recovery@"
			return
		}
		path += "." + strings.ToLower(part)
	}
	res.Placed, res.Queue, res.Created, res.CreatedUnder = true, path, true, q.Path()
}

func (c *run) lastDecision() *acl.Decision {
	for i := len(c.res.Rules) - 1; i >= 0; i-- {
		if d := c.res.Rules[i].Decision; d != nil {
			return d
		}
	}
	return nil
}

// Creates answers whether a queue that does not exist would be created by
// placement for this request: placement runs as if the application named
// that queue, with the request's tags, and the result must be exactly that
// queue, created. It runs with the ACLs left out (a queue whose submit
// check fails is still one placement makes; check answers the ACLs itself),
// and when that stops at another queue, with them (an earlier rule whose
// check fails lets a later one create it). When the tags are not known
// (nil) and no rule creates it without tags, it names the tags of a request
// that a tag rule would create it for.
func (pl *Placer) Creates(part *config.Partition, queue string, sub acl.Subject, tags map[string]string) acl.Creation {
	rules, err := pl.rules(part)
	if err != nil {
		return acl.Creation{Why: "the partition's placement rules cannot be built, so a freshly started scheduler places nothing"}
	}
	probe := func(tags map[string]string) (*Result, acl.Creation) {
		// without the ACLs first: a rule that names the queue but whose
		// submit check fails still says the queue is one placement makes
		// for this request (the answer is then that check's deny)
		res := &Result{Partition: part.CanonicalName()}
		c := &run{pl: pl, part: part, app: App{Queue: queue, Tags: tags}, sub: sub, res: res, noACL: true}
		c.place(rules)
		by, why := createdBy(res, queue)
		if by != "" {
			return res, acl.Creation{By: by}
		}
		// then with them: an earlier rule whose submit check fails lets a
		// later one create exactly this queue
		withACL := &Result{Partition: part.CanonicalName()}
		(&run{pl: pl, part: part, app: App{Queue: queue, Tags: tags}, sub: sub, res: withACL}).place(rules)
		if by, _ := createdBy(withACL, queue); by != "" {
			return withACL, acl.Creation{By: by}
		}
		return res, acl.Creation{Why: why}
	}
	res, c := probe(tags)
	if c.By != "" {
		if tags == nil {
			c.Note = untaggedNote(rules, res)
		}
		return c
	}
	if tags != nil {
		return c
	}
	// the question gave no tags: would a tag rule create it for some
	// namespace and annotation? (the whole rule list runs with them, so an
	// earlier rule still takes what it takes)
	for _, r := range rules[:len(rules)-1] {
		need := TagsFor(r, queue)
		if need == nil {
			continue
		}
		if _, with := probe(need); with.By != "" {
			c.Tags, c.NeedsBy = need, with.By
			return c
		}
	}
	return c
}

// untaggedNote warns, for an answer given without the request's tags,
// when a tag rule comes before the rule that created the queue: a request
// with that tag (every pod carries namespace) could be placed by it first.
func untaggedNote(rules []*Rule, res *Result) string {
	placed := 0
	for _, st := range res.Rules {
		if st.Result == "placed" {
			placed = st.Index
		}
	}
	for i, r := range rules[:len(rules)-1] {
		if i+1 >= placed {
			break
		}
		for t := r; t != nil; t = t.Parent {
			if t.Name == "tag" {
				return fmt.Sprintf("this assumes the request carries no tag %s: rule %d (%s) comes first and places a request that has it (every pod carries namespace); give the request's tags to be sure", t.Value, i+1, r.Describe())
			}
		}
	}
	return ""
}

// TagsFor derives tag values that make rule r (with its parent rules)
// produce queue, a path from root: the rule's tag gives the last part, its
// parent rule's tag the part above, and the last rule of the chain the rest
// (a value that starts with root. is taken as the whole path). It returns
// nil when the chain reads no tag or the path cannot be split over it.
// Placement must still confirm the answer: filters, create flags and the
// parts the other rules give are not looked at here.
func TagsFor(r *Rule, queue string) map[string]string {
	parts := strings.Split(strings.ToLower(queue), ".")
	if len(parts) < 2 || parts[0] != "root" {
		return nil
	}
	tags := map[string]string{}
	has := false
	set := func(name, v string) bool {
		if old, ok := tags[name]; ok && old != v {
			return false
		}
		tags[name] = v
		return true
	}
	for cur := r; cur != nil && len(parts) >= 2; cur = cur.Parent {
		qualified := cur.Parent == nil && len(parts) > 2 || cur.Parent != nil && len(parts) == 2
		switch {
		case cur.Name == "tag" && qualified:
			has = true
			if !set(cur.Value, strings.Join(parts, ".")) {
				return nil
			}
			parts = nil
		case cur.Name == "tag":
			has = true
			if !set(cur.Value, parts[len(parts)-1]) {
				return nil
			}
			parts = parts[:len(parts)-1]
		case cur.Name == "fixed" && cur.Qualified:
			parts = nil
		default:
			parts = parts[:len(parts)-1]
		}
	}
	if !has || !possibleTags(tags) {
		return nil
	}
	return tags
}

// possibleTags reports whether the Kubernetes shim can send tags: its
// namespace tag is the pod's namespace, a DNS label (no dots, lower case),
// so a tag rule on namespace never sees root.x or a dotted name. The other
// tags come from annotations, which may hold anything.
func possibleTags(tags map[string]string) bool {
	for k, v := range tags {
		if k == "namespace" && !dnsLabel.MatchString(v) {
			return false
		}
	}
	return true
}

// dnsLabel is Kubernetes' namespace name pattern (RFC 1123 label).
var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

// Ways answers, for questions without a user (who-can), whether some
// request could have the queue created: it lists every rule that can create
// queue, in rule order (By is the first): each rule on
// its own, its filter set aside (and described), with the queue as the
// requested queue when the rule reads it, the queue's last part as the user
// name when the rule reads the user, and, for tag rules, the tags given or,
// without them, first the tags TagsFor derives (a namespace and its
// annotation), then the whole path as every tag's value. Tags the
// Kubernetes shim cannot send (a namespace that is no DNS label) are never
// tried. A rule is reached only when the rules before it do not place the
// request: the ways are listed in that order.
func (pl *Placer) Ways(part *config.Partition, queue string, given map[string]string) acl.Creation {
	rules, err := pl.rules(part)
	if err != nil {
		return acl.Creation{Why: "the partition's placement rules cannot be built, so a freshly started scheduler places nothing"}
	}
	last := queue[strings.LastIndex(queue, ".")+1:]
	user := strings.ReplaceAll(last, dotReplace, ".")
	impossible := ""
	var out acl.Creation
	for i, r := range rules[:len(rules)-1] {
		reads := reading(r)
		candidates := []map[string]string{given}
		if given == nil && reads.tag {
			whole := map[string]string{}
			for t := r; t != nil; t = t.Parent {
				if t.Name == "tag" {
					whole[t.Value] = queue
				}
			}
			candidates = []map[string]string{TagsFor(r, queue), whole}
		}
		for _, tags := range candidates {
			if reads.tag && tags == nil {
				continue
			}
			app := App{Tags: tags}
			if app.Tags == nil {
				app.Tags = map[string]string{}
			}
			if reads.provided {
				app.Queue = queue
			}
			res := &Result{Partition: part.CanonicalName()}
			c := &run{pl: pl, part: part, app: app, sub: acl.Subject{User: user}, res: res, noACL: true, noFilter: true,
				numbers: []int{i + 1, len(rules)}}
			c.place([]*Rule{r, rules[len(rules)-1]})
			by, _ := createdBy(res, queue)
			if by == "" {
				continue
			}
			if reads.tag && !possibleTags(tags) {
				if impossible == "" {
					impossible = fmt.Sprintf("placement %s creates it only for a request with the tag namespace=%s, and no Kubernetes namespace has that name (namespaces are DNS labels: lower case, digits and -)", by, tags["namespace"])
				}
				continue
			}
			w := acl.Way{Rule: i + 1, By: by, Filter: r.Filter.Describe()}
			if reads.tag && len(tags) > 0 {
				w.Tags = tags
			}
			if reads.user {
				w.User = user
			}
			if reads.provided {
				w.Queue = strings.ToLower(queue)
			}
			out.Ways = append(out.Ways, w)
			break
		}
	}
	if len(out.Ways) > 0 {
		out.By, out.Tags = out.Ways[0].By, out.Ways[0].Tags
		return out
	}
	if impossible != "" {
		return acl.Creation{Why: impossible + "; check answers a request with given tags"}
	}
	if given != nil {
		return acl.Creation{Why: "no placement rule of the partition creates it for a request with the tags " + acl.DescribeTags(given)}
	}
	return acl.Creation{Why: "no placement rule of the partition creates it for any request"}
}

// reads says which parts of a request a rule chain reads.
type reads struct{ user, tag, provided bool }

func reading(r *Rule) reads {
	var out reads
	for t := r; t != nil; t = t.Parent {
		switch t.Name {
		case "user":
			out.user = true
		case "tag":
			out.tag = true
		case "provided":
			out.provided = true
		}
	}
	return out
}

// Lands names the queue placement creates for sub's request when the
// application names no queue, the existing queue it goes under, and the
// rule that creates it; "" when the request lands in an existing queue or
// is rejected.
func (pl *Placer) Lands(part *config.Partition, sub acl.Subject, tags map[string]string) (string, string, string) {
	rules, err := pl.rules(part)
	if err != nil || sub.Reason != "" {
		return "", "", ""
	}
	res := &Result{Partition: part.CanonicalName()}
	c := &run{pl: pl, part: part, app: App{Tags: tags}, sub: sub, res: res}
	c.place(rules)
	if !res.Placed || !res.Created || res.Crash != "" {
		return "", "", ""
	}
	by, _ := createdBy(res, res.Queue)
	return res.Queue, res.CreatedUnder, by
}

func createdBy(res *Result, queue string) (string, string) {
	if res.Crash != "" {
		return "", "placing it crashes the scheduler: " + res.Crash
	}
	if !res.Placed {
		return "", "no placement rule creates it for this request (" + res.Reason + ")"
	}
	if !res.Created || res.Queue != strings.ToLower(queue) {
		return "", fmt.Sprintf("placement puts this request in %s, not in it", res.Queue)
	}
	for i := len(res.Rules) - 1; i >= 0; i-- {
		if res.Rules[i].Result == "placed" {
			st := res.Rules[i]
			by := fmt.Sprintf("rule %d (%s", st.Index, st.Rule)
			if st.Pos.File != "" {
				by += " at " + st.Pos.String()
			}
			return by + ")", ""
		}
	}
	return "the root.default fallback", ""
}
