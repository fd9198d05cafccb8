package config

import (
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// FuzzLoad feeds arbitrary bytes to the loader as a raw config and as a
// ConfigMap manifest, and decodes whatever parses. Nothing may panic, and
// every position handed out must lie inside the file.
func FuzzLoad(f *testing.F) {
	seeds := []string{
		"partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: *\n",
		"partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n        adminacl: \"a  b\"\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: yunikorn-configs}\ndata:\n  queues.yaml: |\n    partitions:\n      - name: x\n        queues: [{name: root, submitacl: \"a\\tb\"}]\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  queues.yaml: \"partitions:\\n  - name: d\\n    queues:\\n      - {name: root, submitacl: *x}\\n\"\n",
		"a: &x {name: root}\npartitions: [{queues: [*x, {<<: *x, name: b}]}]\n",
		"partitions:\n- name: default\n  queues:\n  - name: root\n    submitacl: |\n      sue dev\n---\nfoo: bar\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := fromBytes("f.yaml", data, LoadOptions{}, true)
		if err != nil {
			return
		}
		all, _ := splitLines(string(normalize(data)))
		lines := len(all)
		for _, d := range docs {
			c := Decode(d)
			check := func(p Position) {
				if p.Line < 1 || p.Line > lines || p.Col < 1 {
					t.Fatalf("position %v outside the %d-line file", p, lines)
				}
			}
			for _, p := range append(append([]Problem(nil), d.Problems...), c.Problems...) {
				check(p.Pos)
			}
			for _, part := range c.Partitions {
				part.Root.Walk(func(q *Queue) {
					for _, s := range []Str{q.SubmitACL, q.AdminACL} {
						if s.Node != nil && s.Node.Kind == yaml.ScalarNode {
							for off := 0; off <= len(s.Value); off++ {
								check(d.ValuePos(s.Node, off))
							}
						}
					}
				})
			}
			checkQueues(t, c)
		}
	})
}

// checkQueues fails when a decoded queue has no Extra, or when the one
// Extra the queues without one share was written to: that would hand one
// queue's resources or limits to every other. It also holds LowerName,
// cut from the path, to the lower-cased name it stands for.
func checkQueues(t *testing.T, c *Config) {
	t.Helper()
	if !reflect.DeepEqual(noExtra, Extra{}) {
		t.Fatalf("the shared empty Extra was written: %+v", noExtra)
	}
	for _, part := range c.Partitions {
		part.Root.Walk(func(q *Queue) {
			if q.Extra == nil {
				t.Fatalf("queue %q has no Extra", q.Path())
			}
			if got, want := q.LowerName(), strings.ToLower(q.Name.Value); got != want {
				t.Fatalf("queue %q: LowerName %q, want %q", q.Path(), got, want)
			}
		})
	}
}

// TestExtraIsOwn decodes queues that write each Extra key beside queues
// that write none, and checks each keeps its own values.
func TestExtraIsOwn(t *testing.T) {
	text := `partitions:
  - name: default
    queues:
      - name: root
        queues:
          - name: a
            parent: true
            resources: {max: {memory: 1G}}
            maxapplications: 3
            properties: {x: y}
            limits: [{limit: l, users: [u], maxapplications: 1}]
          - name: b
          - name: c
            maxapplications: 5
            childtemplate: {maxapplications: 2}
          - name: d
            childtemplate: {maxapplications: 4}
          - name: Upper
            queues:
              - name: "Kelvin"
`
	c := Decode(Parse("t.yaml", []byte(text)))
	checkQueues(t, c)
	root := c.Partitions[0].Root
	a, b, cq := root.Child("a"), root.Child("b"), root.Child("c")
	if a.MaxApplications != 3 || a.Max.Entries["memory"] != "1G" || a.Properties.Entries["x"] != "y" || len(a.Limits) != 1 || a.ParentNode == nil {
		t.Errorf("a lost its keys: %+v", *a.Extra)
	}
	if b.Extra != &noExtra || b.MaxApplications != 0 || b.Max.Entries != nil {
		t.Errorf("b should share the empty Extra: %+v", *b.Extra)
	}
	if cq.MaxApplications != 5 || cq.Max.Entries != nil || cq.Extra == a.Extra {
		t.Errorf("c should have its own Extra with maxapplications alone: %+v", *cq.Extra)
	}
	if d := root.Child("d"); cq.Template == nil || cq.TemplateMaxApps != 2 || d.TemplateMaxApps != 4 || a.Template != nil || b.Template != nil {
		t.Errorf("only c and d have a childtemplate: a %v, b %v, c %v, d %v", a.Template, b.Template, cq.Template, d.Template)
	}
}
