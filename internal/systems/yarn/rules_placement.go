package yarn

import (
	"fmt"
	"strings"

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
		st := s.startPlacement()
		pl, r := st.pl, st.refused
		if !st.ok || r == nil || pl.Unknown != "" || strings.HasPrefix(r.Message, substPrefix) {
			return // a ${...} chain too deep: yarn-substitution-too-deep says so
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

const (
	rulePlacementUnreachable = "yarn-placement-unreachable"
	rulePlacementNeverPlaces = "yarn-placement-never-places"
)

// ruleRulePlacementUnreachable is the rule yarn-placement-unreachable.
func ruleRulePlacementUnreachable() *engine.Rule {
	return register(&engine.Rule{
		Name:     rulePlacementUnreachable,
		Severity: engine.Warning,
		Summary:  "Capacity Scheduler mapping rules after one that takes every application: they are never read",
		Doc: "`CSMappingPlacementRule` runs the mapping rules in order and stops at the first that places or\n" +
			"rejects. A rule that matches every user (`u:%user:...`, a JSON rule matching `*`) and places in a\n" +
			"leaf queue that exists, or rejects, ends every placement there: the rules after it are never read,\n" +
			"and whatever they were meant to do for their users does not happen. (The Fair Scheduler refuses\n" +
			"such a policy at start: `yarn-fs-refused`.)",
		Bad: csExample(
			CSPrefix+"root.queues", "etl,default",
			QueueMappingKey, "u:%user:root.default,g:etl:root.etl"),
		Good: csExample(
			CSPrefix+"root.queues", "etl,default",
			QueueMappingKey, "g:etl:root.etl,u:%user:root.default"),
	}, func(s *state, report reporter) {
		pl, ok := s.placementRules()
		if !ok {
			return
		}
		views := pl.Views()
		for i, v := range views {
			if v.Match != "all" || i == len(views)-1 {
				continue
			}
			what := ""
			switch {
			case v.Action == "reject":
				what = "rejects every application"
			case v.Action == "place" && !strings.Contains(v.Target, "%"):
				if q := pl.Queue(v.Target); q != nil && !pl.Parent(q) {
					what = "places every application in " + q.Path
				}
			}
			if what == "" {
				continue
			}
			next := views[i+1]
			at, msg := s.conf.RootPos, fmt.Sprintf("placement rules after rule %d (%s) are never read: it matches every user and %s, so rule %d (%s) and those after it never run", i+1, v.Text, what, i+2, next.Text)
			if p := next.From; p != nil && p.File == s.conf.File {
				at = p.ValuePos
			}
			report(at, msg, "put the rule that takes everyone last, or narrow it to the users it is for")
			return
		}
	})
}

// placementRules are the Capacity Scheduler's rules of the file linted,
// when they start (yarn-placement-refused reports those that do not).
func (s *state) placementRules() (*CSPlacement, bool) {
	st := s.startPlacement()
	return st.pl, st.ok && st.refused == nil && st.pl.Unknown == ""
}

// startPlacement reads the placement rules once per lint, when the file is
// a Capacity Scheduler's whose tree starts (the tree's own refusals come
// first).
func (s *state) startPlacement() *placementStart {
	s.startOnce.Do(func() {
		if s.cs.FS || s.rm || len(s.conf.Unknown) > 0 || len(s.cs.Unknown) > 0 || s.cs.Truncated {
			return
		}
		setup := s.schedulerSetup()
		if _, ok := setup.Conf.Get(RootQueuesKey); !ok || setup.CapacityRefused() != nil {
			return
		}
		s.start.pl, s.start.refused = setup.StartPlacement()
		s.start.ok = true
	})
	return &s.start
}

// ruleRulePlacementNeverPlaces is the rule yarn-placement-never-places.
func ruleRulePlacementNeverPlaces() *engine.Rule {
	return register(&engine.Rule{
		Name:     rulePlacementNeverPlaces,
		Severity: engine.Warning,
		Summary:  "a Fair Scheduler placement rule whose queue can never take an application",
		Doc: "The Fair Scheduler starts with such a rule, and it places (the policy stops there), but\n" +
			"`FairScheduler.addApplication` then rejects every application it places: a `default` rule's queue is\n" +
			"a parent queue (\"is not a leaf queue\"), or would be created below a leaf queue, which cannot have\n" +
			"children. A `nestedUserQueue` whose parent rule gives a leaf queue places nothing at all: the next\n" +
			"rule always decides.",
		Bad: `<?xml version="1.0"?>
<allocations>
  <queue name="prod">
    <queue name="etl"/>
  </queue>
  <queuePlacementPolicy>
    <rule name="specified" create="false"/>
    <rule name="default" queue="prod"/>
  </queuePlacementPolicy>
</allocations>
`,
		Good: `<?xml version="1.0"?>
<allocations>
  <queue name="prod">
    <queue name="etl"/>
  </queue>
  <queuePlacementPolicy>
    <rule name="specified" create="false"/>
    <rule name="default" queue="prod.etl"/>
  </queuePlacementPolicy>
</allocations>
`,
	}, func(s *state, report reporter) {
		if !s.cs.FS || s.cs.Placement == nil || s.cs.Truncated || s.cs.Root.Path != "root" {
			return
		}
		setup := &Setup{CS: s.cs, FS: true}
		if setup.fsPlaceUnknown() != "" {
			return // a policy aclint cannot follow decides which queues exist
		}
		// the queue a rule names: a parent (rejected), or below a leaf
		why := func(path string, create bool) string {
			if q := setup.fsQueue(path); q != nil {
				if setup.fsParent(q) {
					return path + " is a parent queue, so the Fair Scheduler rejects every application it places there (\"" + path + " is not a leaf queue\")"
				}
				return ""
			}
			if !create {
				return ""
			}
			for p := path; strings.Contains(p, "."); {
				p = p[:strings.LastIndexByte(p, '.')]
				if q := setup.fsQueue(p); q != nil {
					if !setup.fsParent(q) {
						return path + " would be created below " + q.Path + ", a leaf queue, so the Fair Scheduler rejects every application it places there"
					}
					return ""
				}
			}
			return ""
		}
		for i, r := range s.cs.Placement.Rules {
			msg := ""
			switch {
			case r.Name == "default":
				if w := why(r.Queue, r.Create); w != "" {
					msg = fmt.Sprintf("placement rule %d (%s): %s", i+1, r.Text(), w)
				}
			case r.Name == "nestedUserQueue" && r.Parent != nil && r.Parent.Name == "default":
				if q := setup.fsQueue(r.Parent.Queue); q != nil && !setup.fsParent(q) {
					msg = fmt.Sprintf("placement rule %d (%s) never places: its parent rule gives %s, a leaf queue, so the next rule always decides", i+1, r.Text(), q.Path)
				}
			}
			if msg != "" {
				report(r.Pos, msg, "name a leaf queue, or a parent queue for the rules that create queues below it")
			}
		}
	})
}
