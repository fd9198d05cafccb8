package cli

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yarn"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

func newYarnCmd(s *streams) *cobra.Command {
	c := &cobra.Command{
		Use:   "yarn",
		Short: "Hadoop YARN: answer queue access questions over capacity-scheduler.xml and yarn-site.xml",
		Long: `Commands for Hadoop YARN's queue ACLs, answered offline over the ResourceManager's
files exactly as YARN decides. Lint the files with 'aclint lint' (recognised by their
yarn.scheduler.capacity. and yarn.acl keys). See docs/yarn.md.`,
	}
	c.AddCommand(newYarnCheckCmd(s))
	return group(c)
}

// loadYarn reads the files a question is asked over and refuses one Hadoop
// refuses to load, showing why.
func loadYarn(s *streams, files []string) (*yarn.Setup, error) {
	var confs []*yarn.Conf
	var fs *yarn.CS
	for _, file := range files {
		name, data, err := config.ReadSource(file, s.in)
		if err != nil {
			return nil, usageErr("%w", err)
		}
		if yarn.IsAllocationFile(data) {
			if fs != nil {
				return nil, usageErr("%s: a second allocation file; the Fair Scheduler reads one", name)
			}
			tree, err := yarn.ReadFS(name, data)
			if err != nil {
				var fe *yarn.FileError
				if errors.As(err, &fe) && !fe.Refused {
					return nil, usageErr("%w", err)
				}
				rep, _ := yarn.Sys{}.Lint(&engine.Input{Path: name, Data: data, Explicit: true}, engine.Options{})
				return nil, refusedErr(name, "the Fair Scheduler refuses this file, so it answers no question", "aclint lint "+file, rep.Findings, strings.Split(string(data), "\n"))
			}
			fs = tree
			continue
		}
		c, err := yarn.ReadConf(name, data)
		var fe *yarn.FileError
		if errors.As(err, &fe) && fe.Refused {
			rep, _ := yarn.Sys{}.Lint(&engine.Input{Path: name, Data: data, Explicit: true}, engine.Options{})
			return nil, refusedErr(name, "Hadoop refuses to load this file, so it answers no question", "aclint lint "+file, rep.Findings, strings.Split(string(data), "\n"))
		}
		if err != nil {
			return nil, usageErr("%w", err)
		}
		confs = append(confs, c)
	}
	var setup *yarn.Setup
	if fs != nil {
		setup = yarn.NewFSSetup(fs, confs)
	} else {
		setup = yarn.NewSetup(confs)
	}
	switch why := setup.Refused(); {
	case why == yarn.NoQueuesReason:
		return nil, usageErr("%s: %s; set it in capacity-scheduler.xml (or give the file that does)", strings.Join(files, ", "), why)
	case strings.HasPrefix(why, yarn.SchedulerPrefix):
		return nil, usageErr("%s; give the file of the scheduler that runs", why)
	case strings.HasPrefix(why, yarn.CapacityPrefix):
		return nil, usageErr("%s: %s; fix the capacities (aclint lint %s says where)", strings.Join(files, ", "), why, strings.Join(files, " "))
	case why != "":
		return nil, usageErr("%s (write the settings into the file itself, or give the file they come from)", why)
	}
	return setup, nil
}
