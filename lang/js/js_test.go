package js

import (
	"math"
	"testing"
)

// The expectations are node's (Number(s) printed for each s, node 20).
func TestNumber(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		s    string
		want float64
	}{
		{"", 0}, {"  ", 0}, {" 42 ", 42}, {"\u00a042\ufeff", 42}, {"-1", -1}, {"+1.5", 1.5}, {".5", 0.5}, {"5.", 5},
		{"1e3", 1000}, {"1E-2", 0.01}, {"0x1F", 31}, {"0b101", 5}, {"0o17", 15}, {"007", 7}, {"Infinity", math.Inf(1)},
		{"-Infinity", math.Inf(-1)}, {"1e400", math.Inf(1)}, {"0x10000000000000000", 18446744073709551616},
		{"abc", nan}, {"1_000", nan}, {"-0x1", nan}, {"0x", nan}, {"1e", nan}, {"--1", nan}, {"inf", nan},
		{"nan", nan}, {"0x1p3", nan}, {"1 2", nan}, {".", nan}, {"e5", nan}, {"\u0085 1", nan},
	}
	for _, tt := range tests {
		got, ok := Number(tt.s)
		if math.IsNaN(tt.want) {
			if ok {
				t.Errorf("Number(%q) = %v, want NaN", tt.s, got)
			}
		} else if !ok || got != tt.want {
			t.Errorf("Number(%q) = %v, %v; want %v", tt.s, got, ok, tt.want)
		}
	}
}

func TestTrim(t *testing.T) {
	if got := Trim("\ufeff\u2028 x \u3000\n"); got != "x" {
		t.Errorf("Trim = %q", got)
	}
	if got := Trim("\u0085x"); got != "\u0085x" {
		t.Errorf("Trim removed U+0085, which JavaScript keeps: %q", got)
	}
}

func TestRelational(t *testing.T) {
	nan := math.NaN()
	for _, tt := range []struct {
		op   string
		a, b float64
		want bool
	}{
		{"<", 1, 2, true}, {"<", 2, 2, false},
		{"<=", 2, 2, true}, {"<=", 3, 2, false},
		{">", 3, 2, true}, {">", 2, 2, false},
		{">=", 2, 2, true}, {">=", 1, 2, false},
		{"<", nan, 1, false}, {">=", nan, nan, false}, {"<=", 1, nan, false},
		{"==", 1, 1, false},
	} {
		if got := Relational(tt.op, tt.a, tt.b); got != tt.want {
			t.Errorf("Relational(%q, %v, %v) = %v, want %v", tt.op, tt.a, tt.b, got, tt.want)
		}
	}
}

// TestCase: toUpperCase and toLowerCase as node prints them, one-to-many
// mappings and the final sigma included.
func TestCase(t *testing.T) {
	for _, tt := range []struct{ in, upper, lower string }{
		{"straße", "STRASSE", "straße"},
		{"ŉ", "ʼN", "ŉ"},
		{"ﬃx", "FFIX", "ﬃx"},
		{"ᾳ", "ΑΙ", "ᾳ"},
		{"ΐ", "Ϊ́", "ΐ"},
		{"ὖ", "Υ̓͂", "ὖ"},
		{"İX", "İX", "i̇x"},
		{"ΟΔΟΣ", "ΟΔΟΣ", "οδος"},
		{"ΣΑΣ", "ΣΑΣ", "σας"},
		{"Σ", "Σ", "σ"},
		{"AΣ.", "AΣ.", "aς."},
		{"ΣΑΣ'Σ", "ΣΑΣ'Σ", "σασ'ς"},
		{"Σ1", "Σ1", "σ1"},
		{"aΣb", "AΣB", "aσb"},
		{"ÀÉ", "ÀÉ", "àé"},
	} {
		if got := ToUpper(tt.in); got != tt.upper {
			t.Errorf("ToUpper(%q) = %q, want %q", tt.in, got, tt.upper)
		}
		if got := ToLower(tt.in); got != tt.lower {
			t.Errorf("ToLower(%q) = %q, want %q", tt.in, got, tt.lower)
		}
	}
}
