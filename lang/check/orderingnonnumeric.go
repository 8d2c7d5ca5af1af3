package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// OrderingNonNumeric reports <, <=, >, >= with an operand that is never numeric.
var OrderingNonNumeric = &Analyzer{
	Name:     "ordering-non-numeric",
	Severity: source.Error,
	Summary:  "<, <=, > or >= has an operand that is never a number, so the result is always false",
	Doc: `The ordering operators compare numbers only: both sides must be "strictly numeric", a
number or a non-blank string that parses as one. Otherwise the comparison is false, whatever the
other side is. So a boolean, null or non-numeric string literal, a field that is true or absent
(` + "`.approved`" + `, ` + "`.skipped`" + `, ` + "`.error`" + `), or a negation or parenthesised comparison (a boolean) on
either side makes the comparison always false. Strings are not compared alphabetically.`,
	Bad:  "- id: big\n  when: '$size.json.n > \"many\"'\n  run: ./compress.sh",
	Good: "- id: big\n  when: '$size.json.n > 1000'\n  run: ./compress.sh",
	Run:  runOrderingNonNumeric,
}

func runOrderingNonNumeric(p *Pass) {
	condEachExpr(p, func(si *StepInfo, c *ast.Condition) {
		condWalk(c.Expr, func(e ast.Expr) {
			b, ok := e.(*ast.BinaryExpr)
			if !ok || !condIsOrdering(b.Op) {
				return
			}
			for _, side := range [2]ast.Expr{b.X, b.Y} {
				if what := condNeverNumeric(side); what != "" {
					p.Reportf(ast.SpanOf(b), "%q compares numbers only; with %s the result is always false", b.Op, what)
					return
				}
			}
		})
	})
}

// condNeverNumeric describes an operand that is never strictly numeric, or
// returns "".
func condNeverNumeric(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Literal:
		switch e.Kind {
		case ast.LitTrue, ast.LitFalse, ast.LitNull:
			return e.Value
		case ast.LitString, ast.LitWord:
			if !condStrictlyNumeric(e) {
				return "the string " + condLitText(e) + " (not a number)"
			}
		}
	case *ast.StepRef:
		if condBoolField(e) {
			return ast.RefText(e) + " (true or absent)"
		}
	case *ast.UnaryExpr:
		return "a negation (a boolean)"
	case *ast.ParenExpr:
		if _, ok := e.X.(*ast.BinaryExpr); ok {
			return "a parenthesised condition (a boolean)"
		}
		if _, ok := e.X.(*ast.UnaryExpr); ok {
			return "a negation (a boolean)"
		}
		return condNeverNumeric(e.X)
	}
	return ""
}
