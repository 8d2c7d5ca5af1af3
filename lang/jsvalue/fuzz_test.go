package jsvalue

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"testing"
)

// FuzzParse checks that Parse accepts exactly the valid JSON texts, never
// panics, and that printing is a fixed point: what Stringify writes parses
// back to a value that prints the same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"b":1,"2":[true,null],"a":"\u00e9"}`, `[1e21,1e-7,-0]`, `"x"`, `{"a":1,"a":2}`, `[`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Parse(data)
		if (err == nil) != json.Valid(data) {
			t.Fatalf("Parse(%q) error %v, but json.Valid = %v", data, err, json.Valid(data))
		}
		if err != nil {
			return
		}
		indents := []string{"", "  "}
		if bytes.Count(data, []byte("["))+bytes.Count(data, []byte("{")) > 200 {
			// Indented output grows with the square of the depth, as
			// in JavaScript: too slow to fuzz.
			indents = indents[:1]
		}
		for _, indent := range indents {
			once := Stringify(v, indent)
			back, err := Parse([]byte(once))
			if err != nil {
				t.Fatalf("Stringify wrote invalid JSON %q: %v", once, err)
			}
			if twice := Stringify(back, indent); twice != once {
				t.Fatalf("not a fixed point:\n%s\n%s", once, twice)
			}
		}
	})
}

// FuzzFormatNumber checks that every printed number reads back as itself.
func FuzzFormatNumber(f *testing.F) {
	for _, x := range []float64{0, 1, 0.1, 1e21, 1e-7, 123456789012345678901, 5e-324} {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return
		}
		text := FormatNumber(x)
		back, err := strconv.ParseFloat(text, 64)
		if err != nil || (back != x && !(x == 0 && back == 0)) {
			t.Fatalf("FormatNumber(%v) = %q, reads back as %v, %v", x, text, back, err)
		}
	})
}
