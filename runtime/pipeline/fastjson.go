package pipeline

import (
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/lobsterdev/lobster/runtime/jsvalue"
)

// parseJSON reads a JSON text into jsvalue values, as jsvalue.Parse does,
// in one pass over the bytes (jsvalue.Parse goes through encoding/json's
// token stream, which dominates large exec --json outputs). It handles
// well-formed JSON with plain escapes; anything else (a syntax error, a
// \u surrogate, invalid UTF-8) is left to jsvalue.Parse, so results and
// errors are exactly its own. TestParseJSONMatchesJsvalue checks that.
func parseJSON(data []byte) (any, error) {
	p := &fastParser{data: data}
	p.space()
	v, err := p.value(0)
	if err == nil {
		p.space()
		if p.pos == len(p.data) {
			return v, nil
		}
	}
	return jsvalue.Parse(data)
}

// errSlow sends a text to the general parser.
var errSlow = errors.New("slow path")

// maxFastDepth bounds nesting on the fast path (deeper texts take the
// general parser).
const maxFastDepth = 512

type fastParser struct {
	data []byte
	pos  int
}

func (p *fastParser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *fastParser) value(depth int) (any, error) {
	if p.pos >= len(p.data) || depth > maxFastDepth {
		return nil, errSlow
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		p.pos++
		o := jsvalue.NewObject()
		p.space()
		if p.pos < len(p.data) && p.data[p.pos] == '}' {
			p.pos++
			return o, nil
		}
		for {
			p.space()
			if p.pos >= len(p.data) || p.data[p.pos] != '"' {
				return nil, errSlow
			}
			k, err := p.string()
			if err != nil {
				return nil, err
			}
			p.space()
			if p.pos >= len(p.data) || p.data[p.pos] != ':' {
				return nil, errSlow
			}
			p.pos++
			p.space()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			o.Set(k, v)
			p.space()
			if p.pos >= len(p.data) {
				return nil, errSlow
			}
			switch p.data[p.pos] {
			case ',':
				p.pos++
			case '}':
				p.pos++
				return o, nil
			default:
				return nil, errSlow
			}
		}
	case c == '[':
		p.pos++
		a := []any{}
		p.space()
		if p.pos < len(p.data) && p.data[p.pos] == ']' {
			p.pos++
			return a, nil
		}
		for {
			p.space()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
			p.space()
			if p.pos >= len(p.data) {
				return nil, errSlow
			}
			switch p.data[p.pos] {
			case ',':
				p.pos++
			case ']':
				p.pos++
				return a, nil
			default:
				return nil, errSlow
			}
		}
	case c == '"':
		return p.string()
	case c == 't':
		return p.literal("true", true)
	case c == 'f':
		return p.literal("false", false)
	case c == 'n':
		return p.literal("null", nil)
	case c == '-' || '0' <= c && c <= '9':
		return p.number()
	}
	return nil, errSlow
}

func (p *fastParser) literal(word string, v any) (any, error) {
	if len(p.data)-p.pos < len(word) || string(p.data[p.pos:p.pos+len(word)]) != word {
		return nil, errSlow
	}
	p.pos += len(word)
	return v, nil
}

func (p *fastParser) number() (any, error) {
	start := p.pos
	if p.data[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && '0' <= p.data[p.pos] && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	intStart := p.pos
	if n := digits(); n == 0 || n > 1 && p.data[intStart] == '0' {
		return nil, errSlow
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, errSlow
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, errSlow
		}
	}
	f, err := strconv.ParseFloat(string(p.data[start:p.pos]), 64)
	if err != nil {
		return nil, errSlow // out of range: the general parser decides
	}
	return f, nil
}

func (p *fastParser) string() (string, error) {
	p.pos++ // the opening quote
	start := p.pos
	// The common case: no escapes, ASCII or valid UTF-8.
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			s := p.data[start:p.pos]
			p.pos++
			if !utf8.Valid(s) {
				return "", errSlow
			}
			return string(s), nil
		case c == '\\':
			return p.escapedString(start)
		case c < 0x20:
			return "", errSlow
		}
		p.pos++
	}
	return "", errSlow
}

// escapedString continues a string with escapes from p.pos.
func (p *fastParser) escapedString(start int) (string, error) {
	buf := append([]byte(nil), p.data[start:p.pos]...)
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			if !utf8.Valid(buf) {
				return "", errSlow
			}
			return string(buf), nil
		case c < 0x20:
			return "", errSlow
		case c != '\\':
			buf = append(buf, c)
			p.pos++
			continue
		}
		if p.pos+1 >= len(p.data) {
			return "", errSlow
		}
		e := p.data[p.pos+1]
		p.pos += 2
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			if p.pos+4 > len(p.data) {
				return "", errSlow
			}
			r, err := strconv.ParseUint(string(p.data[p.pos:p.pos+4]), 16, 32)
			if err != nil || r >= 0xD800 && r <= 0xDFFF {
				return "", errSlow // surrogates: the general parser pairs them
			}
			buf = utf8.AppendRune(buf, rune(r))
			p.pos += 4
		default:
			return "", errSlow
		}
	}
	return "", errSlow
}
