package yunikorn

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
	"github.com/aclint/aclint/internal/vectors"
)

// The JSON Schema of queues.yaml (config.JSONSchema) against YuniKorn's
// judgement: the conformance vectors and aclint's error rules. The schema and
// the decoder's keys are compared in internal/systems/yunikorn/config; the node test in
// testdata/schema checks the schema with ajv and the YAML parser editors use.

// compiledSchema compiles JSONSchema with a real JSON Schema validator.
func compiledSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(config.JSONSchema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	if err := c.AddResource(config.SchemaURL, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(config.SchemaURL)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// yamlInstance turns a config's first YAML document into the JSON value a
// schema validator sees, as yaml.v3 reads it (aliases and merge keys
// expanded). ok is false when the text is not YAML.
func yamlInstance(text string) (any, bool) {
	var v any
	if err := yaml.Unmarshal([]byte(text), &v); err != nil {
		return nil, false
	}
	return jsonValue(v), true
}

func jsonValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = jsonValue(x)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[fmt.Sprint(k)] = jsonValue(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = jsonValue(x)
		}
		return out
	case int:
		return json.Number(strconv.Itoa(v))
	case int64:
		return json.Number(strconv.FormatInt(v, 10))
	case uint64:
		return json.Number(strconv.FormatUint(v, 10))
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return json.Number("1e308") // a number, as an editor reads .inf
		}
		return json.Number(strconv.FormatFloat(v, 'g', -1, 64))
	case string, bool, nil:
		return v
	}
	return fmt.Sprint(v)
}

// conformanceConfigs returns every config of the conformance vectors with
// whether YuniKorn accepts it (the limits vectors are all accepted configs).
func conformanceConfigs(t *testing.T) (configs []string, valid []bool) {
	t.Helper()
	vectors.Each(t, []string{"../../../testdata/conformance/*.jsonl", "../../../testdata/conformance/*/*.jsonl"},
		func(_ string, _ int, v *struct {
			Config string `json:"config"`
			Valid  *bool  `json:"valid"`
		}) {
			configs = append(configs, v.Config)
			valid = append(valid, v.Valid == nil || *v.Valid)
		})
	return configs, valid
}

// TestSchemaAcceptsWhatYuniKornAccepts validates every config of the
// conformance vectors that YuniKorn accepts against the schema: it must never
// raise a false alarm. Configs YuniKorn refuses are counted, not required to
// fail: the exact judgement is aclint lint's.
func TestSchemaAcceptsWhatYuniKornAccepts(t *testing.T) {
	s := compiledSchema(t)
	configs, valid := conformanceConfigs(t)
	accepted, caught, refused := 0, 0, 0
	for i, text := range configs {
		inst, ok := yamlInstance(text)
		if !ok {
			if valid[i] {
				t.Errorf("accepted config is not YAML to yaml.v3:\n%s", text)
			}
			refused++ // not YAML: nothing for a schema to check
			continue
		}
		err := s.Validate(inst)
		if valid[i] {
			accepted++
			if err != nil {
				t.Errorf("the schema flags a config YuniKorn accepts: %v\n%s", err, text)
			}
			continue
		}
		refused++
		if err != nil {
			caught++
		}
	}
	if accepted < 1000 {
		t.Fatalf("only %d accepted configs: the vectors were not read", accepted)
	}
	t.Logf("%d configs YuniKorn accepts checked against the schema; of %d it refuses, the schema flags %d", accepted, refused, caught)
}

// schemaTwins are configs YuniKorn refuses for a reason the schema can see,
// each with a twin it accepts.
var schemaTwins = []struct{ bad, good string }{
	{"partitions:\n  - name: default\n    queues:\n      - name: root\n        submitACL: '*'\n",
		"partitions:\n  - name: default\n    queues:\n      - name: root\n        submitacl: '*'\n"},
	{"partitions:\n  - queues:\n      - name: root\n        queues:\n          - name: a.b\n",
		"partitions:\n  - queues:\n      - name: root\n        queues:\n          - name: a_b\n"},
	{"partitions:\n  - queues: [{name: root}]\n    nodesortpolicy: {type: BinPacking}\n",
		"partitions:\n  - queues: [{name: root}]\n    nodesortpolicy: {type: binpacking}\n"},
	{"partitions:\n  - queues: [{name: root}]\n    placementrules:\n      - name: fixed-queue\n        value: root.a\n",
		"partitions:\n  - queues: [{name: root, queues: [{name: a}]}]\n    placementrules:\n      - name: Fixed\n        value: root.a\n"},
	{"partitions:\n  - queues: [{name: root}]\n    placementrules:\n      - name: user\n        filter: {type: allowed}\n",
		"partitions:\n  - queues: [{name: root}]\n    placementrules:\n      - name: user\n        filter: {type: ALLOW}\n"},
	{"partitions:\n  - queues: [{name: root, queues: [{name: a, parent: \"true\"}]}]\n",
		"partitions:\n  - queues: [{name: root, queues: [{name: a, parent: yes}]}]\n"},
	{"partitions:\n  - queues: [{name: root, queues: [{name: a, maxapplications: ten}]}]\n",
		"partitions:\n  - queues: [{name: root, queues: [{name: a, maxapplications: 1_000}]}]\n"},
	{"partitions:\n  - name: default\n", "partitions:\n  - name: default\n    queues: []\n"},
	// negatives YuniKorn refuses: a uint64 and a resource weight
	{"partitions:\n  - name: default\n    queues:\n      - name: root\n        maxapplications: -1\n", "partitions:\n  - name: default\n    queues:\n      - name: root\n        maxapplications: 0\n"},
	{"partitions:\n  - name: default\n    queues:\n      - name: root\n    nodesortpolicy:\n      type: binpacking\n      resourceweights: {memory: -1}\n",
		"partitions:\n  - name: default\n    queues:\n      - name: root\n    nodesortpolicy:\n      type: binpacking\n      resourceweights: {memory: 0.5}\n"},
	{"partitions:\n  - queues:\n      - submitacl: '*'\n", "partitions:\n  - queues:\n      - name: root\n        submitacl: '*'\n"},
}

// TestSchemaFlags shows the schema is not vacuous: configs YuniKorn refuses
// for a reason the schema can see fail it, and their YuniKorn-accepted
// twins pass.
func TestSchemaFlags(t *testing.T) {
	s := compiledSchema(t)
	for _, c := range schemaTwins {
		bad, _ := yamlInstance(c.bad)
		if s.Validate(bad) == nil {
			t.Errorf("the schema accepts a config YuniKorn refuses:\n%s", c.bad)
		}
		good, _ := yamlInstance(c.good)
		if err := s.Validate(good); err != nil {
			t.Errorf("the schema flags a config YuniKorn accepts: %v\n%s", err, c.good)
		}
		// and YuniKorn's judgement, as aclint has it, is the one claimed
		if len(Errors(config.Decode(config.Parse("bad.yaml", []byte(c.bad))))) == 0 {
			t.Errorf("aclint finds no error in the bad twin, so the case proves nothing:\n%s", c.bad)
		}
		if errs := Errors(config.Decode(config.Parse("good.yaml", []byte(c.good)))); len(errs) > 0 {
			t.Errorf("aclint finds errors in the good twin: %v\n%s", errs[0].Message, c.good)
		}
	}
}

// TestSchemaInEditorValidator runs the schema where editors run it: in
// yaml-language-server's language service (testdata/schema/validate.mjs,
// installed by `make schema-tools`), whose YAML parser reads YAML 1.2 where
// yaml.v3 reads some YAML 1.1. Every config YuniKorn accepts among the
// conformance vectors gets no schema diagnostic; the bad twins get one.
func TestSchemaInEditorValidator(t *testing.T) {
	const dir = "../../../testdata/schema"
	if _, err := os.Stat(filepath.Join(dir, "node_modules/yaml-language-server/package.json")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("yaml-language-server is missing in CI (make schema-tools)")
		}
		t.Skip("yaml-language-server is not installed: run `make schema-tools` (needs npm)")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is missing in CI")
		}
		t.Skip("node is not installed")
	}
	configs, valid := conformanceConfigs(t)
	texts := append([]string(nil), configs...)
	for _, c := range schemaTwins {
		texts = append(texts, c.bad, c.good)
	}
	tmp := t.TempDir()
	schemaFile, casesFile := filepath.Join(tmp, "queues.schema.json"), filepath.Join(tmp, "cases.json")
	cases, _ := json.Marshal(texts)
	if err := os.WriteFile(schemaFile, config.JSONSchema(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(casesFile, cases, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join(dir, "validate.mjs"), schemaFile, casesFile)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node validate.mjs: %v\n%s", err, stderr.String())
	}
	var diags [][]string
	if err := json.Unmarshal(out, &diags); err != nil || len(diags) != len(texts) {
		t.Fatalf("validate.mjs gave %d results for %d texts (%v)", len(diags), len(texts), err)
	}
	accepted, refused, caught := 0, 0, 0
	for i := range configs {
		if valid[i] {
			accepted++
			if len(diags[i]) > 0 {
				t.Errorf("yaml-language-server flags a config YuniKorn accepts: %v\n%s", diags[i], configs[i])
			}
			continue
		}
		refused++
		if len(diags[i]) > 0 {
			caught++
		}
	}
	for i, c := range schemaTwins {
		if bad := diags[len(configs)+2*i]; len(bad) == 0 {
			t.Errorf("yaml-language-server accepts a config YuniKorn refuses:\n%s", c.bad)
		}
		if good := diags[len(configs)+2*i+1]; len(good) > 0 {
			t.Errorf("yaml-language-server flags a config YuniKorn accepts: %v\n%s", good, c.good)
		}
	}
	t.Logf("yaml-language-server: %d configs YuniKorn accepts checked; of %d it refuses, the schema flags %d", accepted, refused, caught)
}
