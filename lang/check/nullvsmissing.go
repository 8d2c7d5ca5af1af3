package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// NullVsMissing reports == null / != null on data paths.
var NullVsMissing = &Analyzer{
	Name:     "null-vs-missing",
	Severity: source.Warning,
	Summary:  "a data path is compared with null, but a missing field is not null",
	Doc: `A path that does not exist in the data evaluates to undefined, and equality is ` + "`Object.is`" + `,
so ` + "`$x.json.token == null`" + ` is false when "token" is absent: it is true only when the
output holds an explicit null. To test for a missing value, use truthiness: ` + "`!$x.json.token`" + `
(which also treats "", 0 and false as missing).`,
	Bad:  "- id: login\n  when: $session.json.token == null\n  run: ./login.sh",
	Good: "- id: login\n  when: '!$session.json.token'\n  run: ./login.sh",
	Fix:  "rewrite `path == null` to `!path` and `path != null` to `path` (this also treats \"\", 0 and false as missing)",
	Run:  runNullVsMissing,
}

func runNullVsMissing(p *Pass) {
	condEachEquality(p, func(si *StepInfo, c *ast.Condition, b *ast.BinaryExpr, r *ast.StepRef, l *ast.Literal) {
		if l.Kind != ast.LitNull || !condDataPath(r) {
			return
		}
		reportTruthinessRewrite(p, c, b, r,
			"a missing field is not null: \"%s == null\" is false when the value is absent. use %q",
			"a missing field is not null: \"%s != null\" is true when the value is absent. use %q",
			" (also treats \"\", 0 and false as missing)")
	})
}
