package parser

import (
	"errors"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
)

var (
	posInf = math.Inf(1)
	nan    = math.NaN()
)

// The YAML 1.2 core schema, as the reference's YAML library applies it:
// which plain texts are null, booleans, integers and floats, and their
// values (numbers are JavaScript numbers).

// resolvePlain sets the kind of an untagged plain scalar.
func resolvePlain(s *ast.Scalar) {
	t := s.Text
	if t != "" && !mayStartCore(t[0]) {
		s.Kind = ast.String // most plain scalars are words
		return
	}
	if isCoreNull(t) {
		s.Kind = ast.Null
		return
	}
	if b, ok := coreBool(t); ok {
		s.Kind, s.Bool = ast.Bool, b
		return
	}
	if v, ok := coreInt(t); ok {
		s.Kind, s.Num = ast.Int, v
		return
	}
	if v, ok := coreFloat(t); ok {
		s.Kind, s.Num = ast.Float, v
		return
	}
	s.Kind = ast.String
}

// mayStartCore reports whether a core schema null, boolean or number may
// start with c.
func mayStartCore(c byte) bool {
	switch c {
	case '~', 'n', 'N', 't', 'T', 'f', 'F', '.', '+', '-':
		return true
	}
	return c >= '0' && c <= '9'
}

// isCoreNull matches ~, null, Null, NULL and the empty text.
func isCoreNull(t string) bool {
	switch t {
	case "", "~", "null", "Null", "NULL":
		return true
	}
	return false
}

// coreBool matches true, True, TRUE, false, False and FALSE.
func coreBool(t string) (bool, bool) {
	switch t {
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	}
	return false, false
}

// coreInt parses the integer forms: decimal with an optional sign, 0o octal
// and 0x hexadecimal (without a sign).
func coreInt(t string) (float64, bool) {
	if len(t) > 2 && t[0] == '0' && (t[1] == 'o' || t[1] == 'x') {
		base := 8
		if t[1] == 'x' {
			base = 16
		}
		for _, c := range t[2:] {
			if !isDigitIn(c, base) {
				return 0, false
			}
		}
		if v, err := strconv.ParseUint(t[2:], base, 64); err == nil && v < 1<<53 {
			return float64(v), true
		}
		// Beyond 2^53, rounded to the nearest double as parseInt does.
		n, _ := new(big.Int).SetString(t[2:], base)
		f, _ := new(big.Float).SetInt(n).Float64()
		return f, true
	}
	digits := t
	if len(digits) > 0 && (digits[0] == '-' || digits[0] == '+') {
		digits = digits[1:]
	}
	if digits == "" {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil && !isRangeErr(err) {
		return 0, false
	}
	return v, true
}

func isDigitIn(c rune, base int) bool {
	switch {
	case c >= '0' && c <= '7':
		return true
	case base == 16 && (c >= '8' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'):
		return true
	}
	return false
}

// coreFloat parses the float forms: .inf and .nan in their three spellings,
// and decimals with a point or an exponent.
func coreFloat(t string) (float64, bool) {
	switch t {
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return posInf, true
	case "-.inf", "-.Inf", "-.INF":
		return -posInf, true
	case ".nan", ".NaN", ".NAN":
		return nan, true
	}
	if !isCoreFloat(t) || !strings.ContainsAny(t, ".eE") {
		return 0, false // "1" is no float: only a tag could ask for one
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil && !isRangeErr(err) {
		return 0, false
	}
	return v, true
}

// isCoreFloat matches [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
func isCoreFloat(t string) bool {
	i := 0
	if i < len(t) && (t[i] == '-' || t[i] == '+') {
		i++
	}
	intDigits := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
		intDigits++
	}
	fracDigits := 0
	if i < len(t) && t[i] == '.' {
		i++
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
			fracDigits++
		}
	}
	if intDigits == 0 && fracDigits == 0 {
		return false
	}
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		if i < len(t) && (t[i] == '-' || t[i] == '+') {
			i++
		}
		expDigits := 0
		for i < len(t) && t[i] >= '0' && t[i] <= '9' {
			i++
			expDigits++
		}
		if expDigits == 0 {
			return false
		}
	}
	return i == len(t)
}

func isRangeErr(err error) bool { return errors.Is(err, strconv.ErrRange) }

// The YAML 1.1 schema, which the reference's library applies to a document
// after a "%YAML 1.1" directive: more boolean words, binary, old-style octal
// and sexagesimal numbers, "_" between digits, and timestamps.

var (
	yaml11Bin       = regexp.MustCompile(`^[-+]?0b[0-1_]+$`)
	yaml11Oct       = regexp.MustCompile(`^[-+]?0[0-7_]+$`)
	yaml11Int       = regexp.MustCompile(`^[-+]?[0-9][0-9_]*$`)
	yaml11Hex       = regexp.MustCompile(`^[-+]?0x[0-9a-fA-F_]+$`)
	yaml11Exp       = regexp.MustCompile(`^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$`)
	yaml11Float     = regexp.MustCompile(`^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$`)
	yaml11IntTime   = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+$`)
	yaml11FloatTime = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$`)
)

// resolvePlain11 sets the kind of an untagged plain scalar under YAML 1.1.
// A timestamp stays a string here (the reference makes a Date of it).
func resolvePlain11(s *ast.Scalar) {
	t := s.Text
	switch {
	case isCoreNull(t):
		s.Kind = ast.Null
	default:
		if b, ok := bool11(t); ok {
			s.Kind, s.Bool = ast.Bool, b
		} else if v, ok := int11(t); ok {
			s.Kind, s.Num = ast.Int, v
		} else if v, ok := float11(t); ok {
			s.Kind, s.Num = ast.Float, v
		} else {
			s.Kind = ast.String
		}
	}
}

func bool11(t string) (bool, bool) {
	switch t {
	case "Y", "y", "Yes", "yes", "YES", "True", "true", "TRUE", "On", "on", "ON":
		return true, true
	case "N", "n", "No", "no", "NO", "False", "false", "FALSE", "Off", "off", "OFF":
		return false, true
	}
	return false, false
}

// int11 parses YAML 1.1 integers as the reference does: the sign, the
// prefix and every "_" dropped, then parseInt in the base.
func int11(t string) (float64, bool) {
	base, offset := 0, 0
	switch {
	case yaml11Bin.MatchString(t):
		base, offset = 2, 2
	case yaml11Oct.MatchString(t):
		base, offset = 8, 1
	case yaml11Int.MatchString(t):
		base = 10
	case yaml11Hex.MatchString(t):
		base, offset = 16, 2
	case yaml11IntTime.MatchString(t):
		return sexagesimal(t), true
	default:
		return 0, false
	}
	neg := t[0] == '-'
	if t[0] == '-' || t[0] == '+' {
		offset++
	}
	digits := strings.ReplaceAll(t[offset:], "_", "")
	v := parseIntJS(digits, base)
	if neg {
		v = -v
	}
	return v, true
}

// parseIntJS is JavaScript's parseInt of digits (all valid in base): NaN for
// none, the nearest double for many.
func parseIntJS(digits string, base int) float64 {
	if digits == "" {
		return nan
	}
	if v, err := strconv.ParseUint(digits, base, 64); err == nil && v < 1<<53 {
		return float64(v)
	}
	if base == 10 {
		v, _ := strconv.ParseFloat(digits, 64)
		return v
	}
	n, _ := new(big.Int).SetString(digits, base)
	f, _ := new(big.Float).SetInt(n).Float64()
	return f
}

func float11(t string) (float64, bool) {
	switch t {
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		return posInf, true
	case "-.inf", "-.Inf", "-.INF":
		return -posInf, true
	case ".nan", ".NaN", ".NAN":
		return nan, true
	}
	switch {
	case yaml11Exp.MatchString(t), yaml11Float.MatchString(t):
		return parseFloatJS(strings.ReplaceAll(t, "_", "")), true
	case yaml11FloatTime.MatchString(t):
		return sexagesimal(t), true
	}
	return 0, false
}

// parseFloatJS is JavaScript's parseFloat of a text that matched a float
// pattern: the longest prefix that is a number, NaN when there is none.
func parseFloatJS(t string) float64 {
	for end := len(t); end > 0; end-- {
		if v, err := strconv.ParseFloat(t[:end], 64); err == nil || isRangeErr(err) {
			if !strings.ContainsAny(t[:end], "xXpPnN_") {
				return v
			}
		}
	}
	return nan
}

// sexagesimal reads a base 60 number such as 1:30:00 or 1:30.5.
func sexagesimal(t string) float64 {
	neg := t[0] == '-'
	if t[0] == '-' || t[0] == '+' {
		t = t[1:]
	}
	v := 0.0
	for _, p := range strings.Split(strings.ReplaceAll(t, "_", ""), ":") {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil && !isRangeErr(err) {
			f = nan
		}
		v = v*60 + f
	}
	if neg {
		v = -v
	}
	return v
}
