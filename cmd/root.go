// Package cmd holds aclint's cobra commands: flags, wiring and output. The
// decisions themselves live in pkg/.
package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/aclint/aclint/pkg/config"
	"github.com/aclint/aclint/pkg/mesos"
	"github.com/aclint/aclint/pkg/ytsaurus"
)

// Exit codes are part of the interface.
const (
	ExitOK    = 0 // lint: nothing reached --fail-on; check: allowed
	ExitFail  = 1 // lint: a finding reached --fail-on; check: denied
	ExitUsage = 2 // usage, I/O or input errors; check: the question has no answer
)

// exitError carries an exit code out of a command. A message, when set, is
// printed as "aclint: <msg>".
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func usageErr(format string, args ...any) error {
	return &exitError{code: ExitUsage, msg: fmt.Sprintf(format, args...)}
}

type streams struct {
	in       io.Reader
	out, err io.Writer
}

// NewRoot builds the aclint command tree, for Execute and for generating
// documentation (man pages, completion).
func NewRoot(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	s := &streams{in: stdin, out: stdout, err: stderr}
	root := &cobra.Command{
		Use:   "aclint",
		Short: "Lint YuniKorn queue ACLs and answer access questions exactly as YuniKorn does",
		Long: `aclint lints Apache YuniKorn queue configs (queues.yaml, raw or inside a ConfigMap)
and answers "can this user submit to this queue, and why?" with the decision the
scheduler itself would make.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	// --version prints what `aclint version` prints
	ver, commit := buildInfo()
	if commit == "" {
		commit = "unknown"
	}
	root.Version = ver
	root.SetVersionTemplate(fmt.Sprintf("aclint %s (commit %s)\n", ver, commit))
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageErr("%v\nrun '%s --help' for usage", err, c.CommandPath())
	})
	root.AddCommand(newLintCmd(s), newCheckCmd(s), newPlaceCmd(s), newWhoCanCmd(s), newAccessCmd(s), newMatrixCmd(s), newDiffCmd(s), newMesosCmd(s), newYTCmd(s), newRulesCmd(s), newVersionCmd(s))
	return root
}

// Execute runs aclint with args and returns the exit code.
func Execute(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := NewRoot(stdin, stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintf(stderr, "aclint: %s\n", ee.msg)
		}
		return ee.code
	}
	fmt.Fprintf(stderr, "aclint: %v\n", err)
	return ExitUsage
}

// useColor decides --color auto|always|never, honouring NO_COLOR for auto.
func useColor(mode string, w io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		if os.Getenv("NO_COLOR") != "" { // no-color.org: set and not empty
			return false, nil
		}
		if f, ok := w.(*os.File); ok {
			return isatty.IsTerminal(f.Fd()) && os.Getenv("TERM") != "dumb", nil
		}
		return false, nil
	}
	return false, usageErr("invalid --color %q: use auto, always or never", mode)
}

// loadInputs reads the YuniKorn queue configs named by paths; -v tells
// about skipped files. A file that is Mesos ACLs is refused with the
// command that checks it.
func loadInputs(s *streams, paths []string, key string, verbose bool) ([]*config.Document, error) {
	var mesosFile string
	opts := inputOptions(s, key, verbose)
	var ytFile string
	opts.Claim = func(p string, data []byte, explicit bool) bool {
		switch {
		case explicit && mesos.Detect(data) && mesosFile == "":
			mesosFile = p
		case explicit && ytsaurus.Detect(data) && ytFile == "":
			ytFile = p
		default:
			return false
		}
		return true
	}
	var docs []*config.Document
	var absent []*config.KeyAbsentError
	for _, p := range paths {
		found, err := config.Load(p, opts)
		var ka *config.KeyAbsentError
		if errors.As(err, &ka) {
			// YuniKorn merges its two ConfigMaps key by key: the key may
			// come from the other one
			absent = append(absent, ka)
			continue
		}
		if err != nil {
			return nil, usageErr("%v", err)
		}
		if mesosFile != "" {
			return nil, usageErr("%s holds Mesos ACLs, not a YuniKorn queue config: use `aclint lint` or `aclint mesos check -f %s ACTION`", mesosFile, mesosFile)
		}
		if ytFile != "" {
			return nil, usageErr("%s is a YTsaurus tree, not a YuniKorn queue config: use `aclint lint` or `aclint yt check -f %s USER PERMISSION PATH`", ytFile, ytFile)
		}
		if len(found) == 0 {
			return nil, usageErr("%s: no queue configs found (files need a top-level partitions key, or a ConfigMap with a %s key)", p, opts.Key)
		}
		docs = append(docs, found...)
	}
	if len(absent) > 0 {
		return keyAbsent(s, docs, absent)
	}
	return docs, nil
}

// keyAbsent settles inputs where yunikorn-configs or yunikorn-defaults lacks
// the queue config key, as YuniKorn's key-by-key merge does: the other
// ConfigMap's key is used; when both ConfigMaps were given and neither has
// it, the config is empty and the built-in default applies; when only one
// was given, the other one's content is unknown.
func keyAbsent(s *streams, docs []*config.Document, absent []*config.KeyAbsentError) ([]*config.Document, error) {
	seen := map[string]bool{}
	for _, ka := range absent {
		for _, n := range ka.ConfigMaps {
			seen[n] = true
		}
	}
	for _, d := range docs {
		seen[d.ConfigMap] = true
	}
	if len(docs) > 0 {
		if len(docs) == 1 {
			docs[0].Settings = config.MergeSettings(docs, absent)
		}
		for _, ka := range absent {
			fmt.Fprintf(s.err, "aclint: %s: ConfigMap %s has no %s key: the queue config comes from %s, as YuniKorn merges the two ConfigMaps key by key\n",
				ka.Path, strings.Join(ka.ConfigMaps, ", "), ka.Key, docs[len(docs)-1].Describe())
		}
		return docs, nil
	}
	if seen[config.ConfigsConfigMap] && seen[config.DefaultsConfigMap] {
		return []*config.Document{config.AbsentKeyDocument(absent)}, nil
	}
	ka := absent[0]
	other := config.DefaultsConfigMap
	if seen[config.DefaultsConfigMap] {
		other = config.ConfigsConfigMap
	}
	return nil, usageErr("%s: ConfigMap %s has no %s key: YuniKorn merges it with %s key by key and takes the queue config from there; pass that ConfigMap too (-f %s.yaml), e.g. from: kubectl get configmap %s -o yaml",
		ka.Path, strings.Join(ka.ConfigMaps, ", "), ka.Key, other, other, other)
}

func inputOptions(s *streams, key string, verbose bool) config.LoadOptions {
	if key == "" {
		key = config.DefaultKey
	}
	opts := config.LoadOptions{Key: key, Stdin: s.in}
	if verbose {
		opts.Skip = func(p, reason string) { fmt.Fprintf(s.err, "aclint: skipping %s: %s\n", p, reason) }
	}
	return opts
}

// The systems lint reads; auto tells them apart by content.
const (
	systemAuto     = "auto"
	systemYuniKorn = "yunikorn"
	systemMesos    = "mesos"
	systemYTsaurus = "ytsaurus"
)

// lintInput is one file to lint: a YuniKorn queue config, Mesos ACLs or a
// YTsaurus tree.
type lintInput struct {
	yunikorn *config.Document
	mesos    *mesos.Document
	yt       *ytsaurus.Document
}

func (in lintInput) file() string {
	switch {
	case in.mesos != nil:
		return in.mesos.File
	case in.yt != nil:
		return in.yt.File
	}
	return in.yunikorn.File
}

// loadLintInputs reads every input of lint: with --system auto, a file is
// Mesos ACLs or a YTsaurus tree when its content says so (a JSON object
// with Mesos ACL keys; a document with a top-level nodes key, or the JSON
// list of a node's ACEs), and directories are also searched for such .json
// files.
func loadLintInputs(s *streams, paths []string, key string, verbose bool, system string) ([]lintInput, error) {
	opts := inputOptions(s, key, verbose)
	var claimed []lintInput
	switch system {
	case systemAuto, systemMesos, systemYTsaurus:
		opts.ClaimExts = []string{".json"}
		opts.ClaimOnly = system != systemAuto
		opts.Claim = func(p string, data []byte, explicit bool) bool {
			switch {
			case system == systemMesos && explicit || system != systemYTsaurus && mesos.Detect(data):
				claimed = append(claimed, lintInput{mesos: mesos.Parse(p, data)})
			case system == systemYTsaurus && explicit || system != systemMesos && ytsaurus.Detect(data):
				claimed = append(claimed, lintInput{yt: ytsaurus.Parse(p, data)})
			default:
				return false
			}
			return true
		}
	case systemYuniKorn:
	default:
		return nil, usageErr("invalid --system %q: use auto, yunikorn, mesos or ytsaurus", system)
	}
	var out []lintInput
	var seen []os.FileInfo
	done := map[string]bool{}
	for _, p := range paths {
		// the same file named twice (or through a link) is linted once
		if p != "-" {
			if fi, err := os.Stat(p); err == nil {
				dup := false
				for _, o := range seen {
					dup = dup || os.SameFile(o, fi)
				}
				if dup {
					if verbose {
						fmt.Fprintf(s.err, "aclint: skipping %s: given more than once\n", p)
					}
					continue
				}
				seen = append(seen, fi)
			}
		}
		claimed = claimed[:0:0]
		found, err := config.Load(p, opts)
		var ka *config.KeyAbsentError
		if errors.As(err, &ka) {
			// the common yunikorn-configs: no queue config to lint, but its
			// other settings (the admission controller's) are
			fmt.Fprintf(s.err, "aclint: %s: ConfigMap %s has no %s key, so it holds no queue config to lint (YuniKorn takes the key from %s); its other settings are linted\n",
				ka.Path, strings.Join(ka.ConfigMaps, ", "), ka.Key, config.DefaultsConfigMap)
			out = append(out, lintInput{yunikorn: config.SettingsDocument(ka)})
			continue
		}
		if err != nil {
			return nil, usageErr("%v", err)
		}
		if len(found) == 0 && len(claimed) == 0 {
			queues := "queue configs need a top-level partitions key, or a ConfigMap with a " + opts.Key + " key"
			switch system {
			case systemMesos:
				return nil, usageErr("%s: no Mesos ACL files found (JSON objects with Mesos ACL kinds as keys; directories are searched for .json files)", p)
			case systemYTsaurus:
				return nil, usageErr("%s: no YTsaurus trees found (documents with a top-level nodes key, or the JSON list of a node's ACEs)", p)
			case systemAuto:
				return nil, usageErr("%s: no queue configs, Mesos ACL files or YTsaurus trees found (%s; Mesos ACL files are JSON objects with ACL kinds as keys; YTsaurus trees have a top-level nodes key)", p, queues)
			}
			return nil, usageErr("%s: no queue configs found (%s)", p, queues)
		}
		var ins []lintInput
		for _, d := range found {
			ins = append(ins, lintInput{yunikorn: d})
		}
		ins = append(ins, claimed...)
		// a directory's files in path order, whichever system they are for
		sort.SliceStable(ins, func(i, j int) bool { return ins[i].file() < ins[j].file() })
		for _, in := range ins {
			// a file reached again through a directory is linted once
			key := filepath.Clean(in.file())
			if in.yunikorn != nil {
				key += "\x00" + in.yunikorn.ConfigMap + "\x00" + in.yunikorn.Key
			}
			if done[key] {
				continue
			}
			done[key] = true
			out = append(out, in)
		}
	}
	return out, nil
}
