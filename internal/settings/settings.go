// Package settings reads .aclint.yaml, aclint's own configuration: rule
// severities, paths to ignore, and defaults for command-line flags.
package settings

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/aclint/aclint/internal/input"

	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/internal/engine"
)

// FileName is the configuration file aclint looks for; AltFileName is
// the other spelling, read as well (golangci-lint reads both of its own).
const (
	FileName    = ".aclint.yaml"
	AltFileName = ".aclint.yml"
)

// Settings is one .aclint.yaml.
type Settings struct {
	Path   string // the file it was read from
	FailOn string
	Key    string
	Output []string
	Ignore []string // globs, relative to the file's directory
	// Rules maps a rule name to "off" or a severity.
	Rules map[string]string
}

var keys = []string{"fail-on", "key", "output", "ignore", "rules"}

// Error is a problem in a settings file, with its position.
type Error struct {
	Path      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg) }

// Load reads and checks the settings file named by --config: the user's
// own path, read whatever it is. Unknown keys, unknown rules and bad
// values are errors that name the nearest valid choice.
func Load(path string, reg *engine.Registry, seen *engine.ReadSet) (*Settings, error) {
	data, err := input.ReadFile(path, 0, seen) // settings are small: the default bound
	if err != nil {
		return nil, err
	}
	return parse(path, data, reg)
}

// LoadFound reads and checks a settings file that Find found: part of the
// repository under review, so it is read only as a regular file inside that
// repository (input.ReadConfined). A committed .aclint.yaml that links to
// /etc/shadow would otherwise be printed in a YAML error, and one that is
// a FIFO or a link to /dev/stdin would hang lint and the language server.
func LoadFound(path string, reg *engine.Registry, seen *engine.ReadSet) (*Settings, error) {
	data, err := input.ReadConfined(input.RepoRoot(filepath.Dir(path)), path, 0, seen)
	if err != nil {
		return nil, err
	}
	return parse(path, data, reg)
}

func parse(path string, data []byte, reg *engine.Registry) (*Settings, error) {
	s := &Settings{Path: path, Rules: map[string]string{}}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return s, nil
		}
		return nil, &Error{path, 1, 1, "not valid YAML: " + strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	fail := func(n *yaml.Node, format string, args ...any) error {
		return &Error{path, n.Line, n.Column, fmt.Sprintf(format, args...)}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, fail(root, "expected a mapping of settings")
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		if err := s.setting(root.Content[i], root.Content[i+1], reg, fail); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// failer makes a settings error at a node.
type failer func(n *yaml.Node, format string, args ...any) error

// setting reads one setting.
func (s *Settings) setting(k, v *yaml.Node, reg *engine.Registry, fail failer) error {
	switch k.Value {
	case "fail-on":
		if !oneOf(v.Value, "error", "warning", "info", "none") || v.Kind != yaml.ScalarNode {
			return fail(v, "fail-on must be error, warning, info or none, not %q", v.Value)
		}
		s.FailOn = v.Value
	case "key":
		if v.Kind != yaml.ScalarNode || v.Value == "" {
			return fail(v, "key must be a ConfigMap data key such as queues.yaml")
		}
		s.Key = v.Value
	case "output", "ignore":
		list, err := strings1(v)
		if err != nil {
			return fail(v, "%s must be a list of strings", k.Value)
		}
		if k.Value == "output" {
			s.Output = list
			return nil
		}
		for _, g := range list {
			if _, err := filepath.Match(g, ""); err != nil {
				return fail(v, "ignore pattern %q is not a valid glob: %v", g, err)
			}
		}
		s.Ignore = list
	case "rules":
		return s.rules(v, reg, fail)
	default:
		msg := fmt.Sprintf("unknown setting %q", k.Value)
		if near := engine.Nearest(k.Value, keys); near != "" {
			msg += fmt.Sprintf(", did you mean %q?", near)
		}
		sorted := append([]string(nil), keys...)
		sort.Strings(sorted)
		return fail(k, "%s; settings are %s", msg, strings.Join(sorted, ", "))
	}
	return nil
}

// rules reads rules:, each rule's severity: off, or a severity; a rule
// that finds what its system refuses is never turned off or lowered.
func (s *Settings) rules(v *yaml.Node, reg *engine.Registry, fail failer) error {
	if v.Kind != yaml.MappingNode {
		return fail(v, "rules must map rule names to off, error, warning or info")
	}
	for j := 0; j+1 < len(v.Content); j += 2 {
		rk, rv := v.Content[j], v.Content[j+1]
		r := reg.Lookup(rk.Value)
		if r == nil {
			msg := fmt.Sprintf("unknown rule %q", rk.Value)
			if to := engine.Renamed(rk.Value); to != "" {
				msg = fmt.Sprintf("rule %q was renamed to %q (severity %s); write the new name", rk.Value, to, reg.Lookup(to).Severity)
			} else if near := reg.Suggest(rk.Value); near != "" {
				msg += fmt.Sprintf(", did you mean %q?", near)
			}
			return fail(rk, "%s (run 'aclint rules' for the list)", msg)
		}
		val := rv.Value
		if !oneOf(val, "off", "error", "warning", "info") || rv.Kind != yaml.ScalarNode {
			return fail(rv, "rule %s: write off, error, warning or info, not %q", rk.Value, val)
		}
		if r.Severity == engine.Error && val != "error" {
			what := "inputs its system refuses"
			if sys := reg.LookupSystem(r.System); sys != nil {
				what = sys.Refuses()
			}
			return fail(rv, "rule %s finds %s: it cannot be turned off or lowered", rk.Value, what)
		}
		s.Rules[rk.Value] = val
	}
	return nil
}

func oneOf(v string, choices ...string) bool {
	for _, c := range choices {
		if v == c {
			return true
		}
	}
	return false
}

func strings1(n *yaml.Node) ([]string, error) {
	if n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
		return []string{n.Value}, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, errors.New("not a list")
	}
	var out []string
	for _, c := range n.Content {
		if c.Kind != yaml.ScalarNode {
			return nil, errors.New("not a string")
		}
		out = append(out, c.Value)
	}
	return out, nil
}

// Find looks for .aclint.yaml, or .aclint.yml, in dir and its parents,
// stopping after the repository root (a directory holding .git). It
// returns "" when there is none, and an error when one directory holds
// both: which one the team means is not aclint's to guess.
func Find(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", nil
	}
	for {
		p, alt := filepath.Join(dir, FileName), filepath.Join(dir, AltFileName)
		switch a, b := fileExists(p), fileExists(alt); {
		case a && b:
			return "", fmt.Errorf("%s and %s are both in %s: aclint reads one settings file per directory; keep one (the other is not read)", FileName, AltFileName, relToWorkDir(dir))
		case a:
			return relToWorkDir(p), nil
		case b:
			return relToWorkDir(alt), nil
		}
		if fileExists(filepath.Join(dir, ".git")) {
			return "", nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// relToWorkDir shortens an absolute path below the working directory, for
// messages.
func relToWorkDir(p string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return p
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Ignored reports whether path matches one of the ignore globs. Globs are
// relative to the settings file's directory; "**" matches any number of
// directories.
func (s *Settings) Ignored(path string) bool {
	if s == nil || len(s.Ignore) == 0 {
		return false
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	base, err := filepath.Abs(filepath.Dir(s.Path))
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(base, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return false
	}
	rel = filepath.ToSlash(rel)
	for _, g := range s.Ignore {
		if globMatch(g, rel) {
			return true
		}
	}
	return false
}

// globMatch matches slash-separated path against pattern, where "**"
// stands for zero or more whole path elements.
func globMatch(pattern, path string) bool {
	pp, ps := strings.Split(pattern, "/"), strings.Split(path, "/")
	var match func(i, j int) bool
	match = func(i, j int) bool {
		for i < len(pp) {
			if pp[i] == "**" {
				for k := j; k <= len(ps); k++ {
					if match(i+1, k) {
						return true
					}
				}
				return false
			}
			if j >= len(ps) {
				return false
			}
			if ok, _ := filepath.Match(pp[i], ps[j]); !ok {
				return false
			}
			i, j = i+1, j+1
		}
		return j == len(ps)
	}
	return match(0, 0)
}

// WithRules is the settings with rules overridden by the command line
// (rule name to off or a severity); s itself is left as it is.
func (s *Settings) WithRules(over map[string]string) *Settings {
	if len(over) == 0 {
		return s
	}
	c := &Settings{Rules: map[string]string{}}
	if s != nil {
		*c = *s
		c.Rules = make(map[string]string, len(s.Rules)+len(over))
		for k, v := range s.Rules {
			c.Rules[k] = v
		}
	}
	for k, v := range over {
		c.Rules[k] = v
	}
	return c
}

// Apply turns rules off and changes severities as the settings say.
func (s *Settings) Apply(findings []engine.Finding) []engine.Finding {
	if s == nil || len(s.Rules) == 0 {
		return findings
	}
	out := findings[:0:0]
	for _, f := range findings {
		switch v := s.Rules[f.Rule]; v {
		case "":
		case "off":
			continue
		default:
			f.Severity, _ = engine.ParseSeverity(v)
		}
		out = append(out, f)
	}
	return out
}
