package jsvalue

import (
	"math"
	"strconv"
	"strings"
	"unicode"
)

// ToNumber is JavaScript's Number(s) for a string: surrounding white space
// is ignored, "" is 0, and besides decimal literals (sign, fraction and
// exponent optional) it reads "Infinity" and the 0x, 0o and 0b integer
// prefixes. Anything else is NaN.
func ToNumber(s string) float64 {
	s = Trim(s)
	if s == "" {
		return 0
	}
	if len(s) > 2 && s[0] == '0' {
		base := 0
		switch s[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			return parseInteger(s[2:], base)
		}
	}
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 {
		return math.NaN()
	}
	if body == "Infinity" {
		if s[0] == '-' {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	if !isDecimalLiteral(body) {
		return math.NaN()
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return math.NaN()
	}
	return f
}

// parseInteger reads digits in base, any length (big values round as
// JavaScript's do, nearly enough for what the runtime compares).
func parseInteger(digits string, base int) float64 {
	if digits == "" {
		return math.NaN()
	}
	f := 0.0
	for _, c := range digits {
		d := strings.IndexRune("0123456789abcdef", unicode.ToLower(c))
		if d < 0 || d >= base {
			return math.NaN()
		}
		f = f*float64(base) + float64(d)
	}
	return f
}

// isDecimalLiteral says whether s is digits with an optional fraction and
// exponent: "1", "1.", ".5", "1.5e-3".
func isDecimalLiteral(s string) bool {
	i, digits := 0, 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i, digits = i+1, digits+1
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i, digits = i+1, digits+1
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}

// Trim is JavaScript's String.prototype.trim.
func Trim(s string) string { return strings.TrimFunc(s, isJSSpace) }

// isJSSpace is JavaScript's WhiteSpace and LineTerminator.
func isJSSpace(r rune) bool {
	return unicode.IsSpace(r) || r == '\ufeff'
}
