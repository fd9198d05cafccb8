package ytsaurus

import (
	"fmt"
	"strings"
)

// Formula is a subject tag filter: YTsaurus' boolean formula over a user's
// tags (yt/core/misc/arithmetic_formula.cpp in its boolean context). Tags
// are variables, true when the user has the tag; the operators are !, &, |
// and parentheses, and %true and %false are literals. The empty formula is
// true.
type Formula struct {
	Text string
	rpn  []ftoken
}

// FormulaError is a formula YTsaurus refuses, with the byte where it stops.
type FormulaError struct {
	Pos int
	Msg string
}

// Error renders the message as YTsaurus does: the formula, a caret under
// the position, and the reason.
func (e *FormulaError) Error() string { return e.Msg }

type ftokType int

const (
	fVariable ftokType = iota
	fNumber
	fBoolLiteral
	fLeftBracket
	fRightBracket
	fIn
	fComma
	fLogicalOr
	fLogicalAnd
	fBitOr
	fBitXor
	fBitAnd
	fEquals
	fNotEquals
	fLess
	fGreater
	fLessEq
	fGreaterEq
	fPlus
	fMinus
	fMul
	fDiv
	fMod
	fLogicalNot
)

// precedence as in YTsaurus' FOR_EACH_TOKEN table.
var precedence = map[ftokType]int{
	fIn: 1, fComma: 2, fLogicalOr: 3, fLogicalAnd: 4, fBitOr: 5, fBitXor: 6, fBitAnd: 7,
	fEquals: 8, fNotEquals: 8, fLess: 9, fGreater: 9, fLessEq: 9, fGreaterEq: 9,
	fPlus: 10, fMinus: 10, fMul: 11, fDiv: 11, fMod: 11, fLogicalNot: 12,
}

type ftoken struct {
	typ  ftokType
	pos  int
	name string
	num  int64
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isSpace(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }

// nameChar is IsSymbolAllowedInName in the boolean context.
func nameChar(c byte, first bool) bool {
	if isAlpha(c) || c == '_' {
		return true
	}
	if first {
		return false
	}
	return isDigit(c) || c == '/' || c == '-' || c == '.' || c == ':'
}

// ParseFormula reads a tag filter as YTsaurus does on `set @acl`.
func ParseFormula(text string) (*Formula, error) {
	toks, err := tokenize(text)
	if err != nil {
		return nil, err
	}
	rpn, err := toRPN(text, toks)
	if err != nil {
		return nil, err
	}
	return &Formula{Text: text, rpn: rpn}, nil
}

func formulaError(text string, pos int, msg string) *FormulaError {
	return &FormulaError{Pos: pos, Msg: fmt.Sprintf("Error while parsing boolean formula:\n%s\n%s^\n%s", text, strings.Repeat(" ", pos), msg)}
}

func tokenize(f string) ([]ftoken, error) {
	var out []ftoken
	pos := 0
	expectBinary := false
	at := func(i int) byte {
		if i < len(f) {
			return f[i]
		}
		return 0
	}
	for pos < len(f) {
		c := f[pos]
		if isSpace(c) {
			for pos < len(f) && isSpace(f[pos]) {
				pos++
			}
			if pos == len(f) {
				break
			}
			c = f[pos]
		}
		t := ftoken{pos: pos}
		switch {
		case isDigit(c) || c == '-' && !expectBinary:
			start := pos
			if c == '-' {
				pos++
			}
			if pos == len(f) || !isDigit(f[pos]) {
				return nil, formulaError(f, pos, "Expected digit")
			}
			for pos < len(f) && isDigit(f[pos]) {
				pos++
			}
			t.typ, t.name = fNumber, f[start:pos]
			expectBinary = true
		case !expectBinary && c == '%':
			pos++
			start := pos
			for pos < len(f) && isAlpha(f[pos]) {
				pos++
			}
			switch f[start:pos] {
			case "false":
				t.num = 0
			case "true":
				t.num = 1
			default:
				return nil, formulaError(f, pos, fmt.Sprintf("Invalid literal %q", f[start:pos]))
			}
			t.typ = fBoolLiteral
			expectBinary = true
		default:
			typ, n, ok := special(c, at(pos+1), at(pos+2))
			if ok {
				if n < 0 {
					return nil, formulaError(f, pos+1, "Unexpected character")
				}
				pos += n
				t.typ = typ
				expectBinary = typ == fRightBracket
			} else if nameChar(c, true) {
				start := pos
				for pos < len(f) && nameChar(f[pos], pos == start) {
					pos++
				}
				t.typ, t.name = fVariable, f[start:pos]
				expectBinary = true
			} else {
				return nil, formulaError(f, pos, "Unexpected character")
			}
		}
		out = append(out, t)
	}
	return out, nil
}

// special reads an operator: its type and length (-1 for a lone "=").
func special(first, second, third byte) (ftokType, int, bool) {
	if first == 'i' && second == 'n' {
		if nameChar(third, false) {
			return 0, 0, false
		}
		return fIn, 2, true
	}
	switch first {
	case '^':
		return fBitXor, 1, true
	case '+':
		return fPlus, 1, true
	case '-':
		return fMinus, 1, true
	case '*':
		return fMul, 1, true
	case '/':
		return fDiv, 1, true
	case '%':
		return fMod, 1, true
	case '(':
		return fLeftBracket, 1, true
	case ')':
		return fRightBracket, 1, true
	case ',':
		return fComma, 1, true
	case '=':
		if second != '=' {
			return 0, -1, true
		}
		return fEquals, 2, true
	case '!':
		if second == '=' {
			return fNotEquals, 2, true
		}
		return fLogicalNot, 1, true
	case '&':
		if second == '&' {
			return fLogicalAnd, 2, true
		}
		return fBitAnd, 1, true
	case '|':
		if second == '|' {
			return fLogicalOr, 2, true
		}
		return fBitOr, 1, true
	case '<':
		if second == '=' {
			return fLessEq, 2, true
		}
		return fLess, 1, true
	case '>':
		if second == '=' {
			return fGreaterEq, 2, true
		}
		return fGreater, 1, true
	}
	return 0, 0, false
}

// toRPN is YTsaurus' shunting-yard Parse, then the boolean context's check
// that only !, &, |, tags and literals remain.
func toRPN(f string, toks []ftoken) ([]ftoken, error) {
	var out, stack []ftoken
	expectSub := true
	if len(toks) == 0 {
		return nil, nil
	}
	finish := func() {
		for len(stack) > 0 && stack[len(stack)-1].typ != fLeftBracket {
			out = append(out, stack[len(stack)-1])
			stack = stack[:len(stack)-1]
		}
	}
	for _, t := range toks {
		switch t.typ {
		case fVariable, fNumber, fBoolLiteral:
			if !expectSub {
				return nil, formulaError(f, t.pos, "Unexpected variable")
			}
			out = append(out, t)
			expectSub = false
		case fLogicalNot, fLeftBracket:
			if !expectSub {
				return nil, formulaError(f, t.pos, "Unexpected token")
			}
			stack = append(stack, t)
		case fRightBracket:
			if expectSub {
				return nil, formulaError(f, t.pos, "Unexpected token")
			}
			finish()
			if len(stack) == 0 {
				return nil, formulaError(f, t.pos, "Unmatched ')'")
			}
			stack = stack[:len(stack)-1]
		default:
			if expectSub {
				return nil, formulaError(f, t.pos, "Unexpected token")
			}
			for len(stack) > 0 && precedence[stack[len(stack)-1].typ] >= precedence[t.typ] {
				out = append(out, stack[len(stack)-1])
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, t)
			expectSub = true
		}
	}
	if expectSub {
		return nil, formulaError(f, len(f), "Unfinished formula")
	}
	finish()
	if len(stack) > 0 {
		return nil, formulaError(f, stack[len(stack)-1].pos, "Unmatched '('")
	}
	for _, t := range out {
		switch t.typ {
		case fBitAnd, fBitOr, fLogicalNot, fVariable, fBoolLiteral:
		default:
			return nil, formulaError(f, t.pos, "Invalid token in boolean formula (only '!', '&', '|', '(', ')', '%false', '%true' are allowed)")
		}
	}
	return out, nil
}

// Matches evaluates the formula for a user's tags.
func (f *Formula) Matches(tags map[string]bool) bool {
	if f == nil || len(f.rpn) == 0 {
		return true
	}
	var stack []int64
	for _, t := range f.rpn {
		switch t.typ {
		case fVariable:
			v := int64(0)
			if tags[t.name] {
				v = 1
			}
			stack = append(stack, v)
		case fBoolLiteral:
			stack = append(stack, t.num)
		case fLogicalNot:
			top := &stack[len(stack)-1]
			if *top == 0 {
				*top = 1
			} else {
				*top = 0
			}
		case fBitAnd, fBitOr:
			b := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if t.typ == fBitAnd {
				stack[len(stack)-1] &= b
			} else {
				stack[len(stack)-1] |= b
			}
		}
	}
	return stack[0] != 0
}

// Tags returns the tags the formula mentions.
func (f *Formula) Tags() []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range f.rpn {
		if t.typ == fVariable && !seen[t.name] {
			seen[t.name] = true
			out = append(out, t.name)
		}
	}
	return out
}
