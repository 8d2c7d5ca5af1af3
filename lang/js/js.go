// Package js holds the few JavaScript string and number semantics that
// Lobster files inherit from the reference implementation: what counts as
// white space, String.prototype.trim, Number(string), Number's toString,
// the relational operators on numbers and the case mappings. The checker
// uses them to predict the reference, and the runtime to behave like it.
package js

import (
	"math"
	"strconv"
	"strings"
	"unicode"
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

// upperSpecial are the unconditional one-to-many upper-case mappings of
// Unicode's SpecialCasing that JavaScript's toUpperCase applies (all of
// them: ß, ŉ, the ligatures, the Greek letters with iota subscript…).
// Other code points map as Go's unicode.ToUpper does; where Go's Unicode
// version is older than the JavaScript engine's, letters added since map
// to themselves.
var upperSpecial = map[rune]string{
	0xDF: "\u0053\u0053", 0x149: "\u02BC\u004E", 0x1F0: "\u004A\u030C", 0x390: "\u0399\u0308\u0301",
	0x3B0: "\u03A5\u0308\u0301", 0x587: "\u0535\u0552", 0x1E96: "\u0048\u0331", 0x1E97: "\u0054\u0308",
	0x1E98: "\u0057\u030A", 0x1E99: "\u0059\u030A", 0x1E9A: "\u0041\u02BE", 0x1F50: "\u03A5\u0313",
	0x1F52: "\u03A5\u0313\u0300", 0x1F54: "\u03A5\u0313\u0301", 0x1F56: "\u03A5\u0313\u0342", 0x1F80: "\u1F08\u0399",
	0x1F81: "\u1F09\u0399", 0x1F82: "\u1F0A\u0399", 0x1F83: "\u1F0B\u0399", 0x1F84: "\u1F0C\u0399",
	0x1F85: "\u1F0D\u0399", 0x1F86: "\u1F0E\u0399", 0x1F87: "\u1F0F\u0399", 0x1F88: "\u1F08\u0399",
	0x1F89: "\u1F09\u0399", 0x1F8A: "\u1F0A\u0399", 0x1F8B: "\u1F0B\u0399", 0x1F8C: "\u1F0C\u0399",
	0x1F8D: "\u1F0D\u0399", 0x1F8E: "\u1F0E\u0399", 0x1F8F: "\u1F0F\u0399", 0x1F90: "\u1F28\u0399",
	0x1F91: "\u1F29\u0399", 0x1F92: "\u1F2A\u0399", 0x1F93: "\u1F2B\u0399", 0x1F94: "\u1F2C\u0399",
	0x1F95: "\u1F2D\u0399", 0x1F96: "\u1F2E\u0399", 0x1F97: "\u1F2F\u0399", 0x1F98: "\u1F28\u0399",
	0x1F99: "\u1F29\u0399", 0x1F9A: "\u1F2A\u0399", 0x1F9B: "\u1F2B\u0399", 0x1F9C: "\u1F2C\u0399",
	0x1F9D: "\u1F2D\u0399", 0x1F9E: "\u1F2E\u0399", 0x1F9F: "\u1F2F\u0399", 0x1FA0: "\u1F68\u0399",
	0x1FA1: "\u1F69\u0399", 0x1FA2: "\u1F6A\u0399", 0x1FA3: "\u1F6B\u0399", 0x1FA4: "\u1F6C\u0399",
	0x1FA5: "\u1F6D\u0399", 0x1FA6: "\u1F6E\u0399", 0x1FA7: "\u1F6F\u0399", 0x1FA8: "\u1F68\u0399",
	0x1FA9: "\u1F69\u0399", 0x1FAA: "\u1F6A\u0399", 0x1FAB: "\u1F6B\u0399", 0x1FAC: "\u1F6C\u0399",
	0x1FAD: "\u1F6D\u0399", 0x1FAE: "\u1F6E\u0399", 0x1FAF: "\u1F6F\u0399", 0x1FB2: "\u1FBA\u0399",
	0x1FB3: "\u0391\u0399", 0x1FB4: "\u0386\u0399", 0x1FB6: "\u0391\u0342", 0x1FB7: "\u0391\u0342\u0399",
	0x1FBC: "\u0391\u0399", 0x1FC2: "\u1FCA\u0399", 0x1FC3: "\u0397\u0399", 0x1FC4: "\u0389\u0399",
	0x1FC6: "\u0397\u0342", 0x1FC7: "\u0397\u0342\u0399", 0x1FCC: "\u0397\u0399", 0x1FD2: "\u0399\u0308\u0300",
	0x1FD3: "\u0399\u0308\u0301", 0x1FD6: "\u0399\u0342", 0x1FD7: "\u0399\u0308\u0342", 0x1FE2: "\u03A5\u0308\u0300",
	0x1FE3: "\u03A5\u0308\u0301", 0x1FE4: "\u03A1\u0313", 0x1FE6: "\u03A5\u0342", 0x1FE7: "\u03A5\u0308\u0342",
	0x1FF2: "\u1FFA\u0399", 0x1FF3: "\u03A9\u0399", 0x1FF4: "\u038F\u0399", 0x1FF6: "\u03A9\u0342",
	0x1FF7: "\u03A9\u0342\u0399", 0x1FFC: "\u03A9\u0399", 0xFB00: "\u0046\u0046", 0xFB01: "\u0046\u0049",
	0xFB02: "\u0046\u004C", 0xFB03: "\u0046\u0046\u0049", 0xFB04: "\u0046\u0046\u004C", 0xFB05: "\u0053\u0054",
	0xFB06: "\u0053\u0054", 0xFB13: "\u0544\u0546", 0xFB14: "\u0544\u0535", 0xFB15: "\u0544\u053B",
	0xFB16: "\u054E\u0546", 0xFB17: "\u0544\u053D",
}

// ToUpper is String.prototype.toUpperCase.
func ToUpper(s string) string {
	var b strings.Builder
	for _, r := range s {
		if m, ok := upperSpecial[r]; ok {
			b.WriteString(m)
		} else {
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	return b.String()
}

// ToLower is String.prototype.toLowerCase: also İ to i with a combining
// dot, and a final capital sigma to ς.
func ToLower(s string) string {
	runes := []rune(s)
	var b strings.Builder
	for i, r := range runes {
		switch {
		case r == 'İ':
			b.WriteString("i\u0307")
		case r == 'Σ' && finalSigma(runes, i):
			b.WriteRune('ς')
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalSigma reports whether the Σ at i ends a word: a cased letter before
// it and none after it (case-ignorable characters skipped).
func finalSigma(runes []rune, i int) bool {
	cased := func(r rune) bool { return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) }
	ignorable := func(r rune) bool {
		return unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Lm, r) || unicode.Is(unicode.Sk, r) || r == '\'' || r == '.' || r == ':'
	}
	before := false
	for j := i - 1; j >= 0; j-- {
		if ignorable(runes[j]) {
			continue
		}
		before = cased(runes[j])
		break
	}
	if !before {
		return false
	}
	for j := i + 1; j < len(runes); j++ {
		if ignorable(runes[j]) {
			continue
		}
		return !cased(runes[j])
	}
	return true
}
