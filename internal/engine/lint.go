// Package lint is aclint's neutral engine: severities, positions and edits,
// findings, rule metadata and the one registry of every system's rules, the
// rule runner, inline suppressions, and the "did you mean" helper. It knows
// no system: YuniKorn, Mesos and YTsaurus (internal/systems/yunikorn, internal/systems/mesos,
// internal/systems/ytsaurus) register their rules here and plug in as Systems.
//
// Every rule carries its own documentation (a summary, an explanation, an
// input that triggers it and its fix), so docs/rules.md and `aclint rules`
// are generated from the same place the check lives.
package engine

import (
	"cmp"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Severity has one meaning across the tool and every system it checks.
type Severity int

const (
	// Info is advice.
	Info Severity = iota
	// Warning: the system accepts the input, but it does something other
	// than what it appears to say.
	Warning
	// Error: the system refuses the input (YuniKorn at start or as an
	// update, Mesos at start, YTsaurus on set @acl).
	Error
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "info"
}

// ParseSeverity reads a severity name.
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "error":
		return Error, nil
	case "warning":
		return Warning, nil
	case "info":
		return Info, nil
	}
	return 0, fmt.Errorf("unknown severity %q: use error, warning or info", s)
}

// MarshalText writes the severity name in JSON output.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Position is a place in a file a person opens: 1-based line and column
// (in characters).
type Position struct {
	File string
	Line int
	Col  int
	// Inner, when set, says where the value sits inside an embedded input
	// that cannot be mapped character by character onto the outer file (a
	// gzipped ConfigMap value, a folded scalar).
	Inner string
}

// String is file:line:col. Built without fmt: text output writes one per
// finding, and a run may have tens of thousands.
func (p Position) String() string {
	return p.File + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
}

// Edit replaces the text from Start up to End (exclusive, on one line) with
// New.
type Edit struct {
	Start, End Position
	New        string
}

// Comment is one comment of a linted file, for inline suppressions.
type Comment struct {
	Text string // without the comment marker
	Pos  Position
}

// Finding is one problem at one place.
type Finding struct {
	Rule     string
	Severity Severity
	Pos      Position
	Message  string
	Hint     string
	// Fix is the edit that certainly fixes the finding, when there is one.
	Fix *Edit
	// Unsafe, for a fix, says how it changes who has access; "" for a safe
	// fix. Unsafe fixes run only when asked for (--unsafe-fixes).
	Unsafe string
	// Alternatives are the fixes of a finding that can be read more than
	// one way: no single edit is what the author plainly meant, so Fix is
	// nil, --fix applies none of them, and each says what it grants. An
	// editor offers each as its own action.
	Alternatives []Alternative
	// Related are the other places a finding points to (the ACL that
	// shadows it, the first of two duplicates): an editor shows them with
	// the finding.
	Related []Related
}

// Related is a second place of a finding, with what is there.
type Related struct {
	Pos     Position
	Message string
}

// Alternative is one of several fixes of a finding, each unsafe: choosing
// it decides who has access.
type Alternative struct {
	Edit   Edit
	Grants string // what the config grants with this fix
}

// Rule is one check with its documentation.
type Rule struct {
	Name     string
	Severity Severity
	// Summary is one line: what the rule finds.
	Summary string
	// Doc explains why it matters, in Markdown.
	Doc string
	// Bad is an input that triggers the rule; Good is the same input fixed.
	// The documentation shows aclint's real output on Bad; how an
	// example reads (a file, a settings directory) is the system's
	// (Documented).
	Bad, Good string
	// Fixes says that the rule's findings carry an edit (Finding.Fix, or
	// Alternatives) where the file can be edited in place: --fix applies
	// them and says why when it cannot.
	Fixes bool
	// System is the name of the system the rule checks.
	System string
	// Check runs the rule over one parsed input; state is what the system
	// hands its rules (YuniKorn: the decoded config and its ACL index).
	Check func(state any, report func(Finding))
	// Source says what reports the rule's findings when Check is nil: the
	// system's parser or decoder, the suppression comments, ...
	Source string
}

// Typed is the one way a system's rule reads the state its system hands
// the rules: check takes the state as its own type S. A state of another
// type (a rule run over another system's input) checks nothing.
func Typed[S any](check func(state S, report func(Finding))) func(any, func(Finding)) {
	return func(state any, report func(Finding)) {
		if s, ok := state.(S); ok {
			check(s, report)
		}
	}
}

// Refusals keeps the items whose rule has severity error, in order: the
// reasons a system refuses an input, from the issues its reader noted
// (rule gives an item's rule name, rules the system's rules). Every system
// asks it the same way.
func Refusals[T any](items []T, rule func(T) string, rules *RuleList) []T {
	var out []T
	for _, it := range items {
		if r := rules.Lookup(rule(it)); r != nil && r.Severity == Error {
			out = append(out, it)
		}
	}
	return out
}

// renamed maps rule names aclint no longer uses to the rule that took their
// place, so that settings and suppressions naming an old rule say so.
var renamed = map[string]string{
	// a warning until YuniKorn's refusal of the same config as an update
	// made it an error
	"placement-rules-ignored": "placement-rules-unbuildable",
}

// Renamed returns the current name of a rule that was renamed, or "".
func Renamed(name string) string { return renamed[name] }

// Run runs rules over one input concurrently: checks only read state, and
// each writes its own findings. The result does not depend on scheduling:
// findings are joined in rule order after seed (what the system found
// while reading the input), then sorted stably.
func Run(rules []*Rule, state any, seed ...Finding) []Finding {
	results := make([]chunks, len(rules))
	next := make(chan int, len(rules))
	for i := range rules {
		if rules[i].Check != nil {
			next <- i
		}
	}
	close(next)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(rules)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				rules[i].Check(state, results[i].add)
			}
		}()
	}
	wg.Wait()
	total := len(seed)
	for _, r := range results {
		total += r.len()
	}
	if total == 0 {
		return nil // as before the chunks: callers may tell nil from empty
	}
	findings := make([]Finding, 0, total)
	findings = append(findings, seed...)
	for _, r := range results {
		for _, c := range r {
			findings = append(findings, c...)
		}
	}
	Sort(findings)
	return findings
}

// chunks holds one rule's findings in slices that are never copied: a rule
// reporting thousands of findings (a YTsaurus tree with 18,000 columnar
// ACEs) spent a tenth of the lint growing one slice.
type chunks [][]Finding

func (c *chunks) add(f Finding) {
	n := len(*c)
	if n == 0 || len((*c)[n-1]) == cap((*c)[n-1]) {
		*c = append(*c, make([]Finding, 0, 8<<min(n, 7)))
		n++
	}
	(*c)[n-1] = append((*c)[n-1], f)
}

func (c chunks) len() int {
	n := 0
	for _, x := range c {
		n += len(x)
	}
	return n
}

// Sort orders findings by file, line, column, then rule name, keeping the
// order of findings equal in all four.
func Sort(f []Finding) {
	slices.SortStableFunc(f, compareFindings)
}

func compareFindings(x, y Finding) int {
	a, b := x.Pos, y.Pos
	if c := strings.Compare(a.File, b.File); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Line, b.Line); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Col, b.Col); c != 0 {
		return c
	}
	return strings.Compare(x.Rule, y.Rule)
}

// Count tallies findings by severity.
func Count(f []Finding) map[Severity]int {
	out := map[Severity]int{Error: 0, Warning: 0, Info: 0}
	for _, x := range f {
		out[x.Severity]++
	}
	return out
}

// HasErrors reports whether any finding is an error: the system refuses
// the input.
func HasErrors(f []Finding) bool {
	for _, x := range f {
		if x.Severity == Error {
			return true
		}
	}
	return false
}

// Nearest returns the candidate nearest to word (ignoring case), or "" when
// none is close enough to be a likely typo.
func Nearest(word string, candidates []string) string {
	best, bestDist := "", 1<<30
	lw := strings.ToLower(word)
	for _, k := range candidates {
		if lw == k {
			return k
		}
		if dist := levenshtein(lw, k); dist < bestDist {
			best, bestDist = k, dist
		}
	}
	if bestDist <= 2 || (bestDist <= len(word)/3 && bestDist <= 4) {
		return best
	}
	return ""
}

func levenshtein(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
