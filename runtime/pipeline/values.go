package pipeline

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/render"
)

// The JavaScript semantics the commands inherit from the reference, over
// jsvalue values (nil, bool, float64, string, []any, *jsvalue.Object,
// jsvalue.Undefined).

// undefined is shorthand for jsvalue.Undefined.
var undefined any = jsvalue.Undefined

// isNullish reports null or undefined.
func isNullish(v any) bool { return v == nil || v == jsvalue.Undefined }

// jsString is String(v).
func jsString(v any) string { return render.String(v) }

// compact is JSON.stringify(v) ("" for undefined).
func compact(v any) string { return jsvalue.Stringify(v, "") }

// pretty is JSON.stringify(v, null, 2).
func pretty(v any) string { return jsvalue.Stringify(v, "  ") }

// isObject reports a JavaScript object: an array or a plain object.
func isObject(v any) bool {
	switch v.(type) {
	case []any, *jsvalue.Object:
		return true
	}
	return false
}

// toNumber is Number(v).
func toNumber(v any) float64 {
	switch v := v.(type) {
	case nil:
		return 0
	case bool:
		if v {
			return 1
		}
		return 0
	case float64:
		return v
	case string:
		f, ok := js.Number(v)
		if !ok {
			return math.NaN()
		}
		return f
	case []any, *jsvalue.Object:
		return toNumber(toPrimitive(v))
	}
	return math.NaN() // undefined
}

// toPrimitive is ToPrimitive for plain data: objects and arrays become
// their String().
func toPrimitive(v any) any {
	if isObject(v) {
		return jsString(v)
	}
	return v
}

// looseEqual is JavaScript's abstract equality x == y.
func looseEqual(x, y any) bool {
	if isNullish(x) || isNullish(y) {
		return isNullish(x) && isNullish(y)
	}
	switch a := x.(type) {
	case float64:
		switch b := y.(type) {
		case float64:
			return a == b
		case string:
			return a == toNumber(b)
		case bool:
			return a == toNumber(b)
		}
		return looseEqual(a, toPrimitive(y))
	case string:
		switch b := y.(type) {
		case string:
			return a == b
		case float64, bool:
			return toNumber(a) == toNumber(b)
		}
		return looseEqual(a, toPrimitive(y))
	case bool:
		return looseEqual(toNumber(a), y)
	}
	// x is an object.
	if isObject(y) {
		return sameObject(x, y)
	}
	return looseEqual(toPrimitive(x), y)
}

// sameObject is identity of two objects.
func sameObject(x, y any) bool {
	switch a := x.(type) {
	case *jsvalue.Object:
		b, ok := y.(*jsvalue.Object)
		return ok && a == b
	case []any:
		b, ok := y.([]any)
		return ok && len(a) > 0 && len(b) > 0 && &a[0] == &b[0] // empty arrays: no identity to compare
	}
	return false
}

// compareLoose evaluates x op y for op one of < <= > >= with JavaScript's
// abstract relational comparison.
func compareLoose(x any, op string, y any) bool {
	px, py := toPrimitive(x), toPrimitive(y)
	if sx, ok := px.(string); ok {
		if sy, ok := py.(string); ok {
			return js.Relational(op, float64(compareUTF16(sx, sy)), 0)
		}
	}
	return js.Relational(op, toNumber(px), toNumber(py))
}

// compareUTF16 compares strings by UTF-16 code units, as JavaScript does.
// UTF-8 byte order is code point order, which is UTF-16 order except
// between a supplementary character (a surrogate pair, D800–DFFF) and a
// character from E000 to FFFF; only that case needs a closer look.
func compareUTF16(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	switch {
	case i == len(a) && i == len(b):
		return 0
	case i == len(a):
		return -1
	case i == len(b):
		return 1
	}
	for i > 0 && !utf8.RuneStart(a[i]) {
		i-- // back to the start of the differing character
	}
	ra, _ := utf8.DecodeRuneInString(a[i:])
	rb, _ := utf8.DecodeRuneInString(b[i:])
	ua, ub := units(ra)[0], units(rb)[0]
	switch {
	case ua < ub:
		return -1
	case ua > ub:
		return 1
	}
	// Same first unit: two supplementary characters; code point order
	// is UTF-16 order between them.
	if ra < rb {
		return -1
	}
	return 1
}

// units is r in UTF-16.
func units(r rune) []uint16 {
	if r >= 0x10000 {
		hi, lo := utf16.EncodeRune(r)
		return []uint16{uint16(hi), uint16(lo)}
	}
	return []uint16{uint16(r)}
}

// utf16Len is the JavaScript length of s.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += len(units(r))
	}
	return n
}

// utf16Slice is s's first n UTF-16 units (a split surrogate pair becomes
// U+FFFD, as a lone surrogate prints).
func utf16Slice(s string, n int) string {
	var b strings.Builder
	for _, r := range s {
		u := len(units(r))
		if n <= 0 {
			break
		}
		if u > n {
			b.WriteRune(utf8.RuneError)
			break
		}
		b.WriteRune(r)
		n -= u
	}
	return b.String()
}

// property is v[key] for plain data: own keys of objects; an array's
// indices and length; with strings, a string's indices and length. Nothing
// is inherited.
func property(v any, key string, strings bool) any {
	switch v := v.(type) {
	case *jsvalue.Object:
		if x, ok := v.Get(key); ok {
			return x
		}
	case []any:
		if key == "length" {
			return float64(len(v))
		}
		if i, ok := index(key); ok && i < len(v) {
			return v[i]
		}
	case string:
		if !strings {
			return undefined
		}
		if key == "length" {
			return float64(utf16Len(v))
		}
		if i, ok := index(key); ok {
			u := utf16.Encode([]rune(v))
			if i < len(u) {
				return string(utf16.Decode(u[i : i+1]))
			}
		}
	}
	return undefined
}

// index reads key as a canonical array index.
func index(key string) (int, bool) {
	if key == "" || (len(key) > 1 && key[0] == '0') {
		return 0, false
	}
	n, err := strconv.Atoi(key)
	if err != nil || n < 0 || strconv.Itoa(n) != key {
		return 0, false
	}
	return n, true
}

// lookupWhere is where's path lookup: segments split on "." (empty ones
// are the empty key); null and non-objects (strings included) end it with
// undefined.
func lookupWhere(v any, path string) any {
	if !strings.Contains(path, ".") { // one segment
		if !isObject(v) {
			return undefined
		}
		return property(v, path, false)
	}
	cur := v
	for seg := range strings.SplitSeq(path, ".") {
		if !isObject(cur) {
			return undefined
		}
		cur = property(cur, seg, false)
	}
	return cur
}

// lookupPath is the dot-path lookup of sort, dedupe, groupBy, map and
// template: empty segments are skipped, null and undefined end it, and any
// other value is indexed (strings too: name.length).
func lookupPath(v any, path string) any {
	if !strings.Contains(path, ".") { // one segment, or none
		switch {
		case path == "":
			return v
		case isNullish(v):
			return undefined
		}
		return property(v, path, true)
	}
	cur := v
	for seg := range strings.SplitSeq(path, ".") {
		if seg == "" {
			continue
		}
		if isNullish(cur) {
			return undefined
		}
		cur = property(cur, seg, true)
	}
	return cur
}

// cellText is how table, map and template write a value: null and
// undefined as nothing, strings as they are, numbers and booleans with
// String(), anything else as compact JSON.
func cellText(v any) string {
	switch v.(type) {
	case nil:
		return ""
	case string, float64, bool:
		return jsString(v)
	}
	if v == jsvalue.Undefined {
		return ""
	}
	return compact(v)
}
