package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ForwardStepRef reports references to the step itself, a later step, or a
// sibling parallel branch.
var ForwardStepRef = &Analyzer{
	Name:     "forward-step-ref",
	Severity: source.Error,
	Summary:  "a reference names the step itself, a later step or a sibling branch, which has no result yet",
	Doc: `Steps run strictly in file order, and parallel branches see only the results from before
their block. In templates the reference stays in the text unchanged; in conditions and whole-value
stdin the run fails with "Unknown step reference".`,
	Bad:  "- id: report\n  run: echo \"$summary.stdout\"\n- id: summary\n  run: ./summarise.sh",
	Good: "- id: summary\n  run: ./summarise.sh\n- id: report\n  run: echo \"$summary.stdout\"",
	Run:  runForwardStepRef,
}

func runForwardStepRef(p *Pass) {
	for rs, r := range p.Info.StepRefs() {
		res := p.Info.ResolveSite(rs, r.ID)
		var why string
		switch res.Visibility {
		case Self:
			why = fmt.Sprintf("%q refers to its own step, which has no result while it runs", ast.RefText(r))
		case Later:
			why = fmt.Sprintf("%q runs later, so %q has no value yet", r.ID, ast.RefText(r))
		case SiblingBranch:
			why = fmt.Sprintf("%q is another branch of the same parallel step; branches see only results from before the block", r.ID)
		default:
			continue
		}
		if rs.Context.Strict() {
			why += "; the run fails with \"Unknown step reference\""
		} else {
			why += " (the text is passed on unchanged)"
		}
		d := p.Finding(r.IDSpan, "%s", why)
		if res.Target != nil && res.Target.Step.ID != nil {
			d.Related = []source.Related{p.Related(ast.SpanOf(res.Target.Step.ID.Value), "the step is defined here")}
		}
		p.Report(d)
	}
}
