package engine

import (
	"bytes"
	"fmt"
	"strings"
)

// A suppression is an "# aclint ..." comment in a linted file:
//
//	# aclint disable-line RULE[,RULE] -- reason       (this line)
//	# aclint disable-next-line RULE[,RULE] -- reason  (the next line)
//	# aclint disable RULE[,RULE] -- reason            (until "# aclint enable RULE", or the end)
//	# aclint enable RULE[,RULE]
//	# aclint disable-file [RULE[,RULE]] -- reason     (the whole file)
//
// RULE may be "all". A suppression without a reason, and one that
// suppresses nothing, are findings themselves. Errors cannot be suppressed:
// the system refuses the input whatever a comment says.
type suppression struct {
	kind    string
	rules   []string
	reason  string
	comment Comment
	from    int // outer lines covered, inclusive; 0..maxInt for the file
	to      int
	used    bool
	blocked bool // it covers error findings, which cannot be suppressed
	unknown []string
}

const endOfFile = int(^uint(0) >> 1)

func parseSuppressions(comments []Comment, rules *RuleList) ([]*suppression, []Finding) {
	var out []*suppression
	var problems []Finding
	open := map[string]*suppression{} // rule -> open "disable" range
	for _, c := range comments {
		rest, ok := strings.CutPrefix(c.Text, "aclint ")
		if !ok {
			continue
		}
		directive, args, _ := strings.Cut(strings.TrimSpace(rest), " ")
		list, reason, _ := strings.Cut(args, "--")
		s := &suppression{kind: directive, reason: strings.TrimSpace(reason), comment: c}
		for _, r := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
			if r != "all" && rules.Lookup(r) == nil {
				s.unknown = append(s.unknown, r)
				continue
			}
			s.rules = append(s.rules, r)
		}
		line := c.Pos.Line
		switch directive {
		case "disable-line":
			s.from, s.to = line, line
		case "disable-next-line":
			s.from, s.to = line+1, line+1
		case "disable-file":
			s.from, s.to = 0, endOfFile
			if len(s.rules) == 0 && len(s.unknown) == 0 {
				s.rules = []string{"all"}
			}
		case "disable":
			s.from, s.to = line, endOfFile
			for _, r := range s.rules {
				open[r] = s
			}
		case "enable":
			for _, r := range s.rules {
				if o := open[r]; o != nil {
					o.to = line
					delete(open, r)
				}
			}
			continue // not a suppression itself
		default:
			hint := "use disable-line, disable-next-line, disable, enable or disable-file"
			if near := nearestDirective(strings.TrimSuffix(directive, ":")); near != "" {
				hint = "did you mean " + near + "? (" + hint + ")"
			}
			problems = append(problems, Finding{Rule: "unused-suppression", Severity: Warning, Pos: c.Pos,
				Message: fmt.Sprintf("%q is not an aclint directive, so this comment suppresses nothing", "aclint "+directive),
				Hint:    hint})
			continue
		}
		if len(s.rules) == 0 && len(s.unknown) == 0 {
			problems = append(problems, Finding{Rule: "unused-suppression", Severity: Warning, Pos: c.Pos,
				Message: fmt.Sprintf("aclint %s names no rule, so it suppresses nothing", directive),
				Hint:    "name the rules to suppress, e.g. # aclint " + directive + " shadowed-acl -- reason, or all"})
			continue
		}
		out = append(out, s)
	}
	return out, problems
}

func (s *suppression) covers(f Finding) bool {
	if f.Pos.Line < s.from || f.Pos.Line > s.to {
		return false
	}
	for _, r := range s.rules {
		if r == "all" || r == f.Rule {
			return true
		}
	}
	return false
}

// ApplySuppressions removes the findings suppressed by the "# aclint ..."
// comments of one input and adds findings about the suppressions themselves
// (unused-suppression, suppression-without-reason). refusal says what an
// error means for the system ("YuniKorn rejects this config"): errors
// cannot be suppressed; rules are the system's, the names a comment may
// give. comments is called only when text mentions aclint.
func ApplySuppressions(text []byte, comments func() []Comment, findings []Finding, refusal string, rules *RuleList) []Finding {
	if !bytes.Contains(text, []byte("aclint")) {
		return findings // no directive can be there: skip reading comments
	}
	sups, problems := parseSuppressions(comments(), rules)
	if len(sups) == 0 && len(problems) == 0 {
		return findings
	}
	kept := findings[:0:0]
	for _, f := range findings {
		suppressed := false
		for _, s := range sups {
			if !s.covers(f) {
				continue
			}
			if f.Severity == Error {
				// the system refuses the input whatever a comment says: a
				// linter that let it pass would be worse than none
				s.blocked = true
				continue
			}
			s.used = true
			suppressed = true
		}
		if !suppressed {
			kept = append(kept, f)
		}
	}
	for _, s := range sups {
		c := s.comment
		for _, u := range s.unknown {
			msg := fmt.Sprintf("aclint %s names %q, which is not a rule, so it suppresses nothing", s.kind, u)
			hint := "run 'aclint rules' for the rule names"
			if to := Renamed(u); to != "" {
				msg = fmt.Sprintf("aclint %s names %q, which was renamed to %q, so it suppresses nothing", s.kind, u, to)
				hint = "write " + to + " instead"
			} else if near := rules.Suggest(u); near != "" {
				hint = "did you mean " + near + "?"
			}
			kept = append(kept, Finding{Rule: "unused-suppression", Severity: Warning, Pos: c.Pos, Message: msg, Hint: hint})
		}
		if s.blocked && !s.used {
			kept = append(kept, Finding{Rule: "unused-suppression", Severity: Warning, Pos: c.Pos,
				Message: fmt.Sprintf("aclint %s %s cannot suppress an error: %s whatever the comment says", s.kind, strings.Join(s.rules, ","), refusal),
				Hint:    "fix the error; only warnings and info can be suppressed"})
			continue
		}
		if len(s.rules) > 0 && !s.used {
			kept = append(kept, Finding{Rule: "unused-suppression", Severity: Warning, Pos: c.Pos,
				Message: fmt.Sprintf("aclint %s %s suppresses nothing: no such finding %s", s.kind, strings.Join(s.rules, ","), s.scope()),
				Hint:    "remove the comment, or move it to the finding it is meant for"})
		}
		if s.reason == "" && len(s.rules) > 0 {
			kept = append(kept, Finding{Rule: "suppression-without-reason", Severity: Info, Pos: c.Pos,
				Message: fmt.Sprintf("aclint %s %s gives no reason", s.kind, strings.Join(s.rules, ",")),
				Hint:    "say why after two dashes: # aclint " + s.kind + " " + strings.Join(s.rules, ",") + " -- why this is fine"})
		}
	}
	return append(kept, problems...)
}

// directives are the words a suppression comment may start with.
var directives = []string{"disable-line", "disable-next-line", "disable", "enable", "disable-file"}

// nearestDirective is the directive a misspelled one means: one it starts
// (disable-next is disable-next-line), else the nearest by spelling.
func nearestDirective(word string) string {
	for _, d := range directives {
		if word != "" && word != "disable" && strings.HasPrefix(d, word+"-") {
			return d
		}
	}
	return Nearest(word, directives)
}

func (s *suppression) scope() string {
	switch s.kind {
	case "disable-line":
		return "on this line"
	case "disable-next-line":
		return "on the next line"
	case "disable-file":
		return "in this config"
	}
	return "in the range it disables"
}
