// Package jsvalue holds JSON values as the reference's JavaScript sees them,
// so that what the runtime prints matches it byte for byte (the language
// server reads its wire messages with ParseText too): objects keep
// their key order (with JavaScript's rule that integer-like keys come first,
// ascending), numbers are doubles printed as JavaScript prints them, and
// strings are escaped as JSON.stringify escapes them.
//
// A value is nil (null), bool, float64, string, []any, *Object, or
// Undefined.
package jsvalue

import (
	"math"
	"slices"
)

// Undefined is JavaScript's undefined: a member with this value is left out
// of an object, an array element prints as null.
var Undefined = undefined{}

type undefined struct{}

// An Object is a JSON object with JavaScript's key order.
//
// Its keys and values are kept in two parallel slices in that order; most
// objects are small, and a linear scan of a few keys is faster than a map
// (and one map per object was most of the memory of a large input). An
// object with more than indexFrom keys also keeps a map from key to
// position.
type Object struct {
	keys  []string // never written in place: objects may share it
	vals  []any
	index map[string]int
}

// indexFrom is the number of keys from which an object keeps an index.
const indexFrom = 12

// NewObject returns an empty object.
func NewObject() *Object { return &Object{} }

// NewObjectSize returns an empty object with room for n keys.
func NewObjectSize(n int) *Object {
	if n <= 0 {
		return &Object{}
	}
	return &Object{keys: make([]string, 0, n), vals: make([]any, 0, n)}
}

// Obj builds an object from key, value pairs, in order.
func Obj(pairs ...any) *Object {
	o := NewObjectSize(len(pairs) / 2)
	for i := 0; i+1 < len(pairs); i += 2 {
		o.Set(pairs[i].(string), pairs[i+1])
	}
	return o
}

// FromMembers builds an object from keys and values in source order, as
// setting them one by one would (a repeated key keeps its first place and
// its last value; integer-like keys move first, ascending). The object
// takes ownership of vals; keys may be shared by many objects (a reader
// gives objects with the same keys one slice), as no object ever writes
// to its keys in place. Both must have the same length.
func FromMembers(keys []string, vals []any) *Object {
	if len(keys) <= indexFrom && plainKeys(keys) {
		return &Object{keys: keys[:len(keys):len(keys)], vals: vals}
	}
	o := NewObjectSize(len(keys))
	for i, k := range keys {
		o.Set(k, vals[i])
	}
	return o
}

// CopyMembers is FromMembers with the values copied: an object of up to
// eight keys gets them in the same allocation as itself, next to it in
// memory.
func CopyMembers(keys []string, vals []any) *Object {
	n := len(keys)
	if n > 8 || !plainKeys(keys) {
		return FromMembers(keys, slices.Clone(vals))
	}
	var o *Object
	var v []any
	switch {
	case n <= 2:
		b := new(struct {
			o Object
			v [2]any
		})
		o, v = &b.o, b.v[:n:n]
	case n <= 4:
		b := new(struct {
			o Object
			v [4]any
		})
		o, v = &b.o, b.v[:n:n]
	default:
		b := new(struct {
			o Object
			v [8]any
		})
		o, v = &b.o, b.v[:n:n]
	}
	copy(v, vals)
	o.keys, o.vals = keys[:n:n], v
	return o
}

// plainKeys reports keys without integer-like keys or repeats, which an
// object keeps in the order given.
func plainKeys(keys []string) bool {
	for i, k := range keys {
		if _, isIndex := arrayIndex(k); isIndex || slices.Contains(keys[:i], k) {
			return false
		}
	}
	return true
}

// find is the position of key, or -1.
func (o *Object) find(key string) int {
	if o.index != nil {
		if i, ok := o.index[key]; ok {
			return i
		}
		return -1
	}
	for i, k := range o.keys {
		if k == key {
			return i
		}
	}
	return -1
}

// Get is the value of key.
func (o *Object) Get(key string) (any, bool) {
	if o == nil {
		return nil, false
	}
	if i := o.find(key); i >= 0 {
		return o.vals[i], true
	}
	return nil, false
}

// Set sets key to v. A new key goes last, or among the integer-like keys
// in numeric order; an existing key keeps its place.
func (o *Object) Set(key string, v any) {
	if i := o.find(key); i >= 0 {
		o.vals[i] = v
		return
	}
	i := len(o.keys)
	if n, ok := arrayIndex(key); ok {
		i, _ = slices.BinarySearchFunc(o.keys, n, func(k string, n uint32) int {
			m, isIndex := arrayIndex(k)
			switch {
			case !isIndex || m > n:
				return 1
			case m < n:
				return -1
			}
			return 0
		})
	}
	if i == len(o.keys) {
		o.keys = append(o.keys, key)
		o.vals = append(o.vals, v)
		if o.index != nil {
			o.index[key] = i
		} else if len(o.keys) > indexFrom {
			o.reindex()
		}
		return
	}
	o.keys = slices.Insert(slices.Clip(o.keys), i, key) // a new array: keys may be shared
	o.vals = slices.Insert(o.vals, i, v)
	if o.index != nil || len(o.keys) > indexFrom {
		o.reindex()
	}
}

// reindex rebuilds the key index.
func (o *Object) reindex() {
	if o.index == nil {
		o.index = make(map[string]int, len(o.keys))
	} else {
		clear(o.index)
	}
	for i, k := range o.keys {
		o.index[k] = i
	}
}

// Delete removes key.
func (o *Object) Delete(key string) {
	i := o.find(key)
	if i < 0 {
		return
	}
	o.keys = append(o.keys[:i:i], o.keys[i+1:]...) // a new array: keys may be shared
	o.vals = slices.Delete(o.vals, i, i+1)
	if o.index != nil {
		delete(o.index, key)
		for j := i; j < len(o.keys); j++ {
			o.index[o.keys[j]] = j
		}
	}
}

// Keys are the keys in order. The slice belongs to the object: callers
// must not change it.
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	return o.keys
}

// At is the i-th key in order and its value, for 0 <= i < Len().
func (o *Object) At(i int) (string, any) { return o.keys[i], o.vals[i] }

// Len is the number of keys.
func (o *Object) Len() int {
	if o == nil {
		return 0
	}
	return len(o.keys)
}

// arrayIndex says whether key is an array index to JavaScript: the
// canonical decimal form of an integer below 2³²−1.
func arrayIndex(key string) (uint32, bool) {
	if key == "" || len(key) > 10 || (key[0] == '0' && len(key) > 1) {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(key); i++ {
		c := key[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if n >= 1<<32-1 {
		return 0, false
	}
	return uint32(n), true
}

// Truthy is JavaScript's Boolean(v).
func Truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case float64:
		return v != 0 && !math.IsNaN(v)
	case string:
		return v != ""
	}
	return v != Undefined
}
