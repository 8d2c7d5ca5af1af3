package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// NegationPrecedence reports `!a == b`, which means `(!a) == b`.
var NegationPrecedence = &Analyzer{
	Name:     "negation-precedence",
	Severity: source.Warning,
	Summary:  "\"!\" applies to the left operand of a comparison, not to the comparison",
	Doc: `In conditions "!" binds tighter than the comparison operators: ` + "`!$a.json.t == false`" + `
means ` + "`(!$a.json.t) == false`" + `, which compares a boolean. Write parentheses to say which one is
meant: ` + "`!($a.json.t == false)`" + ` or ` + "`(!$a.json.t) == false`" + `.`,
	Bad:  "- id: retry\n  when: '!$check.json.ok == true'\n  run: ./retry.sh",
	Good: "- id: retry\n  when: '!($check.json.ok == true)'\n  run: ./retry.sh",
	Run:  runNegationPrecedence,
}

func runNegationPrecedence(p *Pass) {
	condEachExpr(p, func(si *StepInfo, c *ast.Condition) {
		condWalk(c.Expr, func(e ast.Expr) {
			b, ok := e.(*ast.BinaryExpr)
			if !ok || !(condIsEquality(b.Op) || condIsOrdering(b.Op)) {
				return
			}
			u, ok := b.X.(*ast.UnaryExpr)
			if !ok {
				return
			}
			x := p.Text(ast.SpanOf(u.X))
			y := p.Text(ast.SpanOf(b.Y))
			p.Reportf(ast.SpanOf(b), "%q binds tighter than %q: this means (%s) %s %s. add parentheses if you meant !(%s %s %s)",
				"!", b.Op, p.Text(ast.SpanOf(u)), b.Op, y, x, b.Op, y)
		})
	})
}
