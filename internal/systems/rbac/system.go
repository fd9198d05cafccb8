package rbac

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/aclint/aclint/internal/engine"
)

// System is the system's name, as rules and --system name it.
const System = "rbac"

// Sys is Kubernetes RBAC as an engine.System: manifest files holding
// Roles, ClusterRoles and bindings, linted for what the API server
// refuses on apply.
type Sys struct{}

// Name is the system's name.
func (Sys) Name() string { return System }

// rbacKindRe finds a document (or List item) of an RBAC kind, in YAML or
// JSON; coreKindRe a Namespace or ServiceAccount, which RBAC questions
// read too; configMapRe a ConfigMap, whose file is YuniKorn's to read.
var (
	rbacKindRe  = regexp.MustCompile(`(?m)(^\s*(- )?kind:\s*["']?(Cluster)?Role(Binding)?["']?\s*$)|("kind"\s*:\s*"(Cluster)?Role(Binding)?")`)
	coreKindRe  = regexp.MustCompile(`(?m)(^\s*(- )?kind:\s*["']?(Namespace|ServiceAccount)["']?\s*$)|("kind"\s*:\s*"(Namespace|ServiceAccount)")`)
	configMapRe = regexp.MustCompile(`(?m)(^\s*(- )?kind:\s*["']?ConfigMap["']?\s*$)|("kind"\s*:\s*"ConfigMap")`)
)

// Detect takes Kubernetes manifests with an RBAC object, a Namespace or
// a ServiceAccount, and no ConfigMap (a file with a YuniKorn ConfigMap is
// YuniKorn's).
func (Sys) Detect(in *engine.Input) bool {
	rbac := strings.Contains(string(in.Data), Group) && rbacKindRe.Match(in.Data)
	return (rbac || coreKindRe.Match(in.Data)) && !configMapRe.Match(in.Data)
}

// Lint reads one manifest file and reports what the API server refuses.
func (Sys) Lint(in *engine.Input, _ engine.Options) (*engine.Report, error) {
	s := NewSet()
	if err := Read(s, in.Path, in.Data); err != nil {
		s.Findings = append(s.Findings, notYAML(in.Path, err))
	}
	return &engine.Report{Findings: s.Findings, Sources: map[string][]string{in.Path: strings.Split(string(in.Data), "\n")}, Configs: 1, Parsed: s}, nil
}

// yamlLineRe finds the line in yaml.v3's error text.
var yamlLineRe = regexp.MustCompile(`line (\d+)`)

// notYAML is a file kubectl cannot read, at the line the parser names.
func notYAML(file string, err error) engine.Finding {
	line := 1
	if m := yamlLineRe.FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
	}
	msg := strings.TrimPrefix(err.Error(), file+": ")
	return engine.Finding{Rule: ruleMalformed, Severity: engine.Error, Pos: engine.Position{File: file, Line: line, Col: 1},
		Message: fmt.Sprintf("%s: kubectl apply refuses the file", msg)}
}

// Extensions: manifests are YAML or JSON.
func (Sys) Extensions() []string { return []string{".yaml", ".yml", ".json"} }

// Inputs says what RBAC files look like.
func (Sys) Inputs() string {
	return "Kubernetes RBAC manifests (Role, ClusterRole, RoleBinding, ClusterRoleBinding of rbac.authorization.k8s.io)"
}

// Refuses says what an error means for this system.
func (Sys) Refuses() string { return "RBAC objects the Kubernetes API server refuses on apply" }

// Rules are the system's rules, sorted by name.
func (Sys) Rules() []*engine.Rule { return Rules().All() }

// exampleFile is the name examples are linted under.
const exampleFile = "rbac.yaml"

// Example lints a rule's example as `aclint lint rbac.yaml`.
func (Sys) Example(_ *engine.Rule, text string) engine.Example {
	return engine.Example{Command: "aclint lint -f " + exampleFile, Input: &engine.Input{Path: exampleFile, Data: []byte(text), Explicit: true, Arg: exampleFile}}
}

// ExampleBlock shows an example as YAML.
func (Sys) ExampleBlock(_ *engine.Rule, text string) string { return "```yaml\n" + text + "```\n" }

// ExampleFile is the name examples are shown as.
func (Sys) ExampleFile(*engine.Rule) string { return exampleFile }
