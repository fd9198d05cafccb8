// Package report writes lint findings in aclint's output formats.
package output

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fatih/color"

	"github.com/aclint/aclint/internal/engine"
)

// Sources gives the lines of each file findings point into, for snippets.
type Sources map[string][]string

// Text writes findings as
//
//	file:line:col: severity: message [rule]
//
// followed by the source line, a caret under the column and the hint.
func Text(w io.Writer, findings []engine.Finding, src Sources, useColor bool) error {
	c := palette(useColor)
	var cut snippets
	// each finding is put together in one buffer and written at once: a
	// run with tens of thousands of findings spent a twentieth of its CPU
	// in fmt
	var b []byte
	for _, f := range findings {
		b = b[:0]
		pos := f.Pos.String()
		if f.Pos.Inner != "" {
			pos += " (" + f.Pos.Inner + ")"
		}
		// file names, messages and hints carry text from the files read
		b = append(b, c.pos(engine.Printable(pos))...)
		b = append(b, ": "...)
		b = append(b, c.sev(f.Severity)...)
		b = append(b, ": "...)
		b = append(b, engine.Printable(f.Message)...)
		b = append(b, ' ')
		b = append(b, c.dim("["+f.Rule+"]")...)
		b = append(b, '\n')
		if lines := src[f.Pos.File]; f.Pos.Line >= 1 && f.Pos.Line <= len(lines) {
			line, col := cut.of(strings.TrimRight(lines[f.Pos.Line-1], "\r"), f.Pos.Col)
			num := strconv.Itoa(f.Pos.Line)
			b = append(b, ' ')
			b = append(b, c.dim(num)...)
			b = append(b, " | "...)
			b = append(b, line...)
			b = append(b, "\n "...)
			for range len(num) {
				b = append(b, ' ')
			}
			b = append(b, " | "...)
			b = appendCaretPad(b, line, col)
			b = append(b, c.caret("^")...)
			b = append(b, '\n')
		}
		if f.Hint != "" {
			b = append(b, "  "...)
			b = append(b, c.dim("hint:")...)
			b = append(b, ' ')
			b = append(b, engine.Printable(f.Hint)...)
			b = append(b, '\n')
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// SnippetWidth is how many characters of a source line a finding shows:
// a one-line config of 5,000 errors would otherwise print its whole line
// 5,000 times.
const SnippetWidth = 160

// snippets cuts source lines for findings; findings come sorted, so the
// runes of the last long line are kept for the next finding on it.
type snippets struct {
	line  string
	runes []rune
}

// of returns the part of line a finding shows, made displayable, and the
// column of the finding in it: the whole line when it is short, else
// SnippetWidth characters around the column, with "…" where it was cut.
func (s *snippets) of(line string, col int) (string, int) {
	if len(line) <= SnippetWidth { // bytes bound runes: short is short
		return engine.Displayable(line), col
	}
	if line != s.line {
		s.line, s.runes = line, []rune(line)
	}
	runes := s.runes
	if len(runes) <= SnippetWidth {
		return engine.Displayable(line), col
	}
	start := max(0, min(col-1-SnippetWidth/2, len(runes)-SnippetWidth))
	end := min(len(runes), start+SnippetWidth)
	out := engine.Displayable(string(runes[start:end]))
	col -= start
	if start > 0 {
		out, col = "…"+out, col+1
	}
	if end < len(runes) {
		out += "…"
	}
	return out, col
}

// appendCaretPad appends the blanks that put a caret under column col of
// line, keeping tabs so the caret lines up in a terminal.
func appendCaretPad(b []byte, line string, col int) []byte {
	i := 1
	for _, r := range line {
		if i >= col {
			break
		}
		if r == '\t' {
			b = append(b, '\t')
		} else {
			b = append(b, ' ')
		}
		i++
	}
	for ; i < col; i++ {
		b = append(b, ' ')
	}
	return b
}

// Summary writes the closing count line of text output.
func Summary(w io.Writer, findings []engine.Finding, files int) {
	n := engine.Count(findings)
	if len(findings) == 0 {
		fmt.Fprintf(w, "no findings in %d %s\n", files, plural(files, "config", "configs"))
		return
	}
	fmt.Fprintf(w, "%d %s, %d %s, %d info in %d %s\n",
		n[engine.Error], plural(n[engine.Error], "error", "errors"),
		n[engine.Warning], plural(n[engine.Warning], "warning", "warnings"),
		n[engine.Info], files, plural(files, "config", "configs"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

type jsonFinding struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Inner    string `json:"embeddedPosition,omitempty"`
	Message  string `json:"message"`
	Hint     string `json:"hint"`
}

// JSON writes {"findings": [...], "summary": {"error": n, "warning": n, "info": n}}.
func JSON(w io.Writer, findings []engine.Finding) error {
	out := struct {
		Findings []jsonFinding  `json:"findings"`
		Summary  map[string]int `json:"summary"`
	}{Findings: []jsonFinding{}, Summary: map[string]int{}}
	for _, f := range findings {
		out.Findings = append(out.Findings, jsonFinding{f.Rule, f.Severity.String(), f.Pos.File, f.Pos.Line, f.Pos.Col, f.Pos.Inner, f.Message, f.Hint})
	}
	for sev, n := range engine.Count(findings) {
		out.Summary[sev.String()] = n
	}
	return engine.WriteJSON(w, out)
}

type colors struct {
	pos, dim, caret func(string) string
	sev             func(engine.Severity) string
}

func palette(on bool) colors {
	if !on {
		id := func(s string) string { return s }
		return colors{pos: id, dim: id, caret: id, sev: func(s engine.Severity) string { return s.String() }}
	}
	mk := func(attrs ...color.Attribute) func(string) string {
		c := color.New(attrs...)
		c.EnableColor()
		return func(s string) string { return c.Sprint(s) }
	}
	bold, faint := mk(color.Bold), mk(color.Faint)
	red, yellow, blue := mk(color.FgRed, color.Bold), mk(color.FgYellow, color.Bold), mk(color.FgCyan, color.Bold)
	return colors{pos: bold, dim: faint, caret: mk(color.FgGreen, color.Bold), sev: func(s engine.Severity) string {
		switch s {
		case engine.Error:
			return red(s.String())
		case engine.Warning:
			return yellow(s.String())
		}
		return blue(s.String())
	}}
}
