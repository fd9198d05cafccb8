package yarn

import (
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"sync"

	"github.com/aclint/aclint/internal/engine"
)

// Setup is what the ResourceManager reads for queue ACLs: the files in
// the order Configuration loads them (yarn-site.xml before
// capacity-scheduler.xml: CapacitySchedulerConfiguration starts from the
// ResourceManager's configuration and adds its own file), merged property
// by property as loadProperty merges them, and the Capacity Scheduler's
// queue tree over the result.
type Setup struct {
	Conf *Conf
	CS   *CS
	// ACLEnable is yarn.acl.enable when a file sets it, and Known says
	// whether one did: without yarn-site.xml, aclint does not know it.
	ACLEnable, Known bool
	// ACLEnableFrom is the property that set it (nil: the default, false,
	// from a yarn-site.xml that does not set it).
	ACLEnableFrom *Property
	// EnableWhy says why yarn.acl.enable is not known though a
	// yarn-site.xml is given (a ${...} value); "" otherwise.
	EnableWhy string
	// Unknown lists what no file could tell.
	Unknown []Unknown
	// FS is set when the queues come from a Fair Scheduler allocation
	// file: FairScheduler.addApplication checks the queue ACLs itself,
	// whatever yarn.acl.enable says.
	FS bool
	// Scheduler is the scheduler the site files run; with none given,
	// the default, the Capacity Scheduler.
	Scheduler SchedulerRun
	keyBuf    []byte // queueKey's
	// appName is place's --app-name, and appNameGiven whether it was
	// given: placement rules may read the application's name
	appName      string
	appNameGiven bool
	// RuleFiles are JSON mapping rules files given with the configuration
	// (Capacity Scheduler, mapping-rule-json-file)
	RuleFiles []*RuleFile
	// fsOnce reads fsPolicyRead, the Fair Scheduler's placement policy,
	// for PlaceFS
	fsOnce       sync.Once
	fsPolicyRead fsPolicyRead
	// site is the site files' merged configuration: the ResourceManager's
	// own, which never sees capacity-scheduler.xml's properties (Conf is
	// the Capacity Scheduler's, or a Fair Scheduler's allocation file's)
	site *Conf
}

// rmConf is the ResourceManager's own configuration, where yarn.acl.enable
// and yarn.admin.acl are read and expanded.
func (s *Setup) rmConf() *Conf {
	if s.site != nil {
		return s.site
	}
	return s.Conf
}

// NewFSSetup is the setup of a Fair Scheduler: its allocation file's queue
// tree, and the yarn-site.xml files given (for yarn.acl.enable, which the
// Fair Scheduler's own check does not read).
func NewFSSetup(fs *CS, sites []*Conf) *Setup {
	s := NewSetup(sites)
	s.site = s.Conf
	s.CS, s.FS = fs, true
	s.Unknown = append(s.Unknown, fs.Conf.Unknown...)
	s.Unknown = append(s.Unknown, fs.Unknown...)
	s.Conf = fs.Conf
	return s
}

// NewSetup merges the files: site files first, then the others, each in
// the order given, except that core-site.xml goes before every other site
// file: the ResourceManager's YarnConfiguration loads core-site.xml (a
// default resource of every Configuration) before yarn-site.xml, whatever
// order the files are named in (Configuration.addDefaultResource,
// YarnConfiguration's static block, ResourceManager.serviceInit).
func NewSetup(files []*Conf) *Setup {
	merged := &Conf{File: "", set: map[string]*Property{}, final: map[string]bool{}}
	var cores, sites, others []*Conf
	for _, c := range files {
		switch {
		case filepath.Base(c.File) == coreName:
			cores = append(cores, c)
		case SiteFile(c):
			sites = append(sites, c)
		default:
			others = append(others, c)
		}
	}
	sites = append(cores, sites...)
	load := func(cs []*Conf) {
		for _, c := range cs {
			if merged.File == "" {
				merged.File = c.File
			}
			merged.Unknown = append(merged.Unknown, c.Unknown...)
			for _, p := range c.Props {
				cp := *p
				cp.Ignored, cp.Overridden = false, false
				merged.load(&cp)
			}
		}
	}
	// yarn.acl.enable is the ResourceManager's: read once the site files
	// are in, before capacity-scheduler.xml's keys (which the
	// ResourceManager never sees) are
	load(sites)
	var si siteInfo
	run := schedulerOf(nil)
	var rm *Conf
	if len(sites) > 0 {
		si = siteOf(merged)
		run = schedulerOf(merged)
		run.Given = true
		if len(others) > 0 {
			// the ResourceManager's own configuration stays as it is:
			// capacity-scheduler.xml goes into the scheduler's copy
			rm = &Conf{File: merged.File, set: maps.Clone(merged.set), final: maps.Clone(merged.final)}
		}
	}
	load(others)
	s := &Setup{Conf: merged, CS: ReadCS(merged), ACLEnable: si.enabled, Known: si.known, ACLEnableFrom: si.from, EnableWhy: si.why, Scheduler: run, site: rm}
	s.Unknown = append(merged.Unknown, s.CS.Unknown...)
	return s
}

// RootQueuesKey lists root's child queues: the one key every Capacity
// Scheduler configuration must set.
const RootQueuesKey = CSPrefix + "root.queues"

// NoQueuesReason is why the Capacity Scheduler refuses a configuration
// that does not set RootQueuesKey.
const NoQueuesReason = "yarn.scheduler.capacity.root.queues is not set, so root has no queues: the Capacity Scheduler refuses to start (CapacitySchedulerQueueManager.parseQueue: \"Queue configuration missing child queue names for root\")"

// Refused says why no question over this setup is answered, or "": the
// files hold something aclint does not read as Hadoop does (an XInclude
// may add or override any property, a DOCTYPE may default attributes, a
// ${...} may name the queues), so neither an allowance nor a denial is
// known; or the Capacity Scheduler would not start without root's queues
// (an allocation file's refusals are ReadFS's errors).
func (s *Setup) Refused() string {
	if r := s.enableTooDeep(ACLEnableKey); r != nil {
		return r.SubstitutionString()
	}
	if len(s.Unknown) > 0 {
		return s.Unknown[0].String() + ": aclint does not read the files as Hadoop does there, so it answers no question over them"
	}
	if s.Scheduler.Given && !s.Scheduler.Reads(s.FS) {
		what := "capacity-scheduler.xml"
		if s.FS {
			what = "the allocation file"
		}
		return fmt.Sprintf(SchedulerPrefix+"%s (%s), which never reads %s: aclint answers no question over a file the scheduler that runs does not read", s.Scheduler.Name(), s.Scheduler.Says(), what)
	}
	if s.FS {
		return ""
	}
	if _, ok := s.Conf.Get(RootQueuesKey); !ok {
		return NoQueuesReason
	}
	if r := s.CapacityRefused(); r != nil {
		if r.substitution() {
			return r.SubstitutionString()
		}
		return r.String()
	}
	if r := s.SubstitutionRefused(); r != nil {
		return r.SubstitutionString()
	}
	return ""
}

// CapacityPrefix starts the reason of a tree the Capacity Scheduler
// refuses for its capacities.
const CapacityPrefix = "the Capacity Scheduler refuses to start with these queues: "

// String says the refusal, or that whether there is one is not known.
func (r *CapacityRefusal) String() string {
	where := ""
	if r.At != nil {
		where = fmt.Sprintf(" (%s:%d:%d)", r.At.File, r.At.ValuePos.Line, r.At.ValuePos.Col)
	}
	if r.Unknown != "" {
		return r.Unknown + where + ": whether the Capacity Scheduler starts with these files is not known, so aclint answers no question over them"
	}
	return CapacityPrefix + "\"" + r.Reason + "\"" + where + " (" + r.source() + " in Hadoop 3.4)"
}

// SubstitutionPrefix starts the reason of files whose ${...} chain is too
// deep for Configuration.
const SubstitutionPrefix = "the ResourceManager does not start with these files: "

// SubstitutionString says a refusal of SubstitutionRefused.
func (r *CapacityRefusal) SubstitutionString() string {
	return fmt.Sprintf(SubstitutionPrefix+"Configuration.get throws %q reading %s (%s:%d:%d): its ${...} chain needs more than 20 substitutions",
		r.Reason, r.At.Name, r.At.File, r.At.ValuePos.Line, r.At.ValuePos.Col)
}

// javaBoolean is Configuration.getBoolean on a set value: trimmed, "true"
// or "false" in any case; anything else gives the default.
func javaBoolean(v string) (value, ok bool) {
	switch strings.ToLower(javaTrim(v)) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	return false, false
}

// Answer is the answer to "may USER act on QUEUE".
type Answer struct {
	Queue    *Queue
	Allowed  bool
	Known    bool // false: aclint cannot know (see Why)
	Why      string
	Decision Decision
	// ACLsOff is set when yarn.acl.enable is false: no queue ACL is
	// checked and everyone is allowed.
	ACLsOff bool
	// Stopped is set for a submission to a STOPPED queue that the ACLs
	// (or yarn.acl.enable false) let through: the Capacity Scheduler
	// refuses it next (Queue.StoppedNote).
	Stopped string
}

// FindQueue finds a queue as the Capacity Scheduler's getQueue does for a
// submission: by its full path, or by its leaf name when no other queue
// has that name. The Fair Scheduler takes full paths only (a name without
// "root." is put under root).
func (s *Setup) FindQueue(name string) (*Queue, error) {
	if q := s.CS.ByPath[name]; q != nil {
		return q, nil
	}
	if s.FS {
		if q := s.CS.ByPath["root."+name]; q != nil && !strings.HasPrefix(name, "root.") {
			return q, nil
		}
		return nil, fmt.Errorf("no queue %s in the allocation file (the Fair Scheduler may create it at submission, as its placement policy says: aclint place answers where an application lands and whether it may submit there)", name)
	}
	var found []*Queue
	for _, q := range s.CS.ByPath {
		if q.Name == name {
			found = append(found, q)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return nil, fmt.Errorf("no queue %s in the Capacity Scheduler's tree (its queues come from yarn.scheduler.capacity.root.queues and each queue's .queues)", name)
	}
	var paths []string
	for _, q := range found {
		paths = append(paths, q.Path)
	}
	return nil, fmt.Errorf("the queue name %s is ambiguous (%s): give the full path", name, strings.Join(paths, ", "))
}

// Check answers whether user may act on q.
func (s *Setup) Check(q *Queue, user string, groups []string, a Action) Answer {
	d := s.CS.Decide(q.Path, user, groups, a)
	ans := Answer{Queue: q, Decision: d, Allowed: d.Allowed, Known: !d.Unknown}
	if d.Unknown {
		ans.Why = "an ACL on the way uses ${...}, which Configuration substitutes from settings aclint does not have"
	}
	if len(s.Unknown) > 0 {
		// an XInclude or a DOCTYPE may override the very ACL that allows
		ans.Known = false
		ans.Why = s.Unknown[0].String()
	}
	switch {
	case s.FS:
		// FairScheduler.addApplication: !hasAccess(SUBMIT) &&
		// !hasAccess(ADMINISTER) rejects the application, with no
		// yarn.acl.enable in the way
	case s.Known && !s.ACLEnable:
		// QueueACLsManager and RMAppManager check queue ACLs only with
		// yarn.acl.enable
		ans.ACLsOff, ans.Allowed, ans.Known, ans.Why = true, true, true, ""
	case !s.Known && !d.Allowed && ans.Known:
		ans.Known = false
		ans.Why = "the ACLs deny it, but queue ACLs count only when yarn.acl.enable is true (default false): " + s.EnableHint()
	}
	if a == Submit && s.refusesSubmission(q) && ans.Known && ans.Allowed {
		ans.Allowed, ans.Stopped = false, q.StoppedNote()
	}
	return ans
}

// ACLName is an ACL's name in the setup's files: acl_submit_applications
// and acl_administer_queue, or the allocation file's aclSubmitApps and
// aclAdministerApps.
func (s *Setup) ACLName(a Action) string {
	if s.FS {
		if a == Administer {
			return "aclAdministerApps"
		}
		return "aclSubmitApps"
	}
	return a.Key()
}

// ReadSiteBeside fills in yarn.acl.enable from the yarn-site.xml next to a
// capacity-scheduler.xml when the files given did not say it (as lint
// reads it).
func ReadSiteBeside(s *Setup, path string, opts engine.Options) {
	if s.FS || s.Known {
		return
	}
	if si := aclEnableFor(s.Conf, path, nil, opts); si.known {
		s.Known, s.ACLEnable, s.ACLEnableFrom = true, si.enabled, si.from
	}
}

// EnableHint says how to make yarn.acl.enable known: give the
// yarn-site.xml, or, when one is given, why it does not tell.
func (s *Setup) EnableHint() string {
	if s.EnableWhy != "" {
		return s.EnableWhy
	}
	return "give yarn-site.xml with -f"
}
