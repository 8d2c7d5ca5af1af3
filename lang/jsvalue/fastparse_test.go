package jsvalue

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/internal/jsontest"
)

// compactText is v as compact JSON, key order kept.
func compactText(v any) string { return Stringify(v, "") }

// TestParseTextMatchesParse checks the fast parser against Parse:
// the same value (as JSON text, with key order) or the same error.
func TestParseTextMatchesParse(t *testing.T) {
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
		text := jsontest.RandomJSON(r, 0)
		texts = append(texts, text)
		if _, err := Parse([]byte(text)); err == nil {
			valid = append(valid, text)
		}
	}
	// Large texts (the reader then reuses boxes of repeated values) and
	// rows whose keys are alike but for one (rows share keys slices).
	rows := strings.Repeat(`{"a":-0,"b":0,"c":"x"},{"a":0,"b":-0,"d":"x"},{"a":1,"c":"y","b":1},{"b":"1","a":1.5,"1":"x"},`, 100)
	texts = append(texts, "["+strings.Join(valid, ",")+"]", "["+rows+"{}]", "["+strings.Repeat(`"a","a\u0062",1e2,100,-0,0,`, 500)+"0]")
	for _, text := range texts {
		want, werr := Parse([]byte(text))
		got, gerr := ParseText(text)
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Errorf("%q: error %v, want %v", text, gerr, werr)
			continue
		}
		if werr == nil && compactText(got) != compactText(want) {
			t.Errorf("%q: %s, want %s", text, compactText(got), compactText(want))
		}
	}
}

// TestParseTextBoxes checks that reused boxes keep -0 and 0 apart.
func TestParseTextBoxes(t *testing.T) {
	text := "[" + strings.Repeat(`-0,0,`, 1000) + "0]"
	v, err := ParseText(text)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range v.([]any) {
		if f := x.(float64); f != 0 || math.Signbit(f) != (i%2 == 0 && i < 2000) {
			t.Fatalf("item %d is %v (sign bit %v)", i, f, math.Signbit(f))
		}
	}
}
