package placement

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"gopkg.in/yaml.v3"
)

// A pod manifest is read by hand from yaml.v3's node tree, not decoded into
// structs: yaml.v3 checks a mapping's keys for repeats pair by pair when
// it decodes into a Go value, so 100,000 annotations took 42 s. Here each
// mapping is checked through a set, in one pass, and only the fields the
// shim reads are looked at.

// manifestError is a manifest aclint refuses, with the line it is about.
func manifestError(n *yaml.Node, format string, args ...any) error {
	return fmt.Errorf("line %d: %s", n.Line, fmt.Sprintf(format, args...))
}

// topKind is the kind: of a document's top level, found by a scan of its
// lines (block style) before anything is parsed, so a kind: List of a
// million items is refused without building its tree. "" when the scan
// cannot tell (flow style, JSON): the parse then decides.
func topKind(doc []byte) string {
	for len(doc) > 0 {
		line := doc
		if i := bytes.IndexByte(doc, '\n'); i >= 0 {
			line, doc = doc[:i], doc[i+1:]
		} else {
			doc = nil
		}
		if v, ok := bytes.CutPrefix(line, []byte("kind:")); ok {
			v, _, _ = bytes.Cut(v, []byte(" #"))
			return strings.Trim(strings.TrimSpace(string(v)), `"'`)
		}
		if bytes.HasPrefix(line, []byte("---")) && len(line) > 0 {
			return ""
		}
	}
	return ""
}

// jsonTopKind is topKind for a JSON document (kubectl get -o json puts
// kind: after items:): its tokens are read as a stream, nothing kept, so
// a List is known for what it is before its items are built.
func jsonTopKind(doc []byte) string {
	b := bytes.TrimLeft(doc, " \t\r\n")
	if len(b) == 0 || b[0] != '{' {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	depth, key := 0, true
	for {
		t, err := dec.Token()
		if err != nil {
			return ""
		}
		switch v := t.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				depth++
			} else {
				depth--
			}
			if depth == 1 {
				key = true
			} else if depth == 0 {
				return ""
			}
		case string:
			if depth == 1 && key && v == "kind" {
				if t, err := dec.Token(); err == nil {
					if k, ok := t.(string); ok {
						return k
					}
				}
				return ""
			}
			if depth == 1 {
				key = !key
			}
		default:
			if depth == 1 {
				key = true
			}
		}
	}
}

// isList reports a kind that is a list of objects (List, PodList, ...).
func isList(kind string) bool { return strings.HasSuffix(kind, "List") }

// readManifest reads the one pod or workload of a manifest. A file may
// hold several documents (kubectl's output of one apply); other kinds (a
// Service, a ConfigMap) are passed over and named in the notes, but two
// pods or workloads are an error: aclint cannot know which one is meant.
// A Namespace document is returned too, for the namespace's annotations.
func readManifest(data []byte) (obj *object, ns *object, notes []string, err error) {
	if k := topKind(data); isList(k) {
		return nil, nil, nil, listError(k)
	}
	if k := jsonTopKind(data); isList(k) {
		return nil, nil, nil, listError(k)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var objLine int
	var others []string // the kinds passed over
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, nil, nil, fmt.Errorf("not valid YAML: %v", err)
		}
		if len(doc.Content) == 0 || doc.Content[0].Kind == yaml.ScalarNode && doc.Content[0].Tag == "!!null" {
			continue
		}
		o, err := decodeObject(doc.Content[0])
		if err != nil {
			return nil, nil, nil, err
		}
		switch {
		case isList(o.Kind):
			return nil, nil, nil, listError(o.Kind)
		case o.Kind == "Namespace":
			if ns == nil {
				ns = o
			}
		case o.Kind == "Pod" || o.Kind == "" || isWorkload(o.Kind):
			if obj != nil {
				return nil, nil, nil, fmt.Errorf("the file holds two pods or workloads (%s %s at line %d, %s %s at line %d): aclint answers for one; give each its own file", describeKind(obj.Kind), obj.Metadata.Name, objLine, describeKind(o.Kind), o.Metadata.Name, doc.Content[0].Line)
			}
			obj, objLine = o, doc.Content[0].Line
		default:
			notes = append(notes, fmt.Sprintf("passed over the %s %s at line %d: not a pod or a workload", o.Kind, o.Metadata.Name, doc.Content[0].Line))
			others = append(others, o.Kind)
		}
	}
	if obj == nil {
		if ns != nil {
			return nil, nil, nil, errors.New("the file holds a Namespace but no pod or workload: give the namespace with --namespace and the pod with --pod")
		}
		if len(others) > 0 {
			return nil, nil, nil, fmt.Errorf("expected a Pod or a workload with a pod template (%s), found kind %s", strings.Join(Workloads, ", "), strings.Join(others, ", "))
		}
		return nil, nil, nil, errors.New("the file holds no pod: it is empty")
	}
	return obj, ns, notes, nil
}

func listError(kind string) error {
	return fmt.Errorf("expected a Pod or a workload with a pod template (%s), found kind %s: give one item of the list (kubectl get pod NAME -o yaml)", strings.Join(Workloads, ", "), kind)
}

func describeKind(k string) string {
	if k == "" {
		return "Pod"
	}
	return k
}

func isWorkload(kind string) bool {
	for _, k := range Workloads {
		if k == kind {
			return true
		}
	}
	return false
}

// deref follows an alias to the node it names.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// eachField calls f for every key and value of mapping n, refusing a key
// written twice (as Kubernetes and yaml.v3 do) through a set. A null is
// an empty mapping; anything else that is not a mapping is an error.
func eachField(n *yaml.Node, what string, f func(key string, v *yaml.Node) error) error {
	n = deref(n)
	if n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return manifestError(n, "%s must be a mapping", what)
	}
	seen := make(map[string]struct{}, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := deref(n.Content[i])
		if k.Kind != yaml.ScalarNode {
			return manifestError(k, "a key of %s is not a string", what)
		}
		if _, dup := seen[k.Value]; dup {
			return manifestError(k, "mapping key %q already defined in %s", k.Value, what)
		}
		seen[k.Value] = struct{}{}
		if err := f(k.Value, n.Content[i+1]); err != nil {
			return err
		}
	}
	return nil
}

// scalar is a string field: a scalar's text, "" for null.
func scalar(n *yaml.Node, what string) (string, error) {
	n = deref(n)
	if n.Kind != yaml.ScalarNode {
		return "", manifestError(n, "%s must be a string", what)
	}
	if n.Tag == "!!null" {
		return "", nil
	}
	return n.Value, nil
}

// stringMap reads labels or annotations.
func stringMap(n *yaml.Node, what string) (map[string]string, error) {
	var m map[string]string
	err := eachField(n, what, func(k string, v *yaml.Node) error {
		s, err := scalar(v, what+" "+k)
		if m == nil {
			m = map[string]string{}
		}
		m[k] = s
		return err
	})
	return m, err
}

func decodeMeta(n *yaml.Node, m *meta) error {
	return eachField(n, "metadata", func(k string, v *yaml.Node) (err error) {
		switch k {
		case "name":
			m.Name, err = scalar(v, "metadata.name")
		case "namespace":
			m.Namespace, err = scalar(v, "metadata.namespace")
		case "labels":
			m.Labels, err = stringMap(v, "metadata.labels")
		case "annotations":
			m.Annotations, err = stringMap(v, "metadata.annotations")
		}
		return err
	})
}

// decodeTemplate reads a pod template: its metadata and scheduler name.
func decodeTemplate(n *yaml.Node) (*template, error) {
	t := &template{}
	return t, eachField(n, "template", func(k string, v *yaml.Node) error {
		switch k {
		case "metadata":
			return decodeMeta(v, &t.Metadata)
		case "spec":
			return eachField(v, "template spec", func(k string, v *yaml.Node) (err error) {
				if k == "schedulerName" {
					t.Spec.SchedulerName, err = scalar(v, "schedulerName")
				}
				return err
			})
		}
		return nil
	})
}

// decodeObject reads the fields of a pod, a workload or a namespace that
// the shim and the admission controller read.
func decodeObject(n *yaml.Node) (*object, error) {
	o := &object{}
	err := eachField(n, "the manifest", func(k string, v *yaml.Node) (err error) {
		switch k {
		case "kind":
			o.Kind, err = scalar(v, "kind")
		case "metadata":
			err = decodeMeta(v, &o.Metadata)
		case "spec":
			err = eachField(v, "spec", func(k string, v *yaml.Node) (err error) {
				switch k {
				case "schedulerName":
					o.Spec.SchedulerName, err = scalar(v, "spec.schedulerName")
				case "template":
					o.Spec.Template, err = decodeTemplate(v)
				case "jobTemplate":
					o.Spec.JobTemplate = &jobTemplate{}
					err = eachField(v, "spec.jobTemplate", func(k string, v *yaml.Node) error {
						if k != "spec" {
							return nil
						}
						return eachField(v, "spec.jobTemplate.spec", func(k string, v *yaml.Node) (err error) {
							if k == "template" {
								o.Spec.JobTemplate.Spec.Template, err = decodeTemplate(v)
							}
							return err
						})
					})
				}
				return err
			})
		}
		return err
	})
	return o, err
}
