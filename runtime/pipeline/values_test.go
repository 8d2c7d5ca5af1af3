package pipeline

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/lobsterdev/lobster/internal/jsontest"
	"github.com/lobsterdev/lobster/lang/jsvalue"
)

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
		if v, err := jsvalue.Parse([]byte(jsontest.RandomJSON(r, 0))); err == nil {
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
