package cmd

import (
	"github.com/aclint/aclint/pkg/yunikorn"
	"io"

	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aclint/aclint/pkg/acl"
	"github.com/aclint/aclint/pkg/config"
	"github.com/aclint/aclint/pkg/lint"
	"github.com/aclint/aclint/pkg/placement"
	"github.com/aclint/aclint/pkg/report"
)

func newCheckCmd(s *streams) *cobra.Command {
	var (
		files               []string
		groups, action, key string
		output              string
		quiet, explain      bool
		resolvers           resolverFlags
		tags                []string
		podFile, nsFile     string
	)
	c := &cobra.Command{
		Use:   "check PARTITION QUEUE USER",
		Short: "Answer whether USER may submit to (or administer) QUEUE, and which ACL entry decides it",
		Long: `Answer an access question exactly as YuniKorn decides it: submit access comes from
submitacl or adminacl of the queue or any ancestor, admin access from adminacl of
the queue or any ancestor. The answer names the ACL entry that granted access, or
lists every ACL consulted up to root when access is denied.

Without -f, ./queues.yaml is used when present, otherwise YuniKorn's built-in
default config. -f may be given twice for the yunikorn-defaults and
yunikorn-configs ConfigMaps; they are merged as YuniKorn merges them.

Without --groups, the user's groups come from the partition's usergroupresolver,
as they do in YuniKorn for requests that carry no groups.

A queue that does not exist is answered only when a placement rule creates exactly
it for this request. The request's tags (--tag namespace=team-a, or --pod with
--namespace, which read them as the Kubernetes shim does) decide what tag rules
create; without them, a queue only a tag rule creates is not answered, and the error
names the tags that would create it.

Exit codes: 0 allowed, 1 denied, 2 error (a config YuniKorn rejects, unknown
partition or queue, usage).`,
		Example: `  aclint check -f queues.yaml default root.prod.etl alice --groups data-eng
  aclint check -f yunikorn-defaults.yaml -f yunikorn-configs.yaml default root.dev bob --action admin
  aclint check -f queues.yaml default root.teams.team-a alice --tag namespace=team-a --tag namespace.parentqueue=root.teams`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 3 {
				return usageErr("check needs PARTITION QUEUE USER, got %d argument(s)\nrun 'aclint check --help' for usage", len(args))
			}
			return nil
		},
		ValidArgsFunction: partitionQueueArgs(true),
		RunE: func(cmd *cobra.Command, args []string) error {
			act, err := acl.ParseAction(action)
			if err != nil {
				return usageErr("invalid --action: %w", err)
			}
			if err := checkOutput(output, "text", "json"); err != nil {
				return err
			}
			cfg, notes, err := loadPolicyConfig(s, files, key)
			if err != nil {
				return err
			}
			q := acl.Query{Partition: args[0], Queue: args[1], User: args[2], Action: act}
			if err := resolvers.subject(cmd, &q, groups); err != nil {
				return err
			}
			if q.Tags, err = requestTags(tags, podFile, nsFile); err != nil {
				return err
			}
			d, err := newPolicy(cfg).Decide(q)
			if err != nil {
				return answerErr(err)
			}
			d.Notes = append(notes, d.Notes...)
			return writeVerdict(s, verdict{ok: d.Allowed,
				text: func(w io.Writer) error { return writeDecisionText(w, d, explain) },
				json: func() any { return decisionJSON(d) }}, output, quiet)
		},
	}
	f := c.Flags()
	f.StringArrayVarP(&files, "file", "f", nil, "queue config or ConfigMap file, or - for standard input (repeatable; default ./queues.yaml)")
	f.StringVar(&groups, "groups", "", "comma-separated groups as the request carries them, used exactly as given")
	f.StringVar(&action, "action", "submit", "access to check: submit or admin")
	f.StringVarP(&output, "output", "o", "text", "output format: text or json")
	f.BoolVarP(&quiet, "quiet", "q", false, "print nothing; answer with the exit code only")
	f.StringVar(&key, "key", config.DefaultKey, "ConfigMap data key holding the queue config")
	f.StringArrayVar(&tags, "tag", nil, "a tag of the request KEY=VALUE, e.g. namespace=team-a (repeatable); decides what tag rules create")
	f.StringVar(&podFile, "pod", "", "take the request's tags from a pod (or workload) manifest, as the Kubernetes shim does")
	f.StringVar(&nsFile, "namespace", "", "with --pod: the pod's namespace manifest, for its yunikorn.apache.org annotations")
	f.BoolVar(&explain, "explain", false, "also show how the groups were found (for LDAP: the filter sent and each memberOf value)")
	resolvers.register(c)
	return c
}

// maxRefusalErrors is how many errors a refused config shows.
const maxRefusalErrors = 10

// loadPolicyConfig finds the config an access question is asked against and
// refuses one that YuniKorn rejects.
func loadPolicyConfig(s *streams, files []string, key string) (*config.Config, []string, error) {
	return loadAcceptedConfig(s, files, key, nil)
}

// loadAcceptedConfig is loadPolicyConfig; errors for which tolerate is true
// do not refuse the config (place answers for a freshly started scheduler,
// which runs a partition whose placement rules cannot be built).
func loadAcceptedConfig(s *streams, files []string, key string, tolerate func(lint.Finding) bool) (*config.Config, []string, error) {
	_, cfg, notes, err := loadAccepted(s, files, key, tolerate)
	return cfg, notes, err
}

// loadAccepted is loadAcceptedConfig that also returns the documents read.
func loadAccepted(s *streams, files []string, key string, tolerate func(lint.Finding) bool) ([]*config.Document, *config.Config, []string, error) {
	var docs []*config.Document
	if len(files) == 0 {
		if _, err := os.Stat("queues.yaml"); err == nil {
			files = []string{"queues.yaml"}
		} else {
			fmt.Fprintln(s.err, "aclint: no -f given and no ./queues.yaml: using YuniKorn's built-in default config")
			docs = []*config.Document{config.DefaultDocument()}
		}
	}
	if docs == nil {
		var err error
		if docs, err = loadInputs(s, files, key, false); err != nil {
			return nil, nil, nil, err
		}
	}
	cfg, notes, empty, errs := yunikorn.Accepted(docs, tolerate)
	if empty != "" {
		msg := empty + ": YuniKorn uses its built-in default config, where everyone may submit"
		fmt.Fprintln(s.err, "aclint: "+msg)
		notes = append(notes, msg)
	}
	if len(errs) > 0 {
		doc := cfg.Doc
		var b strings.Builder
		// the first errors say what is wrong; a config of 5,000 errors
		// must not print them all here (aclint lint lists every one)
		shown := errs
		if len(shown) > maxRefusalErrors {
			shown = shown[:maxRefusalErrors]
		}
		_ = report.Text(&b, shown, report.Sources{doc.File: doc.Lines()}, false)
		if more := len(errs) - len(shown); more > 0 {
			fmt.Fprintf(&b, "... and %d more %s\n", more, plural(more, "error", "errors"))
		}
		return nil, nil, nil, usageErr("%s: YuniKorn rejects this config, so it answers no access question; run 'aclint lint' for details:\n%s", doc.Describe(), strings.TrimRight(b.String(), "\n"))
	}
	return docs, cfg, notes, nil
}

// newPolicy prepares a config for access questions, with YuniKorn's
// placement deciding whether a queue that does not exist would be created.
func newPolicy(cfg *config.Config) *acl.Policy {
	p := acl.NewPolicy(cfg)
	p.SetCreator(placement.New(cfg, p))
	return p
}
