package jsvalue

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// ParseText reads a JSON text as Parse does, in one pass over the text
// (Parse goes through encoding/json's token stream, which dominates large
// exec --json outputs and editor messages). Strings without escapes are
// substrings of text (no copy), and each object is built once, at its
// exact size, from its members. It handles well-formed JSON with plain
// escapes; anything else (a syntax error, a \u surrogate, invalid UTF-8) is
// left to Parse, so results and errors are exactly its own.
// TestParseTextMatchesParse checks that.
func ParseText(text string) (any, error) {
	p := &fastParser{data: text}
	if len(text) >= 4<<10 {
		p.boxes = new(boxCache)
	}
	p.space()
	v, err := p.value(0)
	if err == nil {
		p.space()
		if p.pos == len(p.data) {
			return v, nil
		}
	}
	return Parse([]byte(text))
}

// errSlow sends a text to the general parser.
var errSlow = errors.New("slow path")

// maxFastDepth bounds nesting on the fast path (deeper texts take the
// general parser).
const maxFastDepth = 512

type fastParser struct {
	data string
	pos  int
	// keys and vals are a stack of the members of the objects being
	// read; an object's members are copied out when it ends.
	keys []string
	vals []any
	// elems is the stack of the elements of the arrays being read.
	elems []any
	// Objects' key slices are cut from this block.
	keyBlock []string
	// recent holds the last keys made for each number of keys modulo 8:
	// objects with the same keys in the same order (the rows of a JSON
	// array of records) share one keys slice.
	recent [8][]string
	// boxes, for larger texts, reuses the interface values of repeated
	// short strings and integers (a value in an interface is a pointer to
	// a copy of it).
	boxes *boxCache
}

// A boxCache holds recent boxed strings and integers, each in the slot
// of its hash: a repeated value gets the box of the last one.
type boxCache struct {
	strs [256]struct {
		s string
		v any
	}
	nums [256]struct {
		bits uint64
		v    any
	}
}

// maxBoxedString is the length of the longest string the cache keeps.
const maxBoxedString = 24

// str boxes s.
func (c *boxCache) str(s string) any {
	if c == nil || len(s) > maxBoxedString {
		return s
	}
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h = (h ^ uint32(s[i])) * 16777619
	}
	e := &c.strs[h&255]
	if e.v == nil || e.s != s {
		e.s, e.v = s, s
	}
	return e.v
}

// num boxes f.
func (c *boxCache) num(f float64) any {
	if c == nil {
		return f
	}
	bits := math.Float64bits(f)
	e := &c.nums[(bits*0x9E3779B97F4A7C15)>>56]
	if e.v == nil || e.bits != bits {
		e.bits, e.v = bits, f
	}
	return e.v
}

// blockSize is the number of keys in a block.
const blockSize = 1024

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

// object makes an object of the members on the stack from base on.
func (p *fastParser) object(base int) *Object {
	n := len(p.keys) - base
	keys := p.recent[n%8]
	if !slices.Equal(keys, p.keys[base:]) {
		if n > blockSize/8 {
			keys = make([]string, n)
		} else {
			if len(p.keyBlock) < n {
				p.keyBlock = make([]string, blockSize)
			}
			keys = p.keyBlock[:n:n]
			p.keyBlock = p.keyBlock[n:]
		}
		copy(keys, p.keys[base:])
		p.recent[n%8] = keys
	}
	o := CopyMembers(keys, p.vals[base:])
	clear(p.vals[base:]) // the stack keeps no values alive
	p.keys, p.vals = p.keys[:base], p.vals[:base]
	return o
}

func (p *fastParser) value(depth int) (any, error) {
	if p.pos >= len(p.data) || depth > maxFastDepth {
		return nil, errSlow
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		p.pos++
		p.space()
		if p.pos < len(p.data) && p.data[p.pos] == '}' {
			p.pos++
			return NewObject(), nil
		}
		base := len(p.keys)
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
			p.keys = append(p.keys, k)
			p.vals = append(p.vals, v)
			p.space()
			if p.pos >= len(p.data) {
				return nil, errSlow
			}
			switch p.data[p.pos] {
			case ',':
				p.pos++
			case '}':
				p.pos++
				return p.object(base), nil
			default:
				return nil, errSlow
			}
		}
	case c == '[':
		p.pos++
		p.space()
		if p.pos < len(p.data) && p.data[p.pos] == ']' {
			p.pos++
			return []any{}, nil
		}
		base := len(p.elems)
		for {
			p.space()
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			p.elems = append(p.elems, v)
			p.space()
			if p.pos >= len(p.data) {
				return nil, errSlow
			}
			switch p.data[p.pos] {
			case ',':
				p.pos++
			case ']':
				p.pos++
				if depth == 0 {
					// The outermost array: the stack is no
					// longer needed, and becomes the array.
					a := p.elems[:len(p.elems):len(p.elems)]
					p.elems = nil
					return a, nil
				}
				a := slices.Clone(p.elems[base:])
				clear(p.elems[base:])
				p.elems = p.elems[:base]
				return a, nil
			default:
				return nil, errSlow
			}
		}
	case c == '"':
		s, err := p.string()
		if err != nil {
			return nil, err
		}
		return p.boxes.str(s), nil
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
	if len(p.data)-p.pos < len(word) || p.data[p.pos:p.pos+len(word)] != word {
		return nil, errSlow
	}
	p.pos += len(word)
	return v, nil
}

func (p *fastParser) number() (any, error) {
	start := p.pos
	neg := p.data[p.pos] == '-'
	if neg {
		p.pos++
	}
	intStart := p.pos
	var n uint64
	for p.pos < len(p.data) && '0' <= p.data[p.pos] && p.data[p.pos] <= '9' {
		n = n*10 + uint64(p.data[p.pos]-'0')
		p.pos++
	}
	digits := p.pos - intStart
	if digits == 0 || digits > 1 && p.data[intStart] == '0' {
		return nil, errSlow
	}
	if p.pos == len(p.data) || p.data[p.pos] != '.' && p.data[p.pos] != 'e' && p.data[p.pos] != 'E' {
		if digits <= 15 {
			// An integer below 10¹⁵ is exact as a double.
			f := float64(n)
			if neg {
				f = -f
			}
			return p.boxes.num(f), nil
		}
		return p.float(start)
	}
	more := func() int {
		from := p.pos
		for p.pos < len(p.data) && '0' <= p.data[p.pos] && p.data[p.pos] <= '9' {
			p.pos++
		}
		return p.pos - from
	}
	if p.data[p.pos] == '.' {
		p.pos++
		if more() == 0 {
			return nil, errSlow
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if more() == 0 {
			return nil, errSlow
		}
	}
	return p.float(start)
}

// float reads the number from start to p.pos with strconv.
func (p *fastParser) float(start int) (any, error) {
	f, err := strconv.ParseFloat(p.data[start:p.pos], 64)
	if err != nil {
		return nil, errSlow // out of range: the general parser decides
	}
	return f, nil
}

func (p *fastParser) string() (string, error) {
	p.pos++ // the opening quote
	start := p.pos
	ascii := true
	// The common case: no escapes, ASCII or valid UTF-8.
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch {
		case c == '"':
			s := p.data[start:p.pos]
			p.pos++
			if !ascii && !utf8.ValidString(s) {
				return "", errSlow
			}
			return s, nil
		case c == '\\':
			return p.escapedString(start)
		case c < 0x20:
			return "", errSlow
		case c >= utf8.RuneSelf:
			ascii = false
		}
		p.pos++
	}
	return "", errSlow
}

// escapedString continues a string with escapes from p.pos.
func (p *fastParser) escapedString(start int) (string, error) {
	// Find the closing quote first: the unescaped text is never longer than
	// the escaped one, so one allocation holds it (growing a buffer of a
	// megabyte costs more than this scan).
	end := p.pos
	for end < len(p.data) && p.data[end] != '"' {
		if p.data[end] == '\\' {
			end++
		}
		end++
	}
	buf := append(make([]byte, 0, min(end, len(p.data))-start), p.data[start:p.pos]...)
	for p.pos < len(p.data) {
		// Copy the run up to the next quote, escape or control character.
		run := p.pos
		for p.pos < len(p.data) {
			if c := p.data[p.pos]; c == '"' || c == '\\' || c < 0x20 {
				break
			}
			p.pos++
		}
		buf = append(buf, p.data[run:p.pos]...)
		if p.pos >= len(p.data) {
			break
		}
		switch c := p.data[p.pos]; {
		case c == '"':
			p.pos++
			if !utf8.Valid(buf) {
				return "", errSlow
			}
			// buf is not written again: it becomes the string without a copy.
			// With a copy, reading a 1.4 MB escaped string (a didOpen text) took
			// 1.12 times as long (median of 600 interleaved pairs).
			return unsafe.String(unsafe.SliceData(buf), len(buf)), nil
		case c < 0x20:
			return "", errSlow
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
			r, err := strconv.ParseUint(p.data[p.pos:p.pos+4], 16, 32)
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
