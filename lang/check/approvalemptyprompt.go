package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ApprovalEmptyPrompt reports a blank approval or input prompt.
var ApprovalEmptyPrompt = &Analyzer{
	Name:     "approval-empty-prompt",
	Severity: source.Warning,
	Summary:  "an approval or input prompt is empty",
	Doc: `In the mapping form a string ` + "`prompt`" + ` is used as it is: an empty or blank
prompt asks the approver (or the person answering an input step) nothing. Write the question, or
use ` + "`approval: true`" + ` for the default prompt "Approve {id}?".`,
	Bad:  "- id: confirm\n  approval:\n    prompt: \"\"\n  stdin: $plan.json",
	Good: "- id: confirm\n  approval:\n    prompt: Apply this plan?\n  stdin: $plan.json",
	Run:  runApprovalEmptyPrompt,
}

func runApprovalEmptyPrompt(p *Pass) {
	for _, si := range p.Info.Steps {
		if si.Parent != nil || si.Step.Context != ast.TopStep || si.IsLoop() {
			continue
		}
		if a := gateApproval(si.Step); a != nil && a.Prompt != nil {
			if s := ast.StringOf(ast.Resolve(a.Prompt.Value)); s != nil && strings.TrimSpace(s.Text) == "" {
				p.Reportf(ast.SpanOf(a.Prompt.Value), "the approval prompt is empty; the approver sees no question. write the question, or use approval: true for the default prompt %q", "Approve "+si.ID+"?")
			}
		}
		if si.Step.Input == nil {
			continue
		}
		if in, ok := si.Step.Input.Value.(*ast.Input); ok && in.Prompt != nil {
			if s := ast.StringOf(ast.Resolve(in.Prompt.Value)); s != nil && strings.TrimSpace(s.Text) == "" {
				p.Reportf(ast.SpanOf(in.Prompt.Value), "the input prompt is empty; the person answering sees no question")
			}
		}
	}
}
