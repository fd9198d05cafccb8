package commands

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/input"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/expect"
	"github.com/aclint/aclint/internal/systems/yunikorn/limits"
	"github.com/aclint/aclint/internal/systems/yunikorn/resolve"
)

// maxGenerated bounds a --generate snapshot: past it the file is no
// longer a starting point anyone curates.
const maxGenerated = 200000

func newTestCmd(s *streams) *cobra.Command {
	var (
		files             []string
		key, output       string
		generate, verbose bool
		quiet             bool
		under             string
		resolvers         resolverFlags
	)
	c := &cobra.Command{
		Use:   "test [FILE...]",
		Short: "Run access and placement expectations (aclint-tests.yaml) against a queue config",
		Long: `Run the cases of one or more test files. An access case states that a user (with
groups, or with the groups the resolver gives) may or may not submit to or
administer a queue; a place case states the queue an application lands in, or
that it is rejected. Each case runs through the same code as 'aclint check' and
'aclint place'.

Without FILE, ./aclint-tests.yaml is read. The config comes from the file's
config: key (relative to the test file), or from -f.

--generate writes a test file recording today's answer for every user and group
an ACL names, on every queue, for submit and admin: a snapshot to curate. It is
written to FILE (which must not exist yet) or to standard output.

Exit codes: 0 every case passed, 1 a case failed, 2 a test file with problems,
a config YuniKorn rejects, or a case with no answer (an unknown queue, a
resolver that failed).`,
		Example: `  aclint test
  aclint test team-a-tests.yaml -o junit > results.xml
  aclint test --generate -f queues.yaml aclint-tests.yaml`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := clikit.CheckOutput(output, "text", "json", "junit"); err != nil {
				return err
			}
			if generate {
				if len(args) > 1 {
					return clikit.Usage("--generate writes one file, got %d", len(args))
				}
				return generateTests(s, files, key, under, args)
			}
			if under != "" {
				return clikit.Usage("--under goes with --generate")
			}
			if len(args) == 0 {
				args = []string{expect.DefaultFile}
			}
			return runTests(s, cmd, args, files, key, output, verbose, quiet, &resolvers)
		},
	}
	f := c.Flags()
	// -f (the config, instead of the test file's config:), --key, --server
	s.configFlags(f, &files, &key)
	f.StringVarP(&output, "output", "o", "text", "output format: text, json or junit")
	f.BoolVarP(&verbose, "verbose", "v", false, "also list the cases that pass")
	f.BoolVarP(&quiet, "quiet", "q", false, "print nothing; answer with the exit code only")
	f.BoolVar(&generate, "generate", false, "write a test file with today's answers for every named user and group on every queue")
	f.StringVar(&under, "under", "", "with --generate: only this queue and the queues below it")
	resolvers.register(s, c)
	return c
}

// testRun is one test file's results.
type testRun struct {
	file    *expect.File
	results []expect.Result
}

func runTests(s *streams, cmd *cobra.Command, paths, files []string, key, output string, verbose, quiet bool, rf *resolverFlags) error {
	// every file is read and checked before any case runs: a problem in one
	// file is not hidden behind the results of another
	var parsed []*expect.File
	var problems []string
	for _, p := range paths {
		src, err := input.ReadFile(p, s.env.MaxInput(), s.env.Seen())
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == expect.DefaultFile {
				return clikit.Usage("no %s here: name a test file, or write one with 'aclint test --generate -f queues.yaml %s' (docs/test.md)", expect.DefaultFile, expect.DefaultFile)
			}
			return clikit.Usage("%w", err)
		}
		f, err := expect.Parse(p, src)
		var fe *expect.FileError
		if errors.As(err, &fe) {
			for _, pr := range fe.Problems {
				problems = append(problems, pr.Pos.String()+": "+pr.Msg)
			}
			continue
		}
		if len(files) == 0 && len(f.Config) == 0 {
			problems = append(problems, fmt.Sprintf("%s: the test file names no config: add config: queues.yaml (relative to the test file) or give -f", p))
			continue
		}
		parsed = append(parsed, f)
	}
	if len(problems) > 0 {
		return clikit.UsageBlock("the test file has problems; no case ran:", problems...)
	}
	var runs []testRun
	for _, f := range parsed {
		env, err := testEnv(s, cmd, f, files, key, rf)
		if err != nil {
			return err
		}
		run := testRun{file: f}
		for _, c := range f.Cases {
			run.results = append(run.results, env.Run(c))
		}
		runs = append(runs, run)
	}
	var n [3]int // pass, fail, error
	for _, r := range runs {
		for _, x := range r.results {
			n[outcomeIndex(x.Outcome)]++
		}
	}
	if !quiet {
		var err error
		switch output {
		case "json":
			err = clikit.WriteJSON(s.env.Out(), testsJSON(s.env, runs, n))
		case "junit":
			err = writeTestsJUnit(s.env.Out(), runs, n)
		default:
			err = writeTestsText(s.env.Out(), runs, n, verbose, s.env.WrapWidth())
		}
		if err != nil {
			return clikit.Usage("writing output: %w", err)
		}
	}
	switch {
	case n[2] > 0:
		return &clikit.ExitError{Code: clikit.ExitUsage}
	case n[1] > 0:
		return &clikit.ExitError{Code: clikit.ExitFail}
	}
	return nil
}

func outcomeIndex(o expect.Outcome) int {
	switch o {
	case expect.Fail:
		return 1
	case expect.Error:
		return 2
	}
	return 0
}

// testEnv loads the config a test file names, as check and place load it,
// and sets where groups come from: the flags, else the file's resolver:.
func testEnv(s *streams, cmd *cobra.Command, f *expect.File, files []string, key string, rf *resolverFlags) (expect.Env, error) {
	// what the test file names is the repository's word: read inside it
	root := input.RepoRoot(filepath.Dir(f.Path))
	var pre map[string][]byte
	if len(files) == 0 {
		files = f.Config
		pre = map[string][]byte{}
		for _, p := range files {
			data, err := input.ReadConfined(root, p, s.env.MaxInput(), s.env.Seen())
			if err != nil {
				return expect.Env{}, clikit.Usage("%s: config: %w", f.Path, err)
			}
			pre[p] = data
		}
	}
	access := false
	for _, c := range f.Cases {
		access = access || c.Place == nil
	}
	// like place, a file of place cases only is answered for a freshly
	// started scheduler, which runs a partition whose rules cannot be built
	var tolerate func(engine.Finding) bool
	if !access {
		tolerate = func(x engine.Finding) bool { return x.Rule == "placement-rules-unbuildable" }
	}
	l, err := loadAs(s, files, pre, key, tolerate, true)
	if err != nil {
		return expect.Env{}, err
	}
	var q acl.Query
	if err := rf.subject(cmd, &q, ""); err != nil {
		return expect.Env{}, err
	}
	if f.GroupsFile != "" && !cmd.Flags().Changed("groups-file") {
		q.Resolvers.GroupsFile, q.Resolvers.GroupsRoot = f.GroupsFile, root
	}
	if q.Resolver == nil && f.Resolver != "" {
		r, err := resolve.New(f.Resolver, q.Resolvers)
		if err != nil {
			return expect.Env{}, clikit.Usage("%s: resolver %s: %w", f.Path, f.Resolver, err)
		}
		q.Resolver = r
	}
	return expect.Env{Policy: l.Policy, Placer: l.Placer, Resolver: q.Resolver, Resolvers: q.Resolvers, Limits: limits.New(l.Config)}, nil
}
