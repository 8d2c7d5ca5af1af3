package pipeline

import (
	"fmt"
	"unicode/utf16"
)

// jsonErrorMessage is the message JavaScript's JSON.parse (V8, as in the
// reference's Node) gives for the invalid JSON text, found by scanning it
// again; err is the decoder's error, used when the scan finds nothing.
// Positions count UTF-16 units.
func jsonErrorMessage(text string, err error) string {
	s := &jsonScan{src: utf16.Encode([]rune(text))}
	if msg := s.document(); msg != "" {
		return msg
	}
	return err.Error()
}

// jsonScan is a JSON syntax check that stops at the first error.
type jsonScan struct {
	src []uint16
	pos int
}

// errEnd is V8's message for input that ends where a value must start.
const errEnd = "Unexpected end of JSON input"

func (s *jsonScan) at() (uint16, bool) {
	if s.pos < len(s.src) {
		return s.src[s.pos], true
	}
	return 0, false
}

func (s *jsonScan) space() {
	for s.pos < len(s.src) {
		switch s.src[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

func (s *jsonScan) errAt(msg string) string {
	return fmt.Sprintf("%s in JSON at position %d", msg, s.pos)
}

// unexpected is the message for an unexpected character at pos.
func (s *jsonScan) unexpected() string {
	c, ok := s.at()
	if !ok {
		return errEnd
	}
	src := string(utf16.Decode(s.src))
	if c == 'N' || c == 'I' {
		// NaN and Infinity get no token in V8's message.
		return fmt.Sprintf("%q is not valid JSON", src)
	}
	tok := string(utf16.Decode(s.src[s.pos : s.pos+1]))
	if utf16.IsSurrogate(rune(c)) && s.pos+1 < len(s.src) {
		tok = string(utf16.Decode(s.src[s.pos : s.pos+2]))
	}
	const context = 10
	var ctx string
	n := len(s.src)
	switch {
	case n <= 2*context:
		ctx = `"` + src + `"`
	case s.pos < context:
		ctx = `"` + string(utf16.Decode(s.src[:s.pos+context])) + `"...`
	case s.pos+context < n:
		ctx = `..."` + string(utf16.Decode(s.src[s.pos-context:s.pos+context])) + `"...`
	default:
		ctx = `..."` + string(utf16.Decode(s.src[s.pos-context:])) + `"`
	}
	return fmt.Sprintf("Unexpected token '%s', %s is not valid JSON", tok, ctx)
}

func (s *jsonScan) document() string {
	s.space()
	if msg := s.value(); msg != "" {
		return msg
	}
	s.space()
	if s.pos < len(s.src) {
		return fmt.Sprintf("Unexpected non-whitespace character after JSON at position %d", s.pos)
	}
	return ""
}

func (s *jsonScan) value() string {
	c, ok := s.at()
	if !ok {
		return errEnd
	}
	switch {
	case c == '{':
		return s.object()
	case c == '[':
		return s.array()
	case c == '"':
		return s.string()
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return s.unexpected()
}

func (s *jsonScan) literal(word string) string {
	for i := 0; i < len(word); i++ {
		c, ok := s.at()
		if !ok {
			return errEnd
		}
		if c != uint16(word[i]) {
			return s.unexpected()
		}
		s.pos++
	}
	return ""
}

func (s *jsonScan) digits() int {
	n := 0
	for c, ok := s.at(); ok && '0' <= c && c <= '9'; c, ok = s.at() {
		s.pos++
		n++
	}
	return n
}

func (s *jsonScan) number() string {
	if c, _ := s.at(); c == '-' {
		s.pos++
		if c, ok := s.at(); !ok || c < '0' || c > '9' {
			return s.errAt("No number after minus sign")
		}
	}
	if c, _ := s.at(); c == '0' {
		s.pos++
		if c, ok := s.at(); ok && '0' <= c && c <= '9' {
			return s.errAt("Unexpected number")
		}
	} else {
		s.digits()
	}
	if c, _ := s.at(); c == '.' {
		s.pos++
		if s.digits() == 0 {
			return s.errAt("Unterminated fractional number")
		}
	}
	if c, _ := s.at(); c == 'e' || c == 'E' {
		s.pos++
		if c, _ := s.at(); c == '+' || c == '-' {
			s.pos++
		}
		if s.digits() == 0 {
			return s.errAt("Exponent part is missing a number")
		}
	}
	return ""
}

func (s *jsonScan) string() string {
	s.pos++ // the opening quote
	for {
		c, ok := s.at()
		switch {
		case !ok:
			return s.errAt("Unterminated string")
		case c == '"':
			s.pos++
			return ""
		case c < 0x20:
			return s.errAt("Bad control character in string literal")
		case c == '\\':
			s.pos++
			e, ok := s.at()
			switch {
			case !ok:
				return s.errAt("Unterminated string")
			case e == 'u':
				for range 4 {
					s.pos++
					h, ok := s.at()
					if !ok || !isHex(h) {
						return s.errAt("Bad Unicode escape")
					}
				}
			case e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' || e == 't':
			default:
				return s.errAt("Bad escaped character")
			}
			s.pos++
		default:
			s.pos++
		}
	}
}

func isHex(c uint16) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func (s *jsonScan) array() string {
	s.pos++
	s.space()
	if c, _ := s.at(); c == ']' {
		s.pos++
		return ""
	}
	for {
		if msg := s.value(); msg != "" {
			return msg
		}
		s.space()
		c, _ := s.at()
		switch c {
		case ',':
			s.pos++
			s.space()
		case ']':
			s.pos++
			return ""
		default:
			return s.errAt("Expected ',' or ']' after array element")
		}
	}
}

func (s *jsonScan) object() string {
	s.pos++
	s.space()
	c, _ := s.at()
	if c == '}' {
		s.pos++
		return ""
	}
	if c != '"' {
		return s.errAt("Expected property name or '}'")
	}
	for {
		if msg := s.string(); msg != "" {
			return msg
		}
		s.space()
		if c, _ := s.at(); c != ':' {
			return s.errAt("Expected ':' after property name")
		}
		s.pos++
		s.space()
		if msg := s.value(); msg != "" {
			return msg
		}
		s.space()
		c, _ := s.at()
		switch c {
		case ',':
			s.pos++
			s.space()
			if c, _ := s.at(); c != '"' {
				return s.errAt("Expected double-quoted property name")
			}
		case '}':
			s.pos++
			return ""
		default:
			return s.errAt("Expected ',' or '}' after property value")
		}
	}
}
