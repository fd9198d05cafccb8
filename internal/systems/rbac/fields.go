package rbac

import (
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/internal/engine"
)

// field is how one key of a mapping is read.
type field func(v *yaml.Node) error

// fields reads mapping n of type what: each key once, each a key the type
// has (kubectl's Strict field validation), a null value as absent.
func (r *reader) fields(n *yaml.Node, what string, known map[string]field) error {
	n, err := r.deref(n)
	if err != nil || n == nil {
		return err
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return r.fail(n, "%s is not a mapping", what)
	}
	// a key written twice: kubectl's YAML reader keeps the later value
	// (and the JSON it sends holds it once), so it is read alone
	last := make(map[string]int, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		if j, ok := last[n.Content[i].Value]; ok {
			r.twiceKey(what, n.Content[j], n.Content[i])
		}
		last[n.Content[i].Value] = i
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if last[k.Value] != i {
			continue
		}
		read, ok := known[k.Value]
		if !ok {
			return r.fail(k, "%s: unknown field %q", what, k.Value)
		}
		v, err := r.deref(n.Content[i+1])
		if err != nil {
			return err
		}
		if read == nil || v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			continue
		}
		if err := read(v); err != nil {
			return err
		}
	}
	return nil
}

// yaml11Bool says whether kubectl's YAML reader (YAML 1.1) takes a plain
// scalar for a boolean where yaml.v3 (YAML 1.2) reads a string.
func yaml11Bool(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF":
		return true
	}
	return false
}

// str reads a string value into *dst.
func (r *reader) str(what string, dst *string) field {
	return func(v *yaml.Node) error {
		// a plain timestamp is a string once kubectl's reader makes JSON
		if v.Kind != yaml.ScalarNode || v.Tag != "!!str" && v.Tag != "!!timestamp" || v.Style == 0 && yaml11Bool(v.Value) {
			return r.fail(v, "%s must be a string", what)
		}
		*dst = v.Value
		return nil
	}
}

// strs reads a list of strings into *dst.
func (r *reader) strs(what string, dst *[]string) field {
	return func(v *yaml.Node) error {
		if v.Kind != yaml.SequenceNode {
			return r.fail(v, "%s must be a list of strings", what)
		}
		out := make([]string, 0, len(v.Content))
		for _, it := range v.Content {
			it, err := r.deref(it)
			if err != nil {
				return err
			}
			var s string // a null item is "", as JSON's null in a []string
			if it.Kind == yaml.ScalarNode && it.Tag == "!!null" {
				out = append(out, "")
				continue
			}
			if err := r.str(what+" item", &s)(it); err != nil {
				return err
			}
			out = append(out, s)
		}
		*dst = out
		return nil
	}
}

// strMap reads a mapping of strings to strings into *dst.
func (r *reader) strMap(what string, dst *map[string]string) field {
	return func(v *yaml.Node) error {
		if v.Kind != yaml.MappingNode {
			return r.fail(v, "%s must be a mapping of strings", what)
		}
		out := make(map[string]string, len(v.Content)/2)
		for i := 0; i+1 < len(v.Content); i += 2 {
			var k, s string
			if err := r.str(what+" key", &k)(v.Content[i]); err != nil {
				return err
			}
			val, err := r.deref(v.Content[i+1])
			if err != nil {
				return err
			}
			if val.Kind == yaml.ScalarNode && val.Tag == "!!null" {
				out[k] = ""
				continue
			}
			if err := r.str(what+" value", &s)(val); err != nil {
				return err
			}
			out[k] = s
		}
		*dst = out
		return nil
	}
}

// list reads a list of mappings, each through one.
func (r *reader) list(what string, one func(n *yaml.Node) error) field {
	return func(v *yaml.Node) error {
		if v.Kind != yaml.SequenceNode {
			return r.fail(v, "%s must be a list", what)
		}
		for _, it := range v.Content {
			it, err := r.deref(it)
			if err != nil {
				return err
			}
			if err := one(it); err != nil {
				return err
			}
		}
		return nil
	}
}

// meta is what is read of metadata.
type meta struct {
	name, namespace     string
	labels, annotations map[string]string
}

// metadata reads an object's metadata: name, namespace, labels and
// annotations; ObjectMeta's other fields are taken and passed over.
func (r *reader) metadata(m *meta) field {
	return func(v *yaml.Node) error {
		known := map[string]field{
			"name": r.str("metadata.name", &m.name), "namespace": r.str("metadata.namespace", &m.namespace),
			"labels": r.strMap("metadata.labels", &m.labels), "annotations": r.strMap("metadata.annotations", &m.annotations),
		}
		for _, k := range []string{"generateName", "selfLink", "uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "ownerReferences", "finalizers", "managedFields"} {
			known[k] = nil
		}
		return r.fields(v, "metadata", known)
	}
}

// twiceKey notes a key written twice in one mapping: applied, the later
// value is the object's; kustomize and Flux refuse the file.
func (r *reader) twiceKey(what string, first, again *yaml.Node) {
	r.set.Findings = append(r.set.Findings, engine.Finding{Rule: ruleDuplicateKey, Severity: engine.Warning, Pos: r.pos(again),
		Message: fmt.Sprintf("%s: %q is written twice: kubectl apply takes this value and drops the first; kustomize and Flux refuse the file", what, again.Value),
		Hint:    "keep one of them", Related: []engine.Related{{Pos: r.pos(first), Message: "the first " + again.Value}}})
}
