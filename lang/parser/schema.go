package parser

import (
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/lobsterdev/lobster/lang/ast"
)

// JSONValue converts a generic YAML value to the Go value a JSON decoder
// would produce (map[string]any, []any, string, float64, bool, nil),
// following aliases. Cycles cannot occur: an anchor is defined only after its
// node is complete.
func JSONValue(v ast.Value) any {
	v = ast.Resolve(v)
	if o := ast.ObjectOf(v); o != nil {
		return fieldsValue(o.Fields)
	}
	switch v := v.(type) {
	case *ast.Mapping:
		return fieldsValue(v.Fields)
	case *ast.StepList:
		s := make([]any, 0, len(v.Items))
		for _, it := range v.Items {
			s = append(s, JSONValue(it))
		}
		return s
	case *ast.Sequence:
		s := make([]any, 0, len(v.Items))
		for _, it := range v.Items {
			s = append(s, JSONValue(it))
		}
		return s
	case nil:
		return nil
	default:
		if s := ast.ScalarOf(v); s != nil {
			return s.Primitive()
		}
		return nil
	}
}

// schemaProblem reads v as a JSON Schema with a real validator library and
// returns why it is not a valid schema, or "". (The reference compiles it
// with Ajv, which rejects keywords of the wrong type.)
func schemaProblem(v ast.Value) string {
	data, err := json.Marshal(JSONValue(v))
	if err != nil {
		return err.Error()
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(data, &schema); err != nil {
		return err.Error()
	}
	if _, err := schema.Resolve(nil); err != nil {
		return err.Error()
	}
	return ""
}

func fieldsValue(fields []*ast.Field) map[string]any {
	m := make(map[string]any, len(fields))
	for _, f := range fields {
		m[f.Key.Text] = JSONValue(f.Value)
	}
	return m
}
