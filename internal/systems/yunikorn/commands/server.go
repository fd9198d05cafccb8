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
	timeout time.Duration
	caFile  string
	headers []string
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
	f.StringVar(&s.server.caFile, "server-ca-file", "", "with --server https://...: a PEM file of the CAs that sign the scheduler's (or its proxy's) certificate")
	f.StringArrayVar(&s.server.headers, "server-header", nil, "with --server: a header for every request, 'Name: value' (repeatable), e.g. for a proxy's token")
}

func (s *streams) runningOptions() running.Options {
	return running.Options{Timeout: s.server.timeout, MaxSize: s.env.MaxInput(), CAFile: s.server.caFile, Headers: s.server.headers, Seen: s.env.Seen()}
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
		if s.server.timeout <= 0 {
			return nil, nil, clikit.Usage("--server-timeout %s: give a positive time limit", s.server.timeout)
		}
		data, target, err := running.Config(context.Background(), u, s.runningOptions())
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
