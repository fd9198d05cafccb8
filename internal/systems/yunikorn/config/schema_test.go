package config

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// schemaLocations places a mapping of each struct in a config: the text
// with %s where the mapping's one key: value line goes, at its indentation.
var schemaLocations = map[string]string{
	"scheduler":         "%s\n",
	"partition":         "partitions:\n  - %s\n",
	"queue":             "partitions:\n  - queues:\n      - %s\n",
	"resources":         "partitions:\n  - queues:\n      - resources:\n          %s\n",
	"childtemplate":     "partitions:\n  - queues:\n      - childtemplate:\n          %s\n",
	"rule":              "partitions:\n  - placementrules:\n      - %s\n",
	"filter":            "partitions:\n  - placementrules:\n      - filter:\n          %s\n",
	"limit":             "partitions:\n  - limits:\n      - %s\n",
	"usergroupresolver": "partitions:\n  - usergroupresolver:\n      %s\n",
	"preemption":        "partitions:\n  - preemption:\n      %s\n",
	"nodesortpolicy":    "partitions:\n  - nodesortpolicy:\n      %s\n",
}

// schemaProperties reads the generated schema's keys per struct.
func schemaProperties(t *testing.T) map[string]map[string]any {
	t.Helper()
	var doc struct {
		Properties  map[string]any `json:"properties"`
		Definitions map[string]struct {
			Properties map[string]any `json:"properties"`
		} `json:"definitions"`
	}
	if err := json.Unmarshal(JSONSchema(), &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{"scheduler": doc.Properties}
	for name, d := range doc.Definitions {
		out[name] = d.Properties
	}
	return out
}

func decodeText(t *testing.T, text string) *Config {
	t.Helper()
	docs, err := fromBytes("schema.yaml", []byte(text), LoadOptions{}, true)
	if err != nil || len(docs) != 1 {
		t.Fatalf("%q: %v", text, err)
	}
	return Decode(docs[0])
}

func hasProblem(c *Config, kind ProblemKind) bool {
	for _, p := range c.Problems {
		if p.Kind == kind {
			return true
		}
	}
	return false
}

// TestSchemaKeysAreTheDecoders proves that the JSON Schema and the decoder
// agree on the keys: at every place of the config, a key is accepted by the
// decoder exactly when the schema lists it, and every key the schema lists is
// read (a value of the wrong type there is reported).
func TestSchemaKeysAreTheDecoders(t *testing.T) {
	props := schemaProperties(t)
	if len(props) != len(Structs) || len(schemaLocations) != len(Structs) {
		t.Fatalf("schema has %d structs, the model %d, the test places %d", len(props), len(Structs), len(schemaLocations))
	}
	// candidates: every key of every struct, as written and in the
	// spellings people try, the queue properties and some strangers
	seen := map[string]bool{}
	var candidates []string
	add := func(k string) {
		if !seen[k] {
			seen[k] = true
			candidates = append(candidates, k)
		}
	}
	keySets := [][]string{schedulerKeys, partitionKeys, queueKeys, resourceKeys, templateKeys, ruleKeys,
		filterKeys, limitKeys, resolverKeys, preemptKeys, nodeSortKeys}
	for _, s := range Structs {
		keySets = append(keySets, s.Keys())
	}
	for _, set := range keySets {
		for _, k := range set {
			add(k)
			add(strings.ToUpper(k[:1]) + k[1:])
			add(strings.ToUpper(k))
		}
	}
	for _, k := range append(PropertyNames, "submitACL", "adminACL", "maxApplications", "placementRules", "childTemplate",
		"userGroupResolver", "nodeSortPolicy", "maxResources", "acl", "type", "foo", "queue", "partition", "rules", "<<x") {
		add(k)
	}
	sort.Strings(candidates)
	for name, loc := range schemaLocations {
		keys := props[name]
		if keys == nil {
			t.Fatalf("the schema has no struct %q", name)
		}
		for _, k := range candidates {
			c := decodeText(t, fmt.Sprintf(loc, strconv.Quote(k)+": ~"))
			accepted := !hasProblem(c, UnknownKey)
			_, inSchema := keys[k]
			if accepted != inSchema {
				t.Errorf("%s: key %q: decoder accepts it: %v, schema lists it: %v", name, k, accepted, inSchema)
			}
		}
		for k := range keys {
			f := fieldOf(t, name, k)
			wrong := "[x]"
			if f.Kind == KindList || f.Kind == KindStringList {
				wrong = "{a: b}"
			}
			c := decodeText(t, fmt.Sprintf(loc, k+": "+wrong))
			if !hasProblem(c, WrongType) {
				t.Errorf("%s.%s: %s is not reported: the decoder does not read the key", name, k, wrong)
			}
		}
	}
}

func fieldOf(t *testing.T, structName, key string) Field {
	for _, f := range StructNamed(structName).Fields {
		if f.Key == key {
			return f
		}
	}
	t.Fatalf("%s has no field %s", structName, key)
	return Field{}
}
