package cli

import (
	"errors"
	"io"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/aclint/aclint/internal/audit"
	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
)

func newPlaceCmd(s *streams) *cobra.Command {
	c := &cobra.Command{
		Use:   "place QUESTION...",
		Short: "Answer where the scheduler places an application, whether its queue is created, and whether the user may submit there",
	}
	p := s.extend(c, "place")
	// each system reads its own words (YuniKorn's --pod needs none)
	c.Args = cobra.ArbitraryArgs
	systemsHelp(s, c, p, placeWords)
	f := c.Flags()
	fileFlag(f)
	sharedFlag(f, "groups", func(f *pflag.FlagSet) {
		f.String("groups", "", "comma-separated groups of the user, in order: the first is the primary group")
	})
	sharedFlag(f, "queue", func(f *pflag.FlagSet) { f.String("queue", "", "the queue the application asks for (default: none)") })
	sharedFlag(f, "output", func(f *pflag.FlagSet) {
		var output string
		var quiet bool
		clikit.VerdictFlags(f, &output, &quiet, "the application, every rule's result, the queue and the submit decision")
	})
	c.RunE = func(cmd *cobra.Command, args []string) error {
		return p.answer(s, cmd, func(q *asked) error {
			return askPlace(s, cmd, q, args)
		})
	}
	return clikit.Outputs(c, "text", "json")
}

func placeWords(sys engine.System) (audit.Usage, bool) {
	if p, ok := sys.(audit.Placer); ok {
		return p.PlaceUsage(), true
	}
	return audit.Usage{}, false
}

// askPlace answers place through a system's audit.Placer: exit 0 placed,
// 1 rejected, 2 not known.
func askPlace(s *streams, cmd *cobra.Command, q *asked, words []string) error {
	pl, err := capability[audit.Placer](q, "place")
	if err != nil {
		return err
	}
	output := flagString(cmd, "output")
	if err := clikit.CheckOutput(output, "text", "json"); err != nil {
		return err
	}
	m, err := q.loadFor("place", words)
	if err != nil {
		return err
	}
	qu := audit.Question{Words: words, Queue: flagString(cmd, "queue")}
	if cmd.Flags().Changed("groups") {
		qu.Groups = clikit.ParseList(flagString(cmd, "groups"))
		if qu.Groups == nil {
			qu.Groups = []string{}
		}
	}
	ans, err := pl.Place(m, qu)
	if err != nil {
		var u *audit.UsageError
		if errors.As(err, &u) {
			return clikit.Usage("%s: %w (place %s, e.g. place -f %s %s)", q.sys.Name(), err, pl.PlaceUsage().Words, q.named(), pl.PlaceUsage().Example)
		}
		return clikit.Usage("%w", err)
	}
	return writePlacement(s, ans, output, flagBool(cmd, "quiet"))
}

// writePlacement is every place's answer, whichever system gave it.
func writePlacement(s *streams, p *audit.Placement, output string, quiet bool) error {
	out := clikit.Verdict{OK: p.Code() == 0, Code: p.Code(),
		Text: func(w io.Writer) error { return writePlaceText(w, p) },
		JSON: func() any { return placeJSON(p) }}
	return clikit.WriteVerdict(s.out, out, output, quiet)
}
