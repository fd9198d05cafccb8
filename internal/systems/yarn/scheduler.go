package yarn

import (
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/engine"
)

// The scheduler the ResourceManager runs is yarn.resourcemanager.scheduler.class
// in its own configuration (Configuration.getClass reads it trimmed; the
// last definition wins unless an earlier one is final), the Capacity
// Scheduler by default (YarnConfiguration.DEFAULT_RM_SCHEDULER). A scheduler
// file of the other scheduler is never read.
const (
	SchedulerKey      = "yarn.resourcemanager.scheduler.class"
	capacityScheduler = "org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler"
	fairScheduler     = "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler"
)

// SchedulerRun is the scheduler a set of ResourceManager files runs: its
// class, the property that says so (nil: the default), and whether its
// file is an allocation file (the Fair Scheduler's) or capacity-scheduler.xml.
type SchedulerRun struct {
	Class string
	From  *Property
	// Given is set when a ResourceManager file was read: without one,
	// which scheduler runs is not known, and a question is taken to be
	// about the scheduler whose file it gives
	Given bool
}

// SchedulerPrefix starts the reason of a question over a file the running
// scheduler does not read.
const SchedulerPrefix = "the ResourceManager runs "

// schedulerOf reads the scheduler class from a merged ResourceManager
// configuration.
func schedulerOf(c *Conf) SchedulerRun {
	if c == nil {
		return SchedulerRun{Class: capacityScheduler}
	}
	p, ok := c.Get(SchedulerKey)
	if !ok || javaTrim(p.Value) == "" {
		return SchedulerRun{Class: capacityScheduler}
	}
	return SchedulerRun{Class: javaTrim(p.Value), From: p}
}

// Name is the scheduler's short name for messages.
func (r SchedulerRun) Name() string {
	switch r.Class {
	case capacityScheduler:
		return "the Capacity Scheduler"
	case fairScheduler:
		return "the Fair Scheduler"
	}
	return r.Class[strings.LastIndexByte(r.Class, '.')+1:]
}

// Reads reports whether the scheduler reads a file of this kind: an
// allocation file (fs) or a capacity-scheduler.xml.
func (r SchedulerRun) Reads(fs bool) bool {
	if fs {
		return r.Class == fairScheduler
	}
	return r.Class == capacityScheduler
}

// Says says where the scheduler is chosen.
func (r SchedulerRun) Says() string {
	if r.From == nil {
		return "the default, as " + SchedulerKey + " is not set"
	}
	return fmt.Sprintf("%s at %s:%d:%d", SchedulerKey, r.From.File, r.From.ValuePos.Line, r.From.ValuePos.Col)
}

const ruleNotRun = "yarn-scheduler-not-run"

// ruleRuleNotRun is the rule ruleNotRun.
func ruleRuleNotRun() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleNotRun,
		Severity: engine.Warning,
		Summary:  "a scheduler file the ResourceManager does not read: yarn.resourcemanager.scheduler.class names the other scheduler",
		Doc: "The ResourceManager runs the scheduler `yarn.resourcemanager.scheduler.class` names in\n" +
			"yarn-site.xml, the Capacity Scheduler by default. A capacity-scheduler.xml beside a yarn-site.xml\n" +
			"that runs the Fair Scheduler (or an allocation file beside one that runs the Capacity Scheduler)\n" +
			"is never read: its queues and ACLs decide nothing. aclint says so once, and `yarn check` and the\n" +
			"audits answer nothing over such a file (exit 2), naming the scheduler that runs. The example is\n" +
			"linted with a yarn-site.xml that runs the Fair Scheduler.",
		Bad: csExample(
			CSPrefix+"root.queues", "default",
			CSPrefix+"root.acl_submit_applications", " ",
			CSPrefix+"root.acl_administer_queue", " admins"),
		Good: `<?xml version="1.0"?>
<allocations>
  <queue name="root">
    <aclSubmitApps> </aclSubmitApps>
    <aclAdministerApps> admins</aclAdministerApps>
    <queue name="default"/>
  </queue>
</allocations>
`,
	}, func(s *state, report reporter) {
		if s.rm || s.site.conf == nil {
			return
		}
		run := schedulerOf(s.site.conf)
		if run.Reads(s.cs.FS) {
			return
		}
		what := "capacity-scheduler.xml"
		if s.cs.FS {
			what = "this allocation file"
		}
		report(s.conf.RootPos, fmt.Sprintf("the ResourceManager runs %s (%s), which never reads %s: its queues and ACLs decide nothing", run.Name(), run.Says(), what),
			"lint the file of the scheduler that runs, or set "+SchedulerKey+" to the one this file is for")
	})
}
