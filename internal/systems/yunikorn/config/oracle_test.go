package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	ykyaml "go.yaml.in/yaml/v3"
	"gopkg.in/yaml.v3"
)

// The oracle is the YAML library YuniKorn itself reads its config with:
// go.yaml.in/yaml/v3 at the version yunikorn-core pins (v3.0.4, see go.mod),
// the maintained home of yaml.v3. aclint parses with gopkg.in/yaml.v3; the
// fuzz targets below compare the two, so that a difference between them is
// found rather than assumed away.

// yunikornDecodes reports whether YuniKorn's strict decode accepts text.
func yunikornDecodes(text string) bool {
	dec := ykyaml.NewDecoder(bytes.NewReader([]byte(text)))
	dec.KnownFields(true)
	var c coreConfig // compare.go: the structs YuniKorn decodes into
	err := dec.Decode(&c)
	return err == nil || errors.Is(err, io.EOF)
}

// aclintDecodes reports whether aclint's loader finds no YAML or decode
// problem in text.
func aclintDecodes(text string) bool {
	doc := Parse("t.yaml", []byte(text))
	c := Decode(doc)
	return len(doc.Problems) == 0 && len(c.Problems) == 0
}

var decodeCases = []string{
	"partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n",
	"partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: *\n",
	"partitions:\n  - name: default\n    queues:\n      - name: root\n        submitACL: x\n",
	"partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: [a, b]\n",
	"partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: {a: b}\n",
	"partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: yes\n        adminacl: 0x1F\n",
	"partitions:\n  - name: default\n    queues:\n      - name: root\n        parent: yes\n",
	"partitions:\n  - name: default\n    queues:\n      - name: root\n        parent: on\n",
	"partitions:\n  - name: default\n    queues:\n      - name: root\n        parent: \"true\"\n",
	"partitions:\n  - name: default\n    queues:\n      - name: root\n        parent: 1\n",
	"partitions:\n  - name: default\n    queues:\n      - name: root\n        maxapplications: -1\n",
	"partitions:\n  - name: default\n    queues:\n      - name: root\n        maxapplications: 1.5\n",
	"partitions:\n  - name: default\n    queues:\n      - name: root\n        maxapplications: ten\n",
	"partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: a\n        submitacl: b\n",
	"partitions:\n  - name: default\n    queues:\n      - name: root\n        properties: {a: 1, b: [x]}\n",
	"partitions:\n  - name: default\n    queues:\n      - name: root\n        resources: {max: {memory: 1G}, min: {}}\n",
	"partitions:\n  - name: default\n    queues: foo\n",
	"partitions:\n  - name: default\n    queues: {name: root}\n",
	"partitions: {name: default}\n",
	"partitions:\n  -\n",
	"partitions:\n  - name: [a]\n",
	"partitions:\n  - name: default\n    usergroupresolver: {type: ldap, host: x}\n",
	"partitions:\n  - name: default\n    usergroupresolver: ldap\n",
	"partitions:\n  - name: default\n    preemption: {enabled: maybe}\n",
	"partitions:\n  - name: default\n    nodesortpolicy: {type: fair, resourceweights: {memory: high}}\n",
	"partitions:\n  - name: default\n    placementrules:\n      - name: tag\n        create: 'yes'\n        filter: {type: allow, users: alice}\n",
	"partitions:\n  - name: default\n    placementrules:\n      - {name: user, parent: {name: fixed, value: x, filter: {bad: 1}}}\n",
	"partitions:\n  - name: default\n    limits:\n      - {limit: x, users: [a], maxapplications: 2, maxresources: {memory: 1G}}\n",
	"partitions:\n  - name: default\n    limits:\n      - {limit: x, user: [a]}\n",
	"checksum: abc\npartitions: []\n",
	"partitions:\n  - &q {name: root}\n  - <<: *q\n    queues: [*q]\n",
	"base: &b {name: root}\npartitions:\n  - queues: [*b]\n",
	"partitions:\n  - name: default\n    queues:\n      - <<: {name: root, submitacl: x}\n        name: root\n",
	"partitions:\n  - name: default\n    queues:\n      - name: root\n        queues: &p\n          - name: a\n            queues: *p\n",
	"partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: !!binary aGVsbG8=\n",
	"",
	"# just a comment\n",
	"partitions:\n  - name: default\n---\nfoo: bar\n",
	"partitions:\n\t- name: default\n",
	"partitions: [\n",
	"partitions:\n  - name: \"unterminated\n",
}

// TestDecodeParity holds aclint's decoder to yaml.v3's strict decode into
// YuniKorn's structs: the same documents must be accepted and rejected.
func TestDecodeParity(t *testing.T) {
	for _, text := range decodeCases {
		if got, want := aclintDecodes(text), yunikornDecodes(text); got != want {
			doc := Parse("t.yaml", []byte(text))
			t.Errorf("aclint decodes=%v, yaml.v3 strict=%v for:\n%s\nproblems: %v %v", got, want, text, doc.Problems, Decode(doc).Problems)
		}
	}
}

// FuzzDecodeParity extends TestDecodeParity to arbitrary documents, and
// checks that the two YAML libraries read each document into the same tree
// (or both fail, with the same message).
func FuzzDecodeParity(f *testing.F) {
	for _, c := range decodeCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := aclintDecodes(text), yunikornDecodes(text); got != want {
			t.Fatalf("aclint decodes=%v, go.yaml.in/yaml/v3 strict=%v for %q", got, want, text)
		}
		if a, b := gopkgTree(text), ykTree(text); a != b {
			t.Fatalf("gopkg.in/yaml.v3 and go.yaml.in/yaml/v3 read %q differently:\n%s\n---\n%s", text, a, b)
		}
	})
}

// TestLibrariesAgree runs the library comparison on the fixed cases, so
// make test checks it without fuzzing.
func TestLibrariesAgree(t *testing.T) {
	for _, text := range decodeCases {
		if a, b := gopkgTree(text), ykTree(text); a != b {
			t.Errorf("gopkg.in/yaml.v3 and go.yaml.in/yaml/v3 read %q differently:\n%s\n---\n%s", text, a, b)
		}
	}
}

// gopkgTree and ykTree render what each library parses: every node's kind,
// style, tag, value and position, or the error.
func gopkgTree(text string) string {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(text), &n); err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	var walk func(*yaml.Node, int)
	walk = func(n *yaml.Node, depth int) {
		if depth > 200 {
			return
		}
		fmt.Fprintf(&b, "%d %d %q %q %d:%d %q|", n.Kind, n.Style, n.Tag, n.Value, n.Line, n.Column, n.Anchor)
		if n.Alias != nil {
			fmt.Fprintf(&b, "->%q|", n.Alias.Anchor)
		}
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(&n, 0)
	return b.String()
}

func ykTree(text string) string {
	var n ykyaml.Node
	if err := ykyaml.Unmarshal([]byte(text), &n); err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	var walk func(*ykyaml.Node, int)
	walk = func(n *ykyaml.Node, depth int) {
		if depth > 200 {
			return
		}
		fmt.Fprintf(&b, "%d %d %q %q %d:%d %q|", n.Kind, n.Style, n.Tag, n.Value, n.Line, n.Column, n.Anchor)
		if n.Alias != nil {
			fmt.Fprintf(&b, "->%q|", n.Alias.Anchor)
		}
		for _, c := range n.Content {
			walk(c, depth+1)
		}
	}
	walk(&n, 0)
	return b.String()
}
