package cli

import (
	"github.com/aclint/aclint/internal/clikit"

	"github.com/spf13/cobra"
)

func newDiffCmd(s *streams) *cobra.Command {
	c := &cobra.Command{
		Use:   "diff OLD NEW",
		Short: "Show what a config change grants or takes away: who gains or loses access to what",
		Args:  clikit.ExactArgs(2, "diff needs OLD NEW"),
	}
	p := s.extend(c, "diff")
	f := c.Flags()
	f.StringArrayP("output", "o", []string{"text"}, "output format text, json or markdown (a pull-request comment), optionally FORMAT=PATH; repeatable, e.g. -o markdown=comment.md -o json=access-diff.json")
	f.Int("comment-size", clikit.DefaultCommentSize, "markdown: the most characters the comment may have (GitHub takes 65,536); past it the causes that do not fit are counted and the comment points at the full report. 0: no limit")
	f.Bool("flat", false, "text and JSON: list every (queue, subject) pair that changes, not only the ACL entries that cause them")
	f.Bool("fail-on-gain", false, "exit 1 when anyone gains access, so a pipeline can ask for approval")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		targets, err := clikit.ParseDiffOutputs(flagStrings(cmd, "output"))
		if err != nil {
			return err
		}
		commentSize := flagInt(cmd, "comment-size")
		if commentSize < 0 {
			return clikit.Usage("--comment-size %d: give the most characters the comment may have, or 0 for no limit", commentSize)
		}
		if args[0] == "-" && args[1] == "-" {
			return clikit.Usage("only one of OLD and NEW can be standard input")
		}
		old, new, err := diffQuestions(s, args)
		if err != nil {
			return err
		}
		if old == nil {
			return p.runFallback(s, cmd, args)
		}
		own, err := p.take(old)
		if err == nil {
			_, err = p.take(new)
		}
		if err != nil {
			return err
		}
		if own != nil {
			return own.Run(cmd, args)
		}
		return askDiff(s, old, new, diffAsk{args: args, targets: targets, failOnGain: flagBool(cmd, "fail-on-gain"), flat: flagBool(cmd, "flat"), commentSize: commentSize})
	}
	return c
}
