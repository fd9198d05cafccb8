package config

import (
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
		}
	})
}
