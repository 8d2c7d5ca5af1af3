package check

import (
	"github.com/lobsterdev/lobster/lang/source"
)

// ApprovalWithoutContext reports an approval-only step that shows the
// approver nothing.
var ApprovalWithoutContext = &Analyzer{
	Name:     "approval-without-context",
	Severity: source.Info,
	Summary:  "an approval-only step has no stdin, items or preview, so the approver sees only the prompt",
	Doc: `An approval-only step's result is its ` + "`stdin`" + `. Without ` + "`stdin`" + ` (and without
` + "`items`" + ` or ` + "`preview`" + ` in the approval mapping), the request carries ` + "`items: []`" + ` and no preview, so
the approver sees nothing of what is being approved. If the step is also the last one, the
workflow's output is ` + "`[]`" + ` [verified].`,
	Bad:  "- id: confirm\n  approval: Apply the plan?",
	Good: "- id: confirm\n  approval: Apply the plan?\n  stdin: $plan.json",
	Run:  runApprovalWithoutContext,
}

func runApprovalWithoutContext(p *Pass) {
	top := p.Info.Top
	for i, si := range top {
		if !gateStep(si) || !si.HasGate() || si.Step.Input != nil || executes(si.Step) != nil {
			continue
		}
		if si.Step.Stdin != nil && !condIsNull(si.Step.Stdin.Value) {
			continue
		}
		if a := gateApproval(si.Step); a != nil && (a.Items != nil && !condIsNull(a.Items.Value) || nonBlank(a.Preview)) {
			continue
		}
		msg := "the approver sees no items and no preview; add stdin: $<step>.json to show what is being approved"
		if i == len(top)-1 {
			msg += "; it is also the last step, so the workflow output is []"
		}
		p.Reportf(si.Step.Approval.Key.Span, "%s", msg)
	}
}
