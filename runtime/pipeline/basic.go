package pipeline

import (
	"context"
	"errors"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/jsvalue"
)

// headCommand is head: the first --n items (default 10), lazily.
func headCommand(ctx context.Context, c *Call) (Output, error) {
	n := 10.0
	if v, given := c.Args.Number("n"); given {
		n = v
	}
	if math.IsNaN(n) || math.IsInf(n, 0) || n < 0 {
		return Output{}, errors.New("head --n must be a non-negative number")
	}
	in := c.Input
	return Output{Lazy: func(ctx context.Context, yield func(any) error) error {
		for i := 0; float64(i) < n; i++ {
			v, ok, err := in.Next(ctx)
			if err != nil || !ok {
				return err
			}
			if err := yield(v); err != nil {
				return err
			}
		}
		return nil
	}}, nil
}

// jsonCommand is json: it writes all items as one pretty JSON array.
func jsonCommand(ctx context.Context, c *Call) (Output, error) {
	items, err := c.Input.Drain(ctx)
	if err != nil {
		return Output{}, err
	}
	if err := WriteItems(c.Env.Stdout, items); err != nil {
		return Output{}, err
	}
	return Output{Rendered: true, RenderedItems: items}, nil
}

// pickCommand is pick: objects reduced to the listed fields.
func pickCommand(ctx context.Context, c *Call) (Output, error) {
	if len(c.Args.Positional) == 0 {
		return Output{}, errors.New("pick requires a comma-separated field list")
	}
	var fields []string
	for f := range strings.SplitSeq(c.Args.Positional[0], ",") {
		if f = js.Trim(f); f != "" {
			fields = append(fields, f)
		}
	}
	return mapLazy(c.Input, func(v any) (any, error) {
		if !isObject(v) {
			return v, nil
		}
		out := jsvalue.NewObject()
		for _, f := range fields {
			out.Set(f, property(v, f, false))
		}
		return out, nil
	}), nil
}

// mapLazy is a lazy stage that applies fn to each item.
func mapLazy(in *Stream, fn func(any) (any, error)) Output {
	return Output{Lazy: func(ctx context.Context, yield func(any) error) error {
		for {
			v, ok, err := in.Next(ctx)
			if err != nil || !ok {
				return err
			}
			if v, err = fn(v); err != nil {
				return err
			}
			if err := yield(v); err != nil {
				return err
			}
		}
	}, pull: func(ctx context.Context) (any, bool, error) {
		v, ok, err := in.Next(ctx)
		if err != nil || !ok {
			return nil, false, err
		}
		v, err = fn(v)
		return v, err == nil, err
	}}
}

// filterLazy is a lazy stage that keeps the items keep accepts.
func filterLazy(in *Stream, keep func(any) bool) Output {
	return Output{Lazy: func(ctx context.Context, yield func(any) error) error {
		for {
			v, ok, err := in.Next(ctx)
			if err != nil || !ok {
				return err
			}
			if keep(v) {
				if err := yield(v); err != nil {
					return err
				}
			}
		}
	}, pull: func(ctx context.Context) (any, bool, error) {
		for {
			v, ok, err := in.Next(ctx)
			if err != nil || !ok || keep(v) {
				return v, ok, err
			}
		}
	}}
}

// tableCommand is table: a text table of objects, or one line per
// item.
func tableCommand(ctx context.Context, c *Call) (Output, error) {
	items, err := c.Input.Drain(ctx)
	if err != nil {
		return Output{}, err
	}
	var b strings.Builder
	// In a table, line breaks (\n only) in cells and column names become
	// spaces; items printed one per line stay as they are.
	cell := func(v any) string { return strings.ReplaceAll(cellText(v), "\n", " ") }
	switch {
	case len(items) == 0:
		b.WriteString("(no results)\n")
	case tabular(items):
		var cols []string
		for _, it := range items[:min(20, len(items))] {
			for _, k := range it.(*jsvalue.Object).Keys() {
				if !slices.Contains(cols, k) {
					cols = append(cols, k)
				}
			}
		}
		rows := make([][]string, len(items))
		widths := make([]int, len(cols))
		header := make([]string, len(cols))
		for j, col := range cols {
			header[j] = strings.ReplaceAll(col, "\n", " ")
			widths[j] = max(3, utf16Len(header[j]))
		}
		for i, it := range items {
			rows[i] = make([]string, len(cols))
			for j, col := range cols {
				var v any = undefined
				if !isNullish(it) {
					v = property(it, col, true)
				}
				rows[i][j] = cell(v)
				widths[j] = max(widths[j], utf16Len(rows[i][j]))
			}
		}
		line := func(cells []string) {
			for j, s := range cells {
				if j > 0 {
					b.WriteString("  ")
				}
				b.WriteString(s)
				b.WriteString(strings.Repeat(" ", widths[j]-utf16Len(s)))
			}
			b.WriteByte('\n')
		}
		line(header)
		dashes := make([]string, len(cols))
		for j := range cols {
			dashes[j] = strings.Repeat("-", widths[j])
		}
		line(dashes)
		for _, r := range rows {
			line(r)
		}
	default:
		for _, it := range items {
			b.WriteString(cellText(it))
			b.WriteByte('\n')
		}
	}
	if _, err := io.WriteString(c.Env.Stdout, b.String()); err != nil {
		return Output{}, err
	}
	return Output{Rendered: true}, nil
}

// tabular reports whether the first 20 items are all plain objects.
func tabular(items []any) bool {
	for _, it := range items[:min(20, len(items))] {
		if _, ok := it.(*jsvalue.Object); !ok {
			return false
		}
	}
	return true
}
