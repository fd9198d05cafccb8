package ytsaurus

import "github.com/aclint/aclint/internal/engine"

// exampleFile is the name YTsaurus examples are linted under.
const exampleFile = "tree.yaml"

// Example lints a rule's example as `aclint lint tree.yaml`.
func (Sys) Example(_ *engine.Rule, text string) (string, []engine.Finding, map[string][]string) {
	d := Parse(exampleFile, []byte(text))
	return "aclint lint " + exampleFile, Lint(d, Options{}), map[string][]string{exampleFile: d.Lines()}
}

// ExampleBlock shows an example as YAML.
func (Sys) ExampleBlock(_ *engine.Rule, text string) string { return "```yaml\n" + text + "```\n" }

// ExampleFile is the name examples are shown as.
func (Sys) ExampleFile(*engine.Rule) string { return exampleFile }
