// Package jsvalue holds JSON values as the reference's JavaScript sees them,
// so that what the runtime prints matches it byte for byte: objects keep
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
	"strconv"
)

// Undefined is JavaScript's undefined: a member with this value is left out
// of an object, an array element prints as null.
var Undefined = undefined{}

type undefined struct{}

// An Object is a JSON object with JavaScript's key order.
type Object struct {
	keys   []string
	values map[string]any
}

// NewObject returns an empty object.
func NewObject() *Object { return &Object{values: map[string]any{}} }

// Obj builds an object from key, value pairs, in order.
func Obj(pairs ...any) *Object {
	o := NewObject()
	for i := 0; i+1 < len(pairs); i += 2 {
		o.Set(pairs[i].(string), pairs[i+1])
	}
	return o
}

// Get is the value of key.
func (o *Object) Get(key string) (any, bool) {
	if o == nil {
		return nil, false
	}
	v, ok := o.values[key]
	return v, ok
}

// Set sets key to v. A new key goes last, or among the integer-like keys
// in numeric order; an existing key keeps its place.
func (o *Object) Set(key string, v any) {
	if _, ok := o.values[key]; !ok {
		if n, ok := arrayIndex(key); ok {
			i, _ := slices.BinarySearchFunc(o.keys, n, func(k string, n uint32) int {
				m, isIndex := arrayIndex(k)
				switch {
				case !isIndex || m > n:
					return 1
				case m < n:
					return -1
				}
				return 0
			})
			o.keys = slices.Insert(o.keys, i, key)
		} else {
			o.keys = append(o.keys, key)
		}
	}
	o.values[key] = v
}

// Delete removes key.
func (o *Object) Delete(key string) {
	if _, ok := o.values[key]; ok {
		delete(o.values, key)
		o.keys = slices.DeleteFunc(o.keys, func(k string) bool { return k == key })
	}
}

// Keys are the keys in order.
func (o *Object) Keys() []string {
	if o == nil {
		return nil
	}
	return o.keys
}

// Len is the number of keys.
func (o *Object) Len() int { return len(o.Keys()) }

// arrayIndex says whether key is an array index to JavaScript: the
// canonical decimal form of an integer below 2³²−1.
func arrayIndex(key string) (uint32, bool) {
	if key == "" || len(key) > 10 || (key[0] == '0' && len(key) > 1) {
		return 0, false
	}
	n, err := strconv.ParseUint(key, 10, 32)
	if err != nil || n == 1<<32-1 {
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
