package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// CompareToFalse reports .error/.skipped/.approved compared with false.
var CompareToFalse = &Analyzer{
	Name:     "compare-to-false",
	Severity: source.Error,
	Summary:  "`.error`, `.skipped` or `.approved` is compared with false, which it never is",
	Doc: `The runtime only ever sets ` + "`error`" + `, ` + "`skipped`" + ` and ` + "`approved`" + ` to true; otherwise the field is
absent, and an absent field is undefined, which is not false (equality is
` + "`Object.is`" + `). So ` + "`$x.error == false`" + ` is never true and ` + "`$x.error != false`" + ` is always true. Test
truthiness instead: ` + "`!$x.error`" + ` is true when the field is absent.`,
	Bad:  "- id: report\n  when: $build.error == false\n  run: ./report.sh",
	Good: "- id: report\n  when: '!$build.error'\n  run: ./report.sh",
	Fix:  "rewrite `A == false` to `!A` and `A != false` to `A`",
	Run:  runCompareToFalse,
}

func runCompareToFalse(p *Pass) {
	condEachEquality(p, func(si *StepInfo, c *ast.Condition, b *ast.BinaryExpr, r *ast.StepRef, l *ast.Literal) {
		if l.Kind != ast.LitFalse || !condBoolField(r) {
			return
		}
		reportTruthinessRewrite(p, c, b, r,
			"%q is true or absent, never false, so \"== false\" is never true; use %q",
			"%q is true or absent, never false, so \"!= false\" is always true; use %q", "")
	})
}
