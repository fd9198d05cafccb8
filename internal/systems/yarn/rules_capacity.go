package yarn

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aclint/aclint/internal/engine"
)

const ruleCapacityRefused = "yarn-capacity-refused"

// ruleRuleCapacityRefused is the rule ruleCapacityRefused.
func ruleRuleCapacityRefused() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleCapacityRefused,
		Severity: engine.Error,
		Summary:  "queue capacities the Capacity Scheduler refuses to start with",
		Doc: "Hadoop 3.4 builds the queue tree before it starts (`CapacitySchedulerQueueManager.parseQueue`):\n" +
			"each queue reads its capacity (`CapacitySchedulerConfiguration.getNonLabeledQueueCapacity`: a\n" +
			"number from 0 to 100, else \"Illegal capacity of 150.0 for queue root.a\"; a weight `2w` from 0 to\n" +
			"10000), then each parent checks its children in legacy queue mode, the default\n" +
			"(`AbstractParentQueue.setChildQueues`): their percentages must add up to 100 (\"Illegal capacity sum\n" +
			"of 1.5 for children of queue root ... It should be either 0 or 1.0\"), or to 0 only where the\n" +
			"parent's own capacity is 0 or `allow-zero-capacity-sum` is true; a child without a capacity counts\n" +
			"as 0; percentages and weights may not be mixed among siblings. Each queue's `state` is read too\n" +
			"(`getConfiguredState`: upper-cased, not trimmed, so \" STOPPED\" is no state; `QueueStateHelper`: only\n" +
			"RUNNING or STOPPED may be configured, and a child set RUNNING under a parent that is not is\n" +
			"refused; a queue without one takes its parent's). A refused tree stops the\n" +
			"ResourceManager at start, and a refresh keeps the old queues. aclint gives Hadoop's message, and\n" +
			"`yarn check`, the audits and `convert` answer nothing over such files (exit 2). Absolute resources,\n" +
			"node-label capacities and non-legacy queue mode are not modelled: questions over them say so.",
		Bad: csExample(
			CSPrefix+"root.queues", "a,b",
			CSPrefix+"root.a.capacity", "100",
			CSPrefix+"root.b.capacity", "50"),
		Good: csExample(
			CSPrefix+"root.queues", "a,b",
			CSPrefix+"root.a.capacity", "50",
			CSPrefix+"root.b.capacity", "50"),
	}, func(s *state, report reporter) {
		if s.cs.FS || s.rm || len(s.conf.Unknown) > 0 {
			return
		}
		// the tree already read, unless the yarn-site.xml read with it sets
		// Capacity Scheduler keys too: then the two are merged as the
		// Capacity Scheduler merges them
		setup := s.schedulerSetup()
		if _, ok := setup.Conf.Get(RootQueuesKey); !ok {
			return // yarn-no-queues
		}
		r := setup.CapacityRefused()
		if r == nil || r.Unknown != "" || r.substitution() {
			return // a ${...} chain too deep: yarn-substitution-too-deep says so
		}
		at := s.conf.RootPos
		msg := fmt.Sprintf("the Capacity Scheduler refuses to start with these queues: %q (Hadoop 3.4, %s)", r.Reason, r.source())
		if r.At != nil {
			if r.At.File == s.conf.File {
				at = r.At.ValuePos
			} else {
				msg += fmt.Sprintf("; the value is in %s:%d:%d", r.At.File, r.At.ValuePos.Line, r.At.ValuePos.Col)
			}
		}
		report(at, msg, capacityHint(r))
	})
}

// capacityHint says how to fix a refused tree.
func capacityHint(r *CapacityRefusal) string {
	switch {
	case len(r.Reason) > 17 && r.Reason[:17] == "Illegal capacity ":
		if len(r.Reason) > 21 && r.Reason[:21] == "Illegal capacity sum " {
			if r.Repeated != "" {
				return r.Repeated + " is listed more than once under " + r.Queue + " and counts each time: list each queue once, with capacities that add up to 100"
			}
			return "make the capacities of " + r.Queue + "'s children add up to 100"
		}
		return "write a capacity from 0 to 100"
	case r.Source == stateSource:
		return "write the state RUNNING or STOPPED, nothing around it (only those two may be configured), and stop a parent only with its children not set RUNNING"
	case len(r.Reason) > 15 && r.Reason[:15] == "Illegal weight=":
		return "write a weight from 0 to 10000, e.g. 2w"
	case len(r.Reason) > 13 && r.Reason[:13] == "Parent queue ":
		return "give all children of " + r.Queue + " percentages, or all of them weights"
	}
	return "write the capacity as a number from 0 to 100 (a percentage of the parent), or a weight such as 2w"
}

// substitution reports a refusal of Configuration's ${...} limit.
func (r *CapacityRefusal) substitution() bool {
	return strings.HasPrefix(r.Reason, substPrefix)
}

// usesSubstitution reports whether a value of c uses ${...}: its chain may
// then go through the yarn-site.xml read with it, whose properties the
// Capacity Scheduler's configuration starts from.
func usesSubstitution(c *Conf) bool {
	for _, p := range c.Props {
		if strings.Contains(p.Value, "${") {
			return true
		}
	}
	return false
}

// setsCSKeys reports whether a file sets a yarn.scheduler.capacity. key.
func setsCSKeys(c *Conf) bool {
	for _, p := range c.Props {
		if strings.HasPrefix(p.Name, CSPrefix) {
			return true
		}
	}
	return false
}

const ruleQueueListedTwice = "yarn-queue-listed-twice"

// ruleRuleQueueListedTwice is the rule ruleQueueListedTwice.
func ruleRuleQueueListedTwice() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleQueueListedTwice,
		Severity: engine.Warning,
		Summary:  "a queue named twice in one queues list",
		Doc: "`CapacitySchedulerQueueManager.parseQueue` builds one queue for every name of a `.queues` list as\n" +
			"written, and neither it nor `CSQueueStore.add` looks for a repeat: `root.queues = a,b,a` makes two\n" +
			"queue objects for `root.a`. Both count in the parent's capacity sum, so a sum that was 100 becomes\n" +
			"150 and the Capacity Scheduler refuses to start (`yarn-capacity-refused`, with Hadoop's message);\n" +
			"where the sum still works out, root keeps both as children while the queue store keeps the second\n" +
			"under the path, and the two share every key. Either way it is not what was meant: list each queue once.",
		Bad: csExample(
			CSPrefix+"root.queues", "a,b,a",
			CSPrefix+"root.a.capacity", "25",
			CSPrefix+"root.b.capacity", "50"),
		Good: csExample(
			CSPrefix+"root.queues", "a,b",
			CSPrefix+"root.a.capacity", "50",
			CSPrefix+"root.b.capacity", "50"),
	}, func(s *state, report reporter) {
		if s.cs == nil || s.cs.FS {
			return
		}
		s.cs.Walk(func(q *Queue) {
			for _, c := range q.Children {
				if !c.Repeat || c.ListedAt == nil || c.ListedAt.File != s.conf.File {
					continue
				}
				report(c.ListedAt.ValuePos, fmt.Sprintf("%s lists %s more than once: the Capacity Scheduler builds a queue %s for each (parseQueue makes one queue per name as listed, and CSQueueStore.add checks no repeat), and each counts in %s's capacity sum",
					c.ListedAt.Name, c.Name, c.Path, q.Path), "list each queue once")
			}
		})
	})
}

const ruleSubstitutionTooDeep = "yarn-substitution-too-deep"

// ruleRuleSubstitutionTooDeep is the rule ruleSubstitutionTooDeep.
func ruleRuleSubstitutionTooDeep() *engine.Rule {
	return register(&engine.Rule{
		Name:     ruleSubstitutionTooDeep,
		Severity: engine.Error,
		Summary:  "a ${...} chain Hadoop's Configuration gives up on",
		Doc: "`Configuration.get` replaces each `${name}` of a value with the property `name` (or a system\n" +
			"property, or `${env.NAME}`), again and again, at most 20 times (`MAX_SUBST`): a value that needs\n" +
			"more throws \"Variable substitution depth too large: 20 ...\". The ResourceManager expands at start\n" +
			"`yarn.acl.enable`, every queue's `.queues`, flags, ACLs, capacities and state, `yarn.admin.acl` and\n" +
			"the placement values, so such a value stops it. aclint follows a chain through the properties of\n" +
			"`core-site.xml`, `yarn-site.xml` and `capacity-scheduler.xml` read together (each file with the\n" +
			"others given with it or beside it), in the order Hadoop reads them, and reports it in the file\n" +
			"that holds the value read. The JVM's system properties and the environment are not known to it: a\n" +
			"chain that reaches one is answered as not known.",
		Bad: csExample(
			CSPrefix+"root.queues", "a",
			CSPrefix+"root.a.capacity", "100",
			CSPrefix+"root.acl_submit_applications", " ",
			CSPrefix+"root.acl_administer_queue", " ",
			CSPrefix+"root.a.acl_submit_applications", "${v1}",
			"v1", "${v2}", "v2", "${v3}", "v3", "${v4}", "v4", "${v5}", "v5", "${v6}", "v6", "${v7}",
			"v7", "${v8}", "v8", "${v9}", "v9", "${v10}", "v10", "${v11}", "v11", "${v12}", "v12", "${v13}",
			"v13", "${v14}", "v14", "${v15}", "v15", "${v16}", "v16", "${v17}", "v17", "${v18}", "v18", "${v19}",
			"v19", "${v20}", "v20", "${v21}", "v21", "alice"),
		Good: csExample(
			CSPrefix+"root.queues", "a",
			CSPrefix+"root.a.capacity", "100",
			CSPrefix+"root.acl_submit_applications", " ",
			CSPrefix+"root.acl_administer_queue", " ",
			CSPrefix+"root.a.acl_submit_applications", "alice"),
	}, func(s *state, report reporter) {
		if s.cs == nil || s.cs.FS {
			return
		}
		r := s.startSubstitution()
		if r == nil || r.At == nil || r.At.File != s.conf.File {
			return
		}
		report(r.At.ValuePos, fmt.Sprintf("the ResourceManager does not start with this file: Configuration.get throws %q reading %s (a ${...} chain of more than 20 substitutions)", r.Reason, r.At.Name),
			"write the value itself, or a chain of at most 20 ${...} steps")
	})
}

// startSubstitution is the first value whose ${...} chain stops the
// ResourceManager, read from the files it reads with this one (rmDir) in
// the order it reads them; nil when there is none, or when the files are
// refused first for another reason (which that reason's rule says).
func (s *state) startSubstitution() *CapacityRefusal {
	dir := s.site.dir
	if len(dir) == 0 {
		dir = []*Conf{s.conf}
	}
	if !slices.ContainsFunc(dir, usesSubstitution) {
		return nil // no ${...}: nothing to follow
	}
	setup := NewSetup(dir)
	if r := setup.enableTooDeep(ACLEnableKey); r != nil {
		return r
	}
	if len(setup.Unknown) > 0 {
		return nil // an XInclude or a DOCTYPE: yarn-unread says so
	}
	if setup.Scheduler.Given && !setup.Scheduler.Reads(false) {
		return setup.enableTooDeep(AdminACLKey) // capacity-scheduler.xml is not read
	}
	_, queues := setup.Conf.Get(RootQueuesKey)
	switch {
	case queues:
		if r := setup.CapacityRefused(); r != nil && !r.substitution() {
			return nil
		} else if r != nil {
			return r
		}
	case slices.ContainsFunc(dir, func(c *Conf) bool { return !SiteFile(c) }):
		return nil // root has no queues: yarn-no-queues says so
	}
	// with no capacity-scheduler.xml, what the ResourceManager reads
	// whatever its queues are
	return setup.SubstitutionRefused()
}

// schedulerSetup is the setup the Capacity Scheduler reads for the linted
// file: the tree already read, unless the yarn-site.xml read with it sets
// Capacity Scheduler keys too, or the file's values use ${...}: then the two
// are merged as the Capacity Scheduler merges them.
func (s *state) schedulerSetup() *Setup {
	if sc := s.site.conf; sc != nil && (setsCSKeys(sc) || usesSubstitution(s.conf)) {
		return NewSetup([]*Conf{sc, s.conf})
	}
	return &Setup{Conf: s.conf, CS: s.cs}
}
