package mesos

import "github.com/aclint/aclint/internal/engine"

// exampleFile is the name Mesos examples are linted under.
const exampleFile = "acls.json"

// Example lints a rule's example as `aclint lint acls.json`.
func (Sys) Example(_ *engine.Rule, text string) engine.Example {
	return engine.Example{Command: "aclint lint -f " + exampleFile, Input: &engine.Input{Path: exampleFile, Data: []byte(text), Explicit: true, Arg: exampleFile}}
}

// ExampleBlock shows an example as JSON.
func (Sys) ExampleBlock(_ *engine.Rule, text string) string { return "```json\n" + text + "```\n" }

// ExampleFile is the name examples are shown as.
func (Sys) ExampleFile(*engine.Rule) string { return exampleFile }
