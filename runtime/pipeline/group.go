package pipeline

import (
	"context"
	"errors"
	"math"
	"slices"

	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/jsvalue"
)

// sortCommand is sort: a stable sort by --key (or the item), null
// and undefined last (first with --desc).
func sortCommand(ctx context.Context, c *Call) (Output, error) {
	key, hasKey := c.Args.String("key")
	desc := c.Args.Truthy("desc")
	items, err := c.Input.Drain(ctx)
	if err != nil {
		return Output{}, err
	}
	if out, ok := sortTotal(items, key, hasKey, desc); ok {
		return Output{Items: out}, nil
	}
	return Output{Items: sortGeneral(items, key, hasKey, desc)}, nil
}

// sortGeneral is sort for any keys: a stable sort with compareSortKeys.
func sortGeneral(items []any, key string, hasKey, desc bool) []any {
	keys := make([]any, len(items))
	for i, it := range items {
		if hasKey {
			keys[i] = lookupPath(it, key)
		} else {
			keys[i] = it
		}
	}
	order := make([]int, len(items))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int {
		r := compareSortKeys(keys[i], keys[j])
		if desc {
			return -r
		}
		return r
	})
	out := make([]any, len(items))
	for k, i := range order {
		out[k] = items[i]
	}
	return out
}

// sortTotal sorts items when the comparator is a total order on their
// keys: the keys are all numbers (NaN excluded) or all strings, with null
// and undefined among them. Then every stable sort gives the same order,
// so a faster one may be used: an unstable sort of typed keys with the
// position as the last criterion. It reports false for other keys (mixed
// types compare inconsistently, and the order then depends on the
// algorithm, which must stay the general path's).
func sortTotal(items []any, key string, hasKey, desc bool) ([]any, bool) {
	if len(items) >= math.MaxInt32 {
		return nil, false
	}
	keyOf := func(it any) any {
		if hasKey {
			return lookupPath(it, key)
		}
		return it
	}
	for _, it := range items {
		switch k := keyOf(it); k.(type) {
		case float64:
			return sortTyped(items, keyOf, desc, func(a, b float64) int {
				switch {
				case a < b:
					return -1
				case a > b:
					return 1
				}
				return 0
			})
		case string:
			return sortTyped(items, keyOf, desc, compareUTF16)
		default:
			if !isNullish(k) {
				return nil, false
			}
		}
	}
	return slices.Clone(items), true // all null or undefined: as they are
}

// sortTyped is sortTotal for keys of type K (or nullish), which cmp
// orders totally.
func sortTyped[K float64 | string](items []any, keyOf func(any) any, desc bool, cmp func(a, b K) int) ([]any, bool) {
	type entry struct {
		key  K
		pos  int32
		null bool
	}
	entries := make([]entry, len(items))
	for i, it := range items {
		e := &entries[i]
		e.pos = int32(i)
		switch k := keyOf(it).(type) {
		case K:
			if k != k {
				return nil, false // NaN
			}
			e.key = k
		default:
			if !isNullish(k) {
				return nil, false
			}
			e.null = true
		}
	}
	sign := 1
	if desc {
		sign = -1
	}
	slices.SortFunc(entries, func(a, b entry) int {
		r := 0
		switch {
		case a.null || b.null:
			if a.null != b.null {
				if a.null {
					r = 1
				} else {
					r = -1
				}
			}
		default:
			r = cmp(a.key, b.key)
		}
		if r != 0 {
			return sign * r
		}
		return int(a.pos - b.pos)
	})
	out := make([]any, len(items))
	for k, e := range entries {
		out[k] = items[e.pos]
	}
	return out, true
}

// compareSortKeys is sort's comparator.
func compareSortKeys(a, b any) int {
	switch an, bn := isNullish(a), isNullish(b); {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	}
	if x, ok := a.(float64); ok {
		if y, ok := b.(float64); ok {
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return 0 // equal, or NaN
		}
	}
	return compareUTF16(jsString(a), jsString(b))
}

// identity is JSON.stringify(v) as a map key (undefined has its own), in
// a form that is cheap for strings and numbers: each JSON type has its own
// prefix, and NaN and the infinities stringify as null.
func identity(v any) string {
	switch v := v.(type) {
	case string:
		return "s" + v
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return "jnull"
		}
		return "n" + jsvalue.FormatNumber(v)
	}
	if v == jsvalue.Undefined {
		return "u"
	}
	return "j" + compact(v)
}

// dedupeCommand is dedupe: the first item of each identity, lazily.
func dedupeCommand(ctx context.Context, c *Call) (Output, error) {
	key, hasKey := c.Args.String("key")
	var seen identitySet
	return filterLazy(c.Input, func(v any) bool {
		k := v
		if hasKey {
			k = lookupPath(v, key)
		}
		return seen.add(k)
	}), nil
}

// An identitySet is a set of values by identity (JSON.stringify), with
// finite numbers and strings kept apart by type, so that neither needs a
// text built for it.
type identitySet struct {
	ints  []uint64             // integers from 0 to maxBitInt, a bit each
	nums  map[float64]struct{} // other finite numbers; -0 is 0, as its JSON is
	strs  map[string]struct{}
	other map[string]struct{} // identity() of anything else
}

// maxBitInt is the largest integer kept as a bit: the bits take at most
// 2 MiB, about what a map of a few tens of thousands of numbers takes.
const maxBitInt = 1<<24 - 1

// add adds v's identity and reports whether it was new.
func (s *identitySet) add(v any) bool {
	switch v := v.(type) {
	case string:
		if s.strs == nil {
			s.strs = map[string]struct{}{}
		}
		if _, ok := s.strs[v]; ok {
			return false
		}
		s.strs[v] = struct{}{}
		return true
	case float64:
		if v >= 0 && v <= maxBitInt && v == math.Trunc(v) {
			i := int(v) // -0 is 0
			w, bit := i/64, uint64(1)<<(i%64)
			if w >= len(s.ints) {
				s.ints = slices.Grow(s.ints, w+1-len(s.ints))[:max(w+1, cap(s.ints))]
			}
			if s.ints[w]&bit != 0 {
				return false
			}
			s.ints[w] |= bit
			return true
		}
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			if s.nums == nil {
				s.nums = map[float64]struct{}{}
			}
			if _, ok := s.nums[v]; ok {
				return false
			}
			s.nums[v] = struct{}{}
			return true
		}
	}
	id := identity(v)
	if s.other == nil {
		s.other = map[string]struct{}{}
	}
	if _, ok := s.other[id]; ok {
		return false
	}
	s.other[id] = struct{}{}
	return true
}

// groupByCommand is groupBy: one {key, items, count} per key, in
// order of first appearance.
func groupByCommand(ctx context.Context, c *Call) (Output, error) {
	key, _ := c.Args.JSString("key")
	key = js.Trim(key)
	if key == "" {
		return Output{}, errors.New("groupBy requires --key")
	}
	items, err := c.Input.Drain(ctx)
	if err != nil {
		return Output{}, err
	}
	type group struct {
		key   any
		items []any
	}
	var groups []*group
	byID := map[string]*group{}
	for _, it := range items {
		k := lookupPath(it, key)
		id := identity(k)
		g := byID[id]
		if g == nil {
			g = &group{key: k}
			byID[id] = g
			groups = append(groups, g)
		}
		g.items = append(g.items, it)
	}
	out := make([]any, len(groups))
	for i, g := range groups {
		out[i] = jsvalue.Obj("key", g.key, "items", g.items, "count", float64(len(g.items)))
	}
	return Output{Items: out}, nil
}
