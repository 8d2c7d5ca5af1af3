package parser

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// JSONValue converts a generic YAML value to the Go value a JSON decoder
// would produce (map[string]any, []any, string, float64, bool, nil),
// following aliases. Cycles cannot occur: an anchor is defined only after its
// node is complete.
func JSONValue(v ast.Value) any {
	switch v := ast.Resolve(v).(type) {
	case *ast.Mapping:
		m := make(map[string]any, len(v.Pairs))
		for _, p := range v.Pairs {
			m[p.Key.Text] = JSONValue(p.Value)
		}
		return m
	case *ast.Sequence:
		s := make([]any, 0, len(v.Items))
		for _, it := range v.Items {
			s = append(s, JSONValue(it))
		}
		return s
	case nil:
		return nil
	default:
		s := scalarOf(v)
		if s == nil {
			return nil
		}
		switch s.Kind {
		case ast.Null:
			return nil
		case ast.Bool:
			return s.Bool
		case ast.Int, ast.Float:
			return s.Num
		}
		return s.Text
	}
}

// schemaProblem compiles v as a JSON Schema (draft-07, like the reference's
// Ajv) and returns why it is invalid, or "".
func schemaProblem(v ast.Value) string {
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	if err := c.AddResource("inline:///responseSchema.json", JSONValue(v)); err != nil {
		return err.Error()
	}
	if _, err := c.Compile("inline:///responseSchema.json"); err != nil {
		return schemaErrorText(err)
	}
	return ""
}

// schemaErrorText shortens the compiler's error to its first useful line.
func schemaErrorText(err error) string {
	msg := err.Error()
	if ve, ok := err.(*jsonschema.SchemaValidationError); ok && ve.Err != nil {
		msg = ve.Err.Error()
	}
	lines := strings.Split(msg, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	out := strings.Join(lines, " ")
	out = strings.ReplaceAll(out, "inline:///responseSchema.json", "")
	return fmt.Sprint(strings.TrimSpace(out))
}
