package yunikorn

import (
	"errors"
	"fmt"
	"strings"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// Sys is YuniKorn as a engine.System. It is registered last: an input named
// on the command line that no other system detects is read as a queue
// config, and a file found in a directory is linted when it holds one.
type Sys struct{}

// Name is the system's name.
func (Sys) Name() string { return System }

// Detect takes inputs whose first document has a partitions key, and
// Kubernetes manifests; as the fallback system YuniKorn is also offered
// what no system detects, and tells queue configs apart when it reads them.
func (Sys) Detect(in *engine.Input) bool {
	sh := in.Shape()
	return sh.HasKey("partitions") || sh.HasKey("apiVersion") && sh.HasKey("kind")
}

// Documents reads the queue configs of one input, parsing it once: a raw
// config, or the ConfigMaps of a manifest. ConfigMaps of YuniKorn's without
// the queue config key become a document of their other settings.
func Documents(in *engine.Input, opts engine.Options) ([]*config.Document, error) {
	docs, err := config.FromInput(in, config.LoadOptions{Key: opts.Value(KeyOption), MaxSize: opts.MaxSize})
	var ka *config.KeyAbsentError
	if errors.As(err, &ka) {
		return []*config.Document{config.SettingsDocument(ka)}, nil
	}
	return docs, err
}

// Lint lints every queue config of the input.
func (Sys) Lint(in *engine.Input, opts engine.Options) (*engine.Report, error) {
	if prev, ok := in.Previous.([]*config.Document); ok && len(prev) == 1 && prev[0].File == in.Path {
		// an edit inside one value of the same raw file, as typing does:
		// the earlier parse with that value replaced, exactly what parsing
		// afresh gives (config.Reparse says when, and FuzzReparse checks)
		d := config.Reparse(prev[0], in.Data)
		if d != nil {
			docs := []*config.Document{d}
			rep := LintDocuments(docs)
			rep.Parsed = docs
			return rep, nil
		}
	}
	docs, err := config.FromInput(in, config.LoadOptions{Key: opts.Value(KeyOption), MaxSize: opts.MaxSize})
	var ka *config.KeyAbsentError
	if errors.As(err, &ka) {
		// the common yunikorn-configs: no queue config to lint, but its
		// other settings (the admission controller's) are
		rep := LintDocuments([]*config.Document{config.SettingsDocument(ka)})
		if in.Explicit {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: ConfigMap %s has no %s key, so it holds no queue config to lint (YuniKorn takes the key from %s); its other settings are linted",
				ka.Path, strings.Join(ka.ConfigMaps, ", "), ka.Key, config.DefaultsConfigMap))
		}
		return rep, nil
	}
	if err != nil {
		return nil, err
	}
	rep := LintDocuments(docs)
	rep.Parsed = docs
	for _, d := range docs {
		if r := d.Running; r != nil {
			// a dump's queue config is what YuniKorn parsed, written out
			// again: what the file in git said is checked with aclint drift
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s is a running scheduler's config (GET /ws/v1/config, checksum %s): its queues are checked as YuniKorn runs them, and its %d extra %s as the ConfigMap's; aclint drift FILE --running %s says whether a file is what runs",
				d.File, r.Checksum, len(r.Extra), plural(len(r.Extra), "setting", "settings"), d.File))
			if len(r.Unknown) > 0 {
				rep.Notes = append(rep.Notes, fmt.Sprintf("%s: fields aclint does not know, read past (a newer scheduler's): %s", d.File, strings.Join(r.Unknown, ", ")))
			}
		}
	}
	return rep, nil
}

// LintDocuments lints documents already read (after --fix rewrote them).
func LintDocuments(docs []*config.Document) *engine.Report {
	rep := &engine.Report{Sources: map[string][]string{}}
	for _, d := range docs {
		rep.Findings = append(rep.Findings, Lint(config.Decode(d))...)
		if _, ok := rep.Sources[d.File]; !ok {
			rep.Sources[d.File] = d.Lines()
		}
		rep.Configs++
	}
	return rep
}

// Extensions: queue configs and ConfigMaps are YAML.
func (Sys) Extensions() []string { return []string{".yaml", ".yml"} }

// Inputs says what YuniKorn's inputs look like.
func (Sys) Inputs() string {
	return fmt.Sprintf("YuniKorn queue configs (a top-level partitions key), ConfigMaps with a %s key, or Helm values with %s or %s", config.DefaultKey, config.HelmValuesKey, config.HelmConfigurationKey)
}

// Refuses says what an error means for this system.
func (Sys) Refuses() string { return "configs YuniKorn rejects" }

// Misdirected is not used for YuniKorn: its commands take its inputs.
func (Sys) Misdirected(path string) string { return "" }

// NoneFound says what queue configs look like.
func (Sys) NoneFound(path string) string {
	return fmt.Sprintf("%s: no queue configs found (queue configs need a top-level partitions key, or a ConfigMap with a %s key)", path, config.DefaultKey)
}

// Rules are the system's rules, sorted by name.
func (Sys) Rules() []*engine.Rule { return ruleList().All() }

// KeyOption names the engine.Options value YuniKorn reads: the ConfigMap
// data key of the queue config.
const KeyOption = "key"
