package yunikorn

import (
	"fmt"
	bigmath "math/big"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/aclint/aclint/internal/systems/yunikorn/config"
)

// YuniKorn decodes maxapplications into a uint64 with yaml.v3, which reads
// more than decimal numbers, and reads some of them as another number than
// the one written: a fraction is cut off (2.5 is 2), a leading zero makes
// the number octal (010 is 8), 0x, 0o and 0b are other bases, and a value
// past the largest uint64 is a float whose conversion the processor decides
// (amd64 and arm64 differ). The value in the file is then not the one that
// runs, the trap of the quoting rules with numbers.

var plainDecimal = regexp.MustCompile(`^\+?(0|[1-9][0-9_]*)$`)

// numberReading says how YuniKorn reads a maxapplications written as text
// when that is not the number written: "" when it reads what is written.
func numberReading(text string, read uint64) string {
	t := strings.ReplaceAll(text, "_", "")
	switch {
	case plainDecimal.MatchString(text):
		n, ok := new(bigmath.Int).SetString(strings.TrimPrefix(t, "+"), 10)
		if ok && n.IsUint64() {
			return ""
		}
		return fmt.Sprintf("%s is past the largest number YuniKorn holds (18446744073709551615): yaml.v3 reads it as a float and converts it as the processor does, %d here (amd64 gives 9223372036854775808, arm64 18446744073709551615)", text, read)
	case len(t) > 1 && (t[0] == '0' || strings.HasPrefix(t, "+0")) && strings.Trim(strings.TrimPrefix(t, "+"), "01234567") == "":
		decimal := strings.TrimLeft(strings.TrimPrefix(t, "+"), "0")
		if decimal == fmt.Sprint(read) {
			return "" // 07: octal or not, seven
		}
		return fmt.Sprintf("%s has a leading zero, so YAML 1.1 reads it as octal: YuniKorn reads %d, not %s", text, read, decimal)
	case strings.HasPrefix(strings.ToLower(strings.TrimPrefix(t, "+")), "0x"):
		return fmt.Sprintf("%s is hexadecimal: YuniKorn reads %d", text, read)
	case strings.HasPrefix(strings.ToLower(strings.TrimPrefix(t, "+")), "0o"):
		return fmt.Sprintf("%s is octal: YuniKorn reads %d", text, read)
	case strings.HasPrefix(strings.ToLower(strings.TrimPrefix(t, "+")), "0b"):
		return fmt.Sprintf("%s is binary: YuniKorn reads %d", text, read)
	}
	f, ok := new(bigmath.Float).SetString(t)
	if !ok {
		return ""
	}
	if !f.IsInt() {
		return fmt.Sprintf("%s is not a whole number: YuniKorn drops the fraction and reads %d", text, read)
	}
	if n, _ := f.Int(nil); !n.IsUint64() {
		return fmt.Sprintf("%s is past the largest number YuniKorn holds (18446744073709551615): it is converted as the processor does, %d here (amd64 gives 9223372036854775808, arm64 18446744073709551615)", text, read)
	}
	return "" // 1e3, 3.0: another spelling of the number YuniKorn reads
}

// ruleNumberReadDifferently is the rule number-read-differently.
func ruleNumberReadDifferently() *Rule {
	return &Rule{
		Name:     "number-read-differently",
		Severity: Warning,
		Summary:  "a maxapplications YuniKorn reads as another number than the one written",
		Doc: "YuniKorn reads `maxapplications` with yaml.v3 into a whole number, and some numbers are read\n" +
			"as another: a fraction is dropped (`2.5` is 2), a leading zero makes the number octal (`010` is 8),\n" +
			"`0x`, `0o` and `0b` are hexadecimal, octal and binary, and a value past 18446744073709551615 is\n" +
			"converted as the processor does (amd64 and arm64 differ). YuniKorn accepts all of them, so the limit\n" +
			"that runs is not the one the file shows. This covers queues, `childtemplate` and `limits`.",
		Bad: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            maxapplications: 010
`,
		Good: `partitions:
  - name: default
    queues:
      - name: root
        submitacl: "*"
        queues:
          - name: batch
            maxapplications: 8
`,
		check: func(p *pass) {
			check := func(n *yaml.Node, read uint64, where string) {
				if n == nil || n.Kind != yaml.ScalarNode || n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
					return // a quoted number is a string YuniKorn refuses: wrong-type says so
				}
				if why := numberReading(n.Value, read); why != "" {
					if read == 0 {
						why += " (0 is no limit at all)"
					}
					p.reportf(p.doc.NodePos(n), fmt.Sprintf("write %d, the number YuniKorn reads, or the number meant in plain decimal", read),
						"maxapplications of %s: %s", where, why)
				}
			}
			for _, part := range p.cfg.Partitions {
				if part.Root == nil {
					continue
				}
				part.Root.Walk(func(q *config.Queue) {
					check(q.MaxAppsNode, q.MaxApplications, q.Path())
					if q.Template != nil { // embedded: its fields are there only with a childtemplate
						check(q.TemplateMaxAppsNode, q.TemplateMaxApps, "the childtemplate of "+q.Path())
					}
					for _, l := range q.Limits {
						check(l.MaxAppsNode, l.MaxApplications, fmt.Sprintf("limit %q of %s", l.Limit.Value, q.Path()))
					}
				})
				for _, l := range part.Limits {
					check(l.MaxAppsNode, l.MaxApplications, fmt.Sprintf("partition limit %q", l.Limit.Value))
				}
			}
		},
	}
}
