package mesos

// picojson's values, as Mesos' JSON reader parses them: literals, arrays,
// objects (a key given again shadows the earlier member), numbers as
// strtod reads them.

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

func (p *jsonParser) fail(off int) (*Value, bool) {
	if p.failAt < 0 {
		p.failAt = off
	}
	return nil, false
}

func (p *jsonParser) value(depth int) (*Value, bool) {
	p.skipWS()
	start := p.next()
	c := p.getc()
	switch c {
	case 'n':
		if p.match("ull") {
			return p.newValue(Value{Kind: JSONNull, Off: start}), true
		}
		return nil, false
	case 'f':
		if p.match("alse") {
			return p.newValue(Value{Kind: JSONBool, Off: start}), true
		}
		return nil, false
	case 't':
		if p.match("rue") {
			return p.newValue(Value{Kind: JSONBool, Off: start, Bool: true}), true
		}
		return nil, false
	case '"':
		s, ok := p.str()
		if !ok {
			return nil, false
		}
		return p.newValue(Value{Kind: JSONString, Off: start, Text: s}), true
	case '[':
		if depth <= 0 {
			return nil, false
		}
		return p.array(start, depth)
	case '{':
		if depth <= 0 {
			return nil, false
		}
		return p.object(start, depth)
	}
	if c >= '0' && c <= '9' || c == '-' {
		p.ungetc()
		return p.number(start)
	}
	p.ungetc()
	return nil, false
}

// array reads an array's elements, after its [.
func (p *jsonParser) array(start, depth int) (*Value, bool) {
	v := p.newValue(Value{Kind: JSONArray, Off: start})
	if p.expect(']') {
		return v, true
	}
	var elems []*Value
	for {
		e, ok := p.value(depth - 1)
		if !ok {
			return nil, false
		}
		elems = append(elems, e)
		if !p.expect(',') {
			break
		}
	}
	if !p.expect(']') {
		return nil, false
	}
	v.kids = p.newKids(kids{elems: elems})
	return v, true
}

// object reads an object's members, after its {: a key given again
// shadows the earlier member, as picojson's map keeps the last.
func (p *jsonParser) object(start, depth int) (*Value, bool) {
	v := p.newValue(Value{Kind: JSONObject, Off: start})
	if p.expect('}') {
		return v, true
	}
	var seen map[string]*Member // for large objects; small ones are scanned
	var members []*Member
	for {
		p.skipWS()
		keyOff := p.next()
		if !p.expect('"') {
			return nil, false
		}
		key, ok := p.str()
		if !ok || !p.expect(':') {
			return nil, false
		}
		e, ok := p.value(depth - 1)
		if !ok {
			return nil, false
		}
		m := p.newMember(Member{Key: key, KeyOff: keyOff, Value: e})
		seen = shadow(members, seen, m)
		members = append(members, m)
		if !p.expect(',') {
			break
		}
	}
	if !p.expect('}') {
		return nil, false
	}
	v.kids = p.newKids(kids{members: members})
	return v, true
}

// shadow marks the earlier member m shadows (the same key); seen indexes
// the members once there are 8 of them.
func shadow(members []*Member, seen map[string]*Member, m *Member) map[string]*Member {
	if len(members) < 8 {
		for _, prev := range members {
			if prev.Key == m.Key && !prev.Shadowed {
				prev.Shadowed = true
			}
		}
		return seen
	}
	if seen == nil {
		seen = make(map[string]*Member, 16)
		for _, prev := range members {
			if !prev.Shadowed {
				seen[prev.Key] = prev
			}
		}
	}
	if prev := seen[m.Key]; prev != nil {
		prev.Shadowed = true
	}
	seen[m.Key] = m
	return seen
}

// number reads a number as picojson collects it and strtod reads it.
func (p *jsonParser) number(start int) (*Value, bool) {
	var b strings.Builder
	for {
		d := p.getc()
		if d >= '0' && d <= '9' || d == '+' || d == '-' || d == 'e' || d == 'E' || d == '.' {
			b.WriteByte(byte(d))
			continue
		}
		p.ungetc()
		break
	}
	lit := b.String()
	if !numberRe.MatchString(lit) {
		return p.fail(start)
	}
	if !intFits(lit) {
		f, err := strconv.ParseFloat(lit, 64)
		if err != nil && !isRangeErr(err) || math.IsInf(f, 0) {
			p.err = &SyntaxError{Off: start, Msg: "Value out of range"}
			return nil, false
		}
	}
	return p.newValue(Value{Kind: JSONNumber, Off: start, Text: lit}), true
}

// numberRe is what strtod reads completely from the characters picojson
// collects for a number ([0-9+-.eE], starting with a digit or '-').
var numberRe = regexp.MustCompile(`^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$`)

func intFits(lit string) bool {
	_, err := strconv.ParseInt(lit, 10, 64)
	return err == nil
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
