package rbac

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/internal/engine"
)

// The manifests are read from yaml.v3's node tree, each mapping's keys
// checked once through a set: kubectl apply's default field validation
// (Strict) refuses a key twice and a key the type does not have, and the
// JSON its YAML becomes refuses a number or a boolean where a string
// goes. An alias is followed, within a bound of the nodes visited that
// grows with the input, so a document of aliases of aliases is refused
// instead of expanded.

// reader reads one file's manifests into a Set.
type reader struct {
	set    *Set
	file   string
	budget int // nodes that may still be visited, aliases followed
	// bootstrap marks the objects read as Kubernetes' bootstrap policy's
	bootstrap bool
}

// readError is a manifest the API server (or kubectl before it) refuses
// to take, at the node it is about.
type readError struct {
	pos engine.Position
	msg string
}

func (e *readError) Error() string { return e.msg }

func (r *reader) fail(n *yaml.Node, format string, args ...any) error {
	return &readError{pos: r.pos(n), msg: fmt.Sprintf(format, args...)}
}

func (r *reader) pos(n *yaml.Node) engine.Position {
	return engine.Position{File: r.file, Line: n.Line, Col: n.Column}
}

// deref follows an alias, counting what it visits.
func (r *reader) deref(n *yaml.Node) (*yaml.Node, error) {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	r.budget--
	if r.budget < 0 {
		return nil, r.fail(n, "too many nodes once aliases are followed: the manifest expands past what it holds")
	}
	return n, nil
}

// Read reads the Kubernetes manifests of one file (YAML or JSON, one or
// several documents, kind: List) into set: the RBAC objects, Namespaces
// and ServiceAccounts, with what the API server would refuse as error
// findings. Other kinds are passed over without a word.
func Read(set *Set, file string, data []byte) error {
	r := &reader{set: set, file: file, budget: 4*len(data) + 64}
	return r.read(data)
}

func (r *reader) read(data []byte) error {
	file := r.file
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: not YAML: %w", file, err)
		}
		if len(doc.Content) == 0 {
			continue
		}
		if err := r.object(doc.Content[0], 0); err != nil {
			return err
		}
	}
}

// object reads one manifest: a List's items each in turn.
func (r *reader) object(n *yaml.Node, depth int) error {
	n, err := r.deref(n)
	if err != nil {
		return err
	}
	if n.Kind != yaml.MappingNode {
		return nil // not an object: nobody's manifest
	}
	kind, version := r.scalarOf(n, "kind"), r.scalarOf(n, "apiVersion")
	if kind == "List" && version == "v1" && depth == 0 {
		items, err := r.deref(lookup(n, "items"))
		if err != nil || items == nil || items.Kind != yaml.SequenceNode {
			return err
		}
		for _, it := range items.Content {
			if err := r.object(it, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	read := readerFor(version, kind)
	if read == nil {
		if strings.HasPrefix(version, Group+"/") && isRBACKind(kind) {
			r.set.refuse(r.pos(n), ruleNotServed, fmt.Sprintf("%s %s is not served: Kubernetes serves RBAC only as %s since 1.22", version, kind, APIVersion), "write apiVersion: "+APIVersion)
		}
		return nil
	}
	if err := read(r, n); err != nil {
		var re *readError
		if errors.As(err, &re) {
			r.set.refuse(re.pos, ruleMalformed, re.msg+": kubectl apply refuses the object", "quote a string YAML 1.1 reads as a boolean, a number or a null (\"no\", \"012\"), and write only the fields the kind has")
			return nil
		}
		return err
	}
	return nil
}

// readerFor is the reader of the kinds read, by apiVersion and kind; nil
// for every other.
func readerFor(version, kind string) func(*reader, *yaml.Node) error {
	switch {
	case version == APIVersion && (kind == "Role" || kind == "ClusterRole"):
		return (*reader).role
	case version == APIVersion && (kind == "RoleBinding" || kind == "ClusterRoleBinding"):
		return (*reader).binding
	case version == "v1" && kind == "Namespace":
		return (*reader).namespace
	case version == "v1" && kind == "ServiceAccount":
		return (*reader).serviceAccount
	}
	return nil
}

func isRBACKind(k string) bool {
	switch k {
	case "Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding":
		return true
	}
	return false
}

// lookup is the value of key in mapping n, nil when absent.
func lookup(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// scalarOf is a string field of n, "" when absent or not a string.
func (r *reader) scalarOf(n *yaml.Node, key string) string {
	v := lookup(n, key)
	for v != nil && v.Kind == yaml.AliasNode {
		v = v.Alias
	}
	if v == nil || v.Kind != yaml.ScalarNode {
		return ""
	}
	return v.Value
}
