package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// DuplicateKeySpelling reports both spellings of an approval identity key.
var DuplicateKeySpelling = &Analyzer{
	Name:     "duplicate-key-spelling",
	Severity: source.Warning,
	Summary:  "both spellings of an approval identity key are set; the camelCase one wins",
	Doc: `An approval mapping accepts ` + "`initiated_by`/`initiatedBy`" + `,
` + "`required_approver`/`requiredApprover`" + ` and ` + "`require_different_approver`/`requireDifferentApprover`" + `.
When both spellings are given, the reference uses the camelCase one and silently ignores the
snake_case one, which matters when the values differ: the approver checked is not the
one the reader sees first.`,
	Bad:  "- id: deploy\n  approval:\n    prompt: Deploy?\n    required_approver: alice\n    requiredApprover: bob",
	Good: "- id: deploy\n  approval:\n    prompt: Deploy?\n    required_approver: alice",
	Fix:  "remove the ignored snake_case key (when both values are equal; otherwise the fix is offered as unsafe, since the author must choose)",
	Run:  runDuplicateKeySpelling,
}

func runDuplicateKeySpelling(p *Pass) {
	for _, s := range structureSteps(p.Info) {
		a, ok := fieldValue(s.Step.Approval).(*ast.Approval)
		if !ok {
			continue
		}
		for _, pair := range [...][2]*ast.Field{
			{a.InitiatedBy, a.InitiatedByCC},
			{a.RequiredApprover, a.RequiredApproverCC},
			{a.RequireDifferentApprover, a.RequireDifferentApproverCC},
		} {
			snake, camel := pair[0], pair[1]
			if snake == nil || camel == nil {
				continue
			}
			same := p.Text(ast.SpanOf(snake.Value)) == p.Text(ast.SpanOf(camel.Value))
			d := p.Finding(snake.Key.Span, "both %q and %q are set; the camelCase one wins and %q is ignored", snake.Name(), camel.Name(), snake.Name())
			if !same {
				d.Message += fmt.Sprintf(" (the values differ: %s is used)", p.Text(ast.SpanOf(camel.Value)))
			}
			d.Related = []source.Related{p.Related(camel.Key.Span, "this spelling is used")}
			if e, ok := removeField(p, &a.Object, snake); ok {
				msg := fmt.Sprintf("Remove the ignored %q", snake.Name())
				if !same {
					msg += " (unsafe: the values differ)"
				}
				d.Fixes = []source.Fix{{Message: msg, Edits: []source.Edit{e}, Unsafe: !same}}
			}
			p.Report(d)
		}
	}
}
