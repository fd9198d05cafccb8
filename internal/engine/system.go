package engine

import (
	"bytes"
	"strings"
	"sync"
)

// Input is one file as the input pipeline (internal/input) read it: once, and
// not parsed. A system detects its inputs from the top-level keys and
// parses the input itself, once.
type Input struct {
	Path     string // as given; "<stdin>" for standard input
	Data     []byte
	Explicit bool   // named on the command line, not found in a directory
	Arg      string // the command-line argument it came from
	// Previous is the Report.Parsed of the same system for an earlier
	// version of this file (the language server's last analysis). A system
	// may build on it where it can prove the result is what reading Data
	// afresh gives; it must not change it.
	Previous any
	// Related are the inputs of the same run that went to the same system,
	// this one among them, in the order read; nil when an input is linted
	// alone (the language server, a rule's example). A system whose files
	// work together reads the others here, not from the disk: YARN's
	// capacity-scheduler.xml counts its ACLs only when the yarn-site.xml
	// given with it says yarn.acl.enable.
	Related []*Input

	keysOnce sync.Once
	shape    Shape

	memoMu sync.Mutex
	memo   map[string]any
}

// Given is the input as the command line named it (its Arg), for the
// commands a message suggests; its Path when it came from no argument.
func (in *Input) Given() string {
	if in.Arg != "" {
		return in.Arg
	}
	return in.Path
}

// Memo returns what f computes for this input under key, computing it
// once: a system that reads a related input for each of the inputs that
// need it parses it once. Inputs are linted concurrently, so a second
// caller waits for the first.
func (in *Input) Memo(key string, f func() any) any {
	in.memoMu.Lock()
	defer in.memoMu.Unlock()
	if v, ok := in.memo[key]; ok {
		return v
	}
	v := f()
	if in.memo == nil {
		in.memo = map[string]any{}
	}
	in.memo[key] = v
	return v
}

// Shape is what a scan of an input's text (not a parse) learned: whether
// the first document is a mapping or a list, and its keys (for a list, the
// keys of its first item).
type Shape struct {
	Mapping, List, Flow bool
	Keys                []string
}

// Shape scans the input's top-level keys, once: block mappings line by
// line, flow mappings and lists ({...}, [{...}]) one level deep.
func (in *Input) Shape() Shape {
	in.keysOnce.Do(func() { in.shape = scanShape(in.Data) })
	return in.shape
}

// HasKey reports whether the input's first document has key at the top.
func (s Shape) HasKey(key string) bool {
	for _, k := range s.Keys {
		if k == key {
			return true
		}
	}
	return false
}

// Report is what linting one input found.
type Report struct {
	Findings []Finding
	// Sources are the lines of each file the findings point into, for
	// snippets.
	Sources map[string][]string
	// Configs counts the documents linted (a file can hold several).
	Configs int
	// Notes are said on standard error, once.
	Notes []string
	// Parsed is what the system read, in its own types, for a tool on top
	// of it (the language server's hover) to answer from without reading
	// the same bytes again; nil when the system keeps nothing.
	Parsed any
}

// Options are what a lint run tells the systems. Values are per-system
// settings by name, which the engine passes through without reading them:
// YuniKorn reads "key", the ConfigMap data key of its queue config (--key,
// the key of .aclint.yaml).
type Options struct {
	Values map[string]string
	// MaxSize is the largest file a system reads besides its input (a
	// neighbouring file, an inflated value); 0 is the input pipeline's
	// default (--max-input-size).
	MaxSize int64
	// Seen is the run's files read: a system reading a file besides its
	// input (a neighbouring yarn-site.xml) remembers it there, so that no
	// output of the run replaces it.
	Seen *ReadSet
}

// Value is the setting of that name, or "".
func (o Options) Value(name string) string { return o.Values[name] }

// WithValue is o with one more setting.
func (o Options) WithValue(name, value string) Options {
	vs := make(map[string]string, len(o.Values)+1)
	for k, v := range o.Values {
		vs[k] = v
	}
	vs[name] = value
	return Options{Values: vs, MaxSize: o.MaxSize, Seen: o.Seen}
}

// System is one kind of access control aclint checks. Adding a system is
// one package that implements it and one line in internal/systems.New.
type System interface {
	// Name is the system's name, as rules and --system name it.
	Name() string
	// Detect reports whether an input is for this system, from its shape
	// and keys, without parsing it.
	Detect(in *Input) bool
	// Lint parses the input once and runs the system's rules over it.
	Lint(in *Input, opts Options) (*Report, error)
	// Refuses says what an error finding means for the system, completing
	// "finds ...": "configs YuniKorn rejects".
	Refuses() string
	// Extensions are the file endings a directory search reads for the
	// system (".yaml"); Detect then decides by content.
	Extensions() []string
	// Inputs says what the system's inputs are and look like, for help
	// texts and for "nothing found here": "Mesos ACL files (JSON objects
	// with ACL kinds as keys)".
	Inputs() string
	// Rules are the system's rules, sorted by name.
	Rules() []*Rule
}

// Documented is a System whose rules show examples in the documentation.
type Documented interface {
	// Example is a rule's example text as `aclint lint` reads it: the
	// command shown and the input, which the rule docs lint through
	// Lint, as the command line does.
	Example(r *Rule, text string) Example
	// ExampleBlock renders an example input as a Markdown code block.
	ExampleBlock(r *Rule, text string) string
	// ExampleFile is the name examples are shown as.
	ExampleFile(r *Rule) string
}

// Example is one of a rule's examples as aclint reads it.
type Example struct {
	Command string // "aclint lint queues.yaml"
	// Input is the example as the command reads it (with its related
	// inputs); nil when it is not one input (a settings directory), and
	// Findings and Sources are then what the command prints.
	Input *Input
	// Beside are other systems' inputs the example is linted with (a
	// rule that judges a config with the RBAC in front of it).
	Beside   []*Input
	Findings []Finding
	Sources  map[string][]string
}

// Fixer is a System whose rules' findings carry edits (Rule.Fixes): it
// fixes one input's content in rounds until no fix it may apply is left,
// parsing and linting the content once per round. keep filters each
// round's findings as the run's settings do (rules off, severities), so a
// rule turned off fixes nothing; unsafe allows the fixes that change who
// has access. Fix writes nothing: the command decides what happens to
// the content.
type Fixer interface {
	Fix(in *Input, opts Options, keep func([]Finding) []Finding, unsafe bool) (*Fixed, error)
}

// Fixed is what fixing one input did.
type Fixed struct {
	Content []byte // the fixed content (the input's, when nothing was fixed)
	Applied int    // how many edits were made
	// Left are the findings of the fixed content, as keep left them: those
	// without a fix, and unsafe fixes not asked for.
	Left []Finding
	// Report is the lint of the fixed content, as Lint reports it: the
	// command uses it instead of linting again.
	Report *Report
	// Refused says why the input was not fixed at all (its encoding would
	// change); NotEditable why a value cannot be edited in place.
	Refused, NotEditable string
}

// Guided is a System that says how to use its inputs: which command takes
// one given to another system's command, and what its inputs look like when
// a path holds none.
type Guided interface {
	Misdirected(path string) string // "acls.json holds Mesos ACLs, not ...: use ..."
	NoneFound(path string) string   // "dir: no Mesos ACL files found (...)"
}

func scanShape(data []byte) Shape {
	b := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\ufeff")), " \t\r\n")
	// skip leading comments and a document start
	for {
		switch {
		case bytes.HasPrefix(b, []byte("#")), bytes.HasPrefix(b, []byte("---")), bytes.HasPrefix(b, []byte("%")):
			if i := bytes.IndexByte(b, '\n'); i >= 0 {
				b = bytes.TrimLeft(b[i+1:], " \t\r\n")
				continue
			}
			b = nil
		}
		break
	}
	switch {
	case bytes.HasPrefix(b, []byte("[")):
		return Shape{List: true, Flow: true, Keys: flowKeys(b, 2)}
	case bytes.HasPrefix(b, []byte("{")):
		return Shape{Mapping: true, Flow: true, Keys: flowKeys(b, 1)}
	}
	keys := blockKeys(b)
	return Shape{Mapping: len(keys) > 0, Keys: keys}
}

// blockKeys reads the top-level keys of a block mapping, line by line,
// stopping at the first line that is not one.
func blockKeys(b []byte) []string {
	var keys []string
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if len(line) == 0 || strings.IndexByte(" \t\r#-", line[0]) >= 0 {
			continue
		}
		if bytes.HasPrefix(line, []byte("---")) || bytes.HasPrefix(line, []byte("...")) {
			break // the first document ends
		}
		key, _, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return append(keys, "") // a line that is no key: not a mapping
		}
		keys = append(keys, strings.Trim(string(key), `"' `))
	}
	return keys
}

// flowKeys reads the keys of the first mapping opened at the given depth
// of a JSON (or YAML flow) document: depth 1 is the top-level mapping,
// depth 2 the first mapping inside the top-level list.
func flowKeys(b []byte, depth int) []string {
	var keys []string
	level, expectKey, inMap := 0, false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch c {
		case '"', '\'':
			j := i + 1
			for j < len(b) && b[j] != c {
				if b[j] == '\\' && c == '"' {
					j++
				}
				j++
			}
			if inMap && level == depth && expectKey {
				keys = append(keys, string(b[i+1:min(j, len(b))]))
				expectKey = false
			}
			i = j
		case '{', '[':
			level++
			if c == '{' && level == depth && !inMap {
				inMap, expectKey = true, true
			}
		case '}', ']':
			if inMap && level == depth {
				return keys
			}
			level--
		case ',':
			expectKey = inMap && level == depth
		case ':':
			expectKey = false
		case ' ', '\t', '\r', '\n':
		default:
			if inMap && level == depth && expectKey {
				j := i
				for j < len(b) && strings.IndexByte(":,}\n", b[j]) < 0 {
					j++
				}
				keys = append(keys, strings.TrimSpace(string(b[i:j])))
				expectKey = false
				i = j - 1
			}
		}
	}
	return keys
}
