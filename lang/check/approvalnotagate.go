package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ApprovalNotAGate reports approval values that create no gate.
var ApprovalNotAGate = &Analyzer{
	Name:     "approval-not-a-gate",
	Severity: source.Error,
	Summary:  "an approval value creates no gate (empty, null, a list or a number)",
	Doc: `Only ` + "`true`" + `, a non-blank string (the prompt; ` + "`required`" + ` means the default prompt) and a
mapping create a gate. ` + "`\"\"`" + `, whitespace, ` + "`null`" + `, lists and numbers are silently not
gates: the step runs without asking anyone. ` + "`approval: false`" + ` is reported as a hint: it has no
effect and can be removed.`,
	Bad:  "- id: confirm\n  approval: []\n  stdin: $plan.json",
	Good: "- id: confirm\n  approval: true\n  stdin: $plan.json",
	Fix:  "remove `approval: false`",
	Run:  runApprovalNotAGate,
}

func runApprovalNotAGate(p *Pass) {
	for _, si := range p.Info.Steps {
		if !gateStep(si) {
			continue
		}
		f := si.Step.Approval
		sp := ast.SpanOf(f.Value)
		if sp.Len() == 0 {
			sp = f.Key.Span
		}
		var shown string
		switch v := ast.Resolve(f.Value).(type) {
		case *ast.Scalar:
			switch v.Kind {
			case ast.Bool:
				if v.Bool {
					continue
				}
				d := p.Finding(sp, "approval: false has no effect (the step has no gate); remove it")
				d.Severity = source.Hint
				if e, ok := gateDeleteLine(p, f); ok {
					d.Fixes = []source.Fix{{Message: "Remove approval: false", Edits: []source.Edit{e}}}
				}
				p.Report(d)
				continue
			case ast.String:
				if strings.TrimSpace(v.Text) != "" {
					continue
				}
				shown = "a blank string"
			case ast.Null:
				shown = "null"
				if v.Text == "" {
					shown = "an empty value (null)"
				}
			default:
				shown = "a number (" + v.Text + ")"
			}
		case *ast.Sequence:
			shown = "a list"
		default:
			continue
		}
		p.Reportf(sp, "approval with %s creates no gate, so the step runs without asking anyone; use true, a prompt string, or a mapping with \"prompt\"", shown)
	}
}
