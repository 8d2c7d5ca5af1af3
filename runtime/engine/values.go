package engine

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
)

// Value is the runtime value of a literal in the file, as the reference's
// YAML loader produces it: mappings are objects (a repeated key keeps its
// first place and its last value), numbers are doubles, and an alias is the
// value of its anchor.
func Value(v ast.Value) any {
	v = ast.Resolve(v)
	switch v := v.(type) {
	case nil:
		return nil
	case *ast.Scalar:
		return v.Primitive()
	case *ast.Sequence:
		items := make([]any, len(v.Items))
		for i, it := range v.Items {
			items[i] = Value(it)
		}
		return items
	case *ast.StepList:
		items := make([]any, len(v.Items))
		for i, it := range v.Items {
			items[i] = Value(it)
		}
		return items
	case *ast.Mapping:
		return object(v.Fields)
	}
	if o := ast.ObjectOf(v); o != nil {
		return object(o.Fields)
	}
	if s := ast.ScalarOf(v); s != nil {
		return s.Primitive()
	}
	return nil
}

func object(fields []*ast.Field) *jsvalue.Object {
	o := jsvalue.NewObject()
	for _, f := range fields {
		o.Set(f.Key.Text, Value(f.Value))
	}
	return o
}
