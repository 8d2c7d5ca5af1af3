package pipeline

import (
	"context"
	"errors"
	"math"
	"slices"

	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/runtime/jsvalue"
)

// sortCommand is sort (§3.7): a stable sort by --key (or the item), null
// and undefined last (first with --desc).
func sortCommand(ctx context.Context, c *Call) (Output, error) {
	key, hasKey := c.Args.String("key")
	desc := c.Args.Truthy("desc")
	items, err := c.Input.Drain(ctx)
	if err != nil {
		return Output{}, err
	}
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
	return Output{Items: out}, nil
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

// dedupeCommand is dedupe (§3.8): the first item of each identity, lazily.
func dedupeCommand(ctx context.Context, c *Call) (Output, error) {
	key, hasKey := c.Args.String("key")
	seen := map[string]bool{}
	return filterLazy(c.Input, func(v any) bool {
		k := v
		if hasKey {
			k = lookupPath(v, key)
		}
		id := identity(k)
		if seen[id] {
			return false
		}
		seen[id] = true
		return true
	}), nil
}

// groupByCommand is groupBy (§3.9): one {key, items, count} per key, in
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
