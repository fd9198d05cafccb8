package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/aclint/aclint/internal/clikit"
	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/fix"
	"github.com/aclint/aclint/internal/input"
	"github.com/aclint/aclint/internal/safewrite"
)

// fixJobs fixes every input whose system fixes (engine.Fixer). With write it
// rewrites the files (safewrite.Fix: owner and mode kept, a file changed
// since it was read refused) and says what it fixed on stderr; without, it
// prints the fixes as a unified diff. It returns the lint of each fixed
// content, by input.
func fixJobs(s *streams, jobs []lintJob, o *lintOptions) (map[*engine.Input]*engine.Report, error) {
	out := map[*engine.Input]*engine.Report{}
	for _, j := range jobs {
		fx, ok := j.sys.(engine.Fixer)
		if !ok {
			// said, never an exit 1 with nothing printed
			flag := "--diff"
			if o.fix {
				flag = "--fix"
			}
			fmt.Fprintf(s.err, "aclint: %s: %s has no fixes, so %s changes nothing there; 'aclint lint -f %s' lists its findings\n",
				engine.Printable(j.in.Path), j.sys.Name(), flag, engine.Printable(j.in.Path))
			continue
		}
		file := j.in.Path
		set, err := o.files.forFile(file)
		if err != nil {
			return nil, err
		}
		if set.Ignored(file) {
			continue
		}
		if file == "<stdin>" && o.fix {
			return nil, clikit.Usage("--fix cannot rewrite standard input; use --diff to get a patch")
		}
		var read safewrite.Read
		if file != "<stdin>" && o.fix {
			info, err := os.Stat(file)
			if err != nil {
				return nil, clikit.Usage("%s: %w", file, err)
			}
			raw, err := input.ReadFile(file, s.maxInput, s.seen)
			if err != nil {
				return nil, clikit.Usage("%s: %w", file, err)
			}
			if !bytes.Equal(raw, j.in.Data) {
				return nil, clikit.Usage("%s: not fixed: the file changed since aclint read it; run aclint again", file)
			}
			read = safewrite.Read{Data: raw, Info: info}
		}
		res, err := fx.Fix(j.in, o.engineOptions(s), set.WithRules(o.rules).Apply, o.unsafe)
		if err != nil {
			if !j.in.Explicit {
				continue // not a config of the system after all: nothing to fix
			}
			return nil, clikit.Usage("%w", err)
		}
		out[j.in] = res.Report
		if res.Refused != "" {
			fmt.Fprintf(s.err, "aclint: %s: not fixed: %s\n", file, res.Refused)
			continue
		}
		reportLeft(s, file, res.Left, o.unsafe, res.NotEditable)
		if o.fix && res.Applied > 0 {
			if err := safewrite.Fix(file, read, res.Content, safewrite.FixOptions{HardLinks: o.hardLinks}); err != nil {
				return nil, clikit.Usage("%w", err)
			}
			fmt.Fprintf(s.err, "aclint: %s: applied %d %s\n", file, res.Applied, clikit.Plural(res.Applied, "fix", "fixes"))
		}
		if o.diff {
			fmt.Fprint(s.out, fix.Diff(filepath.ToSlash(file), j.in.Data, res.Content))
		}
	}
	return out, nil
}
