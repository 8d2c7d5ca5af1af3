// Package js holds the few JavaScript string and number semantics that
// Lobster files inherit from the reference implementation: what counts as
// white space, String.prototype.trim, Number(string) and the relational
// operators on numbers. The checker uses them to predict the reference, and
// the runtime to behave like it.
package js

import (
	"math"
	"strconv"
	"strings"
)

// IsSpace reports whether r is JavaScript white space or a line terminator
// (what String.prototype.trim removes and \s matches).
func IsSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// Trim is String.prototype.trim.
func Trim(s string) string { return strings.TrimFunc(s, IsSpace) }

// Number is Number(s) for a string; ok is false for NaN. Surrounding white
// space is ignored, "" is 0, and besides decimal literals (sign, fraction
// and exponent optional) it reads "Infinity" and the 0x, 0o and 0b integer
// prefixes (without a sign).
func Number(s string) (f float64, ok bool) {
	s = Trim(s)
	switch s {
	case "":
		return 0, true
	case "Infinity", "+Infinity":
		return math.Inf(1), true
	case "-Infinity":
		return math.Inf(-1), true
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
			return integer(s[2:], base)
		}
	}
	if !decimal(s) {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// integer reads digits in base, of any length.
func integer(digits string, base int) (float64, bool) {
	f := 0.0
	for i := 0; i < len(digits); i++ {
		d := strings.IndexByte("0123456789abcdef", digits[i]|0x20)
		if d < 0 || d >= base {
			return 0, false
		}
		f = f*float64(base) + float64(d)
	}
	return f, true
}

// decimal reports whether s is a decimal literal with an optional sign:
// digits with an optional fraction (or a fraction alone) and an optional
// exponent.
func decimal(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
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

// Relational applies a JavaScript relational operator (<, <=, >, >=) to two
// numbers; any other op is false. A comparison with NaN is false in Go as
// in JavaScript.
func Relational(op string, a, b float64) bool {
	switch op {
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	case ">=":
		return a >= b
	}
	return false
}

// FormatNumber is Number.prototype.toString for a finite double: the
// shortest digits that read back as f, in fixed notation for decimal
// exponents from -6 to 20 and exponential notation outside.
func FormatNumber(f float64) string {
	if f == 0 {
		return "0" // also -0
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.FormatInt(int64(f), 10) // every digit counts
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	// "d.ddde±x": the digits and the exponent of the first one.
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	n := x + 1 // the decimal point's place after the first n digits
	k := len(digits)
	switch {
	case k <= n && n <= 21:
		return sign + digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return sign + digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return sign + "0." + strings.Repeat("0", -n) + digits
	}
	out := sign + digits[:1]
	if k > 1 {
		out += "." + digits[1:]
	}
	if n-1 >= 0 {
		return out + "e+" + strconv.Itoa(n-1)
	}
	return out + "e-" + strconv.Itoa(1-n)
}
