package jsvalue

import (
	"fmt"
	"testing"
)

// rows are n objects of four keys, as a JSON array of records reads.
func rows(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = Obj("id", float64(i), "n", float64(i*7919%1001), "k", fmt.Sprintf("key%05d", i), "tags", []any{"a", "b"})
	}
	return out
}

// BenchmarkObjectGet looks up each key of a four-key object.
func BenchmarkObjectGet(b *testing.B) {
	o := Obj("id", 1.0, "n", 2.0, "k", "x", "tags", []any{})
	keys := []string{"id", "n", "k", "tags", "missing"}
	for range b.N {
		for _, k := range keys {
			if _, ok := o.Get(k); !ok && k != "missing" {
				b.Fatal(k)
			}
		}
	}
}

// BenchmarkObjectSet builds a four-key object with Set.
func BenchmarkObjectSet(b *testing.B) {
	b.ReportAllocs()
	for range b.N {
		o := NewObject()
		o.Set("id", 1.0)
		o.Set("n", 2.0)
		o.Set("k", "x")
		o.Set("tags", nil)
	}
}

// BenchmarkStringifyPretty is JSON.stringify(rows, null, 2) of 1,000 rows.
func BenchmarkStringifyPretty(b *testing.B) {
	v := any(rows(1000))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if Stringify(v, "  ") == "" {
			b.Fatal("empty")
		}
	}
}
