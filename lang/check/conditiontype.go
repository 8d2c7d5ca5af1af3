package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ConditionType reports a when/condition that is a number, a mapping or a list.
var ConditionType = &Analyzer{
	Name:     "condition-type",
	Severity: source.Error,
	Summary:  "a condition is a number, a mapping or a list",
	Doc: `A condition must be absent, null (true), a boolean, or a string expression. Any other
value fails the run with "Unsupported condition type" when the step is reached, outside retry and
on_error. A flow mapping is a common accident: ` + "`when: {{ x }}`" + ` is YAML for a nested mapping; quote
expressions.`,
	Bad:  "- id: notify\n  when: 1\n  run: ./notify.sh",
	Good: "- id: notify\n  when: true\n  run: ./notify.sh",
	Run:  runConditionType,
}

func runConditionType(p *Pass) {
	for _, si := range p.Info.Steps {
		f := condField(si.Step)
		if f == nil {
			continue
		}
		var got, hint string
		switch v := ast.Resolve(f.Value).(type) {
		case *ast.Scalar:
			if v.Kind != ast.Int && v.Kind != ast.Float {
				continue
			}
			got = "the number " + v.Text
			hint = "use true or false, or quote an expression such as \"$step.json.count > 0\""
		case *ast.Mapping:
			got = "a mapping"
			hint = "quote the expression (in YAML, {…} is a mapping)"
		case *ast.Sequence:
			got = "a list"
			hint = "combine conditions with && or || in one quoted string"
		default:
			continue
		}
		p.Reportf(ast.SpanOf(f.Value), "a condition must be a boolean or a string expression, got %s; the run fails with \"Unsupported condition type\". %s", got, hint)
	}
}
