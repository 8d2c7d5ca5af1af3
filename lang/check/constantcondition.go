package check

import (
	"math"
	"strconv"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/source"
)

// ConstantCondition reports conditions whose value does not depend on any step.
var ConstantCondition = &Analyzer{
	Name:     "constant-condition",
	Severity: source.Info,
	Summary:  "a condition is always true or always false",
	Doc: `A condition made only of literals (` + "`when: true`" + `, ` + "`when: \"false\"`" + `, ` + "`'1 == \"1\"'`" + `), or one
that ` + "`&& false`" + ` or ` + "`|| true`" + ` makes constant, does not depend on any step: the step always runs,
or never runs (a false condition stores ` + "`{skipped: true}`" + `). This is often a leftover
from debugging. Literals follow the runtime's rules: no type coercion, and ordering
compares numbers only. A trailing newline from ` + "`when: |`" + ` is harmless: conditions are trimmed.`,
	Bad:  "- id: deploy\n  when: false\n  run: ./deploy.sh",
	Good: "- id: deploy\n  when: $tests.json.passed\n  run: ./deploy.sh",
	Run:  runConstantCondition,
}

func runConstantCondition(p *Pass) {
	for _, si := range p.Info.Steps {
		f := condField(si.Step)
		if f == nil {
			continue
		}
		var val bool
		switch v := ast.Resolve(f.Value).(type) {
		case *ast.Scalar:
			if v.Kind != ast.Bool {
				continue
			}
			val = v.Bool
		case *ast.Condition:
			if v.Expr == nil {
				continue
			}
			cv := condEval(v.Expr)
			if !cv.known {
				continue
			}
			val = cv.truthy()
		default:
			continue
		}
		if val {
			p.Reportf(ast.SpanOf(f.Value), "condition is always true; the step always runs, so the condition can be removed")
		} else {
			p.Reportf(ast.SpanOf(f.Value), "condition is always false; the step never runs")
		}
	}
}

// condValue is the value of a constant condition expression.
type condValue struct {
	known bool
	kind  ast.LiteralKind // LitString, LitNumber, LitTrue (for any boolean) or LitNull
	b     bool
	n     float64
	s     string
}

func (v condValue) truthy() bool {
	switch v.kind {
	case ast.LitString:
		return v.s != ""
	case ast.LitNumber:
		return v.n != 0 && !math.IsNaN(v.n)
	case ast.LitTrue:
		return v.b
	}
	return false
}

func condBool(b bool) condValue { return condValue{known: true, kind: ast.LitTrue, b: b} }

// condEval evaluates an expression whose value does not depend on any step
// reference; unknown otherwise.
func condEval(e ast.Expr) condValue {
	switch e := e.(type) {
	case *ast.Literal:
		switch e.Kind {
		case ast.LitString, ast.LitWord:
			return condValue{known: true, kind: ast.LitString, s: e.Value}
		case ast.LitNumber:
			n, err := strconv.ParseFloat(e.Value, 64)
			if err != nil {
				return condValue{}
			}
			return condValue{known: true, kind: ast.LitNumber, n: n}
		case ast.LitTrue, ast.LitFalse:
			return condBool(e.Kind == ast.LitTrue)
		case ast.LitNull:
			return condValue{known: true, kind: ast.LitNull}
		}
	case *ast.ParenExpr:
		return condEval(e.X)
	case *ast.UnaryExpr:
		if x := condEval(e.X); x.known {
			return condBool(!x.truthy())
		}
	case *ast.BinaryExpr:
		x, y := condEval(e.X), condEval(e.Y)
		switch e.Op {
		case "&&":
			if x.known && !x.truthy() || y.known && !y.truthy() {
				return condBool(false)
			}
			if x.known && y.known {
				return condBool(true)
			}
		case "||":
			if x.known && x.truthy() || y.known && y.truthy() {
				return condBool(true)
			}
			if x.known && y.known {
				return condBool(false)
			}
		case "==", "!=":
			if x.known && y.known {
				return condBool(condSame(x, y) == (e.Op == "=="))
			}
		default:
			if x.known && y.known {
				return condBool(condOrder(e.Op, x, y))
			}
		}
	}
	return condValue{}
}

// condSame is Object.is of two constant values.
func condSame(x, y condValue) bool {
	if x.kind != y.kind {
		return false
	}
	switch x.kind {
	case ast.LitString:
		return x.s == y.s
	case ast.LitNumber:
		if math.IsNaN(x.n) && math.IsNaN(y.n) {
			return true
		}
		return x.n == y.n && math.Signbit(x.n) == math.Signbit(y.n)
	case ast.LitTrue:
		return x.b == y.b
	}
	return true
}

// condOrder is an ordering comparison of two constant values: false unless
// both are strictly numeric.
func condOrder(op string, x, y condValue) bool {
	a, ok1 := condNumber(x)
	b, ok2 := condNumber(y)
	return ok1 && ok2 && js.Relational(op, a, b)
}

// condNumber is the number of a strictly numeric constant.
func condNumber(v condValue) (float64, bool) {
	switch v.kind {
	case ast.LitNumber:
		return v.n, !math.IsNaN(v.n)
	case ast.LitString:
		t := js.Trim(v.s)
		if t == "" || !jsNumericRx().MatchString(t) {
			return 0, false
		}
		if n, err := strconv.ParseFloat(t, 64); err == nil {
			return n, true
		}
		if n, err := strconv.ParseInt(t, 0, 64); err == nil {
			return float64(n), true
		}
		return 0, false
	}
	return 0, false
}
