package mesos

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/aclint/aclint/internal/engine"
)

// Sys is Mesos as a engine.System.
type Sys struct{}

// Name is the system's name.
func (Sys) Name() string { return System }

// Detect takes JSON objects with a key only Mesos ACLs have (permissive or
// an ACL kind). A file with syntax errors is still recognised, so that they
// are reported.
func (Sys) Detect(in *engine.Input) bool {
	if aclsName(in.Path) {
		return true // a file named for Mesos' --acls is read as its ACLs, empty as it may be
	}
	sh := in.Shape()
	if !sh.Mapping || !sh.Flow {
		return false
	}
	for _, k := range sh.Keys {
		if _, obsolete := ObsoleteKinds[k]; k == "permissive" || LookupKind(k) != nil || obsolete {
			return true
		}
	}
	// a file with syntax errors is still recognised, so that they are
	// reported: a key only Mesos ACLs have, anywhere in the object
	return topKeyRe.Match(in.Data)
}

// aclsName reports a JSON file named as Mesos' --acls files are (acls.json,
// mesos-acls.json).
func aclsName(path string) bool {
	base := strings.ToLower(filepath.Base(path))
	return strings.HasSuffix(base, ".json") && strings.Contains(base, "acls")
}

// topKeyRe finds a key that only Mesos ACLs have.
var topKeyRe = func() *regexp.Regexp {
	keys := []string{"permissive"}
	for _, k := range Kinds {
		keys = append(keys, k.Key)
	}
	for k := range ObsoleteKinds {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return regexp.MustCompile(`"(` + strings.Join(keys, "|") + `)"\s*:`)
}()

// Lint parses and lints one --acls file.
func (Sys) Lint(in *engine.Input, _ engine.Options) (*engine.Report, error) {
	d := Parse(in.Path, in.Data)
	findings, a := lint(d)
	return &engine.Report{Findings: findings, Sources: map[string][]string{d.File: d.Lines()}, Configs: 1, Parsed: a}, nil
}

// Extensions: Mesos --acls files are JSON.
func (Sys) Extensions() []string { return []string{".json"} }

// Inputs says what Mesos ACL files look like.
func (Sys) Inputs() string {
	return "Mesos --acls files (JSON objects with Mesos ACL kinds, or permissive, as keys)"
}

// Refuses says what an error means for this system.
func (Sys) Refuses() string { return "--acls files Mesos refuses to start with" }

// Misdirected says which command takes an input given to a YuniKorn one.
func (Sys) Misdirected(path string) string {
	return fmt.Sprintf("%s holds Mesos ACLs, not a YuniKorn queue config: use `aclint lint` or `aclint mesos check -f %s ACTION`", path, path)
}

// NoneFound says what the system's inputs look like.
func (Sys) NoneFound(path string) string {
	return fmt.Sprintf("%s: no Mesos ACL files found (JSON objects with Mesos ACL kinds as keys; directories are searched for .json files)", path)
}

// Rules are the system's rules, sorted by name.
func (Sys) Rules() []*engine.Rule { return Rules().All() }
