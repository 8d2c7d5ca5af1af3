package engine

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/lobsterdev/lobster/lang/js"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/render"
)

// conditionOf is the condition of a step: when ?? condition, so a null
// when falls back to condition as in the reference.
func conditionOf(step *ast.Step) *ast.Field {
	if step.When != nil && Value(step.When.Value) != nil {
		return step.When
	}
	return step.Condition
}

// Condition evaluates a step's `when` or `condition` field against the
// results so far; a nil field is true. Errors are the
// reference's: "Unsupported condition type", "Unsupported condition: …",
// "Unknown step reference: id.path".
func Condition(f *ast.Field, results render.Results) (bool, error) {
	if f == nil {
		return true, nil
	}
	switch v := f.Value.(type) {
	case *ast.Condition:
		if v.Expr == nil {
			text := ""
			if v.Scalar != nil {
				text = js.Trim(v.Scalar.Text)
			}
			return false, fmt.Errorf("Unsupported condition: %s", text)
		}
		x, err := eval(v.Expr, results)
		return jsvalue.Truthy(x), err
	case *ast.Scalar:
		switch v.Kind {
		case ast.Null:
			return true, nil
		case ast.Bool:
			return v.Bool, nil
		}
	}
	return false, errors.New("Unsupported condition type")
}

// eval computes an expression. Both sides of && and || are evaluated, as in
// the reference: an unknown step on either side is an error.
func eval(e ast.Expr, results render.Results) (any, error) {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return eval(e.X, results)
	case *ast.UnaryExpr:
		x, err := eval(e.X, results)
		return !jsvalue.Truthy(x), err
	case *ast.StepRef:
		record, ok := results[e.ID]
		path := joinPath(e.Path)
		if !ok {
			return nil, fmt.Errorf("Unknown step reference: %s.%s", e.ID, path)
		}
		return render.Walk(record, path), nil
	case *ast.Literal:
		switch e.Kind {
		case ast.LitNumber:
			f, _ := strconv.ParseFloat(e.Value, 64)
			return f, nil
		case ast.LitTrue:
			return true, nil
		case ast.LitFalse:
			return false, nil
		case ast.LitNull:
			return nil, nil
		}
		return e.Value, nil // a string or a bare word
	case *ast.BinaryExpr:
		x, err := eval(e.X, results)
		if err != nil {
			return nil, err
		}
		y, err := eval(e.Y, results)
		if err != nil {
			return nil, err
		}
		switch e.Op {
		case "||":
			return jsvalue.Truthy(x) || jsvalue.Truthy(y), nil
		case "&&":
			return jsvalue.Truthy(x) && jsvalue.Truthy(y), nil
		case "==":
			return equal(x, y), nil
		case "!=":
			return !equal(x, y), nil
		}
		switch e.Op {
		case "<", "<=", ">", ">=":
			a, aok := strictNumber(x)
			b, bok := strictNumber(y)
			return aok && bok && js.Relational(e.Op, a, b), nil
		}
	}
	return nil, fmt.Errorf("Unsupported condition: %T", e)
}

func joinPath(path []*ast.Ident) string {
	parts := make([]string, len(path))
	for i, id := range path {
		parts[i] = id.Name
	}
	return strings.Join(parts, ".")
}

// equal is the condition's ==: deep strict equality (key order ignored)
// when either side is an array or object, else Object.is.
func equal(x, y any) bool {
	_, xa := x.([]any)
	_, xo := x.(*jsvalue.Object)
	_, ya := y.([]any)
	_, yo := y.(*jsvalue.Object)
	if xa || xo || ya || yo {
		return deepEqual(x, y)
	}
	return objectIs(x, y)
}

func objectIs(x, y any) bool {
	a, aok := x.(float64)
	b, bok := y.(float64)
	if aok && bok {
		if math.IsNaN(a) && math.IsNaN(b) {
			return true
		}
		return a == b && math.Signbit(a) == math.Signbit(b)
	}
	return x == y
}

// deepEqual is node's isDeepStrictEqual for JSON values.
func deepEqual(x, y any) bool {
	switch x := x.(type) {
	case []any:
		y, ok := y.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !deepEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	case *jsvalue.Object:
		y, ok := y.(*jsvalue.Object)
		if !ok || x.Len() != y.Len() {
			return false
		}
		for _, k := range x.Keys() {
			a, _ := x.Get(k)
			b, ok := y.Get(k)
			if !ok || !deepEqual(a, b) {
				return false
			}
		}
		return true
	}
	return objectIs(x, y)
}

// strictNumber is v as a number when it is "strictly numeric": a number
// that is not NaN, or a non-blank string that Number() reads.
func strictNumber(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, !math.IsNaN(v)
	case string:
		if js.Trim(v) == "" {
			return 0, false
		}
		return js.Number(v)
	}
	return 0, false
}
