package yarn

import (
	"fmt"

	"github.com/aclint/aclint/internal/engine"
)

const rulePlacementRefused = "yarn-placement-refused"

// ruleRulePlacementRefused is the rule rulePlacementRefused.
func ruleRulePlacementRefused() *engine.Rule {
	return register(&engine.Rule{
		Name:     rulePlacementRefused,
		Severity: engine.Error,
		Summary:  "placement rules the Capacity Scheduler refuses to start with",
		Doc: "At start the Capacity Scheduler reads its placement rules (`CapacitySchedulerConfiguration.getMappingRules`)\n" +
			"and checks each one against the queue tree (`CSMappingPlacementRule.initialize`); a rule it cannot\n" +
			"read or use stops the ResourceManager. Legacy `queue-mappings` entries must be `u:USER:QUEUE` or\n" +
			"`g:GROUP:QUEUE` (\"Illegal queue mapping u:alice\", \"unknown mapping prefix x\"); JSON rules need a\n" +
			"type, a policy and a non-empty `matches` (\"Cannot match '*' for groups\"). Each rule's queue must be\n" +
			"usable: a queue written without variables must exist as a leaf (\"Target queue 'root.eng' but it's\n" +
			"not a leaf queue.\") or be creatable under a parent that allows auto creation, a leaf name must be\n" +
			"unambiguous (\"Path root 'ops' is ambiguous\"), and a path with variables (`root.users.%user`) must\n" +
			"start at a queue that exists and is not a leaf. aclint gives Hadoop's message, checked against\n" +
			"Hadoop 3.4.1's own classes (`TestPlacementVectors`).",
		Bad: csExample(
			CSPrefix+"root.queues", "eng,default",
			CSPrefix+"root.eng.queues", "etl",
			CSPrefix+"root.eng.capacity", "50",
			CSPrefix+"root.eng.etl.capacity", "100",
			CSPrefix+"root.default.capacity", "50",
			QueueMappingKey, "g:eng:root.eng"),
		Good: csExample(
			CSPrefix+"root.queues", "eng,default",
			CSPrefix+"root.eng.queues", "etl",
			CSPrefix+"root.eng.capacity", "50",
			CSPrefix+"root.eng.etl.capacity", "100",
			CSPrefix+"root.default.capacity", "50",
			QueueMappingKey, "g:eng:root.eng.etl"),
	}, func(s *state, report reporter) {
		if s.cs.FS || s.rm || len(s.conf.Unknown) > 0 || len(s.cs.Unknown) > 0 || s.cs.Truncated {
			return
		}
		setup := s.schedulerSetup()
		if _, ok := setup.Conf.Get(RootQueuesKey); !ok || setup.CapacityRefused() != nil {
			return // the tree itself is refused first
		}
		pl, r := setup.StartPlacement()
		if r == nil || pl.Unknown != "" {
			return
		}
		at := s.conf.RootPos
		msg := fmt.Sprintf("the Capacity Scheduler refuses to start with these placement rules: %q (Hadoop 3.4, CSMappingPlacementRule.initialize)", r.Message)
		if r.Rule >= 0 {
			msg = fmt.Sprintf("the Capacity Scheduler refuses to start with placement rule %d (%s): %q (Hadoop 3.4, CSMappingPlacementRule.initialize)", r.Rule+1, pl.Rules[r.Rule].Text, r.Message)
		}
		if r.At != nil {
			if r.At.File == s.conf.File {
				at = r.At.ValuePos
			} else {
				msg += fmt.Sprintf("; the value is in %s:%d:%d", r.At.File, r.At.ValuePos.Line, r.At.ValuePos.Col)
			}
		}
		report(at, msg, "map to a leaf queue that exists (its full path), or to a path under a parent that allows auto creation (auto-create-child-queue.enabled or auto-queue-creation-v2.enabled)")
	})
}
