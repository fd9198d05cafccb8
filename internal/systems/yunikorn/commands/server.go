package commands

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/running"
)

// serverMark prefixes a --server URL among a command's config paths: a
// path never holds a NUL byte, so no file is taken for a server.
const serverMark = "\x00server\x00"

// serverFlags are the options of --server, shared by the commands that
// read a YuniKorn config.
type serverFlags struct {
	timeout  time.Duration
	deadline time.Duration
	caFile   string
	headers  []string
	// ctx is the run's deadline, from its first request on
	ctx context.Context
	// clients are the run's, by --server URL: each scheduler is asked
	// over one pool of connections
	clients map[string]*running.Client
}

// serverValue is --server: each URL goes among the config paths, marked.
type serverValue struct{ files *[]string }

func (v serverValue) String() string { return "" }
func (v serverValue) Type() string   { return "URL" }
func (v serverValue) Set(u string) error {
	*v.files = append(*v.files, serverMark+u)
	return nil
}

// configFlags registers -f, --key and --server with its options: where a
// command reads its YuniKorn config.
func (s *streams) configFlags(f *pflag.FlagSet, files *[]string, key *string) {
	f.StringArrayVarP(files, "file", "f", nil, "queue config or ConfigMap file, or - for standard input (repeatable; default ./queues.yaml)")
	f.StringVar(key, "key", config.DefaultKey, "ConfigMap data key holding the queue config")
	s.serverOptionFlags(f)
	f.Var(serverValue{files}, "server", "answer over the config a running YuniKorn scheduler runs: its REST address, as in http://yunikorn-service.yunikorn:9080 (GET /ws/v1/config)")
}

// serverOptionFlags registers how --server is reached.
func (s *streams) serverOptionFlags(f *pflag.FlagSet) {
	f.DurationVar(&s.server.timeout, "server-timeout", 10*time.Second, "with --server: how long one request to the scheduler may take")
	f.DurationVar(&s.server.deadline, "server-deadline", time.Minute, "with --server: how long all the requests of one run may take together")
	f.StringVar(&s.server.caFile, "server-ca-file", "", "with --server https://...: a PEM file of the CAs that sign the scheduler's (or its proxy's) certificate")
	f.StringArrayVar(&s.server.headers, "server-header", nil, "with --server: a header for every request, 'Name: value' (repeatable), e.g. for a proxy's token")
}

// checkServerTimes refuses a time limit of --server that is no limit.
func (s *streams) checkServerTimes() error {
	if s.server.timeout <= 0 {
		return clikit.Usage("--server-timeout %s: give a positive time limit", s.server.timeout)
	}
	if s.server.deadline <= 0 {
		return clikit.Usage("--server-deadline %s: give a positive time limit", s.server.deadline)
	}
	return nil
}

// serverContext is the run's deadline for every request to a scheduler,
// started by the first: one run's requests end together within
// --server-deadline, however many a scheduler's answers make it ask.
func (s *streams) serverContext() context.Context {
	if s.server.ctx == nil {
		s.server.ctx, _ = s.runningOptions().Begin(context.Background()) // the run ends with the process
	}
	return s.server.ctx
}

// client is the run's client of the scheduler at server.
func (s *streams) client(server string) (*running.Client, error) {
	if c := s.server.clients[server]; c != nil {
		return c, nil
	}
	if err := s.checkServerTimes(); err != nil {
		return nil, err
	}
	c, err := running.NewClient(server, s.runningOptions())
	if err != nil {
		return nil, clikit.Usage("%w", err)
	}
	if s.server.clients == nil {
		s.server.clients = map[string]*running.Client{}
	}
	s.server.clients[server] = c
	return c, nil
}

func (s *streams) runningOptions() running.Options {
	return running.Options{Timeout: s.server.timeout, Deadline: s.server.deadline, MaxSize: s.env.MaxInput(), CAFile: s.server.caFile, Headers: s.server.headers, Seen: s.env.Seen()}
}

// fetchServers replaces each --server among paths by the URL of the config
// it fetched, and returns those configs by that URL for the input pipeline.
// A scheduler that cannot be reached, or answers something that is not its
// config, is exit 2 with the reason.
func (s *streams) fetchServers(paths []string) ([]string, map[string][]byte, error) {
	var out []string
	var fetched map[string][]byte
	for _, p := range paths {
		u, ok := strings.CutPrefix(p, serverMark)
		if !ok {
			out = append(out, p)
			continue
		}
		c, err := s.client(u)
		if err != nil {
			return nil, nil, err
		}
		data, target, err := c.Config(s.serverContext())
		if err != nil {
			return nil, nil, clikit.Usage("%w", err)
		}
		if fetched == nil {
			fetched = map[string][]byte{}
		}
		fetched[target] = data
		out = append(out, target)
		fmt.Fprintf(s.env.Err(), "aclint: read the config the scheduler runs from %s\n", target)
	}
	return out, fetched, nil
}
