package jsvalue

import (
	"fmt"
	"slices"
	"strconv"
	"testing"
)

// model is the plain form of an object that Object must agree with: the
// keys in insertion order and their values; JavaScript's order is
// computed from it when compared.
type model struct {
	keys []string
	vals map[string]any
}

func (m *model) set(k string, v any) {
	if _, ok := m.vals[k]; !ok {
		m.keys = append(m.keys, k)
	}
	m.vals[k] = v
}

func (m *model) delete(k string) {
	if _, ok := m.vals[k]; ok {
		delete(m.vals, k)
		m.keys = slices.DeleteFunc(m.keys, func(x string) bool { return x == k })
	}
}

// order is JavaScript's key order: integer-like keys ascending, then the
// others in insertion order.
func (m *model) order() []string {
	var ints, others []string
	for _, k := range m.keys {
		if _, ok := arrayIndex(k); ok {
			ints = append(ints, k)
		} else {
			others = append(others, k)
		}
	}
	slices.SortFunc(ints, func(a, b string) int {
		x, _ := strconv.ParseUint(a, 10, 32)
		y, _ := strconv.ParseUint(b, 10, 32)
		return int(int64(x) - int64(y))
	})
	return append(ints, others...)
}

// sameAs compares o with m: keys, values, Len, At and Get.
func sameAs(t *testing.T, o *Object, m *model) {
	t.Helper()
	want := m.order()
	if !slices.Equal(o.Keys(), want) || o.Len() != len(want) {
		t.Fatalf("keys %q, want %q", o.Keys(), want)
	}
	for i, k := range want {
		if kk, v := o.At(i); kk != k || v != m.vals[k] {
			t.Fatalf("At(%d) = %q %v, want %q %v", i, kk, v, k, m.vals[k])
		}
		if v, ok := o.Get(k); !ok || v != m.vals[k] {
			t.Fatalf("Get(%q) = %v %v, want %v", k, v, ok, m.vals[k])
		}
	}
	if _, ok := o.Get("absent key"); ok {
		t.Fatal("Get of an absent key")
	}
}

// keyOf maps a byte to a key: plain names, integer-like keys and keys
// that only look like integers.
func keyOf(c byte) string {
	switch c % 4 {
	case 0:
		return strconv.Itoa(int(c) * 7) // integer-like
	case 1:
		return fmt.Sprintf("0%d", c) // not canonical: a plain key
	case 2:
		return "4294967295" // 2³²−1 is not an index
	}
	return "k" + strconv.Itoa(int(c)%40)
}

// FuzzObject runs Set, Delete, FromMembers and CopyMembers on objects small and large
// (past the size where an index is kept) against the model.
func FuzzObject(f *testing.F) {
	f.Add([]byte("\x01\x02\x03\x04"), false)
	f.Add([]byte("abcdefghijklmnopqrstuvwxyz0123456789"), true)
	f.Add([]byte("\x00\x04\x08\x00\x83\x03\x03"), true)
	f.Fuzz(func(t *testing.T, ops []byte, fromMembers bool) {
		m := &model{vals: map[string]any{}}
		var o *Object
		if fromMembers {
			// The first half of ops are members in source order.
			n := len(ops) / 2
			keys, vals := make([]string, n), make([]any, n)
			for i, c := range ops[:n] {
				keys[i], vals[i] = keyOf(c), float64(i)
				m.set(keys[i], vals[i])
			}
			if len(ops)%2 == 0 {
				o = CopyMembers(keys, vals)
				clear(vals) // the object has its own copy
			} else {
				o = FromMembers(keys, vals)
			}
			ops = ops[n:]
		} else {
			o = NewObject()
		}
		sameAs(t, o, m)
		for i, c := range ops {
			k := keyOf(c >> 1)
			if c&1 == 0 {
				o.Set(k, float64(100+i))
				m.set(k, float64(100+i))
			} else {
				o.Delete(k)
				m.delete(k)
			}
			sameAs(t, o, m)
		}
	})
}

func TestObjectOrder(t *testing.T) {
	o := Obj("b", 1.0, "2", 2.0, "a", 3.0, "1", 4.0, "01", 5.0, "b", 6.0)
	if got := Stringify(o, ""); got != `{"1":4,"2":2,"b":6,"a":3,"01":5}` {
		t.Errorf("got %s", got)
	}
	var nilObj *Object
	if nilObj.Len() != 0 || nilObj.Keys() != nil {
		t.Error("nil object")
	}
}
