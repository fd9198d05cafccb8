package cmd

import (
	"github.com/aclint/aclint/pkg/yunikorn"

	"github.com/aclint/aclint/pkg/config"
	"github.com/aclint/aclint/pkg/lint"
)

// lintJobRun lints one input with its system, or the documents --fix left.
func lintJobRun(j lintJob, fixed map[*lint.Input][]*config.Document, key string) (*lint.Report, error) {
	if docs, ok := fixed[j.in]; ok {
		return yunikorn.LintDocuments(docs), nil
	}
	return j.sys.Lint(j.in, lint.Options{Key: key})
}

// fixJobs applies the fixes to every YuniKorn input and returns the
// documents of the fixed contents, by input.
func fixJobs(s *streams, jobs []lintJob, files *settingsFinder, key string, write, unsafe, hardLinks bool) (map[*lint.Input][]*config.Document, error) {
	var docs []*config.Document
	owner := map[string]*lint.Input{}
	for _, j := range jobs {
		if j.sys.Name() != yunikorn.System {
			continue
		}
		ds, err := yunikorn.Documents(j.in, key)
		if err != nil {
			continue // not a queue config: nothing to fix
		}
		docs = append(docs, ds...)
		owner[j.in.Path] = j.in
	}
	docs, err := applyFixes(s, docs, files, key, write, unsafe, hardLinks)
	if err != nil {
		return nil, err
	}
	out := map[*lint.Input][]*config.Document{}
	for _, d := range docs {
		if in := owner[d.File]; in != nil {
			out[in] = append(out[in], d)
		}
	}
	return out, nil
}

// lintOptions are lint's flags, resolved against .aclint.yaml (the command
// line wins).
