package output

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemaPath is where `make sarif-schema` puts the official SARIF 2.1.0
// schema (taken from the npm registry, not committed).
const schemaPath = "testdata/schema/sarif-schema-2.1.0.json"

// TestSARIFSchema validates aclint's SARIF output against the SARIF 2.1.0
// JSON schema. CI always has the schema; elsewhere the test says how to get
// it.
func TestSARIFSchema(t *testing.T) {
	raw, err := os.ReadFile(schemaPath)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the SARIF schema is missing in CI: %v (make sarif-schema)", err)
		}
		t.Skipf("no SARIF 2.1.0 schema at %s: run `make sarif-schema` to fetch it", schemaPath)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := SARIF(&out, fixture(t)); err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(out.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Fatalf("aclint's SARIF does not validate against SARIF 2.1.0: %v", err)
	}
	// and a document that breaks the schema is caught, so the test can fail
	var broken map[string]any
	_ = json.Unmarshal(out.Bytes(), &broken)
	broken["version"] = "2.0"
	b, _ := json.Marshal(broken)
	bad, _ := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if schema.Validate(bad) == nil {
		t.Fatal("the schema accepted version 2.0: the validation is not working")
	}
}
