package engine

import (
	"unicode/utf8"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
)

// ResolveArgs is the run's args: the default of every
// declared arg whose definition has a `default` key (null included), in
// declaration order, then every provided entry over them, undeclared ones
// included. There is no type checking, as in the reference.
func ResolveArgs(w *ast.Workflow, provided any) *jsvalue.Object {
	args := jsvalue.NewObject()
	if w != nil && w.Args != nil {
		if defs := ast.ObjectOf(w.Args.Value); defs != nil {
			for _, f := range defs.Fields {
				if def, ok := f.Value.(*ast.ArgDef); ok && def.Default != nil {
					args.Set(f.Key.Text, Value(def.Default.Value))
				}
			}
		}
	}
	for key, v := range entries(provided) {
		args.Set(key, v)
	}
	return args
}

// entries is JavaScript's Object.entries for a provided args value that is
// truthy: an object's members, an array's or a string's elements under
// their indices; nothing for anything else.
func entries(v any) func(func(string, any) bool) {
	return func(yield func(string, any) bool) {
		switch v := v.(type) {
		case *jsvalue.Object:
			for _, k := range v.Keys() {
				x, _ := v.Get(k)
				if !yield(k, x) {
					return
				}
			}
		case []any:
			for i, x := range v {
				if !yield(itoa(i), x) {
					return
				}
			}
		case string:
			// JavaScript strings are UTF-16: a character outside the
			// BMP is two entries, each half a surrogate pair, which no
			// UTF-8 text can hold; it is one entry here.
			i := 0
			for _, r := range v {
				if !yield(itoa(i), string(r)) {
					return
				}
				i += utf16Len(r)
			}
		}
	}
}

func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}

func itoa(i int) string {
	return jsvalue.FormatNumber(float64(i))
}
