package ytsaurus

import (
	"strings"
	"testing"
)

func TestFormula(t *testing.T) {
	tags := map[string]bool{"drinks": true, "beer": true, "team/a-b.c:d": true}
	for text, want := range map[string]bool{
		"":                       true,
		"drinks":                 true,
		"!smoothie":              true,
		"beer|kvas":              true,
		"drinks & !beer":         false,
		"!(drinks & beer)":       false,
		"kvas | drinks & !beer":  false, // & binds tighter than |
		"(kvas | drinks) & beer": true,
		"%true & !%false":        true,
		"team/a-b.c:d":           true,
		"inner":                  false, // a tag, not the in operator
		"  drinks  ":             true,
	} {
		f, err := ParseFormula(text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if got := f.Matches(tags); got != want {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
	for text, want := range map[string]string{
		"drinks && beer": "Invalid token in boolean formula",
		"a || b":         "Invalid token in boolean formula",
		"a == b":         "Invalid token in boolean formula",
		"1":              "Invalid token in boolean formula",
		"a in b":         "Invalid token in boolean formula",
		"a = b":          "Unexpected character",
		"(a":             "Unmatched '('",
		"a)":             "Unmatched ')'",
		"()":             "Unexpected token",
		"a b":            "Unexpected variable",
		"a &":            "Unfinished formula",
		"%maybe":         `Invalid literal "maybe"`,
		"-x":             "Expected digit",
		"a $ b":          "Unexpected character",
		"9lives":         "Unexpected variable",
	} {
		_, err := ParseFormula(text)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
			continue
		}
		if !strings.HasPrefix(err.Error(), "Error while parsing boolean formula:\n"+text+"\n") {
			t.Errorf("%q: YTsaurus' message shows the formula and a caret: %q", text, err)
		}
	}
}

// FuzzFormula holds the formula to an independent recursive-descent reading
// of the same grammar (! over & over |) on every formula it accepts.
func FuzzFormula(f *testing.F) {
	for _, s := range []string{"a", "!a", "a&b|c", "!(a|b)&c", "%true|a", "a & !(b | !c)", "x/y & z.w"} {
		f.Add(s, uint8(5))
	}
	f.Fuzz(func(t *testing.T, text string, bits uint8) {
		fm, err := ParseFormula(text)
		if err != nil {
			fe := err.(*FormulaError)
			if fe.Pos < 0 || fe.Pos > len(text) {
				t.Fatalf("error position %d outside %q", fe.Pos, text)
			}
			return
		}
		tags := map[string]bool{}
		for i, v := range fm.Tags() {
			tags[v] = bits&(1<<(i%8)) != 0
		}
		p := &rd{s: text, tags: tags}
		want := p.or()
		if p.err || p.pos != len(strings.TrimRight(p.s, " \t\n\v\f\r")) && strings.TrimSpace(p.s[p.pos:]) != "" {
			if strings.TrimSpace(text) == "" {
				return
			}
			t.Fatalf("%q parsed by aclint, not by the oracle", text)
		}
		if strings.TrimSpace(text) == "" {
			want = true
		}
		if got := fm.Matches(tags); got != want {
			t.Fatalf("%q with %v: %v, oracle %v", text, tags, got, want)
		}
	})
}

// rd is a plain recursive-descent evaluator of tag formulas.
type rd struct {
	s    string
	pos  int
	tags map[string]bool
	err  bool
}

func (p *rd) ws() {
	for p.pos < len(p.s) && isSpace(p.s[p.pos]) {
		p.pos++
	}
}

func (p *rd) or() bool {
	v := p.and()
	for p.ws(); p.pos < len(p.s) && p.s[p.pos] == '|'; p.ws() {
		p.pos++
		w := p.and()
		v = v || w
	}
	return v
}

func (p *rd) and() bool {
	v := p.not()
	for p.ws(); p.pos < len(p.s) && p.s[p.pos] == '&'; p.ws() {
		p.pos++
		w := p.not()
		v = v && w
	}
	return v
}

func (p *rd) not() bool {
	p.ws()
	if p.pos < len(p.s) && p.s[p.pos] == '!' {
		p.pos++
		return !p.not()
	}
	return p.atom()
}

func (p *rd) atom() bool {
	p.ws()
	switch {
	case p.pos < len(p.s) && p.s[p.pos] == '(':
		p.pos++
		v := p.or()
		p.ws()
		if p.pos >= len(p.s) || p.s[p.pos] != ')' {
			p.err = true
			return false
		}
		p.pos++
		return v
	case strings.HasPrefix(p.s[p.pos:], "%true"):
		p.pos += 5
		return true
	case strings.HasPrefix(p.s[p.pos:], "%false"):
		p.pos += 6
		return false
	case p.pos < len(p.s) && nameChar(p.s[p.pos], true):
		start := p.pos
		for p.pos < len(p.s) && nameChar(p.s[p.pos], p.pos == start) {
			p.pos++
		}
		return p.tags[p.s[start:p.pos]]
	}
	p.err = true
	return false
}
