package pipeline

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/lobsterdev/lobster/runtime/jsvalue"
)

// TestParseJSONMatchesJsvalue checks the fast parser against jsvalue.Parse:
// the same value (as JSON text, with key order) or the same error.
func TestParseJSONMatchesJsvalue(t *testing.T) {
	texts := []string{
		`[1,2,3]`, `{"b":1,"a":2,"1":3,"b":4}`, `"a\"b\\c\/d\b\f\n\r\t\u00e9\u20ac"`, `"\ud83d\ude00"`, `"\ud800"`,
		`-0`, `1e400`, `-1e-400`, `0.1`, `1E+2`, `01`, `-`, `1.`, `.5`, `[1,]`, `{"a":1,}`, `{"a" 1}`, `[1 2]`,
		`"é€😀"`, "\"\xff\"", "\"a\x01\"", `true`, `tru`, `nul`, `[[[[]]]]`, `{"a":{"b":[{"c":null}]}}`, ``, `  `,
		`[1] x`, `{"__proto__":1,"constructor":{}}`, strings.Repeat("[", 600) + strings.Repeat("]", 600), `"\u0041\u00"`,
		`123456789012345678901234567890`, `9007199254740993`, `[1e21, 1e-7, 5e-324]`,
	}
	r := rand.New(rand.NewPCG(1, 2))
	var valid []string
	for range 300 {
		text := randomJSON(r, 0)
		texts = append(texts, text)
		if _, err := jsvalue.Parse([]byte(text)); err == nil {
			valid = append(valid, text)
		}
	}
	// Large texts (the reader then reuses boxes of repeated values) and
	// rows whose keys are alike but for one (rows share keys slices).
	rows := strings.Repeat(`{"a":-0,"b":0,"c":"x"},{"a":0,"b":-0,"d":"x"},{"a":1,"c":"y","b":1},{"b":"1","a":1.5,"1":"x"},`, 100)
	texts = append(texts, "["+strings.Join(valid, ",")+"]", "["+rows+"{}]", "["+strings.Repeat(`"a","a\u0062",1e2,100,-0,0,`, 500)+"0]")
	for _, text := range texts {
		want, werr := jsvalue.Parse([]byte(text))
		got, gerr := parseJSON(text)
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Errorf("%q: error %v, want %v", text, gerr, werr)
			continue
		}
		if werr == nil && compact(got) != compact(want) {
			t.Errorf("%q: %s, want %s", text, compact(got), compact(want))
		}
	}
}

// randomJSON builds a random JSON text, sometimes broken.
func randomJSON(r *rand.Rand, depth int) string {
	switch n := r.IntN(9); {
	case n == 0 && depth < 4:
		var parts []string
		for range r.IntN(4) {
			parts = append(parts, randomJSON(r, depth+1))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case n == 1 && depth < 4:
		var parts []string
		for range r.IntN(4) {
			parts = append(parts, `"`+[]string{"a", "b", "1", "é", ""}[r.IntN(5)]+`":`+randomJSON(r, depth+1))
		}
		return "{" + strings.Join(parts, ",") + "}"
	case n == 2:
		return []string{"true", "false", "null", "tru", "[", "}", ","}[r.IntN(7)]
	case n == 3:
		return []string{"0", "-1.5", "2e3", "1e999", "-0.0", "00", "1.e2"}[r.IntN(7)]
	}
	chars := []string{"a", `\"`, `\\`, `\n`, `\u00e9`, `\ud83d\ude00`, "é", "😀", `\u12`, `\x`, "\t"}
	var b strings.Builder
	for range r.IntN(5) {
		b.WriteString(chars[r.IntN(len(chars))])
	}
	return `"` + b.String() + `"`
}

func TestCompareUTF16(t *testing.T) {
	words := []string{"", "a", "ab", "b", "é", "\uff61", "😀", "😁", "\ue000", "a😀", "a\uffff", "A", "z"}
	for _, a := range words {
		for _, b := range words {
			ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
			want := 0
			for i := 0; ; i++ {
				if i == len(ua) || i == len(ub) {
					want = len(ua) - len(ub)
					break
				}
				if ua[i] != ub[i] {
					want = int(ua[i]) - int(ub[i])
					break
				}
			}
			got := compareUTF16(a, b)
			if (got < 0) != (want < 0) || (got > 0) != (want > 0) {
				t.Errorf("compareUTF16(%q, %q) = %d, want sign of %d", a, b, got, want)
			}
		}
	}
}

func TestIdentity(t *testing.T) {
	// Same identity exactly when JSON.stringify gives the same text.
	values := []any{"1", 1.0, "null", nil, math.NaN(), math.Inf(1), true, "true", jsvalue.Undefined, []any{1.0}, "[1]", jsvalue.Obj("a", 1.0), `{"a":1}`, 0.0, math.Copysign(0, -1), ""}
	for _, a := range values {
		for _, b := range values {
			same := identity(a) == identity(b)
			var want bool
			if a == jsvalue.Undefined || b == jsvalue.Undefined {
				want = a == b
			} else {
				want = compact(a) == compact(b)
			}
			if same != want {
				t.Errorf("identity(%#v) == identity(%#v): %v, want %v", a, b, same, want)
			}
		}
	}
}

// TestWritePretty checks the streaming renderer against jsvalue.Stringify.
func TestWritePretty(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	values := []any{nil, true, 1.5, math.NaN(), "a\"b\u2028", []any{}, jsvalue.NewObject(), []any{jsvalue.Undefined, 1.0},
		jsvalue.Obj("a", jsvalue.Undefined, "b", []any{jsvalue.Obj()}, "10", 2.0), jsvalue.Undefined}
	for range 200 {
		if v, err := jsvalue.Parse([]byte(randomJSON(r, 0))); err == nil {
			values = append(values, v)
		}
	}
	// Large arrays are written in runs rendered on other goroutines.
	for _, n := range []int{2 * prettyRun, 5*prettyRun + 7} {
		large := make([]any, n)
		for i := range large {
			large[i] = values[i%len(values)]
		}
		values = append(values, large)
	}
	for _, v := range values {
		var b strings.Builder
		if err := writePretty(&b, v); err != nil {
			t.Fatal(err)
		}
		if want := jsvalue.Stringify(v, "  "); b.String() != want {
			t.Errorf("writePretty(%s) = %q, want %q", compact(v), b.String(), want)
		}
	}
}

// TestParseJSONBoxes checks that reused boxes keep -0 and 0 apart.
func TestParseJSONBoxes(t *testing.T) {
	text := "[" + strings.Repeat(`-0,0,`, 1000) + "0]"
	v, err := parseJSON(text)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range v.([]any) {
		if f := x.(float64); f != 0 || math.Signbit(f) != (i%2 == 0 && i < 2000) {
			t.Fatalf("item %d is %v (sign bit %v)", i, f, math.Signbit(f))
		}
	}
}

// TestSortTotalMatchesGeneral checks the typed sort against the general
// stable sort on keys of one type, with null, missing keys, -0, equal keys
// and strings that UTF-16 orders differently from UTF-8, ascending and
// descending; and that it declines mixed types and NaN.
func TestSortTotalMatchesGeneral(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	nums := []any{0.0, math.Copysign(0, -1), 1.0, -1.5, 2.0, math.Inf(1), math.Inf(-1), 1e21, nil}
	strs := []any{"", "a", "b", "B", "é", "\uff61", "😀", "a😀", "a\uff61", nil}
	for _, pool := range [][]any{nums, strs} {
		for range 200 {
			items := make([]any, r.IntN(40))
			for i := range items {
				o := jsvalue.NewObject()
				o.Set("i", float64(i))
				if r.IntN(8) > 0 {
					o.Set("k", pool[r.IntN(len(pool))])
				}
				items[i] = o
			}
			for _, desc := range []bool{false, true} {
				got, ok := sortTotal(items, "k", true, desc)
				want := sortGeneral(items, "k", true, desc)
				if !ok || compact(got) != compact(want) {
					t.Fatalf("desc %v, %s:\n got %s (%v)\nwant %s", desc, compact(items), compact(got), ok, compact(want))
				}
			}
		}
	}
	for _, keys := range [][]any{{1.0, "1"}, {"a", true}, {math.NaN(), 1.0}, {1.0, []any{}}} {
		if _, ok := sortTotal(keys, "", false, false); ok {
			t.Errorf("sortTotal took %v", keys)
		}
	}
}

// TestIdentitySet checks the set against a map of identity texts.
func TestIdentitySet(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	pool := []any{0.0, math.Copysign(0, -1), 1.0, 1.5, 63.0, 64.0, 1e7, 1 << 24, 1<<24 - 1, -1.0, math.NaN(), math.Inf(1),
		math.Inf(-1), "1", "n1", "", nil, undefined, true, []any{}, []any{1.0}, jsvalue.Obj("a", 1.0), "null"}
	for range 100 {
		var s identitySet
		seen := map[string]bool{}
		for range 50 {
			v := pool[r.IntN(len(pool))]
			id := identity(v)
			if got := s.add(v); got != !seen[id] {
				t.Fatalf("add(%v) = %v, want %v", v, got, !seen[id])
			}
			seen[id] = true
		}
	}
}

// failingWriter fails from its second write on.
type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.n++; w.n > 1 {
		return 0, errors.New("disk full")
	}
	return len(p), nil
}

// TestWritePrettyRunsError checks that a write error ends a large write
// with that error (and no goroutine left behind: the race detector and
// the test's end see to that).
func TestWritePrettyRunsError(t *testing.T) {
	items := make([]any, 10*prettyRun)
	for i := range items {
		items[i] = jsvalue.Obj("i", float64(i))
	}
	if err := writePretty(&failingWriter{}, items); err == nil || err.Error() != "disk full" {
		t.Errorf("error %v", err)
	}
}

// TestParseHalves checks the two-reader path on large texts against
// jsvalue.Parse: cuts inside strings and nested values, slow constructs
// and errors in either half, and texts that are not arrays.
func TestParseHalves(t *testing.T) {
	row := func(i int) string {
		switch i % 4 {
		case 0:
			return `{"id":` + strconv.Itoa(i) + `,"s":"a,b,c,d","x":[1,2,{"y":","}]}`
		case 1:
			return `[",", ",,", {"k": ",", "1": 2, "k": 3}]`
		case 2:
			return `"` + strings.Repeat(",", 50) + `"`
		}
		return `-0.5`
	}
	var rows []string
	size := 0
	for i := 0; size < parallelFrom+parallelFrom/4; i++ {
		rows = append(rows, row(i))
		size += len(rows[i]) + 1
	}
	body := strings.Join(rows, ",")
	half := len(body) / 2
	texts := []string{
		"[" + body + "]",
		"  [\n" + strings.Join(rows, ",\n") + "\n]\n ",
		"[" + body[:half] + `"\ud83d\ude00",` + body[half:] + "]", // a surrogate pair near the middle
		"[" + body + `,"\ud83d\ude00"]`,                           // in the second half
		`["\ud83d\ude00",` + body + "]",                           // in the first half
		"[" + body + ",]",                                         // errors
		"[" + body[:half] + "}" + body[half:] + "]",
		"[" + body + "] x",
		"[" + body,
		`{"a":[` + body + "]}",
		`"` + strings.Repeat(",", parallelFrom+1) + `"`,
		"[" + strings.Repeat(`",",`, parallelFrom/3) + `","]`,
		"[" + strings.Repeat("12,", parallelFrom/2) + "12]", // every comma ends an element
		"[" + strings.Repeat("12,", parallelFrom/2) + `"\ud800"]`,
		"[" + strings.Repeat("12,", parallelFrom/2) + "12,]",
	}
	for i, text := range texts {
		want, werr := jsvalue.Parse([]byte(text))
		got, gerr := parseJSON(text)
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Errorf("text %d: error %v, want %v", i, gerr, werr)
			continue
		}
		if werr == nil && compact(got) != compact(want) {
			t.Errorf("text %d: values differ", i)
		}
	}
}
