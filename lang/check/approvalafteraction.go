package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ApprovalAfterAction reports an approval on a step that also runs something.
var ApprovalAfterAction = &Analyzer{
	Name:     "approval-after-action",
	Severity: source.Warning,
	Summary:  "an approval is on a step that also runs a command, which runs before the approval is asked",
	Doc: `A gate on a step that has ` + "`run`" + `, ` + "`command`" + `, ` + "`pipeline`" + `, ` + "`workflow`" + ` or ` + "`parallel`" + ` fires
**after** the step has run and succeeded:
` + "`{run: ./deploy.sh, approval: \"Deploy?\"}`" + ` deploys first and asks afterwards. Put the gate in its own step before the
action; no ` + "`when`" + ` is needed after it, because a rejection stops the run.

When the command only shows what is being approved (it only prints, reads or reformats: ` + "`echo`" + `,
` + "`printf`" + `, ` + "`cat`" + `, ` + "`jq`" + `, ` + "`head`" + `…, with no redirection to a file; or a pipeline whose stages only
compute, read or ask a model, such as ` + "`llm.invoke`" + `, ` + "`pick`" + `, ` + "`template`" + `), the combined form is the way to give the approver a
preview, and the finding is info. The same holds for a command that visibly builds the approval
request itself (a JSON ` + "`prompt`" + ` or ` + "`requiresApproval`" + ` in the step's output becomes the
request): one that mentions ` + "`requiresApproval`" + `, or has a word such as ` + "`approve`" + `, ` + "`preview`" + `,
` + "`plan`" + `, ` + "`--prompt`" + ` or ` + "`--dry-run`" + `.`,
	Bad: `- id: deploy
  run: ./deploy.sh
  approval: "Deploy to production?"`,
	Good: `- id: confirm_deploy
  approval: "Deploy to production?"
  stdin: $plan.json
- id: deploy
  run: ./deploy.sh`,
	Run: runApprovalAfterAction,
}

func runApprovalAfterAction(p *Pass) {
	for _, si := range p.Info.Steps {
		if !gateStep(si) || !si.HasGate() {
			continue
		}
		s := si.Step
		f := executes(s)
		if f == nil {
			continue
		}
		var what string
		switch v := f.Value.(type) {
		case *ast.Shell:
			what = fmt.Sprintf("%q has", gateTextLabel(v.Scalar.Text))
		case *ast.Pipeline:
			what = fmt.Sprintf("the pipeline %q has", gateTextLabel(v.Scalar.Text))
		case *ast.Template:
			what = fmt.Sprintf("the workflow %q has", gateTextLabel(v.Scalar.Text))
		default:
			what = "the parallel branches have"
		}
		name := fmt.Sprintf("%q", si.ID)
		if si.ID == "" {
			name = "this step"
		}
		var d source.Diagnostic
		switch {
		case gateReadOnlyExec(p.Info.Commands, f):
			d = p.Finding(s.Approval.Key.Span, "the approval on %s is asked after %s run; this is fine when the command only shows what is being approved", name, what)
			d.Severity = source.Info
		case gatePreparesRequest(f):
			d = p.Finding(s.Approval.Key.Span, "the approval on %s is asked after %s run; this is fine when the command only prepares the approval request (its JSON \"prompt\" or \"requiresApproval\" becomes the request)", name, what)
			d.Severity = source.Info
		default:
			d = p.Finding(s.Approval.Key.Span, "the approval on %s is asked after %s already run; put the gate in its own step before the action", name, what)
		}
		d.Related = []source.Related{p.Related(f.Key.Span, "this runs first")}
		p.Report(d)
	}
}
