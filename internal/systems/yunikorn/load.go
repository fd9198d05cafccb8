package yunikorn

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/input"
	"github.com/aclint/aclint/internal/systems/yunikorn/acl"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/systems/yunikorn/placement"
)

// ReadOptions says how to read the inputs of a question.
type ReadOptions struct {
	Key   string    // the ConfigMap data key; config.DefaultKey when empty
	Stdin io.Reader // read for "-"
	// MaxSize is the largest input read, and what a gzipped value may
	// inflate to (0: input.DefaultMaxSize): --max-input-size.
	MaxSize int64
	// Seen is the run's files read, where each is remembered (no output
	// of the run may replace one).
	Seen *engine.ReadSet
	// Skip is told about each file a directory search passes over (nil:
	// nothing is said); Warn about each it refuses to read.
	Skip, Warn func(path, reason string)
	// Preloaded are inputs already read, by name (a running scheduler's
	// config, fetched)
	Preloaded map[string][]byte
	// Elsewhere says which command takes a file another system
	// recognises ("acls.json holds Mesos ACLs ...: use ..."), or "": the
	// registry's Elsewhere, for a file given to a YuniKorn question.
	Elsewhere func(*engine.Input) string
	// OnePath is a question that reads the ACLs on the paths it asks
	// about (check, who-can, place, limits, test), not those of every
	// queue: the config's ACLs are then only validated for the error
	// rules, and the index parses what the question reads. Otherwise every
	// ACL is indexed while the config is checked, once, as the questions
	// over every queue (access, matrix, the report) need.
	OnePath bool
}

// InputError is an input that cannot be a YuniKorn config question: a
// missing file, a file for another system, a directory without a queue
// config, a ConfigMap whose queue config comes from one not given.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// Read reads the YuniKorn queue configs named by paths through the input
// pipeline, and settles ConfigMaps without the queue config key as
// YuniKorn's key-by-key merge does. The notes say what the merge did.
func Read(paths []string, opts ReadOptions) (docs []*config.Document, notes []string, err error) {
	ins, err := input.Read(paths, input.Options{Stdin: opts.Stdin, Skip: opts.Skip, Warn: opts.Warn, Exts: Sys{}.Extensions(), Preloaded: opts.Preloaded, MaxSize: opts.MaxSize, Seen: opts.Seen})
	if err != nil {
		return nil, nil, &InputError{err}
	}
	return Settle(paths, ins, opts)
}

// Settle is Read over inputs already read from paths (the command line
// reads a question's files once, to find their system): each file found
// in a directory that holds no queue config is passed over, and
// ConfigMaps without the queue config key are settled as YuniKorn merges
// them.
func Settle(paths []string, ins []*engine.Input, opts ReadOptions) (docs []*config.Document, notes []string, err error) {
	lopts := config.LoadOptions{Key: opts.Key, Stdin: opts.Stdin, Skip: opts.Skip, MaxSize: opts.MaxSize, Seen: opts.Seen}
	var absent []*config.KeyAbsentError
	found := map[string]bool{}
	for _, in := range ins {
		if in.Explicit {
			// an input another system recognises: name its command
			if opts.Elsewhere != nil {
				if msg := opts.Elsewhere(in); msg != "" {
					return nil, nil, &InputError{errors.New(msg)}
				}
			}
		}
		ds, err := config.FromInput(in, lopts)
		var ka *config.KeyAbsentError
		switch {
		case errors.As(err, &ka):
			// YuniKorn merges its two ConfigMaps key by key: the key may
			// come from the other one
			absent = append(absent, ka)
			found[in.Arg] = true
			continue
		case err != nil && !in.Explicit:
			if opts.Skip != nil {
				opts.Skip(in.Path, config.SkipReason(err))
			}
			continue
		case err != nil:
			return nil, nil, &InputError{err}
		}
		found[in.Arg] = found[in.Arg] || len(ds) > 0
		docs = append(docs, ds...)
	}
	key := opts.Key
	if key == "" {
		key = config.DefaultKey
	}
	for _, p := range paths {
		if !found[p] && p != "-" {
			return nil, nil, &InputError{fmt.Errorf("%s: no queue configs found (files need a top-level partitions key, or a ConfigMap with a %s key)", p, key)}
		}
	}
	if len(absent) > 0 {
		return keyAbsent(docs, absent)
	}
	return docs, nil, nil
}

// keyAbsent settles inputs where yunikorn-configs or yunikorn-defaults lacks
// the queue config key, as YuniKorn's key-by-key merge does: the other
// ConfigMap's key is used; when both ConfigMaps were given and neither has
// it, the config is empty and the built-in default applies; when only one
// was given, the other one's content is unknown.
func keyAbsent(docs []*config.Document, absent []*config.KeyAbsentError) ([]*config.Document, []string, error) {
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
		var notes []string
		for _, ka := range absent {
			notes = append(notes, fmt.Sprintf("%s: ConfigMap %s has no %s key: the queue config comes from %s, as YuniKorn merges the two ConfigMaps key by key",
				ka.Path, strings.Join(ka.ConfigMaps, ", "), ka.Key, docs[len(docs)-1].Describe()))
		}
		return docs, notes, nil
	}
	if seen[config.ConfigsConfigMap] && seen[config.DefaultsConfigMap] {
		return []*config.Document{config.AbsentKeyDocument(absent)}, nil, nil
	}
	ka := absent[0]
	other := config.DefaultsConfigMap
	if seen[config.DefaultsConfigMap] {
		other = config.ConfigsConfigMap
	}
	// the advice must work for every command: diff takes one path per
	// side, so both ConfigMaps go into one file (a List) or one directory
	return nil, nil, &InputError{fmt.Errorf("%s: ConfigMap %s has no %s key: YuniKorn merges it with %s key by key and takes the queue config from there; give both ConfigMaps in one file, e.g. kubectl get configmap %s %s -n yunikorn -o yaml > both.yaml, and pass both.yaml in its place (check, place and the audits also take each ConfigMap as its own -f)",
		ka.Path, strings.Join(ka.ConfigMaps, ", "), ka.Key, other, config.DefaultsConfigMap, config.ConfigsConfigMap)}
}

// Loaded is the config YuniKorn would run, read and decided once, ready
// for every question: the policy answers access (sharing the ACL index the
// rules built to decide acceptance), the placer places, and decides which
// missing queues exist.
type Loaded struct {
	Docs   []*config.Document
	Config *config.Config
	Policy *acl.Policy
	Placer *placement.Placer
	// Notes belong to every answer (merges, ConfigMaps YuniKorn never
	// reads, the built-in default); Warnings go to standard error only.
	Notes, Warnings []string
	// Errors are why YuniKorn refuses the config; a refused config answers
	// nothing (Load returns a RejectedError).
	Errors []engine.Finding
}

// RejectedError is a config YuniKorn refuses: it answers no question.
type RejectedError struct {
	Doc    *config.Document
	Errors []engine.Finding
}

func (e *RejectedError) Error() string {
	return fmt.Sprintf("%s: YuniKorn rejects this config, so it answers no access question (%d %s)", e.Doc.Describe(), len(e.Errors), plural(len(e.Errors), "error", "errors"))
}

// Load reads the config a question is asked against: the files named (no
// paths: ./queues.yaml, else YuniKorn's built-in default), merged as
// YuniKorn merges its ConfigMaps, and refused (RejectedError) when YuniKorn
// rejects it, less the errors tolerate accepts (place answers for a freshly
// started scheduler, which runs a partition whose rules cannot be built).
func Load(paths []string, opts ReadOptions, tolerate func(engine.Finding) bool) (*Loaded, error) {
	return LoadRead(paths, nil, opts, tolerate)
}

// LoadRead is Load over inputs already read from paths (Settle); ins nil
// reads them here.
func LoadRead(paths []string, ins []*engine.Input, opts ReadOptions, tolerate func(engine.Finding) bool) (*Loaded, error) {
	var read []*config.Document
	var warnings []string
	if len(paths) == 0 {
		if _, err := os.Stat("queues.yaml"); err == nil {
			paths = []string{"queues.yaml"}
		} else {
			warnings = append(warnings, "no -f given and no ./queues.yaml: using YuniKorn's built-in default config")
			read = []*config.Document{config.DefaultDocument()}
		}
	}
	if read == nil {
		var merged []string // what the ConfigMap merge did: said, not part of the answers
		var err error
		if ins != nil {
			read, merged, err = Settle(paths, ins, opts)
		} else {
			read, merged, err = Read(paths, opts)
		}
		if err != nil {
			return nil, err
		}
		warnings = append(warnings, merged...)
	}
	l := accept(read, tolerate, !opts.OnePath)
	l.Warnings = append(warnings, l.Warnings...)
	if len(l.Errors) > 0 {
		return l, &RejectedError{Doc: l.Config.Doc, Errors: l.Errors}
	}
	return l, nil
}

// Accept decides, from documents merged as the scheduler merges its
// ConfigMaps, the config YuniKorn would run: a zero-byte config (or
// ConfigMaps without the queue config key) is its built-in default, said
// in a note. The errors are the findings for which YuniKorn refuses the
// config, less those tolerate accepts. The policy shares the ACL index the
// rules built, so nothing is parsed twice.
func Accept(docs []*config.Document, tolerate func(engine.Finding) bool) *Loaded {
	return accept(docs, tolerate, true)
}

// accept is Accept, with every ACL indexed up front (whole) or only
// validated, for a question that reads one path (ReadOptions.OnePath).
func accept(docs []*config.Document, tolerate func(engine.Finding) bool, whole bool) *Loaded {
	doc, notes := config.Merge(docs)
	notes = append(ConfigMapNotes(docs), notes...)
	l := &Loaded{Docs: docs}
	if doc.Empty() {
		msg := doc.EmptyReason() + ": YuniKorn uses its built-in default config, where everyone may submit"
		l.Warnings = append(l.Warnings, msg)
		notes = append(notes, msg)
		doc = config.DefaultDocument()
	}
	l.Config = config.Decode(doc)
	errs, policy := errorsOf(l.Config, whole)
	for _, f := range errs {
		if tolerate == nil || !tolerate(f) {
			l.Errors = append(l.Errors, f)
		}
	}
	l.Notes = notes
	l.Policy = policy
	l.Placer = placement.New(l.Config, policy)
	policy.SetCreator(l.Placer)
	return l
}
