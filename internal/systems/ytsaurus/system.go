package ytsaurus

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/aclint/aclint/internal/engine"
)

// Sys is YTsaurus as a engine.System.
type Sys struct{}

// Name is the system's name.
func (Sys) Name() string { return System }

// Detect takes tree documents (top-level keys among users, groups and
// nodes, with nodes or one of them) and the JSON list of a node's ACEs. It
// reads only keys, without parsing, since every file lint is given is
// offered to it; a broken document is still recognised, so that its errors
// are reported.
func (Sys) Detect(in *engine.Input) bool {
	if treeName(in.Path) {
		return true // a file named for YTsaurus is read as its tree, empty as it may be
	}
	sh := in.Shape()
	if sh.List {
		for _, k := range sh.Keys {
			if k == "action" || k == "subjects" || k == "permissions" {
				return true
			}
		}
		return false
	}
	return sh.Mapping && treeKeys(sh.Keys)
}

// Lint parses and lints one tree or ACL list.
func (Sys) Lint(in *engine.Input, _ engine.Options) (*engine.Report, error) {
	if err := emptyTree(in.Path, in.Data); err != nil {
		return nil, err
	}
	d := Parse(in.Path, in.Data)
	findings, t := lint(d, Options{})
	return &engine.Report{Findings: findings, Sources: map[string][]string{d.File: d.Lines()}, Configs: 1, Parsed: t}, nil
}

// treeName reports a tree file named for YTsaurus (ytsaurus-tree.yaml,
// cypress-acls.json).
func treeName(path string) bool {
	base := strings.ToLower(filepath.Base(path))
	ext := filepath.Ext(base)
	return (ext == ".yaml" || ext == ".yml" || ext == ".json") && (strings.Contains(base, "ytsaurus") || strings.Contains(base, "cypress"))
}

// emptyTree refuses a file with nothing in it: it holds no tree, and no
// answer over it would mean anything.
func emptyTree(path string, data []byte) error {
	if len(bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\ufeff")))) == 0 {
		return fmt.Errorf("%s: the file is empty: a YTsaurus tree names its users, groups and nodes (a document with a nodes key), or is the JSON list of a node's ACEs", path)
	}
	return nil
}

// Extensions are the endings a directory search reads.
func (Sys) Extensions() []string { return []string{".yaml", ".yml", ".json"} }

// Inputs says what YTsaurus trees look like.
func (Sys) Inputs() string {
	return "YTsaurus trees (documents with a top-level nodes key, or the JSON list of a node's ACEs)"
}

// Refuses says what an error means for this system.
func (Sys) Refuses() string { return "ACLs YTsaurus refuses on set @acl, or trees aclint cannot read" }

// Misdirected says which command takes an input given to a YuniKorn one.
func (Sys) Misdirected(path string) string {
	return fmt.Sprintf("%s is a YTsaurus tree, not a YuniKorn queue config: use `aclint lint` or `aclint yt check -f %s USER PERMISSION PATH`", path, path)
}

// NoneFound says what the system's inputs look like.
func (Sys) NoneFound(path string) string {
	return fmt.Sprintf("%s: no YTsaurus trees found (documents with a top-level nodes key, or the JSON list of a node's ACEs)", path)
}

// Rules are the system's rules, sorted by name.
func (Sys) Rules() []*engine.Rule { return Rules().All() }
