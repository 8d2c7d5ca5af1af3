package jsvalue

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Stringify is JSON.stringify(v, null, indent). A top-level Undefined gives
// "" (JavaScript's undefined).
func Stringify(v any, indent string) string {
	var b strings.Builder
	if !write(&b, v, indent, "") {
		return ""
	}
	return b.String()
}

// write appends v and reports whether it was representable (false for
// Undefined, which the caller skips or prints as null).
func write(b *strings.Builder, v any, indent, prefix string) bool {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			b.WriteString("null")
		} else {
			b.WriteString(FormatNumber(v))
		}
	case int:
		b.WriteString(strconv.Itoa(v))
	case string:
		Quote(b, v)
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return true
		}
		inner := prefix + indent
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(b, indent, inner)
			if !write(b, e, indent, inner) {
				b.WriteString("null")
			}
		}
		newline(b, indent, prefix)
		b.WriteByte(']')
	case *Object:
		inner := prefix + indent
		b.WriteByte('{')
		n := 0
		for _, k := range v.Keys() {
			e := v.values[k]
			if e == Undefined {
				continue
			}
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			newline(b, indent, inner)
			Quote(b, k)
			b.WriteByte(':')
			if indent != "" {
				b.WriteByte(' ')
			}
			write(b, e, indent, inner)
		}
		if n > 0 {
			newline(b, indent, prefix)
		}
		b.WriteByte('}')
	default: // Undefined, or a type that is not a JSON value
		return false
	}
	return true
}

func newline(b *strings.Builder, indent, prefix string) {
	if indent != "" {
		b.WriteByte('\n')
		b.WriteString(prefix)
	}
}

// Quote appends s as a JSON string the way JSON.stringify writes it: only
// quotes, backslashes and control characters are escaped; invalid UTF-8
// (which JavaScript would have decoded to U+FFFD) is written as U+FFFD.
func Quote(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			b.WriteRune(r) // utf8.RuneError for a bad byte: U+FFFD
			i += size
			continue
		}
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
			} else {
				b.WriteByte(c)
			}
		}
		i++
	}
	b.WriteByte('"')
}

// FormatNumber is Number.prototype.toString for a finite double: the
// shortest digits that read back as f, in fixed notation for decimal
// exponents from -6 to 20 and exponential notation outside.
func FormatNumber(f float64) string {
	if f == 0 {
		return "0" // also -0
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

// ToFixed is Number.prototype.toFixed(digits) for a finite double below
// 1e21: the exact binary value rounded half away from zero, unlike
// strconv's half-to-even (0.125.toFixed(2) is "0.13").
func ToFixed(f float64, digits int) string {
	r := new(big.Rat).SetFloat64(math.Abs(f))
	if r == nil {
		return FormatNumber(f)
	}
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits)), nil)
	r.Mul(r, new(big.Rat).SetInt(scale))
	r.Add(r, big.NewRat(1, 2))
	n := new(big.Int).Quo(r.Num(), r.Denom())
	s := n.String()
	if digits > 0 {
		if len(s) <= digits {
			s = strings.Repeat("0", digits-len(s)+1) + s
		}
		s = s[:len(s)-digits] + "." + s[len(s)-digits:]
	}
	if f < 0 {
		s = "-" + s
	}
	return s
}
