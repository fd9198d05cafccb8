package yarn

import (
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/engine"
)

const ruleCapacityRefused = "yarn-capacity-refused"

var _ = register(&engine.Rule{
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
		"as 0; percentages and weights may not be mixed among siblings. A refused tree stops the\n" +
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
	setup := &Setup{Conf: s.conf, CS: s.cs}
	if sc := s.site.conf; sc != nil && setsCSKeys(sc) {
		setup = NewSetup([]*Conf{sc, s.conf})
	}
	if _, ok := setup.Conf.Get(RootQueuesKey); !ok {
		return // yarn-no-queues
	}
	r := setup.CapacityRefused()
	if r == nil || r.Unknown != "" {
		return
	}
	at := s.conf.RootPos
	msg := fmt.Sprintf("the Capacity Scheduler refuses to start with these queues: %q (Hadoop 3.4, %s)", r.Reason, "AbstractParentQueue.setChildQueues / CapacitySchedulerConfiguration")
	if r.At != nil {
		if r.At.File == s.conf.File {
			at = r.At.ValuePos
		} else {
			msg += fmt.Sprintf("; the value is in %s:%d:%d", r.At.File, r.At.ValuePos.Line, r.At.ValuePos.Col)
		}
	}
	report(at, msg, capacityHint(r))
})

// capacityHint says how to fix a refused tree.
func capacityHint(r *CapacityRefusal) string {
	switch {
	case len(r.Reason) > 17 && r.Reason[:17] == "Illegal capacity ":
		if len(r.Reason) > 21 && r.Reason[:21] == "Illegal capacity sum " {
			return "make the capacities of " + r.Queue + "'s children add up to 100"
		}
		return "write a capacity from 0 to 100"
	case len(r.Reason) > 15 && r.Reason[:15] == "Illegal weight=":
		return "write a weight from 0 to 10000, e.g. 2w"
	case len(r.Reason) > 13 && r.Reason[:13] == "Parent queue ":
		return "give all children of " + r.Queue + " percentages, or all of them weights"
	}
	return "write the capacity as a number from 0 to 100 (a percentage of the parent), or a weight such as 2w"
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
