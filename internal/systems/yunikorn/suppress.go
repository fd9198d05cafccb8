package yunikorn

// The rules about inline suppressions: the comments are read by the
// engine's suppressions (engine.ApplySuppressions), in queue configs and the
// ConfigMaps that hold them.

// ruleSuppressionWithoutReason is the rule suppression-without-reason.
func ruleSuppressionWithoutReason() *Rule {
	return &Rule{
		Name:     "suppression-without-reason",
		Severity: Info,
		Summary:  "an `# aclint disable...` comment that does not say why",
		Doc: "A suppression hides a finding from everyone who reads the lint output later. Say why it is\n" +
			"fine after two dashes: `# aclint disable-line RULE -- reason`. The suppression still works.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            submitacl: " batch" # aclint disable-line shadowed-acl
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            submitacl: " batch" # aclint disable-line shadowed-acl -- kept to document the owners
`,
		source: "the engine's inline suppressions (engine.ApplySuppressions)",
	}
}

// ruleUnusedSuppression is the rule unused-suppression.
func ruleUnusedSuppression() *Rule {
	return &Rule{
		Name:     "unused-suppression",
		Severity: Warning,
		Summary:  "an `# aclint` comment that suppresses nothing",
		Doc: "A suppression whose finding is gone (fixed, moved, or never there), one that names a rule that\n" +
			"does not exist, or an unknown directive gives false comfort: remove it or point it at the finding.\n" +
			"Directives: `disable-line` (this line), `disable-next-line`, `disable` ... `enable` (a range) and\n" +
			"`disable-file`; rule names are separated by commas, `all` means every rule.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*" # aclint disable-line shadowed-acl -- root is open on purpose
        queues:
          - name: default
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: default
`,
		source: "the engine's inline suppressions (engine.ApplySuppressions)",
	}
}
