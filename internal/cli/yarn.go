package cli

import (
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yarn"
)

// loadYarn reads the files a question is asked over, each as given, and
// loads them (yarn.LoadSetup); a setup Hadoop refuses is exit 2, showing
// why.
func loadYarn(s *streams, files []string) (*yarn.Setup, error) {
	var ins []*engine.Input
	for _, file := range files {
		name, data, err := s.source(file)
		if err != nil {
			return nil, usageErr("%w", err)
		}
		ins = append(ins, &engine.Input{Path: name, Data: data, Explicit: true, Arg: file})
	}
	m, err := (&asked{sys: yarn.Sys{}, ins: ins}).load(engine.Options{})
	if err != nil {
		return nil, err
	}
	return m.(*yarn.Setup), nil
}

// yarnFiles reports whether the files a question names are YARN's
// (capacity-scheduler.xml, an allocation file, yarn-site.xml): the audits
// YARN does not answer through internal/audit yet (access, matrix, diff)
// then answer as YARN does. The files are read once: what is read here
// is read again from memory.
func (s *streams) yarnFiles(files []string) (bool, error) {
	q, err := s.question(files)
	return q != nil && q.sys.Name() == yarn.System, err
}

// yarnAuditSetup reads the YARN files of an audit over every queue
// (access, matrix): YARN has one partition, and the Capacity Scheduler's
// answers all hang on yarn.acl.enable, so without it what says nothing.
func yarnAuditSetup(s *streams, a auditFlags, what string) (*yarn.Setup, error) {
	if a.partition != "" && a.partition != "default" {
		return nil, usageErr("YARN queues have no partitions: --partition default, or none (got %q)", a.partition)
	}
	setup, err := loadYarn(s, a.files)
	if err != nil {
		return nil, err
	}
	if !setup.FS && !setup.Known {
		return nil, usageErr("%s depends on yarn.acl.enable (false by default: everyone everywhere): %s", what, setup.EnableHint())
	}
	return setup, nil
}
