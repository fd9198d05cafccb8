package commands

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/limits"
	"github.com/aclint/aclint/internal/systems/yunikorn/running"
	"github.com/aclint/aclint/internal/systems/yunikorn/why"
)

// whyRun is one answer of aclint why: what the scheduler said, the
// answer, and the limits of the config it runs (and of the user's file).
type whyRun struct {
	ans     *why.Answer
	tracked string
	source  string         // the scheduler, as aclint prints it
	running *limits.Answer // the running config's limits; nil when not read
	file    *limits.Answer // the -f file's; nil without -f
}

func newWhyCmd(s *streams) *cobra.Command {
	var (
		server, partition, key, output string
		files                          []string
	)
	c := &cobra.Command{
		Use:   "why APP_ID --server URL [--partition P] [-f FILE]",
		Short: "Say why an application is accepted but not running: every limit that holds it, from a running scheduler",
		Long: `Ask a running YuniKorn scheduler about one application, and say whether it runs, and if not, every
limit that holds it: a user's or a group's maxapplications or maxresources, a queue's own
maxapplications or resources.max, at which queue level, the count or amount used against the
limit, the applications holding the slots, the entry of the running config that sets it (its
position in GET /ws/v1/config, and in FILE with -f) and what would free it.

aclint reads the application (GET /ws/v1/partition/P/application/ID), its user's tracked usage
(usage/user/U, which names the group each application is tracked under), that group's usage, every
queue from the application's up to root, the partition's active applications, the config it runs
and the event buffer. The scheduler's numbers decide; events (213 a queue limit, 215 a user or group
limit, 216 runnable again) only confirm, as the buffer forgets. Quantities are the scheduler's: vcore
in millicores, memory in bytes, pods and any custom resource as counts.

Exit codes: 0 it runs, completed, or is runnable now (no limit holds it: it waits for room on the
nodes); 1 it waits on a limit, is new without a request, was rejected (with the scheduler's
message) or failed; 2 no such application, a scheduler that cannot be reached or answers something
that is not YuniKorn's.`,
		Example: `  aclint why spark-etl-0042 --server http://localhost:9080
  aclint why spark-etl-0042 --server http://localhost:9080 -f deploy/yunikorn-configs.yaml -o markdown
  aclint why app-1 --server https://yunikorn.example.com --partition gpu -o json`,
		Args: clikit.ExactArgs(1, "why needs the APP_ID of one application"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := clikit.CheckOutput(output, "text", "json", "markdown"); err != nil {
				return err
			}
			if server == "" {
				return clikit.Usage("why asks a running scheduler: give its address with --server URL (as in http://yunikorn-service.yunikorn:9080)")
			}
			if err := s.checkServerTimes(); err != nil {
				return err
			}
			r, err := s.why(args[0], server, partition, files, key)
			if err != nil {
				return err
			}
			if err := writeWhy(s.env.Out(), output, r); err != nil {
				return err
			}
			if r.ans.Waiting() {
				return &clikit.ExitError{Code: clikit.ExitFail}
			}
			return nil
		},
	}
	f := c.Flags()
	f.StringVar(&server, "server", "", "the running scheduler's REST address, as in http://yunikorn-service.yunikorn:9080")
	s.serverOptionFlags(f)
	f.StringVar(&partition, "partition", "default", "the partition the application is in")
	f.StringArrayVarP(&files, "file", "f", nil, "the config in git (queue config or ConfigMaps; repeatable): also say where it sets each limit")
	f.StringVar(&key, "key", config.DefaultKey, "ConfigMap data key holding the queue config")
	f.StringVarP(&output, "output", "o", "text", "output format: text, json or markdown")
	return c
}

// why asks the scheduler and answers.
func (s *streams) why(id, server, partition string, files []string, key string) (*whyRun, error) {
	ctx := s.serverContext()
	c, err := s.client(server)
	if err != nil {
		return nil, err
	}
	r := &whyRun{source: running.Label(server)}
	app, err := c.Application(ctx, partition, id)
	var nf *running.NotFound
	if errors.As(err, &nf) {
		if app, err = finishedApp(ctx, c, partition, id, nf); err != nil {
			return nil, err
		}
		r.ans = why.Decide(why.Live{App: app})
		return r, nil
	}
	if err != nil {
		return nil, clikit.Usage("%w", err)
	}
	live := why.Live{App: app}
	if live.User, err = c.User(ctx, partition, app.User); err != nil {
		return nil, clikit.Usage("%w", err)
	}
	if live.User != nil {
		live.TrackedGroup = live.User.Groups[app.ID]
	}
	if live.TrackedGroup != "" {
		if live.Group, err = c.Group(ctx, partition, live.TrackedGroup); err != nil {
			return nil, clikit.Usage("%w", err)
		}
	}
	if live.Queues, err = c.QueuePath(ctx, partition, app.Queue); err != nil {
		return nil, clikit.Usage("the scheduler has %s in %s, but: %w", running.Short(app.ID), running.Short(app.Queue), err)
	}
	if live.Active, err = c.Applications(ctx, partition, "active"); err != nil {
		return nil, clikit.Usage("%w", err)
	}
	for _, a := range live.Active {
		if a != nil && a.ID == app.ID && !strings.EqualFold(a.Queue, app.Queue) {
			return nil, clikit.Usage("%s: the scheduler has %s in %s, and lists it active in %s: an application is in one queue", running.Label(server), running.Short(app.ID), running.Short(app.Queue), running.Short(a.Queue))
		}
	}
	events, evErr := c.Events(ctx)
	live.Events = events
	r.ans = why.Decide(live)
	r.tracked = live.TrackedGroup
	if evErr != nil {
		r.ans.Notes = append(r.ans.Notes, fmt.Sprintf("the event buffer could not be read (%v): nothing here rests on it", evErr))
	}
	if r.running, err = s.whyLimits([]string{serverMark + server}, key, partition, app); err != nil {
		return nil, err
	}
	if len(files) > 0 {
		if r.file, err = s.whyLimits(files, key, partition, app); err != nil {
			return nil, err
		}
	}
	if r.running != nil && r.running.TrackedGroup != live.TrackedGroup && (r.running.Tracked || live.TrackedGroup != "") {
		r.ans.Notes = append(r.ans.Notes, fmt.Sprintf("the scheduler tracks %s under group %q; the config it runs would track a new application of %s under %q (the groups or the config changed since it was submitted)",
			app.ID, live.TrackedGroup, app.User, r.running.TrackedGroup))
	}
	return r, nil
}

// finishedApp finds an application the partition no longer holds among
// the rejected and the completed ones; none is exit 2.
func finishedApp(ctx context.Context, c *running.Client, partition, id string, nf *running.NotFound) (*running.Application, error) {
	if strings.Contains(strings.ToLower(nf.Message), "partition") {
		return nil, clikit.Usage("%s: the scheduler at %s has no partition %s (give it with --partition)", nf.Message, running.Label(c.Server), engine.Quote(running.Short(partition)))
	}
	active := 0
	for _, state := range []string{"rejected", "completed", "active"} {
		l, err := c.Applications(ctx, partition, state)
		var inner *running.NotFound
		if errors.As(err, &inner) {
			continue
		}
		if err != nil {
			return nil, clikit.Usage("%w", err)
		}
		for _, a := range l {
			if a != nil && a.ID == id && state != "active" {
				return a, nil
			}
		}
		if state == "active" {
			active = len(l)
		}
	}
	return nil, clikit.Usage("the scheduler at %s has no application %s in partition %s, active, rejected or completed (%d active %s); an application the shim removed is forgotten at once, so one that ended may be gone",
		running.Label(c.Server), engine.Quote(running.Short(id)), running.Short(partition), active, clikit.Plural(active, "application", "applications"))
}

// whyLimits reads a config (the running one, or the user's) and answers
// its limits for the application's user, groups and queue, as the
// scheduler's user and group manager applies them.
func (s *streams) whyLimits(files []string, key, partition string, app *running.Application) (*limits.Answer, error) {
	l, err := load(s, files, key, nil)
	if err != nil {
		return nil, err
	}
	part := l.Config.Partition(partition)
	if part == nil {
		return nil, nil
	}
	a, err := limits.New(l.Config).Answer(limits.Request{Partition: part, Queue: app.Queue, User: app.User, Groups: app.Groups})
	if err != nil {
		// a queue the config does not have (created by placement since):
		// the limits are read from the scheduler's numbers alone
		return nil, nil
	}
	return a, nil
}
