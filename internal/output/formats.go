package output

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"sort"
	"strings"

	"github.com/aclint/aclint/internal/engine"
)

// Report is everything a format may need about one lint run.
type Report struct {
	Findings []engine.Finding
	Sources  Sources  // lines of each file, for snippets and fingerprints
	Files    []string // every file linted, with or without findings
	Rules    []*engine.Rule
	Tool     Tool
	// Root is the directory paths are made relative to in formats that
	// want repository-relative paths (SARIF, GitHub, GitLab); "" keeps them.
	Root    string
	WorkDir string // for SARIF invocations; "" leaves it out
	Color   bool   // text only
}

// Tool identifies aclint in machine-readable formats.
type Tool struct {
	Name, Version, InformationURI, RulesURI string
}

// Writer writes a report in one format.
type Writer func(io.Writer, *Report) error

// Formats are the output formats by name.
var Formats = map[string]Writer{
	"text":       func(w io.Writer, r *Report) error { return Text(w, r.Findings, r.Sources, r.Color) },
	"json":       func(w io.Writer, r *Report) error { return JSON(w, r.Findings) },
	"sarif":      SARIF,
	"github":     GitHub,
	"checkstyle": Checkstyle,
	"junit":      JUnit,
	"gitlab":     GitLab,
}

// FormatNames lists the formats, sorted.
func FormatNames() []string {
	var out []string
	for k := range Formats {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// relPath makes p relative to root with "/" separators, as code scanning,
// annotations and GitLab want.
func (r *Report) relPath(p string) string {
	if r.Root != "" {
		abs, err1 := filepath.Abs(p)
		root, err2 := filepath.Abs(r.Root)
		if err1 == nil && err2 == nil {
			if rel, err := filepath.Rel(root, abs); err == nil && !strings.HasPrefix(rel, "..") {
				p = rel
			}
		}
	}
	return filepath.ToSlash(p)
}

// span returns the start and exclusive end column of the token a finding
// points at: a quoted string to its closing quote, otherwise up to the next
// blank, comma or quote.
func (r *Report) span(f engine.Finding) (int, int) {
	lines := r.Sources[f.Pos.File]
	if f.Pos.Line < 1 || f.Pos.Line > len(lines) {
		return f.Pos.Col, f.Pos.Col + 1
	}
	runes := []rune(lines[f.Pos.Line-1])
	i := f.Pos.Col - 1
	if i < 0 || i >= len(runes) {
		return f.Pos.Col, f.Pos.Col + 1
	}
	j := i + 1
	if q := runes[i]; q == '"' || q == '\'' {
		for j < len(runes) && runes[j] != q {
			if runes[j] == '\\' && q == '"' {
				j++
			}
			j++
		}
		if j < len(runes) {
			j++
		}
	} else {
		for j < len(runes) && !strings.ContainsRune(" \t,\"'#", runes[j]) {
			if runes[j] == ':' && (j+1 == len(runes) || runes[j+1] == ' ' || runes[j+1] == '\t') {
				break // a mapping key ends at its colon
			}
			j++
		}
	}
	return f.Pos.Col, j + 1
}

// fingerprint is stable across line shifts: rule, file, the text of the
// line, and how many times the same triple occurred before.
func (r *Report) fingerprints() []string {
	seen := map[string]int{}
	out := make([]string, len(r.Findings))
	for i, f := range r.Findings {
		line := ""
		if lines := r.Sources[f.Pos.File]; f.Pos.Line >= 1 && f.Pos.Line <= len(lines) {
			line = strings.TrimSpace(lines[f.Pos.Line-1])
		}
		sum := sha256.Sum256([]byte(f.Rule + "\x00" + r.relPath(f.Pos.File) + "\x00" + line + "\x00" + f.Message))
		key := hex.EncodeToString(sum[:16])
		seen[key]++
		out[i] = fmt.Sprintf("%s:%d", key, seen[key])
	}
	return out
}

// printableWithHint is messageWithHint with the message and the hint made
// printable: the newline between them is the only one left.
func printableWithHint(f engine.Finding) string {
	f.Message, f.Hint = engine.Printable(f.Message), engine.Printable(f.Hint)
	return messageWithHint(f)
}

func messageWithHint(f engine.Finding) string {
	if f.Hint == "" {
		return f.Message
	}
	return f.Message + "\nhint: " + f.Hint
}

// ---- SARIF 2.1.0, as GitHub code scanning reads it ----

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool struct {
		Driver sarifDriver `json:"driver"`
	} `json:"tool"`
	AutomationDetails struct {
		ID string `json:"id"`
	} `json:"automationDetails"`
	Invocations []sarifInvocation `json:"invocations"`
	Results     []sarifResult     `json:"results"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string    `json:"id"`
	Name                 string    `json:"name"`
	ShortDescription     sarifText `json:"shortDescription"`
	FullDescription      sarifText `json:"fullDescription"`
	Help                 sarifText `json:"help"`
	HelpURI              string    `json:"helpUri"`
	DefaultConfiguration struct {
		Level string `json:"level"`
	} `json:"defaultConfiguration"`
	Properties struct {
		Tags []string `json:"tags"`
	} `json:"properties"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool `json:"executionSuccessful"`
	WorkingDirectory    *struct {
		URI string `json:"uri"`
	} `json:"workingDirectory,omitempty"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

type sarifLocation struct {
	PhysicalLocation struct {
		ArtifactLocation struct {
			URI       string `json:"uri"`
			URIBaseID string `json:"uriBaseId,omitempty"`
		} `json:"artifactLocation"`
		Region struct {
			StartLine   int `json:"startLine"`
			StartColumn int `json:"startColumn"`
			EndLine     int `json:"endLine"`
			EndColumn   int `json:"endColumn"`
		} `json:"region"`
	} `json:"physicalLocation"`
}

func sarifLevel(s engine.Severity) string {
	switch s {
	case engine.Error:
		return "error"
	case engine.Warning:
		return "warning"
	}
	return "note"
}

// SARIF writes SARIF 2.1.0 with the full rule metadata GitHub code scanning
// shows: descriptions, help text and markdown, help links and levels.
func SARIF(w io.Writer, r *Report) error {
	log := sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: make([]sarifRun, 1)}
	run := &log.Runs[0]
	run.Tool.Driver = sarifDriver{Name: r.Tool.Name, Version: r.Tool.Version, InformationURI: r.Tool.InformationURI, Rules: []sarifRule{}}
	run.AutomationDetails.ID = r.Tool.Name + "/"
	inv := sarifInvocation{ExecutionSuccessful: true}
	if r.WorkDir != "" {
		inv.WorkingDirectory = &struct {
			URI string `json:"uri"`
		}{URI: "file://" + uriPath(filepath.ToSlash(r.WorkDir)) + "/"}
	}
	run.Invocations = []sarifInvocation{inv}
	index := map[string]int{}
	for i, rule := range r.Rules {
		index[rule.Name] = i
		sr := sarifRule{ID: rule.Name, Name: rule.Name,
			ShortDescription: sarifText{Text: rule.Summary},
			FullDescription:  sarifText{Text: rule.Summary + ". " + plainDoc(rule.Doc)},
			Help:             sarifText{Text: ruleHelpText(rule), Markdown: ruleHelpMarkdown(rule)},
			HelpURI:          r.Tool.RulesURI + "#" + rule.Name}
		sr.DefaultConfiguration.Level = sarifLevel(rule.Severity)
		// each rule is tagged with the system it checks, so that a code
		// scanning view can filter YARN's findings from YuniKorn's
		system := rule.System
		if system == "" {
			system = "aclint" // the engine's own (suppressions, unknown inputs)
		}
		sr.Properties.Tags = []string{system, "acl", rule.Severity.String()}
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sr)
	}
	run.Results = []sarifResult{}
	fps := r.fingerprints()
	for i, f := range r.Findings {
		res := sarifResult{RuleID: f.Rule, RuleIndex: index[f.Rule], Level: sarifLevel(f.Severity),
			Message: sarifText{Text: messageWithHint(f)}, PartialFingerprints: map[string]string{"primaryLocationLineHash": fps[i]}}
		var loc sarifLocation
		loc.PhysicalLocation.ArtifactLocation.URI = uriPath(r.relPath(f.Pos.File))
		start, end := r.span(f)
		reg := &loc.PhysicalLocation.Region
		reg.StartLine, reg.StartColumn, reg.EndLine, reg.EndColumn = f.Pos.Line, start, f.Pos.Line, end
		res.Locations = []sarifLocation{loc}
		run.Results = append(run.Results, res)
	}
	return engine.WriteJSON(w, log)
}

// uriPath is a slash-separated path as a URI reference, each segment
// percent-encoded: a space, a quote, a newline or a '#' in a file name
// otherwise makes the SARIF artifactLocation an invalid URI, or another
// one. ':' is encoded too, so a first segment never reads as a scheme.
func uriPath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(url.PathEscape(s), ":", "%3A")
	}
	return strings.Join(segs, "/")
}

// plainDoc turns a rule's Markdown explanation into one plain paragraph.
func plainDoc(doc string) string {
	return strings.ReplaceAll(strings.ReplaceAll(doc, "\n", " "), "`", "")
}

func ruleHelpText(rule *engine.Rule) string {
	return fmt.Sprintf("%s\n\nExample:\n%s\nFixed:\n%s", plainDoc(rule.Doc), rule.Bad, rule.Good)
}

func ruleHelpMarkdown(rule *engine.Rule) string {
	return fmt.Sprintf("%s\n\nExample:\n\n```yaml\n%s```\n\nFixed:\n\n```yaml\n%s```\n", rule.Doc, rule.Bad, rule.Good)
}

// ---- GitHub Actions workflow commands ----

var (
	ghMessage  = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghProperty = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// GitHub writes one workflow command per finding, which the Actions runner
// turns into an annotation on the file and line.
func GitHub(w io.Writer, r *Report) error {
	for _, f := range r.Findings {
		cmd := map[engine.Severity]string{engine.Error: "error", engine.Warning: "warning", engine.Info: "notice"}[f.Severity]
		start, end := r.span(f)
		props := []string{
			// the runner decodes %0A to the newline a file's name may hold, so
			// the annotation lands on that file; the rest is made printable
			"file=" + engine.Printable(ghProperty.Replace(r.relPath(f.Pos.File))),
			fmt.Sprintf("line=%d", f.Pos.Line),
			fmt.Sprintf("col=%d", start),
			fmt.Sprintf("endColumn=%d", end-1),
			"title=" + ghProperty.Replace("aclint "+f.Rule),
		}
		// one annotation per line: a newline of the config's own never
		// reaches the log to start a workflow command of its own
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", cmd, strings.Join(props, ","), ghMessage.Replace(printableWithHint(f))); err != nil {
			return err
		}
	}
	return nil
}

// ---- Checkstyle 4.3 ----

type csFile struct {
	Name   string    `xml:"name,attr"`
	Errors []csError `xml:"error"`
}

type csError struct {
	Line     int    `xml:"line,attr"`
	Column   int    `xml:"column,attr"`
	Severity string `xml:"severity,attr"`
	Message  string `xml:"message,attr"`
	Source   string `xml:"source,attr"`
}

// Checkstyle writes checkstyle 4.3 XML, findings grouped per file.
func Checkstyle(w io.Writer, r *Report) error {
	out := struct {
		XMLName xml.Name `xml:"checkstyle"`
		Version string   `xml:"version,attr"`
		Files   []csFile `xml:"file"`
	}{Version: "4.3"}
	byFile := map[string]int{}
	for _, f := range r.Findings {
		i, ok := byFile[f.Pos.File]
		if !ok {
			i = len(out.Files)
			byFile[f.Pos.File] = i
			out.Files = append(out.Files, csFile{Name: f.Pos.File})
		}
		out.Files[i].Errors = append(out.Files[i].Errors, csError{f.Pos.Line, f.Pos.Col, f.Severity.String(), printableWithHint(f), "aclint." + f.Rule})
	}
	return WriteXML(w, out)
}

// WriteXML writes one indented XML document with its header, as every XML
// format of aclint does (checkstyle, JUnit, aclint test -o junit).
func WriteXML(w io.Writer, v any) error {
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// ---- JUnit XML ----

type juFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",cdata"`
}

type juCase struct {
	Name      string      `xml:"name,attr"`
	Classname string      `xml:"classname,attr"`
	File      string      `xml:"file,attr"`
	Failures  []juFailure `xml:"failure"`
}

// JUnit writes one test case per linted file with a failure per finding, so
// CI systems show each config as a passing or failing test.
func JUnit(w io.Writer, r *Report) error {
	byFile := map[string][]engine.Finding{}
	for _, f := range r.Findings {
		byFile[f.Pos.File] = append(byFile[f.Pos.File], f)
	}
	files := append([]string(nil), r.Files...)
	for f := range byFile {
		if !contains(files, f) {
			files = append(files, f)
		}
	}
	type suite struct {
		Name     string   `xml:"name,attr"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Errors   int      `xml:"errors,attr"`
		Cases    []juCase `xml:"testcase"`
	}
	s := suite{Name: r.Tool.Name, Tests: len(files)}
	for _, file := range files {
		c := juCase{Name: file, Classname: r.Tool.Name, File: r.relPath(file)}
		for _, f := range byFile[file] {
			// CDATA takes any character, XML does not: control characters
			// from the config are escaped so the document stays well-formed
			c.Failures = append(c.Failures, juFailure{
				Message: fmt.Sprintf("%d:%d: %s", f.Pos.Line, f.Pos.Col, engine.Printable(f.Message)),
				Type:    f.Severity.String() + ": " + f.Rule,
				Body:    fmt.Sprintf("%s:%d:%d: %s: %s [%s]\nhint: %s\n", engine.Printable(f.Pos.File), f.Pos.Line, f.Pos.Col, f.Severity, engine.Printable(f.Message), f.Rule, engine.Printable(f.Hint)),
			})
		}
		s.Failures += len(c.Failures)
		s.Cases = append(s.Cases, c)
	}
	return WriteXML(w, struct {
		XMLName  xml.Name `xml:"testsuites"`
		Name     string   `xml:"name,attr"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Suites   []suite  `xml:"testsuite"`
	}{Name: r.Tool.Name, Tests: s.Tests, Failures: s.Failures, Suites: []suite{s}})
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// ---- GitLab Code Quality (Code Climate JSON array) ----

type glIssue struct {
	Type        string     `json:"type"`
	CheckName   string     `json:"check_name"`
	Description string     `json:"description"`
	Categories  []string   `json:"categories"`
	Severity    string     `json:"severity"`
	Fingerprint string     `json:"fingerprint"`
	Location    glLocation `json:"location"`
}

type glLocation struct {
	Path      string `json:"path"`
	Positions struct {
		Begin struct {
			Line   int `json:"line"`
			Column int `json:"column"`
		} `json:"begin"`
	} `json:"positions"`
	Lines struct {
		Begin int `json:"begin"`
	} `json:"lines"`
}

// GitLab writes the Code Climate JSON array GitLab's Code Quality report
// reads, with a fingerprint that stays stable while the line moves.
func GitLab(w io.Writer, r *Report) error {
	out := []glIssue{}
	fps := r.fingerprints()
	for i, f := range r.Findings {
		is := glIssue{Type: "issue", CheckName: f.Rule, Description: f.Message + " (hint: " + f.Hint + ")",
			Categories: []string{"Bug Risk"}, Severity: map[engine.Severity]string{engine.Error: "blocker", engine.Warning: "major", engine.Info: "info"}[f.Severity]}
		sum := sha256.Sum256([]byte(fps[i]))
		is.Fingerprint = hex.EncodeToString(sum[:16])
		is.Location.Path = r.relPath(f.Pos.File)
		is.Location.Lines.Begin = f.Pos.Line
		is.Location.Positions.Begin.Line = f.Pos.Line
		is.Location.Positions.Begin.Column = f.Pos.Col
		out = append(out, is)
	}
	return engine.WriteJSON(w, out)
}
