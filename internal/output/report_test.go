package output

import (
	"net/url"

	"github.com/aclint/aclint/internal/systems/yunikorn"

	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aclint/aclint/internal/engine"
	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// fixture lints the shared fixture files the way `aclint lint` does.
func fixture(t *testing.T) *Report {
	t.Helper()
	r := &Report{Sources: Sources{}, Rules: testRegistry.Rules(),
		Tool: Tool{Name: "aclint", Version: "test", InformationURI: "https://github.com/aclint/aclint",
			RulesURI: "https://github.com/aclint/aclint/blob/main/docs/rules.md"},
		WorkDir: "/work/repo"}
	for _, name := range []string{"fixture-queues.yaml", "fixture-cm.yaml", "fixture-clean.yaml"} {
		path := "testdata/" + name
		docs, err := config.Load(path, config.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			r.Findings = append(r.Findings, yunikorn.Lint(config.Decode(d))...)
			r.Sources[d.File] = d.Lines()
			r.Files = append(r.Files, d.File)
		}
	}
	engine.Sort(r.Findings)
	if len(r.Findings) < 5 {
		t.Fatalf("the fixture should produce findings of several kinds, got %v", r.Findings)
	}
	return r
}

// TestGolden compares every format with its golden file from one shared
// fixture. Refresh with: go test ./internal/output -update
func TestGolden(t *testing.T) {
	r := fixture(t)
	for _, name := range FormatNames() {
		var b bytes.Buffer
		if err := Formats[name](&b, r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		golden := filepath.Join("testdata", "golden."+name)
		if *update {
			if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test ./internal/output -update)", err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			got, exp := strings.Split(b.String(), "\n"), strings.Split(string(want), "\n")
			i := 0
			for i < len(got) && i < len(exp) && got[i] == exp[i] {
				i++
			}
			line := func(l []string) string {
				if i < len(l) {
					return l[i]
				}
				return "<end>"
			}
			t.Errorf("%s output differs from %s at line %d:\n got: %s\nwant: %s\nrun go test ./internal/output -update and review the diff", name, golden, i+1, line(got), line(exp))
		}
	}
}

// The machine-readable formats must parse, and say what GitHub, GitLab and
// CI servers require.
func TestFormatsAreWellFormed(t *testing.T) {
	r := fixture(t)
	render := func(name string) []byte {
		var b bytes.Buffer
		if err := Formats[name](&b, r); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	var sarif map[string]any
	if err := json.Unmarshal(render("sarif"), &sarif); err != nil {
		t.Fatalf("sarif: %v", err)
	}
	run := sarif["runs"].([]any)[0].(map[string]any)
	rules := run["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any)
	if len(rules) != len(testRegistry.Rules()) {
		t.Errorf("sarif: %d rules, want all %d", len(rules), len(testRegistry.Rules()))
	}
	for _, res := range run["results"].([]any) {
		res := res.(map[string]any)
		idx := int(res["ruleIndex"].(float64))
		if rules[idx].(map[string]any)["id"] != res["ruleId"] {
			t.Errorf("sarif: ruleIndex %d does not point at %v", idx, res["ruleId"])
		}
		loc := res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
		reg := loc["region"].(map[string]any)
		for _, k := range []string{"startLine", "startColumn", "endLine", "endColumn"} {
			if reg[k] == nil {
				t.Errorf("sarif: region without %s", k)
			}
		}
		if reg["endColumn"].(float64) <= reg["startColumn"].(float64) {
			t.Errorf("sarif: empty region %v", reg)
		}
		if uri := loc["artifactLocation"].(map[string]any)["uri"].(string); strings.Contains(uri, `\`) {
			t.Errorf("sarif: uri %q must use /", uri)
		}
		if res["partialFingerprints"].(map[string]any)["primaryLocationLineHash"] == "" {
			t.Error("sarif: missing fingerprint")
		}
	}
	var gl []map[string]any
	if err := json.Unmarshal(render("gitlab"), &gl); err != nil || len(gl) != len(r.Findings) {
		t.Fatalf("gitlab: %v, %d issues", err, len(gl))
	}
	seen := map[any]bool{}
	for _, is := range gl {
		if seen[is["fingerprint"]] {
			t.Errorf("gitlab: duplicate fingerprint %v", is["fingerprint"])
		}
		seen[is["fingerprint"]] = true
	}
	for _, name := range []string{"checkstyle", "junit"} {
		var v any
		if err := xml.Unmarshal(render(name), &v); err != nil {
			t.Errorf("%s: not XML: %v", name, err)
		}
	}
	var ju struct {
		Suites []struct {
			Cases []struct {
				Name     string     `xml:"name,attr"`
				Failures []struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	_ = xml.Unmarshal(render("junit"), &ju)
	if len(ju.Suites) != 1 || len(ju.Suites[0].Cases) != 3 {
		t.Fatalf("junit: want one test case per file (3), got %+v", ju)
	}
	total := 0
	for _, c := range ju.Suites[0].Cases {
		total += len(c.Failures)
	}
	if total != len(r.Findings) {
		t.Errorf("junit: %d failures for %d findings", total, len(r.Findings))
	}
}

// GitHub's workflow command escaping: % in messages, and also : and , in
// property values. A newline, a carriage return or an escape character of
// the config's own is written as \n, \r, \x1b: one annotation is one line,
// and the hint's own line break is the only %0A.
func TestGitHubEscaping(t *testing.T) {
	r := &Report{Sources: Sources{"a:b,c.yaml": {"x: 1"}}, Findings: []engine.Finding{{
		Rule: "r", Severity: engine.Info, Pos: config.Position{File: "a:b,c.yaml", Line: 1, Col: 1},
		Message: "100% sure\r\n::error::really\x1b[2J", Hint: "h"}}}
	var b bytes.Buffer
	if err := GitHub(&b, r); err != nil {
		t.Fatal(err)
	}
	want := "::notice file=a%3Ab%2Cc.yaml,line=1,col=1,endColumn=1,title=aclint r::100%25 sure\\r\\n::error::really\\x1b[2J%0Ahint: h\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}

// TestGitHubFileNameNewline: a file name's newline is written as the
// runner's %0A, which it decodes back to the name, never as a literal \n
// (a file that does not exist) nor as itself (a workflow command of its
// own).
func TestGitHubFileNameNewline(t *testing.T) {
	name := "a\n::error::x.yaml"
	r := &Report{Sources: Sources{name: {"x: 1"}}, Findings: []engine.Finding{{
		Rule: "r", Severity: engine.Info, Pos: config.Position{File: name, Line: 1, Col: 1}, Message: "m"}}}
	var b bytes.Buffer
	if err := GitHub(&b, r); err != nil {
		t.Fatal(err)
	}
	want := "::notice file=a%0A%3A%3Aerror%3A%3Ax.yaml,line=1,col=1,endColumn=1,title=aclint r::m\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}

// TestSARIFTagsBySystem: each rule is tagged with the system it checks,
// not with YuniKorn for every rule; the engine's own rules with aclint.
func TestSARIFTagsBySystem(t *testing.T) {
	r := &Report{Sources: Sources{}, Rules: []*engine.Rule{
		{Name: "yarn-x", System: "yarn", Severity: engine.Warning, Summary: "a YARN rule"},
		{Name: "engine-x", Severity: engine.Error, Summary: "the engine's rule"},
	}}
	var b bytes.Buffer
	if err := SARIF(&b, r); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID         string
						Properties struct{ Tags []string }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"yarn-x": "yarn", "engine-x": "aclint"}
	for _, rule := range out.Runs[0].Tool.Driver.Rules {
		if len(rule.Properties.Tags) == 0 || rule.Properties.Tags[0] != want[rule.ID] {
			t.Errorf("%s: tags %v, want %s first", rule.ID, rule.Properties.Tags, want[rule.ID])
		}
	}
}

// testRegistry holds YuniKorn alone: the fixtures are its configs.
var testRegistry = engine.NewRegistry(yunikorn.System, yunikorn.Sys{})

// TestSARIFURIsAreEncoded: a file name with a space, quotes, a newline, a
// '#', a '%' or a ':' gives a valid URI reference that names that file.
func TestSARIFURIsAreEncoded(t *testing.T) {
	name := "deploy/my queues \"x\"\n#1 100%:a.yaml"
	r := &Report{Sources: Sources{name: {"x: 1"}}, WorkDir: "/work/my repo", Findings: []engine.Finding{{
		Rule: "r", Severity: engine.Info, Pos: config.Position{File: name, Line: 1, Col: 1}, Message: "m"}}}
	var b bytes.Buffer
	if err := SARIF(&b, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Invocations []struct{ WorkingDirectory struct{ URI string } }
			Results     []struct {
				Locations []struct {
					PhysicalLocation struct{ ArtifactLocation struct{ URI string } }
				}
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	uri := doc.Runs[0].Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URI
	if want := "deploy/my%20queues%20%22x%22%0A%231%20100%25%3Aa.yaml"; uri != want {
		t.Errorf("uri %q, want %q", uri, want)
	}
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "" || u.Path != name {
		t.Errorf("%q reads back as %+v (%v)", uri, u, err)
	}
	if wd := doc.Runs[0].Invocations[0].WorkingDirectory.URI; wd != "file:///work/my%20repo/" {
		t.Errorf("working directory %q", wd)
	}
}
