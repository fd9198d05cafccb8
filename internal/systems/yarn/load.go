package yarn

import (
	"errors"
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/engine"
)

// Load reads the ResourceManager's files a question is asked over into
// the Setup that answers it (audit.Loader): configuration files and at
// most one allocation file. A file Hadoop refuses to load is an
// *audit.Refused with the findings that say why; a setup that answers
// nothing (no queues, another scheduler runs, capacities Hadoop refuses,
// ${...} settings) is an error that says so.
func (Sys) Load(ins []*engine.Input, opts engine.Options) (audit.Model, error) {
	s, err := LoadSetup(ins)
	if err != nil {
		return nil, err
	}
	s.appName, s.appNameGiven = opts.Value(AppNameValue), opts.Value(AppNameValue+"-set") == "true"
	return s, nil
}

// LoadSetup is Load with its own type.
func LoadSetup(ins []*engine.Input) (*Setup, error) {
	var confs []*Conf
	var fs *CS
	var names []string
	refused := func(in *engine.Input, why string) error {
		rep, _ := Sys{}.Lint(&engine.Input{Path: in.Path, Data: in.Data, Explicit: true}, engine.Options{})
		return &audit.Refused{File: in.Path, Why: why, Command: "aclint lint -f " + in.Given(), Findings: rep.Findings,
			Sources: map[string][]string{in.Path: strings.Split(string(in.Data), "\n")}, By: "YARN"}
	}
	var ruleFiles []*RuleFile
	for _, in := range ins {
		names = append(names, in.Path)
		if t := strings.TrimSpace(string(in.Data)); strings.HasPrefix(t, "{") {
			// a JSON mapping rules file, read when mapping-rule-json-file
			// names it
			ruleFiles = append(ruleFiles, &RuleFile{Path: in.Path, Data: string(in.Data)})
			continue
		}
		if IsAllocationFile(in.Data) {
			if fs != nil {
				return nil, fmt.Errorf("%s: a second allocation file; the Fair Scheduler reads one", in.Path)
			}
			tree, err := ReadFS(in.Path, in.Data)
			if err != nil {
				var fe *FileError
				if errors.As(err, &fe) && !fe.Refused {
					return nil, err
				}
				return nil, refused(in, "the Fair Scheduler refuses this file, so it answers no question")
			}
			fs = tree
			continue
		}
		c, err := ReadConf(in.Path, in.Data)
		var fe *FileError
		if errors.As(err, &fe) && fe.Refused {
			return nil, refused(in, "Hadoop refuses to load this file, so it answers no question")
		}
		if err != nil {
			return nil, err
		}
		confs = append(confs, c)
	}
	var setup *Setup
	if fs != nil {
		setup = NewFSSetup(fs, confs)
	} else {
		setup = NewSetup(confs)
	}
	setup.RuleFiles = ruleFiles
	if len(ruleFiles) > 0 {
		fv, ok := setup.Conf.Get(ruleJSONFileKey)
		for _, rf := range ruleFiles {
			if setup.FS || !ok || setup.ruleFile(javaTrim(fv.Value)) != rf {
				return nil, fmt.Errorf("%s: a JSON file, but no %s names it: the ResourceManager would not read it; give the JSON mapping rules file that capacity-scheduler.xml names", rf.Path, ruleJSONFileKey)
			}
		}
	}
	if err := refusedAtStart(setup, names); err != nil {
		return nil, err
	}
	return setup, nil
}

// refusedAtStart is why the ResourceManager would not start with the
// setup, said with what to do; nil when it starts.
func refusedAtStart(setup *Setup, names []string) error {
	switch why := setup.Refused(); {
	case why == NoQueuesReason:
		return fmt.Errorf("%s: %s; set it in capacity-scheduler.xml (or give the file that does)", strings.Join(names, ", "), why)
	case strings.HasPrefix(why, SchedulerPrefix):
		return fmt.Errorf("%s; give the file of the scheduler that runs", why)
	case strings.HasPrefix(why, SubstitutionPrefix):
		return fmt.Errorf("%s; write the value itself, or a chain of at most 20 steps (aclint lint -f %s says where)", why, strings.Join(names, " -f "))
	case strings.HasPrefix(why, CapacityPrefix):
		return fmt.Errorf("%s: %s; fix the capacities (aclint lint -f %s says where)", strings.Join(names, ", "), why, strings.Join(names, " -f "))
	case why != "":
		return fmt.Errorf("%s (write the settings into the file itself, or give the file they come from)", why)
	}
	if !setup.FS {
		// the ResourceManager does not start with placement rules it
		// cannot use (CSMappingPlacementRule.initialize)
		if _, r := setup.StartPlacement(); r != nil {
			where := strings.Join(names, ", ")
			if r.At != nil {
				where = fmt.Sprintf("%s:%d:%d", r.At.File, r.At.ValuePos.Line, r.At.ValuePos.Col)
			}
			return fmt.Errorf("%s: the Capacity Scheduler refuses to start with these placement rules: %q, so they answer no question; fix the rule (aclint lint -f %s says where)", where, r.Message, strings.Join(names, " -f "))
		}
	}
	return nil
}
