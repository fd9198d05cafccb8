package commands

import (
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// completeScope completes --partition and --under from the config the
// command line names.
func completeScope(s *streams, c *cobra.Command) {
	c.RegisterFlagCompletionFunc("partition", func(cmd *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
		return configNames(s, cmd, ""), cobra.ShellCompDirectiveNoFileComp
	})
	c.RegisterFlagCompletionFunc("under", func(cmd *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
		part, _ := cmd.Flags().GetString("partition")
		return configNames(s, cmd, orDefault(part)), cobra.ShellCompDirectiveNoFileComp
	})
}

// quiet is an Env that reads nothing and says nothing: completion never
// prints an error.
type quiet struct{ clikit.Env }

func (quiet) In() io.Reader  { return strings.NewReader("") }
func (quiet) Out() io.Writer { return io.Discard }
func (quiet) Err() io.Writer { return io.Discard }

// partitionQueueArgs completes a question's words from the config: the
// first (when queue is true) from the queues of the --partition.
func partitionQueueArgs(s *streams, queue bool) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if len(args) == 0 && queue {
			part, _ := cmd.Flags().GetString("partition")
			return configNames(s, cmd, orDefault(part)), cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}

func orDefault(part string) string {
	if part == "" {
		return "default"
	}
	return part
}

// configNames reads the command's config quietly and lists its partitions
// (partition ""), or the queue paths of one partition. A config that cannot
// be read completes nothing: completion never prints an error.
func configNames(s *streams, cmd *cobra.Command, partition string) []string {
	files, _ := cmd.Flags().GetStringArray("file")
	key, _ := cmd.Flags().GetString("key")
	quiet := &streams{env: quiet{s.env}}
	l, err := loadOne(quiet, files, key, func(engine.Finding) bool { return true })
	if err != nil {
		return nil
	}
	cfg := l.Config
	var out []string
	for _, p := range cfg.Partitions {
		if partition == "" {
			out = append(out, p.CanonicalName())
			continue
		}
		if p.CanonicalName() == partition {
			p.Root.Walk(func(q *config.Queue) { out = append(out, q.Path()) })
		}
	}
	sort.Strings(out)
	return out
}
