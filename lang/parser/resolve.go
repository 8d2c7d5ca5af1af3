package parser

import (
	"errors"
	"math"
	"strconv"
)

var (
	posInf = math.Inf(1)
	nan    = math.NaN()
)

// coreInt parses the integer forms of the YAML 1.2 core schema: decimal with
// an optional sign, 0o octal and 0x hexadecimal. The value is a JavaScript
// number, as in the reference.
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
		v, err := strconv.ParseUint(t[2:], base, 64)
		if err != nil && !isRangeErr(err) {
			return 0, false
		}
		return float64(v), true
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
