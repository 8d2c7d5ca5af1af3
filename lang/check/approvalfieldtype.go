package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ApprovalFieldType reports approval prompt/items/preview of the wrong type.
var ApprovalFieldType = &Analyzer{
	Name:     "approval-field-type",
	Severity: source.Error,
	Summary:  "an approval's prompt, items or preview has the wrong type and is ignored",
	Doc: `In the mapping form, ` + "`prompt`" + ` and ` + "`preview`" + ` must be strings and ` + "`items`" + ` a list. A
value of another type is never validated at load and silently ignored at run time: the
approver sees the default prompt "Approve {id}?", or items and preview taken from the step's output.
An empty value (null) is reported as a warning: it is ignored the same way, but may be a placeholder.`,
	Bad:  "- id: confirm\n  approval:\n    prompt: Ship it?\n    items: build, tests, docs",
	Good: "- id: confirm\n  approval:\n    prompt: Ship it?\n    items: [build, tests, docs]",
	Run:  runApprovalFieldType,
}

func runApprovalFieldType(p *Pass) {
	for si, a := range gateApprovals(p.Info) {
		id := si.ID
		for _, f := range [...]*ast.Field{a.Prompt, a.Items, a.Preview} {
			if f == nil {
				continue
			}
			want := "a string"
			if f == a.Items {
				want = "a list"
			}
			got := typeNameWithValue(f.Value)
			if (f == a.Items && got == "a list") || (f != a.Items && got == "a string") {
				continue
			}
			effect := "this value is ignored"
			switch f {
			case a.Prompt:
				effect = fmt.Sprintf("this value is ignored and the approver sees %q", "Approve "+id+"?")
			case a.Items:
				effect = "this value is ignored and the items come from the step's output or stdin"
			case a.Preview:
				effect = "this value is ignored and the preview comes from the step's output or stdin"
			}
			sp := ast.SpanOf(f.Value)
			if sp.Len() == 0 {
				sp = f.Key.Span
			}
			d := p.Finding(sp, "approval %q must be %s, got %s; %s", f.Name(), want, got, effect)
			if got == "null" {
				d.Severity = source.Warning
			}
			p.Report(d)
		}
	}
}
